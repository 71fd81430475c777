"""The zh explain pages under 'data_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'data_parallel_size': '\x1b[1mdata_parallel_size\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n                     未设置时，不构建 device mesh，数据并行大小由 world size 得出。\n  \x1b[2m取值范围\x1b[0m           ≥ 1\n  \x1b[2m单位\x1b[0m               rank 数（GPU 数）\n  \x1b[2m引入版本\x1b[0m           0.15.0\n\n  数据并行副本数，只与 sequence_parallel_size 一起使用。两个键都设置时，deepspeed.initialize 会构建二\n  维的数据 x 序列 device mesh（两者的乘积必须等于 world size），并从中取得数据并行组和 batch 大小计算\n  所用的数据并行大小。单独设置它，或向 deepspeed.initialize 传入 mesh_param 参数时，它会被忽略。\n\n  \x1b[2m相关配置项\x1b[0m         sequence_parallel_size\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/data_parallel_size/#data_parallel_size\n',
}
