"""The zh explain pages under 'sequence_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'sequence_parallel_size': '\x1b[1msequence_parallel_size\x1b[0m\n  \x1b[2m类型\x1b[0m               int\n  \x1b[2m默认值\x1b[0m             1\n                     未设置时，world size 不做除法，等同于 1。\n  \x1b[2m取值范围\x1b[0m           ≥ 1\n  \x1b[2m单位\x1b[0m               rank 数（GPU 数）\n  \x1b[2m引入版本\x1b[0m           0.15.0\n\n  每个 Ulysses 序列并行组的 rank 数，在配置中声明，而不是通过 mpu 对象给出。既没有 mpu 也没有 device\n  mesh 时，DeepSpeed 用 world size 除以它，得到 batch 大小计算所用的数据并行大小；与\n  data_parallel_size 一起设置时，deepspeed.initialize 会构建数据 x 序列的 device mesh。单独设置它不会\n  创建序列并行组；序列并行组来自上述 mesh 或 mpu。\n\n  \x1b[2m相关配置项\x1b[0m         data_parallel_size\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/sequence_parallel_size/#sequence_parallel_size\n',
}
