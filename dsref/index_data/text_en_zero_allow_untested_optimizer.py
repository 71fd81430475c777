"""The en explain pages under 'zero_allow_untested_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'zero_allow_untested_optimizer': "\x1b[1mzero_allow_untested_optimizer\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        false\n\n  Lets ZeRO (stage 1 to 3) run with an optimizer outside its tested list; without it the engine\n  refuses to start. The tested ones are torch Adam, AdamW and Adagrad, DeepSpeed's fused Adam and\n  Lion, its CPU Adam, Adagrad and Lion, and Muon, so type Lamb, torch classes such as SGD and the mup\n  optimizers need this flag. The check compares exact classes, so a subclass of a tested optimizer\n  counts as untested; with the flag on, DeepSpeed only logs a warning.\n\n  \x1b[2mrelated\x1b[0m        optimizer\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/zero_allow_untested_optimizer/#zero_allow_untested_optimizer\n",
}
