"""The records under 'gradient_clipping' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('gradient_clipping', 'gradient_clipping', None, 'leaf', None, None, False, 'float', 1.0, True, None, {}, None, None, [], [], False, None, None, None, True, 'TrainingArguments.max_grad_norm (transformers); DeepSpeedPlugin.gradient_clipping, 1.0 if unset (accelerate)', None, False, None, None, [], False, False, None, False, 1.0, True, [], None, None, ['transformers', 'accelerate'], ['optimizer', 'zero_optimization.compute_grad_norm', 'bf16', 'fp16', 'checkpoint'], 'Caps the global L2 norm of all gradients at this value before each optimizer step, scaling them down proportionally when it is exceeded; 0 turns clipping off.', False, 'Caps the global L2 norm of all gradients at this value before each optimizer step, scaling them down proportionally when it is exceeded; 0 turns clipping off. 1.0 is the usual choice for transformer training (the default was 0 before 0.19.3). The norm covers the whole model across all ranks, and `zero_optimization.compute_grad_norm: false` (ZeRO stage 1 and 2) requires 0 here. When ZeRO stage 1 or 2 or the bf16 and fused fp16 wrappers load optimizer state from a checkpoint, the value saved in it replaces this one.'),
)
