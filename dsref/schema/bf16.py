"""`bf16`: mixed-precision training in bfloat16 (and its legacy spelling `bfloat16`)."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import HfAuto, HfChange, option


class BF16Config(StrictSection):
    """Trains in bfloat16, which has the range of fp32 and so needs no loss scaling.

    The usual choice on hardware that supports it (for NVIDIA, Ampere and newer). Parameters are cast to bf16 while
    the optimizer keeps fp32 master weights, unless `bf16_master_weights_and_grads` is set; with many accumulation
    steps, `data_types.grad_accum_dtype` fp32 avoids rounding error in the summed gradients. Cannot be enabled
    together with `fp16`. DeepSpeed still reads the old section name `bfloat16`, but only when `bf16` is absent.
    """

    ds_class = "deepspeed.runtime.precision_config.DeepSpeedBF16Config"

    enabled: bool = option(
        False,
        description="Turns on bf16 mixed-precision training: the model's parameters are cast to bfloat16 and the "
        "optimizer keeps fp32 master weights. At ZeRO stages 1-3 the ZeRO optimizer holds those master weights, "
        "without ZeRO a DeepSpeed wrapper optimizer does. Unlike fp16 it needs no loss scaling.",
        hf_auto=HfAuto(
            compared="bf16|bf16_full_eval",
            source='TrainingArguments.bf16 (or bf16_full_eval) (transformers); mixed_precision "bf16" or "fp8" '
            "(accelerate)",
            changes=(HfChange("accelerate", "0.34.0", 'mixed_precision == "bf16"'),),
        ),
        example=True,
    )
    immediate_grad_update: bool = option(
        False,
        requires=(("zero_optimization.stage", 1), ("data_types.grad_accum_dtype", "fp32")),
        since="0.13.3",
        description="Adds each bf16 gradient into the fp32 gradient buffer as soon as the backward pass produces it "
        "and frees the bf16 copy, instead of converting all gradients after the backward pass. This lowers peak memory "
        "during backward. Only DeepSpeed's bf16 optimizer reads it, which is used for ZeRO stage 1 with "
        "data_types.grad_accum_dtype fp32 (without offload) and for bf16 pipeline parallelism without ZeRO; other "
        "setups ignore it.",
    )
    check_grad_overflow: bool = option(
        True,
        requires=(("zero_optimization.stage", 2),),
        since="0.17.1",
        description="Scans the gradients for inf or NaN before each optimizer step and skips the step when any are "
        "found (the default is true since 0.19.3). Only the ZeRO stage 1-2 optimizer reads it: false there saves the "
        "scan and its all-reduce, but a step with non-finite gradients is then applied and can ruin the weights. ZeRO "
        "stage 3 and DeepSpeed's other bf16 optimizers always skip such steps.",
    )
    bf16_master_weights_and_grads: bool = option(
        False,
        requires=(("zero_optimization.offload_optimizer.device", "cpu"), ("optimizer.type", "AdamW")),
        since="0.18.3",
        stages=(1, 2, 3),
        description="Keeps the ZeRO optimizer's master weights and gradients in bf16 instead of fp32, halving their "
        "memory at some cost in update precision. It needs ZeRO stage 1, 2 or 3, and on its own also "
        "zero_optimization.offload_optimizer with DeepSpeedCPUAdam; together with bf16_optimizer_states the optimizer "
        "may stay on the GPU. It cannot be combined with fp16.fp16_master_weights_and_grads.",
    )
    bf16_optimizer_states: bool = option(
        False,
        requires=(("bf16.bf16_master_weights_and_grads", True), ("optimizer.type", "AdamW")),
        since="0.18.3",
        stages=(1, 2, 3),
        description="Keeps the optimizer states, such as Adam's moments, in bf16 as well, halving their memory. It "
        "requires bf16_master_weights_and_grads and ZeRO stage 1, 2 or 3. With zero_optimization.offload_optimizer the "
        "CPU Adam optimizer must store bf16 moments: DeepSpeed arranges this when it builds the optimizer from the "
        "optimizer section, and a DeepSpeedCPUAdam you create must get fp32_optimizer_states=False.",
    )


class BF16Options(Section):
    """Top-level field contributed by this module."""

    bf16: BF16Config = option(
        default_factory=BF16Config,
        since="0.6.0",
        deprecated_aliases=("bfloat16",),
    )
