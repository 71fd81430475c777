"""The keyword arguments of DeepSpeed's own learning-rate schedulers: what ``scheduler.params`` holds for each.

DeepSpeed hands ``scheduler.params`` to the constructor of the class ``scheduler.type`` names
(``deepspeed/runtime/lr_schedules.py``), which takes its own keys and applies its own defaults; the schema lists
every scheduler's keys together. DeepSpeed is not imported at run time, so the signatures are kept here as data,
after the optimizer; ``tests/unit/check/test_show_effective.py`` compares them with ``inspect.signature`` of the
installed DeepSpeed 0.19.8.
"""

from __future__ import annotations

__all__ = ["SCHEDULER_KEYWORDS", "SCHEDULER_OWN_DEFAULTS"]

SCHEDULER_KEYWORDS: dict[str, tuple[str, ...]] = {
    "LRRangeTest": (
        "lr_range_test_min_lr",
        "lr_range_test_step_size",
        "lr_range_test_step_rate",
        "lr_range_test_staircase",
        "last_batch_iteration",
    ),
    "OneCycle": (
        "cycle_min_lr",
        "cycle_max_lr",
        "decay_lr_rate",
        "cycle_first_step_size",
        "cycle_second_step_size",
        "cycle_first_stair_count",
        "cycle_second_stair_count",
        "decay_step_size",
        "cycle_momentum",
        "cycle_min_mom",
        "cycle_max_mom",
        "decay_mom_rate",
        "last_batch_iteration",
    ),
    "WarmupLR": ("warmup_min_lr", "warmup_max_lr", "warmup_num_steps", "warmup_type", "last_batch_iteration"),
    "WarmupDecayLR": (
        "total_num_steps",
        "warmup_min_lr",
        "warmup_max_lr",
        "warmup_num_steps",
        "warmup_type",
        "last_batch_iteration",
    ),
    "WarmupCosineLR": (
        "total_num_steps",
        "warmup_min_ratio",
        "warmup_num_steps",
        "cos_min_ratio",
        "warmup_type",
        "last_batch_iteration",
    ),
}
"""For each scheduler DeepSpeed defines, the keyword parameters of its ``__init__`` after the optimizer, in order."""

SCHEDULER_OWN_DEFAULTS: dict[tuple[str, str], object] = {("WarmupDecayLR", "warmup_max_lr"): 0.001}
"""Where a scheduler's own default differs from the one the schema gives the key (WarmupLR's, which lets
``warmup_max_lr`` default to the optimizer's rate since 0.16.5, while WarmupDecayLR keeps 0.001)."""
