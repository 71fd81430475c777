"""The zh explain pages under 'graph_harvesting' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'graph_harvesting': '\x1b[1mgraph_harvesting\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.12.6\n  \x1b[2m移除版本\x1b[0m           \x1b[33m0.19.8\x1b[0m\n                     bf16 优化器中的 CUDA graph 捕获已被移除，DeepSpeed 现在会拒绝这个键；请将其删除。\n\n  以前用于把 bf16 优化器的 step 捕获为 CUDA graph，以减少 kernel 启动开销。\n\n  \x1b[2m相关配置项\x1b[0m         bf16, optimizer\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/graph_harvesting/#graph_harvesting\n',
}
