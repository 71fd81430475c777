"""The en explain pages under 'gradient_predivide_factor' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_predivide_factor': '\x1b[1mgradient_predivide_factor\x1b[0m\n  \x1b[2mtype\x1b[0m           float\n  \x1b[2mdefault\x1b[0m        1.0\n  \x1b[2mrange\x1b[0m          > 0\n  \x1b[2msince\x1b[0m          0.2.0\n\n  Splits the averaging division around the all-reduce: gradients are divided by this factor before it\n  and by (data-parallel size / factor) after it. A factor between 1 and the number of ranks, such as\n  its square root, keeps large fp16 sums from overflowing without making small values underflow. It is\n  used only when prescale_gradients is false and gradient_allreduce_op is mean, and must stay 1.0 at\n  ZeRO stages 2 and 3 while zero_optimization.reduce_scatter is on (the default).\n\n  \x1b[2mrelated\x1b[0m        fp16, prescale_gradients, gradient_allreduce_op, zero_optimization.reduce_scatter\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/gradient_predivide_factor/#gradient_predivide_factor\n',
}
