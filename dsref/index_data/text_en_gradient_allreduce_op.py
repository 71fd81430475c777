"""The en explain pages under 'gradient_allreduce_op' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_allreduce_op': '\x1b[1mgradient_allreduce_op\x1b[0m\n  \x1b[2mtype\x1b[0m           enum\n  \x1b[2mdefault\x1b[0m        "mean"\n  \x1b[2mallowed\x1b[0m        "mean", "sum"\n                 \x1b[36m"mean"\x1b[0m  Average gradients over the data-parallel ranks (the usual behaviour).\n                 \x1b[36m"sum"\x1b[0m  Add gradients without dividing by the number of ranks.\n  \x1b[2msince\x1b[0m          0.19.6\n\n  How the data-parallel gradient reduction combines the ranks\' gradients: mean averages them (the\n  usual), sum adds them up. Choose sum only when your loss is already normalised over the whole global\n  batch (for example divided by the total token count across all ranks), because DeepSpeed then does\n  no division at all and ignores prescale_gradients and gradient_predivide_factor. sum is rejected\n  with ZeRO stage 3, ZenFlow and DeepCompile.\n\n  \x1b[2mrelated\x1b[0m        prescale_gradients, gradient_predivide_factor\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/gradient_allreduce_op/#gradient_allreduce_op\n',
}
