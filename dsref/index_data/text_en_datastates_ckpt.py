"""The en explain pages under 'datastates_ckpt' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'datastates_ckpt': '\x1b[1mdatastates_ckpt\x1b[0m\n  \x1b[2mtype\x1b[0m           section | bool | null\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.18.1\n  \x1b[2munknown keys\x1b[0m   passed on unchecked\n\n  Settings of the DataStates-LLM asynchronous checkpoint engine (an external package, `datastates`).\n  DeepSpeed does not read any key itself: it hands a copy of the value to the DataStates engine. Any\n  value other than `false` (even `{}` or `null`) selects that engine, unless `checkpoint.writer` is\n  set; if the package is missing, DeepSpeed logs an error and falls back to `torch.save`.\n\n  \x1b[2mrelated\x1b[0m        checkpoint, checkpoint.writer\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/datastates_ckpt/#datastates_ckpt\n',
}
