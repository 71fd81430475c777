"""The records under 'sequence_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('sequence_parallel_size', 'sequence_parallel_size', None, 'leaf', None, None, False, 'int', 1, True, None, {'ge': 1}, 'ranks', None, [], [], False, None, '0.15.0', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'sequence_parallel_size': 1}, [], 'When absent, the world size is not divided, which is the same as 1.', None, [], ['data_parallel_size'], 'Number of ranks in each Ulysses sequence-parallel group, declared in the config rather than through an mpu object.', False, 'Number of ranks in each Ulysses sequence-parallel group, declared in the config rather than through an mpu object. When neither an mpu nor a device mesh is given, DeepSpeed divides the world size by it to get the data-parallel size for the batch arithmetic, and together with data_parallel_size it makes deepspeed.initialize build a data x sequence device mesh. On its own it creates no sequence-parallel groups; those come from that mesh or from an mpu.'),
)
