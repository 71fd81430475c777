"""The zh explain pages under 'communication_data_type' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'communication_data_type': '\x1b[1mcommunication_data_type\x1b[0m\n  \x1b[2m类型\x1b[0m               enum | null\n  \x1b[2m默认值\x1b[0m             null\n                     为 null 时，梯度按训练精度通信：启用 fp16 时用 fp16，否则启用 bf16 时用 bf16，否则用 fp32。\n  \x1b[2m可选值\x1b[0m             "fp16", "bf16", "fp32"\n                     \x1b[36m"fp16"\x1b[0m  IEEE 半精度。\n                     \x1b[36m"bf16"\x1b[0m  bfloat16。\n                     \x1b[36m"fp32"\x1b[0m  单精度：规约结果最精确，通信量是 16 位类型的两倍。\n  \x1b[2m引入版本\x1b[0m           0.5.8\n\n  数据并行 rank 之间规约梯度前，把梯度转换成的数据类型；null 时使用训练精度。以 fp16 或 bf16 训练时选\n  fp32，可以在 rank 很多时得到更精确的求和结果，代价是通信量翻倍；以 fp32 训练时选 fp16 或 bf16，通信\n  量减半，但会损失一些精度。启用 Ulysses 序列并行时，由 seq_parallel_communication_data_type 取代它；\n  开启 torch_autocast 时，ZeRO 优化器改为按每个参数各自的类型通信。\n\n  \x1b[2m示例\x1b[0m\n    {"communication_data_type": "fp32"}\n\n  \x1b[2m相关配置项\x1b[0m         fp16, bf16, seq_parallel_communication_data_type, torch_autocast\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/communication_data_type/#communication_data_type\n',
}
