"""The records under 'datastates_ckpt' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('datastates_ckpt', 'datastates_ckpt', None, 'section', None, None, True, 'section | bool | null', False, True, None, {}, None, None, [], [], False, None, '0.18.1', None, False, None, None, False, None, None, [], False, False, 'passthrough', False, None, False, None, [], None, None, [], ['checkpoint', 'checkpoint.writer'], 'Selects the DataStates asynchronous checkpoint engine: its mere presence enables it unless the value is literally false.', True, 'Settings of the DataStates-LLM asynchronous checkpoint engine (an external package, `datastates`).\n\nDeepSpeed does not read any key itself: it hands a copy of the value to the DataStates engine. Any value\nother than `false` (even `{}` or `null`) selects that engine, unless `checkpoint.writer` is set; if\nthe package is missing, DeepSpeed logs an error and falls back to `torch.save`.'),
)
