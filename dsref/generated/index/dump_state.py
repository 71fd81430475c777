"""The records under 'dump_state' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('dump_state', 'dump_state', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'dump_state': True}, [], None, None, [], ['log_level'], 'Logs every attribute of the DeepSpeed engine on rank 0 once initialisation is done, to inspect the settings it actually resolved.', False, "Logs every attribute of the DeepSpeed engine on rank 0 once initialisation is done, to inspect the settings it actually resolved. The lines go to DeepSpeed's logger at info level, so they only appear with log_level info or debug."),
)
