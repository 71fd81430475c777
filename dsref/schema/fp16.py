"""`fp16`: mixed-precision training in IEEE half precision, with loss scaling."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import HfAuto, option
from ._types import IntNotBool, NumberNotBool


class FP16Config(StrictSection):
    """Trains in float16 with fp32 master weights, scaling the loss so that small gradients do not underflow.

    With `loss_scale` 0 the scale is dynamic: it starts at 2^`initial_scale_power`; a step whose gradients overflow
    is skipped, and once `hysteresis` overflows have been counted the scale is halved (and halved again at each
    further overflow until the count is restored); after `loss_scale_window` clean steps it doubles. Cannot be
    enabled together with `bf16`.
    """

    ds_class = "deepspeed.runtime.precision_config.DeepSpeedFP16Config"

    enabled: bool = option(
        False,
        description="Turns fp16 mixed precision on.",
        hf_auto=HfAuto(source="TrainingArguments.fp16 (or fp16_full_eval)"),
        example=True,
    )
    auto_cast: bool = option(
        False,
        since="0.7.0",
        description="Casts floating-point inputs of the model's forward pass to fp16 automatically.",
    )
    loss_scale: NumberNotBool = option(
        0.0,
        ge=0,
        allow_inf_nan=False,
        description="A fixed loss scale; 0 selects dynamic loss scaling, which suits almost every model.",
        example=0,
    )
    initial_scale_power: int = option(
        16,
        description="Dynamic loss scaling starts at 2 to this power (16 gives 65536).",
    )
    loss_scale_window: IntNotBool = option(
        1000,
        unit="steps",
        description="Number of overflow-free steps after which the dynamic loss scale is doubled; must be > 0 "
        "when dynamic scaling is on.",
    )
    hysteresis: int = option(
        2,
        description="With N, the dynamic loss scale is halved at the N-th overflow; earlier overflows only skip "
        "their step. The count is restored when the scale next doubles, or after every clean step with "
        "consecutive_hysteresis.",
    )
    consecutive_hysteresis: bool = option(
        False,
        description="Restores the hysteresis budget after every step without overflow.",
    )
    min_loss_scale: IntNotBool = option(
        1,
        description="Floor of the dynamic loss scale; must be > 0 when dynamic scaling is on.",
    )
    fp16_master_weights_and_grads: bool = option(
        False,
        since="0.5.0",
        stages=(1, 2, 3),
        description="Keeps master weights and gradients in fp16 instead of fp32 to save memory; needs ZeRO stage "
        "1-3 with optimizer offload and DeepSpeedCPUAdam.",
    )


class FP16Options(Section):
    """Top-level field contributed by this module."""

    fp16: FP16Config = option(default_factory=FP16Config, since="0.1.0")
