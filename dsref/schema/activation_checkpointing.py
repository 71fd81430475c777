"""`activation_checkpointing`: settings of `deepspeed.checkpointing`."""

from __future__ import annotations

from ._base import DictSection, Section
from ._meta import option

_CONFIG = "deepspeed.runtime.activation_checkpointing.config"


class ActivationCheckpointingConfig(DictSection):
    """Settings of DeepSpeed's activation checkpointing (`deepspeed.checkpointing.checkpoint`), which keeps only
    some activations in the forward pass and recomputes the rest during backward.

    They apply where the model uses DeepSpeed's checkpoint function (e.g. Megatron models or pipeline modules);
    arguments given to `deepspeed.checkpointing.configure` override them.
    """

    partition_activations: bool = option(
        False,
        description="Splits each checkpointed activation across the model-parallel ranks instead of keeping a "
        "full copy on every rank.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_PARTITION_ACTIVATIONS_DEFAULT",
        example=True,
    )
    cpu_checkpointing: bool = option(
        False,
        description="Moves the checkpointed activations to CPU memory, with or without partition_activations.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_CPU_CHECKPOINTING_DEFAULT",
    )
    contiguous_memory_optimization: bool = option(
        False,
        description="Copies the partitioned checkpoints into one preallocated buffer to avoid memory "
        "fragmentation; needs partition_activations and number_checkpoints.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_CONTIGUOUS_MEMORY_OPTIMIZATION_DEFAULT",
    )
    number_checkpoints: int | None = option(
        None,
        unit="count",
        description="How many activation checkpoints one forward pass stores, used to size the contiguous "
        "buffer; required by contiguous_memory_optimization.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_NUMBER_CHECKPOINTS_DEFAULT",
    )
    synchronize_checkpoint_boundary: bool = option(
        False,
        description="Synchronizes the device at the start and end of every checkpointed call; useful for "
        "debugging and timing.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_SYNCHRONIZE_CHECKPOINT_BOUNDARY_DEFAULT",
    )
    profile: bool = option(
        False,
        description="Logs the forward and backward time of every checkpointed call.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_PROFILE_DEFAULT",
    )


class ActivationCheckpointingOptions(Section):
    """Top-level field contributed by this module."""

    activation_checkpointing: ActivationCheckpointingConfig = option(
        default_factory=ActivationCheckpointingConfig,
        since="0.2.0",
    )
