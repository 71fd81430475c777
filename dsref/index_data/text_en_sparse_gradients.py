"""The en explain pages under 'sparse_gradients' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'sparse_gradients': '\x1b[1msparse_gradients\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2mremoved in\x1b[0m     \x1b[33m0.19.8\x1b[0m\n                 DeepSpeed no longer compresses gradients of dense embeddings and refuses the key; delete it (embeddings created with sparse=True still get sparse reduction without any setting).\n\n  Formerly reduced the gradients of torch.nn.Embedding layers as sparse tensors.\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/sparse_gradients/#sparse_gradients\n',
}
