"""`curriculum_learning`: the legacy top-level curriculum learning section (removed in 0.19.8)."""

from __future__ import annotations

from typing import Literal

from .._base import DictSection, Section
from .._meta import option


class LegacyCurriculumScheduleConfig(DictSection):
    """Parameters of the legacy difficulty schedule; which keys were needed depended on `schedule_type`."""

    total_curriculum_step: int | None = option(
        None,
        unit="steps",
        description="Steps over which the difficulty rose from min_difficulty to max_difficulty (fixed_linear, "
        "fixed_root).",
    )
    difficulty_step: int | None = option(
        None,
        description="The difficulty was rounded down to a multiple of this (fixed_linear, fixed_root); a multiple "
        "of 8 was recommended for sequence length.",
    )
    root_degree: int | None = option(
        None,
        description="Degree of the root curve of the fixed_root schedule.",
    )
    difficulty: list[int] | None = option(
        None,
        description="Difficulty levels of a fixed_discrete schedule; one more entry than max_step.",
    )
    max_step: list[int] | None = option(
        None,
        unit="steps",
        description="Last step of each fixed_discrete difficulty level except the final one.",
    )


class LegacyCurriculumLearningConfig(DictSection):
    """The old curriculum learning, which shortened the sequence length of each batch early in training.

    DeepSpeed 0.19.8 rejects this section outright; metric-based curriculum learning now lives under
    `data_efficiency.data_sampling.curriculum_learning`.
    """

    enabled: bool = option(
        False,
        description="Turned legacy curriculum learning on; the key had to be present whenever the section was.",
    )
    curriculum_type: str | None = option(
        None,
        description="What the difficulty measured; only seqlen (sequence length) was acted on by the engine.",
        example="seqlen",
    )
    min_difficulty: int | None = option(
        None,
        description="Difficulty at the start of training.",
    )
    max_difficulty: int | None = option(
        None,
        description="Difficulty at the end of the schedule.",
    )
    schedule_type: Literal["fixed_linear", "fixed_root", "fixed_discrete", "custom"] | None = option(
        None,
        description="Shape of the schedule; other values were rejected when the scheduler was built.",
        example="fixed_linear",
    )
    schedule_config: LegacyCurriculumScheduleConfig | None = option(
        None,
        description="Parameters of the schedule.",
    )


class CurriculumLearningOptions(Section):
    """Top-level field contributed by this module."""

    curriculum_learning: LegacyCurriculumLearningConfig | None = option(
        None,
        since="0.5.0",
        removed_in="0.19.8",
        use_instead="data_efficiency.data_sampling.curriculum_learning",
        removal_note="The old sequence-length curriculum was dropped and the key now stops DeepSpeed with a config "
        "error; move the settings to the metric-based curriculum under data_efficiency.",
    )
