"""The records under 'memory_breakdown' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('memory_breakdown', 'memory_breakdown', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, '0.2.0', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'memory_breakdown': True}, [], None, None, [], ['optimizer', 'log_level'], 'Prints device memory (allocated, peak, reserved) and host memory use on rank 0 before and after each forward, backward and optimizer step, to find where memory goes.', False, "Prints device memory (allocated, peak, reserved) and host memory use on rank 0 before and after each forward, backward and optimizer step, to find where memory goes. Each report runs Python's garbage collector and resets the peak counters, so it slows training; the output is printed directly, whatever log_level says."),
)
