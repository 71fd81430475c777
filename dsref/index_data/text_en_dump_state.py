"""The en explain pages under 'dump_state' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'dump_state': "\x1b[1mdump_state\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n\n  Logs every attribute of the DeepSpeed engine on rank 0 once initialisation is done, to inspect the\n  settings it actually resolved. The lines go to DeepSpeed's logger at info level, so they only appear\n  with log_level info or debug.\n\n  \x1b[2mrelated\x1b[0m        log_level\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/dump_state/#dump_state\n",
}
