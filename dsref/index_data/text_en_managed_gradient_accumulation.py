"""The en explain pages under 'managed_gradient_accumulation' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'managed_gradient_accumulation': '\x1b[1mmanaged_gradient_accumulation\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        true\n  \x1b[2msince\x1b[0m          0.19.4\n\n  Whether DeepSpeed itself decides where a gradient-accumulation cycle ends. With true it counts micro\n  steps and only every gradient_accumulation_steps-th engine.step() call updates the weights; with\n  false your training loop owns the boundary, and every step() call finishes the gradient reduction\n  and updates the weights however many backward() calls came before, which suits a number of micro\n  batches that varies from step to step. The loss is still divided by gradient_accumulation_steps, and\n  false is not supported with pipeline parallelism, DeepCompile, or zero_optimization.overlap_comm\n  below ZeRO stage 2.\n\n  \x1b[2mrelated\x1b[0m        gradient_accumulation_steps, pipeline, zero_optimization.overlap_comm\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/managed_gradient_accumulation/#managed_gradient_accumulation\n',
}
