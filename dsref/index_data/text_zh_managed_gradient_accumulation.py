"""The zh explain pages under 'managed_gradient_accumulation' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'managed_gradient_accumulation': '\x1b[1mmanaged_gradient_accumulation\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             true\n  \x1b[2m引入版本\x1b[0m           0.19.4\n\n  是否由 DeepSpeed 自己决定一个梯度累积周期在哪里结束。为 true 时，DeepSpeed 统计 micro step，只有每第\n  gradient_accumulation_steps 次调用 engine.step() 才更新权重；为 false 时由你的训练循环掌握边界，每次\n  调用 step() 都会完成梯度规约并更新权重，不管之前调用了多少次 backward()，适合每步 micro batch 个数不\n  固定的场景。损失仍会除以 gradient_accumulation_steps；false 不支持流水线并行和 DeepCompile，也不支持\n  在 ZeRO stage 2 以下开启 zero_optimization.overlap_comm。\n\n  \x1b[2m相关配置项\x1b[0m         gradient_accumulation_steps, pipeline, zero_optimization.overlap_comm\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/managed_gradient_accumulation/#managed_gradient_accumulation\n',
}
