"""The en explain pages under 'prescale_gradients' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'prescale_gradients': '\x1b[1mprescale_gradients\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n\n  Divides the gradients by the number of data-parallel ranks before the all-reduce instead of after\n  it. This keeps fp16 sums over very many ranks from overflowing, at the risk of small gradients\n  underflowing; gradient_predivide_factor is a finer-grained alternative. It only applies when\n  gradient_allreduce_op is mean, and must stay false at ZeRO stages 2 and 3 while\n  zero_optimization.reduce_scatter is on (the default).\n\n  \x1b[2mrelated\x1b[0m        fp16, gradient_predivide_factor, gradient_allreduce_op, zero_optimization.reduce_scatter\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/prescale_gradients/#prescale_gradients\n',
}
