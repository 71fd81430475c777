"""The zh explain pages under 'gradient_accumulation_steps' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_accumulation_steps': '\x1b[1mgradient_accumulation_steps\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n                     未设置时，若 train_batch_size 与 train_micro_batch_size_per_gpu 都已给出，DeepSpeed 取 train_batch_size // train_micro_batch_size_per_gpu // 数据并行 world size，否则取 1。\n  \x1b[2m文档写的是\x1b[0m         1  (DeepSpeed 官方文档这样写；代码实际采用上面的默认值)\n  \x1b[2m单位\x1b[0m               步\n  \x1b[2mHF "auto"\x1b[0m          支持，由 transformers, accelerate 填充：TrainingArguments.gradient_accumulation_steps（transformers）；DeepSpeedPlugin gradient_accumulation_steps，未设置时为 1（accelerate）\n\n  每个 rank 在一次优化器 step 之前要做前向和反向传播的 micro batch 个数。engine.backward() 会把损失除\n  以它，并且只有每第 N 次调用 engine.step() 才会更新权重（参见 managed_gradient_accumulation），因此调\n  大它可以在不增加激活显存的情况下扩大有效 batch，但每次优化器 step 要跑 N 遍。在流水线并行下，它是每\n  次调用 train_batch() 处理的 micro batch 个数，值越大，流水线气泡越小。\n\n  \x1b[2m示例\x1b[0m\n    {"gradient_accumulation_steps": 1}\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, managed_gradient_accumulation, pipeline, train_batch_size, train_micro_batch_size_per_gpu\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/gradient_accumulation_steps/#gradient_accumulation_steps\n',
}
