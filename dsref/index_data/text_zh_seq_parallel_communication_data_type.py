"""The zh explain pages under 'seq_parallel_communication_data_type' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'seq_parallel_communication_data_type': '\x1b[1mseq_parallel_communication_data_type\x1b[0m\n  \x1b[2m类型\x1b[0m               enum | null\n  \x1b[2m默认值\x1b[0m             "fp32"\n  \x1b[2m可选值\x1b[0m             "fp16", "bf16", "fp32"\n                     \x1b[36m"fp16"\x1b[0m  IEEE 半精度。\n                     \x1b[36m"bf16"\x1b[0m  bfloat16。\n                     \x1b[36m"fp32"\x1b[0m  单精度：规约结果最精确，通信量是 16 位类型的两倍。\n  \x1b[2m引入版本\x1b[0m           0.11.2\n\n  启用 Ulysses 序列并行（序列并行组包含不止一个 rank）时梯度规约所用的数据类型；此时它取代\n  communication_data_type。默认值 fp32 让跨数据并行和序列并行全部 rank 的规约保持较高精度，通信量是\n  bf16 的两倍；为 null 时回退为训练精度。\n\n  \x1b[2m相关配置项\x1b[0m         communication_data_type, bf16\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/seq_parallel_communication_data_type/#seq_parallel_communication_data_type\n',
}
