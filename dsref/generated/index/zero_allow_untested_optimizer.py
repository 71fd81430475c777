"""The records under 'zero_allow_untested_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

FIELDS = ('path', 'key', 'parent', 'kind', 'container', 'map_key', 'nullable', 'type', 'default', 'has_default', 'allowed', 'bounds', 'unit', 'stages', 'aliases', 'deprecated_aliases', 'deprecated', 'use_instead', 'since', 'removed_in', 'hf_auto', 'hf_auto_source', 'docs_default', 'docs_default_differs', 'default_human', 'docs_default_human', 'docs_names', 'docs_only', 'parsed_unused', 'unknown_keys', 'validated_by_deepspeed', 'example', 'has_example', 'example_config', 'enum_docs', 'default_note', 'removal_note', 'hf_auto_by', 'related', 'summary', 'summary_is_own', 'description')

ROWS = (
    ('zero_allow_untested_optimizer', 'zero_allow_untested_optimizer', None, 'leaf', None, None, False, 'bool', False, True, None, {}, None, None, [], [], False, None, None, None, False, None, None, False, None, None, [], False, False, None, False, None, False, {'train_micro_batch_size_per_gpu': 1, 'zero_allow_untested_optimizer': True}, [], None, None, [], ['optimizer'], 'Lets ZeRO (stage 1 to 3) run with an optimizer outside its tested list; without it the engine refuses to start.', False, "Lets ZeRO (stage 1 to 3) run with an optimizer outside its tested list; without it the engine refuses to start. The tested ones are torch Adam, AdamW and Adagrad, DeepSpeed's fused Adam and Lion, its CPU Adam, Adagrad and Lion, and Muon, so type Lamb, torch classes such as SGD and the mup optimizers need this flag. The check compares exact classes, so a subclass of a tested optimizer counts as untested; with the flag on, DeepSpeed only logs a warning."),
)
