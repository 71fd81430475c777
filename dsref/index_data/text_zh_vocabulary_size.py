"""The zh explain pages under 'vocabulary_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'vocabulary_size': '\x1b[1mvocabulary_size\x1b[0m\n  \x1b[2m类型\x1b[0m               int | null\n  \x1b[2m默认值\x1b[0m             null\n\n  模型的词表大小，只用于启动时的一项检查：如果它不是 8 的倍数，DeepSpeed 会记录一条警告，因为按 8 对齐\n  的大小能更高效地利用 tensor core。它不影响其他任何行为；为 null 时跳过该检查。\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/vocabulary_size/#vocabulary_size\n',
}
