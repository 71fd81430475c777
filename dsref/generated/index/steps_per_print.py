"""The records under 'steps_per_print' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('steps_per_print', 'steps_per_print', None, 'leaf', None, None, True, 'int | null', None, True, None, {'gt': 0}, 'steps', None, [], [], False, None, None, None, False, None, 10, True, None, None, [], False, False, None, False, 100, True, {'train_micro_batch_size_per_gpu': 1, 'steps_per_print': 100}, [], None, None, [], ['optimizer', 'timers.throughput', 'log_level', 'pipeline'], 'How often, in optimizer steps, DeepSpeed logs its progress line on rank 0 (step, skipped steps, learning rate, momentum); it also paces the timers.throughput report.', False, "How often, in optimizer steps, DeepSpeed logs its progress line on rank 0 (step, skipped steps, learning rate, momentum); it also paces the timers.throughput report. Both go through DeepSpeed's logger at info level, which defaults to warning, so set log_level to info to see them; the pipeline engine's train_batch() additionally prints loss, iteration time and samples/sec at this interval. null turns the periodic reports off."),
)
