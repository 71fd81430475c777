"""The zh explain pages under 'wall_clock_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'wall_clock_breakdown': '\x1b[1mwall_clock_breakdown\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n\n  统计前向传播、反向传播和优化器 step（以及梯度规约等子阶段）的耗时，并在每个 step 之后于 rank 0 上打\n  印，不受 log_level 影响。计时器需要等待设备执行完成，会拖慢训练，因此除性能分析外请保持关闭；\n  engine.get_wall_clock_timers() 可以返回最近一次的数值。开启 flops_profiler.enabled 也会同时打开此\n  项。\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, log_level, timers, flops_profiler.enabled\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/wall_clock_breakdown/#wall_clock_breakdown\n',
}
