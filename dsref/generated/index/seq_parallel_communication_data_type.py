"""The records under 'seq_parallel_communication_data_type' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('seq_parallel_communication_data_type', 'seq_parallel_communication_data_type', None, 'leaf', None, None, True, 'enum | null', 'fp32', True, ['fp16', 'bf16', 'fp32'], {}, None, None, [], [], False, None, '0.11.2', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'seq_parallel_communication_data_type': 'fp32'}, [['fp16', 'IEEE half precision.'], ['bf16', 'bfloat16.'], ['fp32', 'Single precision: the most accurate reduction, twice the traffic of the 16-bit types.']], None, None, [], ['communication_data_type', 'bf16'], 'Data type of the gradient reduction while Ulysses sequence parallelism is active (a sequence-parallel group of more than one rank); it then replaces communication_data_type.', False, 'Data type of the gradient reduction while Ulysses sequence parallelism is active (a sequence-parallel group of more than one rank); it then replaces communication_data_type. The fp32 default keeps the reduction over the combined data- and sequence-parallel ranks accurate at twice the traffic of bf16; null falls back to the training precision.'),
)
