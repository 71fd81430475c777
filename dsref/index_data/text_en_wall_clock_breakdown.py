"""The en explain pages under 'wall_clock_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'wall_clock_breakdown': '\x1b[1mwall_clock_breakdown\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n\n  Measures the forward pass, backward pass and optimizer step (with sub-phases such as gradient\n  reduction) and prints the times on rank 0 after each step, independent of log_level. The timers wait\n  for the device to finish, which slows training, so keep it off outside profiling runs;\n  engine.get_wall_clock_timers() returns the latest values. flops_profiler.enabled turns it on as\n  well.\n\n  \x1b[2mrelated\x1b[0m        optimizer, log_level, timers, flops_profiler.enabled\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/wall_clock_breakdown/#wall_clock_breakdown\n',
}
