"""The records under 'vocabulary_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('vocabulary_size', 'vocabulary_size', None, 'leaf', None, None, True, 'int | null', None, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, False, None, False, 32000, True, {'train_micro_batch_size_per_gpu': 1, 'vocabulary_size': 32000}, [], None, None, [], [], "Your model's vocabulary size, used only for a start-up check: DeepSpeed logs a warning when it is not a multiple of 8, since sizes padded that way use tensor cores more efficiently.", False, "Your model's vocabulary size, used only for a start-up check: DeepSpeed logs a warning when it is not a multiple of 8, since sizes padded that way use tensor cores more efficiently. It changes nothing else; null skips the check."),
)
