"""`scheduler`: the learning-rate scheduler DeepSpeed builds."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._base import DictSection, PassthroughSection, Section
from ._meta import HfAuto, HfChange, option

_PositiveInt = Annotated[int, Field(gt=0)]


_WARMUP_DECAY = (("scheduler.type", "WarmupDecayLR"),)
_WARMUP_COSINE = (("scheduler.type", "WarmupCosineLR"), ("scheduler.params.total_num_steps", 10000))
_LR_RANGE_TEST = (("scheduler.type", "LRRangeTest"),)
_ONE_CYCLE = (
    ("scheduler.type", "OneCycle"),
    ("scheduler.params.cycle_min_lr", 0.00001),
    ("scheduler.params.cycle_max_lr", 0.0001),
)
"""What a key read by one scheduler needs beside it: that scheduler, and the keys it cannot do without."""


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
        description="WarmupLR, WarmupDecayLR: learning rate at the first step of warm-up, usually 0. WarmupDecayLR "
        "also decays back down to this value at `total_num_steps`.",
        hf_auto=HfAuto(source="0"),
        example=0,
    )
    warmup_max_lr: float | list[float] | None = option(
        None,
        enforced=True,
        description="WarmupLR, WarmupDecayLR: peak learning rate, reached at the end of warm-up and then held "
        "(WarmupLR) or decayed from (WarmupDecayLR). It replaces the optimizer's `lr` once the scheduler runs, so "
        "give it the learning rate you actually want to train with.",
        hf_auto=HfAuto(
            compared="learning_rate",
            source="TrainingArguments.learning_rate (transformers); the optimizer's lr (accelerate)",
        ),
        default_note="When absent, WarmupLR uses the optimizer's configured lr and WarmupDecayLR uses 0.001.",
        example=0.0001,
    )
    warmup_num_steps: _PositiveInt = option(
        1000,
        enforced=True,
        unit="steps",
        description="WarmupLR, WarmupDecayLR, WarmupCosineLR: number of optimizer steps over which the learning rate "
        "climbs to its peak. A few hundred to a few thousand steps, or a few percent of `total_num_steps`, is "
        "typical; values below 2 act as 2.",
        hf_auto=HfAuto(
            compared="warmup_steps",
            source="max(1, TrainingArguments.get_warmup_steps(num_training_steps)) (transformers); max(1, the "
            "DummyScheduler warmup_num_steps) (accelerate)",
            changes=(
                # each with 0 as its example: what the default TrainingArguments (no warmup_steps, no warmup_ratio)
                # give; recorded from the releases (tests/data/hf_releases.json)
                HfChange(
                    "transformers",
                    "5.0.0",
                    "TrainingArguments.warmup_steps (an integer) when above 0, else "
                    "ceil(num_training_steps * TrainingArguments.warmup_ratio)",
                    example=0,
                    warmup_ratio="when_no_steps",
                ),
                HfChange(
                    "transformers",
                    "5.15.0",
                    "TrainingArguments.get_warmup_steps(num_training_steps), with a warmup_ratio given taken as "
                    "warmup_steps",
                    example=0,
                    warmup_ratio="replaces_steps",
                ),
                HfChange("transformers", "5.18.0", "TrainingArguments.get_warmup_steps(num_training_steps)", example=0),
                HfChange("accelerate", "1.15.0", "the DummyScheduler warmup_num_steps", example=0),  # its default
            ),
        ),
        example=500,
    )
    warmup_type: Literal["log", "linear"] = option(
        "log",
        example="linear",
        description="WarmupLR, WarmupDecayLR, WarmupCosineLR: shape of the warm-up curve. log climbs fast and then "
        "flattens (halfway to the peak after about the square root of `warmup_num_steps` steps), while linear climbs "
        "evenly, as Hugging Face schedules do. An unknown value falls back to log with a warning.",
        enum_docs=(
            ("log", "Rises quickly at first, then flattens (logarithmic in the step)."),
            ("linear", "Rises by the same amount every step."),
        ),
    )
    total_num_steps: int | None = option(
        None,
        requires=_WARMUP_DECAY,
        enforced=True,
        unit="steps",
        description="WarmupDecayLR, WarmupCosineLR (required there): total number of optimizer steps of the run, at "
        "which the decay reaches its end value and stays. Compute it as samples per epoch × epochs ÷ "
        "`train_batch_size`; a value smaller than `warmup_num_steps` only logs a warning.",
        hf_auto=HfAuto(
            compared="num_training_steps (calculated)",
            source="num_training_steps (transformers); the DummyScheduler total_num_steps / num_processes (accelerate)",
        ),
        example=10000,
    )
    warmup_min_ratio: float = option(
        0.0,
        requires=_WARMUP_COSINE,
        unit="ratio",
        description="WarmupCosineLR: learning rate at the start of warm-up, as a fraction of the optimizer's `lr`; 0 "
        "starts from zero. WarmupCosineLR has no absolute learning-rate keys: its peak is the optimizer's `lr` "
        "itself.",
        example=0.1,
    )
    cos_min_ratio: float = option(
        0.0001,
        requires=_WARMUP_COSINE,
        unit="ratio",
        description="WarmupCosineLR: learning rate at the end of the cosine decay, as a fraction of the optimizer's "
        "`lr`; it stays there after `total_num_steps`. 0.1 (a tenth of the peak) and values near 0 are common "
        "choices.",
        example=0.01,
    )
    lr_range_test_min_lr: float | list[float] = option(
        0.001,
        requires=_LR_RANGE_TEST,
        description="LRRangeTest: learning rate the test starts from; every later rate is a multiple of it. Pick a "
        "value well below any rate you expect to work and watch the loss as the rate grows: the point where it starts "
        "to diverge bounds the usable range.",
        example=0.0001,
    )
    lr_range_test_step_size: _PositiveInt = option(
        2000,
        requires=_LR_RANGE_TEST,
        enforced=True,
        unit="steps",
        description="LRRangeTest: length in optimizer steps of one increase interval; after each interval the rate "
        "has grown by `lr_range_test_step_rate` × `lr_range_test_min_lr`. Smaller values sweep the range faster but "
        "give the loss less time to react to each rate.",
        example=500,
    )
    lr_range_test_step_rate: float = option(
        1.0,
        requires=_LR_RANGE_TEST,
        description="LRRangeTest: growth per `lr_range_test_step_size` interval, as a multiple of "
        "`lr_range_test_min_lr`. The growth is linear: after k intervals the rate is `lr_range_test_min_lr` × (1 + "
        "rate × k).",
        example=5.0,
    )
    lr_range_test_staircase: bool = option(
        False,
        requires=_LR_RANGE_TEST,
        description="LRRangeTest: holds the learning rate constant within each `lr_range_test_step_size` interval and "
        "raises it in one jump at the interval's end, instead of a little at every step.",
    )
    cycle_min_lr: float | list[float] | None = option(
        None,
        requires=_ONE_CYCLE,
        example=0.00001,
        description="OneCycle (required): lowest learning rate of the cycle, used at its start and end and as the "
        "base of the decay that follows. A tenth to a twenty-fifth of `cycle_max_lr` is a common choice.",
    )
    cycle_max_lr: float | list[float] | None = option(
        None,
        requires=_ONE_CYCLE,
        example=0.0001,
        description="OneCycle (required): peak learning rate, reached at the end of the cycle's first half. An "
        "LRRangeTest run is the usual way to find it: take a value somewhat below the rate at which the loss starts "
        "to diverge.",
    )
    decay_lr_rate: float = option(
        0.0,
        requires=_ONE_CYCLE,
        enforced=True,
        description="OneCycle: how fast the learning rate keeps falling after the cycle; it becomes `cycle_min_lr` / "
        "(1 + rate × steps since the cycle ended / `decay_step_size`). 0 keeps it at `cycle_min_lr`, and so does a "
        "`decay_step_size` of 0.",
        example=0.001,
    )
    cycle_first_step_size: _PositiveInt = option(
        2000,
        requires=_ONE_CYCLE,
        enforced=True,
        unit="steps",
        description="OneCycle: number of optimizer steps in the first half of the cycle, in which the learning rate "
        "climbs from `cycle_min_lr` to `cycle_max_lr` (and momentum falls). The whole cycle usually spans most of "
        "training, leaving a short decay phase after it.",
        example=1000,
    )
    cycle_second_step_size: int | None = option(
        None,
        requires=_ONE_CYCLE,
        example=2000,
        enforced=True,
        ge=0,
        unit="steps",
        description="OneCycle: number of optimizer steps in the second half of the cycle, in which the learning rate "
        "falls back to `cycle_min_lr` (and momentum rises). 0 ends the cycle at the peak, after which the rate drops "
        "straight to `cycle_min_lr`.",
        default_note="When absent, it equals cycle_first_step_size.",
    )
    cycle_first_stair_count: int = option(
        0,
        requires=_ONE_CYCLE,
        description="OneCycle: splits the first half of the cycle into this many flat stairs, changing the learning "
        "rate and momentum only at each stair boundary; 0 changes them smoothly at every step.",
        example=4,
    )
    cycle_second_stair_count: int | None = option(
        None,
        requires=_ONE_CYCLE,
        example=0,
        description="OneCycle: number of flat stairs in the second half of the cycle, as `cycle_first_stair_count` "
        "does for the first; 0 changes the values smoothly at every step.",
        default_note="When absent, it equals cycle_first_stair_count.",
    )
    decay_step_size: int = option(
        0,
        requires=_ONE_CYCLE,
        enforced=True,
        unit="steps",
        description="OneCycle: number of optimizer steps that make one decay interval after the cycle; "
        "`decay_lr_rate` and `decay_mom_rate` are applied per interval, growing smoothly in between. 0 turns the "
        "post-cycle decay off, leaving the learning rate at `cycle_min_lr` and momentum at `cycle_max_mom`.",
        example=1000,
    )
    cycle_momentum: bool = option(
        True,
        requires=_ONE_CYCLE,
        description="OneCycle: moves the optimizer's beta1 opposite to the learning rate, from `cycle_max_mom` down "
        "to `cycle_min_mom` while the rate rises and back while it falls. It also sets beta2 to 0.99 for the whole "
        "run, overriding `optimizer.params.betas`; for optimizers without betas, such as SGD, it is switched off with "
        "a warning.",
    )
    cycle_min_mom: float | list[float] = option(
        0.8,
        requires=_ONE_CYCLE,
        description="OneCycle with `cycle_momentum`: lowest beta1 of the cycle, used while the learning rate is at "
        "its peak.",
        example=0.85,
    )
    cycle_max_mom: float | list[float] = option(
        0.9,
        requires=_ONE_CYCLE,
        description="OneCycle with `cycle_momentum`: highest beta1 of the cycle, used while the learning rate is at "
        "its lowest and as the base of the momentum decay after the cycle.",
        example=0.95,
    )
    decay_mom_rate: float = option(
        0.0,
        requires=_ONE_CYCLE,
        enforced=True,
        description="OneCycle with `cycle_momentum`: how beta1 changes after the cycle; it becomes `cycle_max_mom` × "
        "(1 + rate × steps since the cycle ended / `decay_step_size`), so a positive rate raises it. 0 keeps it at "
        "`cycle_max_mom`; beta1 must stay below 1 for Adam to work.",
        example=0.001,
    )
    last_batch_iteration: int = option(
        -1,
        description="All DeepSpeed schedulers: index of the last step already taken, to start the schedule part-way "
        "through; -1 starts it from the beginning. Leave -1 when resuming with `load_checkpoint`, which restores the "
        "scheduler's position itself; with any other value the optimizer keeps its own `lr` until the first step. "
        "torch schedulers do not accept this key.",
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

    DeepSpeed reads only `type` and `params`. The scheduler is stepped once per optimizer step, so step counts here are
    optimizer steps, not micro batches; steps skipped because of an fp16 gradient overflow do not advance it. It is
    built only when there is an optimizer (from the `optimizer` section or from code), and a scheduler passed in code
    takes precedence.
    """

    type: str | None = option(
        None,
        enforced=True,
        description="Scheduler class: one of DeepSpeed's five schedulers or, failing that, any class in "
        "torch.optim.lr_scheduler; the name is case-sensitive. WarmupDecayLR or WarmupCosineLR suit most training "
        "runs, and WarmupLR holds a fixed rate after warm-up. A torch class receives `params` as its own constructor "
        "arguments and is stepped once per optimizer step too.",
        enum_docs=_SCHEDULER_TYPES,
        example="WarmupLR",
        requires=(("scheduler.params", {"warmup_num_steps": 1000}),),
        ds_constant="deepspeed.runtime.constants.SCHEDULER_TYPE_DEFAULT",
    )
    params: SchedulerParams | None = option(
        None,
        requires=(("scheduler.type", "WarmupLR"),),
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
