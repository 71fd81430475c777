"""The records under 'dataloader_drop_last' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('dataloader_drop_last', 'dataloader_drop_last', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, '0.5.2', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'dataloader_drop_last': True}, [], None, None, [], ['train_micro_batch_size_per_gpu'], 'Drops the final incomplete batch in the data loaders that DeepSpeed builds itself (from training_data in deepspeed.initialize, or through engine.deepspeed_io).', False, 'Drops the final incomplete batch in the data loaders that DeepSpeed builds itself (from training_data in deepspeed.initialize, or through engine.deepspeed_io). Turn it on when every micro batch must hold exactly train_micro_batch_size_per_gpu samples, e.g. for fixed tensor shapes; data loaders you build yourself are not affected.'),
)
