"""The zh explain pages under 'disable_python_gc' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'disable_python_gc': '\x1b[1mdisable_python_gc\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             false\n  \x1b[2m引入版本\x1b[0m           0.19.8\n\n  在 engine 存续期间关闭 Python 自动的循环垃圾回收器，关闭前先在启动时做一次完整回收。这可以避免不可预\n  期的回收停顿拖住某个 rank、让其他 rank 在集合通信中等待；请自行在安全的时机调用\n  engine.collect_python_gc()（例如每隔几百个 step），使循环引用占用的内存仍能释放。最后一个开启此项的\n  engine 被销毁时，自动回收会重新打开。\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/disable_python_gc/#disable_python_gc\n',
}
