"""The zh explain pages under 'gradient_clipping' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'gradient_clipping': '\x1b[1mgradient_clipping\x1b[0m\n  \x1b[2m类型\x1b[0m               float\n  \x1b[2m默认值\x1b[0m             1.0\n  \x1b[2mHF "auto"\x1b[0m          支持，由 transformers, accelerate 填充：TrainingArguments.max_grad_norm（transformers）；DeepSpeedPlugin.gradient_clipping，未设置时为 1.0（accelerate）\n\n  在每次优化器 step 之前把所有梯度的全局 L2 范数限制在该值以内，超出时按比例整体缩小；0 表示关闭梯度裁\n  剪。训练 Transformer 通常取 1.0（0.19.3 之前的默认值为 0）。范数覆盖整个模型和所有\n  rank；`zero_optimization.compute_grad_norm: false`（ZeRO stage 1 和 2）要求这里为 0。ZeRO stage 1 或\n  2、bf16 以及 fused fp16 包装器从 checkpoint 加载优化器状态时，会用其中保存的值取代这里的设置。\n\n  \x1b[2m示例\x1b[0m\n    {"gradient_clipping": 1.0}\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, zero_optimization.compute_grad_norm, bf16, fp16, checkpoint\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/gradient_clipping/#gradient_clipping\n',
}
