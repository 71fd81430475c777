"""The zh explain pages under 'train_batch_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'train_batch_size': '\x1b[1mtrain_batch_size\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n                     未设置时，DeepSpeed 按 train_micro_batch_size_per_gpu * gradient_accumulation_steps（若它也未设置则取 1）* 数据并行 world size 计算。\n  \x1b[2m单位\x1b[0m               样本数\n  \x1b[2mHF "auto"\x1b[0m          支持，由 transformers, accelerate 填充：world_size * per_device_train_batch_size * gradient_accumulation_steps（transformers）；micro batch * gradient_accumulation_steps * num_processes（accelerate）\n\n  全局 batch 大小：一次优化器 step 所用的样本数，按所有数据并行 rank 合计。DeepSpeed 要求它等于\n  train_micro_batch_size_per_gpu * gradient_accumulation_steps * 数据并行大小，其中数据并行大小是\n  world size 除以模型并行或序列并行的并行度（取自 mpu、device mesh 或 sequence_parallel_size）。三个\n  batch 相关的键只要给出任意两个，DeepSpeed 就会用整数除法推算出第三个，所以取值要能整除。应先按优化的\n  需要选定它（学习率和调度都是针对它调出来的），再用另外两个键去适配显存。\n\n  \x1b[2m示例\x1b[0m\n    {"train_batch_size": 32}\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, train_micro_batch_size_per_gpu, gradient_accumulation_steps, sequence_parallel_size\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/train_batch_size/#train_batch_size\n',
}
