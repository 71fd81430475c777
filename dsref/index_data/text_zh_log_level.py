"""The zh explain pages under 'log_level' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'log_level': '\x1b[1mlog_level\x1b[0m\n  \x1b[2m类型\x1b[0m               enum | null\n  \x1b[2m默认值\x1b[0m             null\n  \x1b[2m可选值\x1b[0m             "debug", "info", "warning", "error", "critical"\n  \x1b[2m引入版本\x1b[0m           0.19.3\n\n  DeepSpeed 自身 logger 及其 handler 的日志级别，在 engine 启动时设置。否则该 logger 保持 warning 级\n  别，这会隐藏 info 级别的输出，例如 steps_per_print 的进度日志和 dump_state 的内容；设为 info 可以看\n  到它们，设为 error 或 critical 则让 DeepSpeed 更安静。这一改动作用于整个进程，并且在 engine 销毁后依\n  然有效；为 null 时保持当前级别不变。\n\n  \x1b[2m示例\x1b[0m\n    {"log_level": "warning"}\n\n  \x1b[2m相关配置项\x1b[0m         steps_per_print, dump_state\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/log_level/#log_level\n',
}
