"""`fp16`: mixed-precision training in IEEE half precision, with loss scaling."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import HfAuto, HfChange, option
from ._types import IntNotBool, NumberNotBool


class FP16Config(StrictSection):
    """Trains in float16 with fp32 master weights, scaling the loss so that small gradients do not underflow.

    With `loss_scale` 0 the scale is dynamic: it starts at 2^`initial_scale_power`, a step whose gradients overflow
    is skipped and halves the scale, and every `loss_scale_window` overflow-free steps double it. At ZeRO stages 1-3
    the first halving waits for the `hysteresis`-th overflow, and an overflow that would take the scale below
    `min_loss_scale` stops training with an error; without ZeRO every overflow halves the scale, which then stays at
    the floor. Prefer `bf16` on hardware that supports it; the two cannot be enabled together.
    """

    ds_class = "deepspeed.runtime.precision_config.DeepSpeedFP16Config"

    enabled: bool = option(
        False,
        description="Turns on fp16 mixed-precision training: the model's parameters are cast to float16, the optimizer "
        "keeps fp32 master weights and the loss is scaled (see loss_scale). Without ZeRO a DeepSpeed fp16 optimizer "
        "wrapper does this, at ZeRO stages 1-3 the ZeRO optimizer does. Use it on hardware without good bfloat16 "
        "support (NVIDIA GPUs before Ampere); elsewhere bf16 is simpler and needs no loss scaling.",
        hf_auto=HfAuto(
            compared="fp16|fp16_full_eval",
            source='TrainingArguments.fp16 (or fp16_full_eval) (transformers); mixed_precision == "fp16" (accelerate)',
            changes=(
                HfChange(
                    "transformers",
                    "5.0.0",
                    'TrainingArguments.fp16 (or fp16_full_eval), and fp16_backend != "apex"',
                    compared="fp16|fp16_full_eval+fp16_backend(amp)",
                ),
            ),
        ),
        example=True,
    )
    auto_cast: bool = option(
        False,
        since="0.7.0",
        description="Casts the floating-point tensors among the positional arguments of the model's forward call to "
        "fp16 before it runs. Turn it on when your data loader yields fp32 inputs that would otherwise clash with the "
        "fp16 weights; tensors nested in lists, tuples and dicts are cast too, but keyword arguments are passed "
        "unchanged. It acts whenever it is true, even with enabled false, so leave it off in bf16 or fp32 runs.",
    )
    loss_scale: NumberNotBool = option(
        0.0,
        ge=0,
        allow_inf_nan=False,
        description="Fixed loss scale, or 0 for dynamic loss scaling. Dynamic scaling, the usual choice, adapts the "
        "scale to the gradients as set by initial_scale_power, loss_scale_window, hysteresis and min_loss_scale; a "
        "positive value such as 128 multiplies the loss by that constant instead, and those options are then ignored. "
        "Steps whose gradients overflow are skipped either way.",
        example=0,
    )
    initial_scale_power: int = option(
        16,
        description="Exponent of the starting dynamic loss scale: the scale begins at 2 to this power (16 gives "
        "65536). A high value only costs a few skipped steps at the start while the scale halves down to a workable "
        "level; lower it if the start of training skips many steps. Ignored when loss_scale is not 0.",
        example=12,
    )
    loss_scale_window: IntNotBool = option(
        1000,
        unit="steps",
        description="Number of consecutive overflow-free steps after which the dynamic loss scale doubles. The count "
        "restarts at every overflow, including one absorbed by hysteresis; a smaller window lets the scale recover "
        "faster after a drop but overflows, and skips steps, more often. Only used with dynamic scaling, where it must "
        "be greater than 0.",
        example=500,
    )
    hysteresis: int = option(
        2,
        description="How many gradient overflows it takes before the dynamic loss scale is halved; every overflowing "
        "step is skipped regardless. With the default 2 the first overflow only uses up the budget and the second "
        "halves the scale, as does each further overflow until the budget is refilled when the scale next doubles (or "
        "after every clean step with consecutive_hysteresis). It only applies at ZeRO stages 1-3: without ZeRO every "
        "overflow halves the scale at once.",
        example=4,
    )
    consecutive_hysteresis: bool = option(
        False,
        description="Refills the hysteresis budget after every overflow-free step, instead of only when the loss scale "
        "doubles. The scale is then only halved after hysteresis overflowing steps in a row, which suits training "
        "where isolated overflows are expected and should not lower the scale. Like hysteresis, it only applies at "
        "ZeRO stages 1-3.",
    )
    min_loss_scale: IntNotBool = option(
        1,
        description="Lowest value the dynamic loss scale may fall to. At ZeRO stages 1-3 an overflow that would halve "
        "a scale already at this floor stops training with an error, which usually means the model produces inf or NaN "
        "whatever the scale; without ZeRO the scale simply stays at the floor. Must be greater than 0 when dynamic "
        "scaling is on.",
        example=8,
    )
    fp16_master_weights_and_grads: bool = option(
        False,
        requires=(("zero_optimization.offload_optimizer.device", "cpu"), ("optimizer.type", "AdamW")),
        since="0.5.0",
        stages=(1, 2, 3),
        description="Keeps the optimizer's master weights and gradients in fp16 instead of fp32, halving the host "
        "memory they take at some cost in update precision. It requires ZeRO stage 1, 2 or 3 with "
        "zero_optimization.offload_optimizer and DeepSpeedCPUAdam as the optimizer, and cannot be combined with "
        "bf16.bf16_master_weights_and_grads.",
    )


class FP16Options(Section):
    """Top-level field contributed by this module."""

    fp16: FP16Config = option(default_factory=FP16Config, since="0.1.0")
