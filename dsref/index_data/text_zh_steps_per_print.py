"""The zh explain pages under 'steps_per_print' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'steps_per_print': '\x1b[1msteps_per_print\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n  \x1b[2m文档写的是\x1b[0m         10  (DeepSpeed 官方文档这样写；代码实际采用上面的默认值)\n  \x1b[2m取值范围\x1b[0m           > 0\n  \x1b[2m单位\x1b[0m               步\n\n  DeepSpeed 在 rank 0 上输出进度日志（step、跳过的 step 数、学习率、动量）的间隔，以优化器 step 计；它\n  也决定 timers.throughput 报告的输出频率。两者都通过 DeepSpeed 的 logger 以 info 级别输出，而该\n  logger 默认为 warning 级别，所以需要把 log_level 设为 info 才能看到；流水线 engine 的 train_batch()\n  还会按这个间隔直接打印损失、迭代耗时和每秒样本数。设为 null 则关闭这些定期输出。\n\n  \x1b[2m示例\x1b[0m\n    {"steps_per_print": 100}\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, timers.throughput, log_level, pipeline\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/steps_per_print/#steps_per_print\n',
}
