"""The en explain pages under 'graph_harvesting' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'graph_harvesting': "\x1b[1mgraph_harvesting\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n  \x1b[2msince\x1b[0m          0.12.6\n  \x1b[2mremoved in\x1b[0m     \x1b[33m0.19.8\x1b[0m\n                 CUDA-graph capture in the bf16 optimizer was dropped and DeepSpeed now refuses the key; delete it.\n\n  Formerly captured the bf16 optimizer's step as a CUDA graph to cut kernel launch overhead.\n\n  \x1b[2mrelated\x1b[0m        bf16, optimizer\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/graph_harvesting/#graph_harvesting\n",
}
