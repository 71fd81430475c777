"""The zh explain pages under 'train_micro_batch_size_per_gpu' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'train_micro_batch_size_per_gpu': '\x1b[1mtrain_micro_batch_size_per_gpu\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n                     未设置时，DeepSpeed 按 train_batch_size // 数据并行 world size // gradient_accumulation_steps（若它也未设置则取 1）计算；它与 train_batch_size 至少要设置一个。\n  \x1b[2m文档写的是\x1b[0m         "train_batch_size value"  (DeepSpeed 官方文档这样写；代码实际采用上面的默认值)\n  \x1b[2m单位\x1b[0m               样本数\n  \x1b[2mHF "auto"\x1b[0m          支持，由 transformers, accelerate 填充：TrainingArguments.per_device_train_batch_size（transformers）；dataloader 的 batch size（accelerate）\n\n  每个数据并行 rank 在一次前向和反向传播中处理的样本数，即一个 micro batch 的大小。它是调节显存占用的\n  主要手段，因为激活显存大致与它成正比：单步放不进设备显存时，调小它并调大\n  gradient_accumulation_steps，使 train_batch_size 保持不变。它同时也是 deepspeed.initialize 根据\n  training_data 构建的 data loader 的 batch 大小；在流水线并行下，它是流经各个 stage 的每个 micro\n  batch 的大小。\n\n  \x1b[2m示例\x1b[0m\n    {"train_micro_batch_size_per_gpu": 4}\n\n  \x1b[2m相关配置项\x1b[0m         gradient_accumulation_steps, train_batch_size, pipeline\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/train_micro_batch_size_per_gpu/#train_micro_batch_size_per_gpu\n',
}
