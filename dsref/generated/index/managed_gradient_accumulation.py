"""The records under 'managed_gradient_accumulation' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('managed_gradient_accumulation', 'managed_gradient_accumulation', None, 'leaf', None, None, False, 'bool', True, True, None, {}, None, None, [], [], False, None, '0.19.4', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'managed_gradient_accumulation': False}, [], None, None, [], ['gradient_accumulation_steps', 'pipeline', 'zero_optimization.overlap_comm'], 'Whether DeepSpeed itself decides where a gradient-accumulation cycle ends.', False, 'Whether DeepSpeed itself decides where a gradient-accumulation cycle ends. With true it counts micro steps and only every gradient_accumulation_steps-th engine.step() call updates the weights; with false your training loop owns the boundary, and every step() call finishes the gradient reduction and updates the weights however many backward() calls came before, which suits a number of micro batches that varies from step to step. The loss is still divided by gradient_accumulation_steps, and false is not supported with pipeline parallelism, DeepCompile, or zero_optimization.overlap_comm below ZeRO stage 2.'),
)
