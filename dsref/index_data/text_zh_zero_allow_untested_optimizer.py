"""The zh explain pages under 'zero_allow_untested_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'zero_allow_untested_optimizer': '\x1b[1mzero_allow_untested_optimizer\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n\n  允许 ZeRO（stage 1 到 3）使用不在其测试列表中的优化器；不开启时 engine 会拒绝启动。经过测试的有：\n  torch 的 Adam、AdamW 和 Adagrad，DeepSpeed 的 fused Adam 和 Lion，其 CPU 版 Adam、Adagrad 和 Lion，\n  以及 Muon；因此 type 为 Lamb、SGD 等 torch 优化器类以及 mup 系列优化器都需要开启此项。检查按精确的类\n  进行，已测试优化器的子类也算未测试；开启后 DeepSpeed 只会记录一条警告。\n\n  \x1b[2m相关配置项\x1b[0m         optimizer\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/zero_allow_untested_optimizer/#zero_allow_untested_optimizer\n',
}
