"""The zh explain pages under 'zero_force_ds_cpu_optimizer' of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/index.py for how it is read.
"""

PAGES = {
    'zero_force_ds_cpu_optimizer': '\x1b[1mzero_force_ds_cpu_optimizer\x1b[0m\n  \x1b[2m类型\x1b[0m               bool\n  \x1b[2m默认值\x1b[0m             true\n  \x1b[2m引入版本\x1b[0m           0.8.3\n\n  启用 ZeRO 优化器 offload（`zero_optimization.offload_optimizer.device` 为 cpu 或 nvme）时，拒绝在代\n  码中传入的优化器对象，除非它是 DeepSpeed 的 CPU Adam 或 CPU Lion。其他优化器会以纯 PyTorch 在 CPU 上\n  执行 step，通常慢好几倍；只有能接受这一点时才设为 false。由 `optimizer` 配置段创建的优化器不受影响，\n  因为 DeepSpeed 会自行为它们选用 CPU 版本。\n\n  \x1b[2m相关配置项\x1b[0m         optimizer, zero_optimization.offload_optimizer.device\n  \x1b[2m参考页面\x1b[0m           https://dsref.github.io/dsref/zh/reference/zero_force_ds_cpu_optimizer/#zero_force_ds_cpu_optimizer\n',
}
