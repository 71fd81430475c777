"""The zh explain pages under 'dump_state' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'dump_state': '\x1b[1mdump_state\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n\n  初始化完成后，在 rank 0 上记录 DeepSpeed engine 的所有属性，用于检查它实际解析出的设置。这些内容通过\n  DeepSpeed 的 logger 以 info 级别输出，所以只有 log_level 为 info 或 debug 时才会显示。\n\n  \x1b[2m相关配置项\x1b[0m         log_level\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/dump_state/#dump_state\n',
}
