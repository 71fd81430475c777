"""The zh explain pages under 'gradient_allreduce_op' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_allreduce_op': '\x1b[1mgradient_allreduce_op\x1b[0m\n  \x1b[2m类型\x1b[0m               enum\n  \x1b[2m默认值\x1b[0m             "mean"\n  \x1b[2m可选值\x1b[0m             "mean", "sum"\n                     \x1b[36m"mean"\x1b[0m  在各数据并行 rank 间对梯度取平均（通常的做法）。\n                     \x1b[36m"sum"\x1b[0m  直接把梯度相加，不除以 rank 数。\n  \x1b[2m引入版本\x1b[0m           0.19.6\n\n  数据并行梯度规约如何合并各 rank 的梯度：mean 取平均（通常的做法），sum 直接求和。只有当损失已经按整\n  个全局 batch 归一化时（例如除以所有 rank 上的 token 总数）才选 sum，因为此时 DeepSpeed 完全不做除\n  法，并忽略 prescale_gradients 和 gradient_predivide_factor。ZeRO stage 3、ZenFlow 和 DeepCompile 不\n  接受 sum。\n\n  \x1b[2m相关配置项\x1b[0m         prescale_gradients, gradient_predivide_factor\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/gradient_allreduce_op/#gradient_allreduce_op\n',
}
