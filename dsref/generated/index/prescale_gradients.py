"""The records under 'prescale_gradients' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('prescale_gradients', 'prescale_gradients', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'prescale_gradients': True}, [], None, None, [], ['fp16', 'gradient_predivide_factor', 'gradient_allreduce_op', 'zero_optimization.reduce_scatter'], 'Divides the gradients by the number of data-parallel ranks before the all-reduce instead of after it.', False, 'Divides the gradients by the number of data-parallel ranks before the all-reduce instead of after it. This keeps fp16 sums over very many ranks from overflowing, at the risk of small gradients underflowing; gradient_predivide_factor is a finer-grained alternative. It only applies when gradient_allreduce_op is mean, and must stay false at ZeRO stages 2 and 3 while zero_optimization.reduce_scatter is on (the default).'),
)
