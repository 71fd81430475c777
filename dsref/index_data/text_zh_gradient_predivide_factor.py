"""The zh explain pages under 'gradient_predivide_factor' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_predivide_factor': '\x1b[1mgradient_predivide_factor\x1b[0m\n  \x1b[2m类型\x1b[0m               float\n  \x1b[2m默认值\x1b[0m             1.0\n  \x1b[2m取值范围\x1b[0m           > 0\n  \x1b[2m引入版本\x1b[0m           0.2.0\n\n  把求平均的除法拆到 all-reduce 前后两次完成：之前把梯度除以该因子，之后再除以（数据并行大小 / 该因\n  子）。取 1 到 rank 数之间的因子（例如 rank 数的平方根），既能防止较大的 fp16 求和上溢，又不会让较小\n  的值下溢。它只在 prescale_gradients 为 false 且 gradient_allreduce_op 为 mean 时使用；在 ZeRO stage\n  2 和 3 下，只要 zero_optimization.reduce_scatter 处于开启状态（默认开启），它就必须保持 1.0。\n\n  \x1b[2m相关配置项\x1b[0m         fp16, prescale_gradients, gradient_allreduce_op, zero_optimization.reduce_scatter\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/gradient_predivide_factor/#gradient_predivide_factor\n',
}
