"""The zh explain pages under 'datastates_ckpt' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'datastates_ckpt': '\x1b[1mdatastates_ckpt\x1b[0m\n  \x1b[2m类型\x1b[0m               section | bool | null\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.18.1\n  \x1b[2m未知的键\x1b[0m           原样传递，不做检查\n\n  DataStates-LLM 异步 checkpoint engine（外部包 `datastates`）的设置。DeepSpeed 自身不读取其中任何键，\n  而是把该值的一份副本交给 DataStates engine。除 `false` 以外的任何值（即使是 `{}` 或 `null`）都会选用\n  该 engine，除非设置了 `checkpoint.writer`；如果没有安装该包，DeepSpeed 会记录一条错误并回退到\n  `torch.save`。\n\n  \x1b[2m相关配置项\x1b[0m         checkpoint, checkpoint.writer\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/datastates_ckpt/#datastates_ckpt\n',
}
