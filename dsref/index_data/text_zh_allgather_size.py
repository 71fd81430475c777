"""The zh explain pages under 'allgather_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'allgather_size': '\x1b[1mallgather_size\x1b[0m\n  \x1b[2m类型\x1b[0m               int\n  \x1b[2m默认值\x1b[0m             500000000 (5亿)\n  \x1b[2m取值范围\x1b[0m           ≥ 0\n  \x1b[2m单位\x1b[0m               元素个数（张量元素的数量，不是字节）\n  \x1b[2m已弃用\x1b[0m             \x1b[33m仍可使用，但请改用 zero_optimization.allgather_bucket_size\x1b[0m\n\n  已弃用的顶层 all-gather bucket 大小，单位为元素个数。DeepSpeed 只在 `zero_optimization` 写成 true 时\n  读取它，并把它用作 `zero_optimization.allgather_bucket_size`；`zero_optimization` 写成对象时会忽略\n  它。\n\n  \x1b[2m相关配置项\x1b[0m         zero_optimization.allgather_bucket_size, zero_optimization\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/allgather_size/#allgather_size\n',
}
