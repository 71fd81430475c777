"""`activation_checkpointing`: settings of `deepspeed.checkpointing`."""

from __future__ import annotations

from ._base import DictSection, Section
from ._meta import option

_CONFIG = "deepspeed.runtime.activation_checkpointing.config"


class ActivationCheckpointingConfig(DictSection):
    """Settings of DeepSpeed's own activation checkpointing (`deepspeed.checkpointing.checkpoint`), which keeps only the
    inputs of each checkpointed block in the forward pass and recomputes the rest during backward.

    DeepSpeed applies this section only when your code calls
    `deepspeed.checkpointing.configure(mpu, deepspeed_config=...)`, as Megatron-DeepSpeed does; the engine never reads
    it by itself, and it has no effect on `torch.utils.checkpoint`, which most other code, Hugging Face models included,
    uses. Which layers are checkpointed is decided by the model code (for a `PipelineModule`, by
    `pipeline.activation_checkpoint_interval`); arguments given to `configure` override the values here.
    """

    partition_activations: bool = option(
        False,
        description="Splits each saved checkpoint input across the tensor-parallel ranks, so every rank stores only "
        "its share and the full tensor is rebuilt with an all-gather before recomputation. This cuts checkpoint "
        "memory by the tensor-parallel degree at the cost of that extra communication, and has no effect without "
        "tensor parallelism (an `mpu` passed to `configure`). Each tensor's element count must divide evenly by the "
        "tensor-parallel size.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_PARTITION_ACTIVATIONS_DEFAULT",
        example=True,
    )
    cpu_checkpointing: bool = option(
        False,
        description="Moves the saved checkpoint inputs to CPU memory and copies them back for recomputation, freeing "
        "accelerator memory at the cost of host-device transfers. Works with or without `partition_activations`; "
        "combined with it, only each rank's share moves. Useful when activation memory still limits batch size or "
        "sequence length after checkpointing.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_CPU_CHECKPOINTING_DEFAULT",
    )
    contiguous_memory_optimization: bool = option(
        False,
        description="Copies the partitioned checkpoint inputs into preallocated contiguous buffers instead of "
        "separate allocations, which reduces memory fragmentation in long runs. Needs `partition_activations` and "
        "`number_checkpoints` (asserted by `configure`), and assumes every checkpointed block has inputs of the same "
        "shapes, as in a stack of identical transformer layers.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_CONTIGUOUS_MEMORY_OPTIMIZATION_DEFAULT",
    )
    number_checkpoints: int | None = option(
        None,
        requires=(
            ("activation_checkpointing.partition_activations", True),
            ("activation_checkpointing.contiguous_memory_optimization", True),
        ),
        example=24,
        unit="count",
        description="How many checkpointed calls one forward pass makes, typically the number of transformer layers; "
        "it sizes the buffers of `contiguous_memory_optimization`, which requires it. Set it to at least the real "
        "count, or the buffers run out during the forward pass.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_NUMBER_CHECKPOINTS_DEFAULT",
    )
    synchronize_checkpoint_boundary: bool = option(
        False,
        description="Waits for all queued device work at the start and end of every checkpointed forward and backward "
        "call. Only for debugging or precise timing, since it removes the overlap between host and device and slows "
        "training.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_SYNCHRONIZE_CHECKPOINT_BOUNDARY_DEFAULT",
    )
    profile: bool = option(
        False,
        description="Times the forward and backward pass of every checkpointed call and logs the result each time. "
        "Useful to see what recomputation costs, but it logs a line per call, so turn it off for normal training.",
        ds_constant=f"{_CONFIG}.ACT_CHKPT_PROFILE_DEFAULT",
    )


class ActivationCheckpointingOptions(Section):
    """Top-level field contributed by this module."""

    activation_checkpointing: ActivationCheckpointingConfig = option(
        default_factory=ActivationCheckpointingConfig,
        since="0.2.0",
    )
