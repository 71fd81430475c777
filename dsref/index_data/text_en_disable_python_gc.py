"""The en explain pages under 'disable_python_gc' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'disable_python_gc': "\x1b[1mdisable_python_gc\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.19.8\n\n  Turns off Python's automatic cyclic garbage collector while the engine exists, after one full\n  collection at start-up. This avoids unpredictable collection pauses that stall one rank and make the\n  others wait in collectives; call engine.collect_python_gc() at safe points yourself (e.g. every few\n  hundred steps) so memory held in reference cycles is still freed. Automatic collection is switched\n  back on when the last such engine is destroyed.\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/disable_python_gc/#disable_python_gc\n",
}
