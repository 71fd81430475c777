"""The zh explain pages under 'sparse_gradients' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'sparse_gradients': '\x1b[1msparse_gradients\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m移除版本\x1b[0m           \x1b[33m0.19.8\x1b[0m\n                     DeepSpeed 不再压缩稠密 embedding 的梯度，并且拒绝此键；请删除它（以 sparse=True 创建的 embedding 无需任何设置，仍会使用稀疏规约）。\n\n  过去用于把 torch.nn.Embedding 层的梯度当作稀疏张量进行规约。\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/sparse_gradients/#sparse_gradients\n',
}
