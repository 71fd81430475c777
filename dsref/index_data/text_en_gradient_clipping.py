"""The en explain pages under 'gradient_clipping' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_clipping': '\x1b[1mgradient_clipping\x1b[0m\n  \x1b[2mtype\x1b[0m           float\n  \x1b[2mdefault\x1b[0m        1.0\n  \x1b[2mHF "auto"\x1b[0m      yes, filled by transformers, accelerate: TrainingArguments.max_grad_norm (transformers); DeepSpeedPlugin.gradient_clipping, 1.0 if unset (accelerate)\n\n  Caps the global L2 norm of all gradients at this value before each optimizer step, scaling them down\n  proportionally when it is exceeded; 0 turns clipping off. 1.0 is the usual choice for transformer\n  training (the default was 0 before 0.19.3). The norm covers the whole model across all ranks, and\n  `zero_optimization.compute_grad_norm: false` (ZeRO stage 1 and 2) requires 0 here. When ZeRO stage 1\n  or 2 or the bf16 and fused fp16 wrappers load optimizer state from a checkpoint, the value saved in\n  it replaces this one.\n\n  \x1b[2mexample\x1b[0m\n    {"gradient_clipping": 1.0}\n\n  \x1b[2mrelated\x1b[0m        optimizer, zero_optimization.compute_grad_norm, bf16, fp16, checkpoint\n  \x1b[2mreference\x1b[0m      https://dsref.github.io/dsref/reference/gradient_clipping/#gradient_clipping\n',
}
