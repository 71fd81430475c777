"""`bf16`: mixed-precision training in bfloat16 (and its legacy spelling `bfloat16`)."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import HfAuto, option


class BF16Config(StrictSection):
    """Trains in bfloat16, which has the range of fp32 and so needs no loss scaling.

    The usual choice on Ampere and newer GPUs. Cannot be enabled together with `fp16`. DeepSpeed still reads
    the old section name `bfloat16`, but only when `bf16` is absent.
    """

    ds_class = "deepspeed.runtime.precision_config.DeepSpeedBF16Config"

    enabled: bool = option(
        False,
        description="Turns bf16 mixed precision on.",
        hf_auto=HfAuto(source="TrainingArguments.bf16 (or bf16_full_eval)"),
        example=True,
    )
    immediate_grad_update: bool = option(
        False,
        since="0.13.3",
        description="Applies each gradient to the fp32 master copy as soon as it is ready instead of after the "
        "whole backward pass, saving memory.",
    )
    check_grad_overflow: bool = option(
        True,
        since="0.17.1",
        description="Checks gradients for inf/NaN before each optimizer step and skips the step when found "
        "(default true since 0.19.3).",
    )
    bf16_master_weights_and_grads: bool = option(
        False,
        since="0.18.3",
        stages=(1, 2, 3),
        description="Keeps the ZeRO optimizer's master weights and gradients in bf16 instead of fp32; needs ZeRO "
        "stage 1-3.",
    )
    bf16_optimizer_states: bool = option(
        False,
        since="0.18.3",
        stages=(1, 2, 3),
        description="Also keeps optimizer states in bf16; needs bf16_master_weights_and_grads and ZeRO stage 1-3.",
    )


class BF16Options(Section):
    """Top-level field contributed by this module."""

    bf16: BF16Config = option(
        default_factory=BF16Config,
        since="0.6.0",
        deprecated_aliases=("bfloat16",),
    )
