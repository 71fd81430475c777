"""The en explain pages under 'disable_allgather' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'disable_allgather': '\x1b[1mdisable_allgather\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n                 DeepSpeed reads this key, but nothing uses its value\n\n  Has no effect: DeepSpeed 0.19.8 reads the key into its config object but nothing uses it, so it can\n  be deleted.\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/disable_allgather/#disable_allgather\n',
}
