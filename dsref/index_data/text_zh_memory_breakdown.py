"""The zh explain pages under 'memory_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'memory_breakdown': '\x1b[1mmemory_breakdown\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.2.0\n\n  在每次前向传播、反向传播和优化器 step 前后，于 rank 0 上打印设备显存（已分配、峰值、已预留）和主机内\n  存的使用情况，用于排查内存都花在了哪里。每次报告都会运行 Python 垃圾回收并重置峰值计数器，因此会拖慢\n  训练；输出直接打印，不受 log_level 影响。\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, log_level\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/memory_breakdown/#memory_breakdown\n',
}
