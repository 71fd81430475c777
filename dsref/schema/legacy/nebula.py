"""`nebula`: the removed Azure Nebula asynchronous checkpoint engine."""

from __future__ import annotations

from .._base import DictSection, Section
from .._meta import option


class NebulaConfig(DictSection):
    """Azure Nebula checkpointing: checkpoints were first taken into memory and then persisted to storage in the
    background, so training resumed quickly after a save.

    Only useful on Azure Machine Learning with the `torch_nebula` package. Removed in DeepSpeed 0.19.7; since
    then checkpoints are written by the regular checkpoint engines configured under `checkpoint`.
    """

    enabled: bool = option(False, description="Saves and loads checkpoints through Nebula.")
    persistent_storage_path: str | None = option(
        None,
        description="Directory Nebula persists checkpoints to.",
    )
    persistent_time_interval: int = option(
        100,
        description="Interval at which Nebula writes its in-memory checkpoints to persistent storage.",
    )
    num_of_version_in_retention: int = option(
        2,
        unit="count",
        description="Number of checkpoint versions kept in memory; an older one is dropped once it has been persisted.",
    )
    enable_nebula_load: bool = option(
        True,
        description="Loads checkpoints through Nebula; turn off to resume from a checkpoint written by plain "
        "torch.save.",
    )
    nebula_load_path: str | None = option(
        None,
        default_note="When absent, checkpoints are loaded from persistent_storage_path.",
        description="Parent directory of the Nebula checkpoint to resume from.",
    )


class NebulaOptions(Section):
    """Top-level field contributed by this module."""

    nebula: NebulaConfig = option(
        default_factory=NebulaConfig,
        since="0.7.0",
        removed_in="0.19.7",
        use_instead="checkpoint.writer",
        removal_note="Nebula support was dropped in DeepSpeed 0.19.7 and the block is refused because checkpoints "
        "would otherwise silently fall back to plain torch.save; delete it and use the checkpoint writer options "
        "for faster saving.",
    )
