"""`timers`: settings of DeepSpeed's built-in timers (only the throughput timer so far)."""

from __future__ import annotations

from ._base import DictSection, Section, StrictSection
from ._meta import option


class ThroughputTimerConfig(StrictSection):
    """The engine's throughput timer.

    It measures the time of each training step and reports samples per second every `steps_per_print` steps.
    """

    ds_class = "deepspeed.utils.config.DeepSpeedThroughputTimerConfig"

    enabled: bool = option(
        True,
        description="Time every training step and log throughput (running-average and current samples per second, "
        "with device memory in use) every `steps_per_print` steps; the first two steps are left out of the average as "
        "warm-up. Turn it off to drop those log lines and the timer's device synchronisation.",
    )
    synchronized: bool = option(
        True,
        description="Waits for the device to finish before each time reading, which gives exact timings but "
        "costs some speed; false relies on the host clock alone.",
    )


class TimersConfig(DictSection):
    """Settings of DeepSpeed's built-in timers. Only the `throughput` entry is read; other keys here are ignored."""

    throughput: ThroughputTimerConfig = option(
        default_factory=ThroughputTimerConfig,
    )


class TimersOptions(Section):
    """Top-level fields contributed by this module."""

    timers: TimersConfig = option(
        default_factory=TimersConfig,
        since="0.14.3",
    )
