"""The records under 'graph_harvesting' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('graph_harvesting', 'graph_harvesting', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, '0.12.6', '0.19.8', False, None, None, False, None, None, [], False, False, None, False, None, False, None, [], None, 'CUDA-graph capture in the bf16 optimizer was dropped and DeepSpeed now refuses the key; delete it.', [], ['bf16', 'optimizer'], "Formerly captured the bf16 optimizer's step as a CUDA graph to cut kernel launch overhead.", False, "Formerly captured the bf16 optimizer's step as a CUDA graph to cut kernel launch overhead."),
)
