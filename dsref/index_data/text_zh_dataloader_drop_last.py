"""The zh explain pages under 'dataloader_drop_last' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'dataloader_drop_last': '\x1b[1mdataloader_drop_last\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.5.2\n\n  丢弃 DeepSpeed 自己构建的 data loader（deepspeed.initialize 根据 training_data 构建的，或通过\n  engine.deepspeed_io 构建的）中最后一个不完整的 batch。需要每个 micro batch 都恰好包含\n  train_micro_batch_size_per_gpu 个样本时（例如要求张量形状固定），请开启它；你自己构建的 data loader\n  不受影响。\n\n  \x1b[2m相关配置项\x1b[0m         train_micro_batch_size_per_gpu\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/dataloader_drop_last/#dataloader_drop_last\n',
}
