"""The zh explain pages under 'prescale_gradients' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'prescale_gradients': '\x1b[1mprescale_gradients\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n\n  在 all-reduce 之前（而不是之后）把梯度除以数据并行 rank 数。这样可以防止 rank 非常多时 fp16 求和上\n  溢，但较小的梯度有下溢的风险；gradient_predivide_factor 是更细粒度的替代方案。它只在\n  gradient_allreduce_op 为 mean 时生效；在 ZeRO stage 2 和 3 下，只要 zero_optimization.reduce_scatter\n  处于开启状态（默认开启），它就必须保持 false。\n\n  \x1b[2m相关配置项\x1b[0m         fp16, gradient_predivide_factor, gradient_allreduce_op, zero_optimization.reduce_scatter\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/prescale_gradients/#prescale_gradients\n',
}
