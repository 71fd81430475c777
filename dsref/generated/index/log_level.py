"""The records under 'log_level' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('log_level', 'log_level', None, 'leaf', None, None, True, 'enum | null', None, True, ['debug', 'info', 'warning', 'error', 'critical'], {}, None, None, [], [], False, None, '0.19.3', None, False, None, None, False, None, None, [], False, False, None, False, 'warning', True, {'train_micro_batch_size_per_gpu': 1, 'log_level': 'warning'}, [], None, None, [], ['steps_per_print', 'dump_state'], "Level of DeepSpeed's own logger and its handlers, set when the engine starts.", False, "Level of DeepSpeed's own logger and its handlers, set when the engine starts. The logger otherwise stays at warning, which hides info-level output such as the steps_per_print progress line and dump_state; info shows them, error or critical quiets DeepSpeed further. The change is process-wide and outlasts the engine; null leaves the current level alone."),
)
