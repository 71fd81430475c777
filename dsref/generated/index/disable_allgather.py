"""The records under 'disable_allgather' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('disable_allgather', 'disable_allgather', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, True, None, False, None, False, None, [], None, None, [], [], 'Has no effect: DeepSpeed 0.19.8 reads the key into its config object but nothing uses it, so it can be deleted.', False, 'Has no effect: DeepSpeed 0.19.8 reads the key into its config object but nothing uses it, so it can be deleted.'),
)
