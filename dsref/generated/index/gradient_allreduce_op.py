"""The records under 'gradient_allreduce_op' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('gradient_allreduce_op', 'gradient_allreduce_op', None, 'leaf', None, None, False, 'enum', 'mean', True, ['mean', 'sum'], {}, None, None, [], [], False, None, '0.19.6', None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'gradient_allreduce_op': 'mean'}, [['mean', 'Average gradients over the data-parallel ranks (the usual behaviour).'], ['sum', 'Add gradients without dividing by the number of ranks.']], None, None, [], ['prescale_gradients', 'gradient_predivide_factor'], "How the data-parallel gradient reduction combines the ranks' gradients: mean averages them (the usual), sum adds them up.", False, "How the data-parallel gradient reduction combines the ranks' gradients: mean averages them (the usual), sum adds them up. Choose sum only when your loss is already normalised over the whole global batch (for example divided by the total token count across all ranks), because DeepSpeed then does no division at all and ignores prescale_gradients and gradient_predivide_factor. sum is rejected with ZeRO stage 3, ZenFlow and DeepCompile."),
)
