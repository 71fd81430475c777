"""`pipeline`: settings of DeepSpeed's pipeline-parallel engine."""

from __future__ import annotations

from typing import Literal

from ._base import PassthroughSection, Section
from ._meta import option


class PipelineConfig(PassthroughSection):
    """Options of the pipeline-parallel engine (`PipelineModule` / `PipelineEngine`).

    DeepSpeed merges this dict over its built-in defaults, so unknown keys are kept but nothing reads them.
    The number of stages and the partitioning come from the `PipelineModule` arguments, not from here.
    """

    stages: int | Literal["auto"] = option(
        "auto",
        parsed_unused=True,
        description="Number of pipeline stages; parsed but ignored (the PipelineModule's num_stages applies).",
    )
    partition: str = option(
        "best",
        parsed_unused=True,
        description="Layer partitioning method; parsed but ignored (the PipelineModule's partition_method applies).",
    )
    seed_layers: bool = option(
        False,
        parsed_unused=True,
        description="Per-layer seeding; parsed but ignored (the PipelineModule's seed_layers applies).",
    )
    activation_checkpoint_interval: int = option(
        0,
        enforced=True,
        unit="layers",
        description="Checkpoints activations every this many layers of the PipelineModule; 0 keeps the module's "
        "own setting.",
        example=1,
    )
    pipe_partitioned: bool = option(
        True,
        enforced=True,
        strict=True,
        since="0.12.3",
        description="With tensor parallelism, splits the activations sent between stages across the "
        "tensor-parallel ranks; must be a JSON boolean.",
    )
    grad_partitioned: bool = option(
        True,
        enforced=True,
        strict=True,
        since="0.12.3",
        description="With tensor parallelism, splits the gradients sent back between stages across the "
        "tensor-parallel ranks; must be a JSON boolean.",
    )
    use_reentrant: bool | None = option(
        True,
        since="0.10.3",
        description="Uses the reentrant activation-checkpoint function; false switches the pipeline to the "
        "non-reentrant one. null counts as true.",
    )


class PipelineOptions(Section):
    """Top-level field contributed by this module."""

    pipeline: PipelineConfig = option(
        default_factory=PipelineConfig,
        since="0.3.0",
    )
