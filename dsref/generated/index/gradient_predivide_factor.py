"""The records under 'gradient_predivide_factor' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('gradient_predivide_factor', 'gradient_predivide_factor', None, 'leaf', None, None, False, 'float', 1.0, True, None, {'gt': 0}, None, None, [], [], False, None, '0.2.0', None, False, None, None, False, None, None, [], False, False, None, False, 2.0, True, {'train_micro_batch_size_per_gpu': 1, 'gradient_predivide_factor': 2.0}, [], None, None, [], ['fp16', 'prescale_gradients', 'gradient_allreduce_op', 'zero_optimization.reduce_scatter'], 'Splits the averaging division around the all-reduce: gradients are divided by this factor before it and by (data-parallel size / factor) after it.', False, 'Splits the averaging division around the all-reduce: gradients are divided by this factor before it and by (data-parallel size / factor) after it. A factor between 1 and the number of ranks, such as its square root, keeps large fp16 sums from overflowing without making small values underflow. It is used only when prescale_gradients is false and gradient_allreduce_op is mean, and must stay 1.0 at ZeRO stages 2 and 3 while zero_optimization.reduce_scatter is on (the default).'),
)
