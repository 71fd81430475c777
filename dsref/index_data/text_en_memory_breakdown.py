"""The en explain pages under 'memory_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'memory_breakdown': "\x1b[1mmemory_breakdown\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.2.0\n\n  Prints device memory (allocated, peak, reserved) and host memory use on rank 0 before and after each\n  forward, backward and optimizer step, to find where memory goes. Each report runs Python's garbage\n  collector and resets the peak counters, so it slows training; the output is printed directly,\n  whatever log_level says.\n\n  \x1b[2mrelated\x1b[0m        optimizer, log_level\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/memory_breakdown/#memory_breakdown\n",
}
