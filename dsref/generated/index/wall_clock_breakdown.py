"""The records under 'wall_clock_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('wall_clock_breakdown', 'wall_clock_breakdown', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'wall_clock_breakdown': True}, [], None, None, [], ['optimizer', 'log_level', 'timers', 'flops_profiler.enabled'], 'Measures the forward pass, backward pass and optimizer step (with sub-phases such as gradient reduction) and prints the times on rank 0 after each step, independent of log_level.', False, 'Measures the forward pass, backward pass and optimizer step (with sub-phases such as gradient reduction) and prints the times on rank 0 after each step, independent of log_level. The timers wait for the device to finish, which slows training, so keep it off outside profiling runs; engine.get_wall_clock_timers() returns the latest values. flops_profiler.enabled turns it on as well.'),
)
