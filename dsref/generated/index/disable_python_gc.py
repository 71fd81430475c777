"""The records under 'disable_python_gc' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('disable_python_gc', 'disable_python_gc', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, '0.19.8', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'disable_python_gc': True}, [], None, None, [], [], "Turns off Python's automatic cyclic garbage collector while the engine exists, after one full collection at start-up.", False, "Turns off Python's automatic cyclic garbage collector while the engine exists, after one full collection at start-up. This avoids unpredictable collection pauses that stall one rank and make the others wait in collectives; call engine.collect_python_gc() at safe points yourself (e.g. every few hundred steps) so memory held in reference cycles is still freed. Automatic collection is switched back on when the last such engine is destroyed."),
)
