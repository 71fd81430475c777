"""The en explain pages under 'steps_per_print' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'steps_per_print': '\x1b[1msteps_per_print\x1b[0m\n  \x1b[2mtype\x1b[0m           int | null\n  \x1b[2mdefault\x1b[0m        null\n  \x1b[2mdocs say\x1b[0m       10  (DeepSpeed\'s documentation states this; the code uses the default above)\n  \x1b[2mrange\x1b[0m          > 0\n  \x1b[2munit\x1b[0m           steps\n\n  How often, in optimizer steps, DeepSpeed logs its progress line on rank 0 (step, skipped steps,\n  learning rate, momentum); it also paces the timers.throughput report. Both go through DeepSpeed\'s\n  logger at info level, which defaults to warning, so set log_level to info to see them; the pipeline\n  engine\'s train_batch() additionally prints loss, iteration time and samples/sec at this interval.\n  null turns the periodic reports off.\n\n  \x1b[2mexample\x1b[0m\n    {"steps_per_print": 100}\n\n  \x1b[2mrelated\x1b[0m        optimizer, timers.throughput, log_level, pipeline\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/steps_per_print/#steps_per_print\n',
}
