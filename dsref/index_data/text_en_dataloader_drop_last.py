"""The en explain pages under 'dataloader_drop_last' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'dataloader_drop_last': '\x1b[1mdataloader_drop_last\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.5.2\n\n  Drops the final incomplete batch in the data loaders that DeepSpeed builds itself (from\n  training_data in deepspeed.initialize, or through engine.deepspeed_io). Turn it on when every micro\n  batch must hold exactly train_micro_batch_size_per_gpu samples, e.g. for fixed tensor shapes; data\n  loaders you build yourself are not affected.\n\n  \x1b[2mrelated\x1b[0m        train_micro_batch_size_per_gpu\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/dataloader_drop_last/#dataloader_drop_last\n',
}
