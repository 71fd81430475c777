"""The records under 'zero_force_ds_cpu_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('zero_force_ds_cpu_optimizer', 'zero_force_ds_cpu_optimizer', None, 'leaf', None, None, False, 'bool', True, True, None, {}, None, None, [], [], False, None, '0.8.3', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'zero_force_ds_cpu_optimizer': False}, [], None, None, [], ['optimizer', 'zero_optimization.offload_optimizer.device'], "With ZeRO optimizer offload (`zero_optimization.offload_optimizer.device` cpu or nvme), refuses an optimizer object passed in code unless it is DeepSpeed's CPU Adam or CPU Lion.", False, "With ZeRO optimizer offload (`zero_optimization.offload_optimizer.device` cpu or nvme), refuses an optimizer object passed in code unless it is DeepSpeed's CPU Adam or CPU Lion. Any other optimizer would run its step on the CPU in plain PyTorch, usually several times slower; set false only if you accept that. Optimizers built from the `optimizer` section are not affected, since DeepSpeed picks its CPU versions for them itself."),
)
