"""The records under 'data_parallel_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('data_parallel_size', 'data_parallel_size', None, 'leaf', None, None, True, 'int | null', None, True, None, {'ge': 1}, 'ranks', None, [], [], False, None, '0.15.0', None, False, None, None, False, None, None, [], False, False, None, False, 4, True, {'train_micro_batch_size_per_gpu': 1, 'sequence_parallel_size': 2, 'data_parallel_size': 4}, [], 'When absent, no device mesh is built and the data-parallel size comes from the world size.', None, [], ['sequence_parallel_size'], 'Number of data-parallel replicas, used only together with sequence_parallel_size.', False, 'Number of data-parallel replicas, used only together with sequence_parallel_size. With both keys deepspeed.initialize builds a two-dimensional data x sequence device mesh, whose product must equal the world size, and takes the data-parallel group and the batch arithmetic from it. It is ignored on its own and when a mesh_param argument is passed to deepspeed.initialize.'),
)
