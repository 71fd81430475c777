"""The en explain pages under 'vocabulary_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'vocabulary_size': "\x1b[1mvocabulary_size\x1b[0m\n  \x1b[2mtype\x1b[0m           int | null\n  \x1b[2mdefault\x1b[0m        null\n\n  Your model's vocabulary size, used only for a start-up check: DeepSpeed logs a warning when it is\n  not a multiple of 8, since sizes padded that way use tensor cores more efficiently. It changes\n  nothing else; null skips the check.\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/vocabulary_size/#vocabulary_size\n",
}
