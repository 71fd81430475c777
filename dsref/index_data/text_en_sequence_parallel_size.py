"""The en explain pages under 'sequence_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'sequence_parallel_size': '\x1b[1msequence_parallel_size\x1b[0m\n  \x1b[2mtype\x1b[0m           int\n  \x1b[2mdefault\x1b[0m        1\n                 When absent, the world size is not divided, which is the same as 1.\n  \x1b[2mrange\x1b[0m          ≥ 1\n  \x1b[2munit\x1b[0m           ranks (GPUs)\n  \x1b[2msince\x1b[0m          0.15.0\n\n  Number of ranks in each Ulysses sequence-parallel group, declared in the config rather than through\n  an mpu object. When neither an mpu nor a device mesh is given, DeepSpeed divides the world size by\n  it to get the data-parallel size for the batch arithmetic, and together with data_parallel_size it\n  makes deepspeed.initialize build a data x sequence device mesh. On its own it creates no\n  sequence-parallel groups; those come from that mesh or from an mpu.\n\n  \x1b[2mrelated\x1b[0m        data_parallel_size\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/sequence_parallel_size/#sequence_parallel_size\n',
}
