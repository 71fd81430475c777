"""The records under 'allgather_size' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('allgather_size', 'allgather_size', None, 'leaf', None, None, False, 'int', 500000000, True, None, {'ge': 0}, 'elements', None, [], [], True, 'zero_optimization.allgather_bucket_size', None, None, False, None, None, False, {'en': '500M', 'zh': '5亿'}, None, [], False, False, None, False, None, False, None, [], None, None, [], ['zero_optimization.allgather_bucket_size', 'zero_optimization'], 'Deprecated top-level all-gather bucket size, in elements.', False, 'Deprecated top-level all-gather bucket size, in elements. DeepSpeed reads it only when `zero_optimization` is written as true, and then uses it as `zero_optimization.allgather_bucket_size`; with a `zero_optimization` object it is ignored.'),
)
