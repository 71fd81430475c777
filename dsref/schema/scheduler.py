"""`scheduler`: the learning-rate scheduler DeepSpeed builds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._base import DictSection, PassthroughSection, Section
from ._meta import HfAuto, option

_PositiveInt = Annotated[int, Field(gt=0)]


class SchedulerParams(PassthroughSection):
    """Keyword arguments handed unchanged to the scheduler's constructor.

    Each scheduler accepts only its own keys (a key it does not know makes the constructor fail with a TypeError
    when the engine starts). Learning rates given as a list set one value per optimizer parameter group; the list
    must have one entry per group. Defaults are those of DeepSpeed's schedulers in
    `deepspeed.runtime.lr_schedules`.
    """

    warmup_min_lr: float | list[float] = option(
        0.0,
        enforced=True,
        description="WarmupLR, WarmupDecayLR: learning rate at the start of warm-up.",
        hf_auto=HfAuto(source="0"),
        example=0,
    )
    warmup_max_lr: float | list[float] | None = option(
        None,
        enforced=True,
        description="WarmupLR, WarmupDecayLR: learning rate reached at the end of warm-up.",
        hf_auto=HfAuto(source="TrainingArguments.learning_rate (transformers); the optimizer's lr (accelerate)"),
        default_note="When absent, WarmupLR uses the optimizer's configured lr and WarmupDecayLR uses 0.001.",
        example=0.0001,
    )
    warmup_num_steps: _PositiveInt = option(
        1000,
        enforced=True,
        unit="steps",
        description="WarmupLR, WarmupDecayLR, WarmupCosineLR: number of steps the warm-up lasts; must be a "
        "positive integer.",
        hf_auto=HfAuto(
            source="TrainingArguments.get_warmup_steps(num_training_steps) (transformers); the "
            "DummyScheduler warmup_num_steps (accelerate)"
        ),
        example=1000,
    )
    warmup_type: Literal["log", "linear"] = option(
        "log",
        description="WarmupLR, WarmupDecayLR, WarmupCosineLR: shape of the warm-up curve; an unknown value falls "
        "back to log with a warning.",
        enum_docs=(
            ("log", "Rises quickly at first, then flattens (logarithmic in the step)."),
            ("linear", "Rises by the same amount every step."),
        ),
    )
    total_num_steps: int | None = option(
        None,
        enforced=True,
        unit="steps",
        description="WarmupDecayLR, WarmupCosineLR (required there): total number of training steps; the decay "
        "ends at this step.",
        hf_auto=HfAuto(
            source="num_training_steps (transformers); the DummyScheduler total_num_steps / num_processes (accelerate)"
        ),
        example=10000,
    )
    warmup_min_ratio: float = option(
        0.0,
        unit="ratio",
        description="WarmupCosineLR: learning rate at the start of warm-up, as a fraction of the optimizer's lr.",
    )
    cos_min_ratio: float = option(
        0.0001,
        unit="ratio",
        description="WarmupCosineLR: learning rate at the end of the cosine decay, as a fraction of the "
        "optimizer's lr.",
    )
    lr_range_test_min_lr: float | list[float] = option(
        0.001,
        description="LRRangeTest: learning rate the range test starts from.",
    )
    lr_range_test_step_size: _PositiveInt = option(
        2000,
        enforced=True,
        unit="steps",
        description="LRRangeTest: number of steps between learning-rate increases; must be a positive integer.",
    )
    lr_range_test_step_rate: float = option(
        1.0,
        description="LRRangeTest: how fast the learning rate grows, applied once per step_size interval.",
    )
    lr_range_test_staircase: bool = option(
        False,
        description="LRRangeTest: raises the learning rate in discrete jumps instead of continuously.",
    )
    cycle_min_lr: float | list[float] | None = option(
        None,
        description="OneCycle (required): lowest learning rate of the cycle, also the starting value.",
    )
    cycle_max_lr: float | list[float] | None = option(
        None,
        description="OneCycle (required): peak learning rate of the cycle.",
    )
    decay_lr_rate: float = option(
        0.0,
        enforced=True,
        description="OneCycle: after the cycle the learning rate is cycle_min_lr / (1 + rate * steps since the end "
        "/ decay_step_size); 0 keeps it at cycle_min_lr.",
    )
    cycle_first_step_size: _PositiveInt = option(
        2000,
        enforced=True,
        unit="steps",
        description="OneCycle: length of the first half of the cycle, in which the learning rate rises; must be "
        "positive.",
    )
    cycle_second_step_size: int | None = option(
        None,
        enforced=True,
        ge=0,
        unit="steps",
        description="OneCycle: length of the second half of the cycle, in which the learning rate falls.",
        default_note="When absent, it equals cycle_first_step_size.",
    )
    cycle_first_stair_count: int = option(
        0,
        description="OneCycle: number of stairs in the first half; 0 changes the learning rate continuously.",
    )
    cycle_second_stair_count: int | None = option(
        None,
        description="OneCycle: number of stairs in the second half.",
        default_note="When absent, it equals cycle_first_stair_count.",
    )
    decay_step_size: int = option(
        0,
        enforced=True,
        unit="steps",
        description="OneCycle: interval between decay applications after the cycle; 0 disables the decay.",
    )
    cycle_momentum: bool = option(
        True,
        description="OneCycle: cycles momentum (Adam's beta1) inversely to the learning rate; turned off with a "
        "warning for optimizers without betas.",
    )
    cycle_min_mom: float | list[float] = option(
        0.8,
        description="OneCycle: lowest momentum of the cycle.",
    )
    cycle_max_mom: float | list[float] = option(
        0.9,
        description="OneCycle: highest momentum of the cycle, used while the learning rate is at its lowest.",
    )
    decay_mom_rate: float = option(
        0.0,
        enforced=True,
        description="OneCycle: after the cycle beta1 becomes cycle_max_mom * (1 + rate * steps since the end / "
        "decay_step_size); 0 keeps it at cycle_max_mom.",
    )
    last_batch_iteration: int = option(
        -1,
        description="All DeepSpeed schedulers: index of the last completed step when resuming; -1 starts the "
        "schedule from the beginning.",
    )


_SCHEDULER_TYPES: tuple[tuple[str, str], ...] = (
    ("WarmupLR", "Warms up from warmup_min_lr to warmup_max_lr, then holds it."),
    ("WarmupDecayLR", "Warms up like WarmupLR, then decays linearly back to warmup_min_lr at total_num_steps."),
    ("WarmupCosineLR", "Warms up to the optimizer's lr, then follows a cosine down to cos_min_ratio * lr."),
    ("OneCycle", "The 1Cycle policy: learning rate (and momentum) go up and back down once, then decay."),
    ("LRRangeTest", "Raises the learning rate steadily to find a good range for it."),
)


class SchedulerConfig(DictSection):
    """The learning-rate scheduler DeepSpeed creates when none is passed to `deepspeed.initialize`.

    DeepSpeed reads only `type` and `params`. The scheduler is stepped once per optimizer step, so step
    counts here are optimizer steps, not micro batches.
    """

    type: str | None = option(
        None,
        enforced=True,
        description="Scheduler class: one of DeepSpeed's schedulers or, failing that, any class in "
        "torch.optim.lr_scheduler; the name is case-sensitive.",
        enum_docs=_SCHEDULER_TYPES,
        example="WarmupLR",
        ds_constant="deepspeed.runtime.constants.SCHEDULER_TYPE_DEFAULT",
    )
    params: SchedulerParams | None = option(
        None,
        description="Constructor arguments of the chosen scheduler; needed whenever type is set, even if empty "
        "({}), since DeepSpeed unpacks it without a fallback.",
    )


class SchedulerOptions(Section):
    """Top-level fields contributed by this module."""

    scheduler: SchedulerConfig | None = option(
        None,
        description="The learning-rate scheduler DeepSpeed builds; leave it out when you pass a scheduler to "
        "deepspeed.initialize or want a constant learning rate.",
    )
