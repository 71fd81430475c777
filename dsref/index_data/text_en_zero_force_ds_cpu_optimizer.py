"""The en explain pages under 'zero_force_ds_cpu_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'zero_force_ds_cpu_optimizer': "\x1b[1mzero_force_ds_cpu_optimizer\x1b[0m\n  \x1b[2mtype\x1b[0m           bool\n  \x1b[2mdefault\x1b[0m        true\n  \x1b[2msince\x1b[0m          0.8.3\n\n  With ZeRO optimizer offload (`zero_optimization.offload_optimizer.device` cpu or nvme), refuses an\n  optimizer object passed in code unless it is DeepSpeed's CPU Adam or CPU Lion. Any other optimizer\n  would run its step on the CPU in plain PyTorch, usually several times slower; set false only if you\n  accept that. Optimizers built from the `optimizer` section are not affected, since DeepSpeed picks\n  its CPU versions for them itself.\n\n  \x1b[2mrelated\x1b[0m        optimizer, zero_optimization.offload_optimizer.device\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/zero_force_ds_cpu_optimizer/#zero_force_ds_cpu_optimizer\n",
}
