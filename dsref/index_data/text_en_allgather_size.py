"""The en explain pages under 'allgather_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'allgather_size': '\x1b[1mallgather_size\x1b[0m\n  \x1b[2mtype\x1b[0m           int\n  \x1b[2mdefault\x1b[0m        500000000 (500M)\n  \x1b[2mrange\x1b[0m          ≥ 0\n  \x1b[2munit\x1b[0m           elements (a count of tensor elements, not bytes)\n  \x1b[2mdeprecated\x1b[0m     \x1b[33mstill accepted; use zero_optimization.allgather_bucket_size instead\x1b[0m\n\n  Deprecated top-level all-gather bucket size, in elements. DeepSpeed reads it only when\n  `zero_optimization` is written as true, and then uses it as\n  `zero_optimization.allgather_bucket_size`; with a `zero_optimization` object it is ignored.\n\n  \x1b[2mrelated\x1b[0m        zero_optimization.allgather_bucket_size, zero_optimization\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/allgather_size/#allgather_size\n',
}
