"""The zh explain pages under 'disable_allgather' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'disable_allgather': '\x1b[1mdisable_allgather\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n                     DeepSpeed 会读取这个键，但没有任何代码使用它的值\n\n  没有任何作用：DeepSpeed 0.19.8 会把该键读入配置对象，但没有任何地方使用它，可以删除。\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/disable_allgather/#disable_allgather\n',
}
