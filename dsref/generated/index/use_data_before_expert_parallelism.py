"""The records under 'use_data_before_expert_parallelism' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('use_data_before_expert_parallelism', 'use_data_before_expert_parallelism', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, '0.12.4', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'use_data_before_expert_parallelism': True}, [], None, None, [], [], 'Orders MoE process groups data-parallel first instead of expert-parallel first.', False, 'Orders MoE process groups data-parallel first instead of expert-parallel first. By default consecutive ranks form an expert-parallel group, so the token all-to-all stays among neighbouring (often same-node) ranks, and the replicas of each expert are strided; true swaps this, so consecutive ranks hold replicas of the same experts. It is not supported with model or tensor parallelism (mp size > 1) or with AutoEP+AutoTP folding; leave it false unless you need the other layout.'),
)
