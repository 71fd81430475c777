"""The en explain pages under 'data_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'data_parallel_size': '\x1b[1mdata_parallel_size\x1b[0m\n  \x1b[2mtype\x1b[0m           int | null\n  \x1b[2mdefault\x1b[0m        null\n                 When absent, no device mesh is built and the data-parallel size comes from the world size.\n  \x1b[2mrange\x1b[0m          ≥ 1\n  \x1b[2munit\x1b[0m           ranks (GPUs)\n  \x1b[2msince\x1b[0m          0.15.0\n\n  Number of data-parallel replicas, used only together with sequence_parallel_size. With both keys\n  deepspeed.initialize builds a two-dimensional data x sequence device mesh, whose product must equal\n  the world size, and takes the data-parallel group and the batch arithmetic from it. It is ignored on\n  its own and when a mesh_param argument is passed to deepspeed.initialize.\n\n  \x1b[2mrelated\x1b[0m        sequence_parallel_size\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/data_parallel_size/#data_parallel_size\n',
}
