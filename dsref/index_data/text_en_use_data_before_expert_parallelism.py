"""The en explain pages under 'use_data_before_expert_parallelism' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'use_data_before_expert_parallelism': '\x1b[1muse_data_before_expert_parallelism\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.12.4\n\n  Orders MoE process groups data-parallel first instead of expert-parallel first. By default\n  consecutive ranks form an expert-parallel group, so the token all-to-all stays among neighbouring\n  (often same-node) ranks, and the replicas of each expert are strided; true swaps this, so\n  consecutive ranks hold replicas of the same experts. It is not supported with model or tensor\n  parallelism (mp size > 1) or with AutoEP+AutoTP folding; leave it false unless you need the other\n  layout.\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/use_data_before_expert_parallelism/#use_data_before_expert_parallelism\n',
}
