"""`checkpoint` and `datastates_ckpt`: how checkpoints are validated, written and loaded."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from ._base import DictSection, PassthroughSection, Section
from ._meta import option

_CONSTANTS = "deepspeed.runtime.constants"
_MC_CONSTANTS = "deepspeed.runtime.model_checkpointing.constants"


def _upper_case(value: Any) -> Any:
    """Upper-cases a string value, as DeepSpeed does before comparing it."""
    return value.upper() if isinstance(value, str) else value


TagValidationMode = Annotated[Literal["WARN", "IGNORE", "FAIL"], BeforeValidator(_upper_case)]
WriterType = Annotated[Literal["MOCK", "PYTHON", "FAST"], BeforeValidator(_upper_case)]
WriterDataParallel = Annotated[Literal["REPLICA", "SOCKET", "MACHINE"], BeforeValidator(_upper_case)]


class ParallelWriteConfig(DictSection):
    """Spreading checkpoint writes over several ranks."""

    pipeline_stage: bool = option(
        False,
        enforced=True,
        strict=True,
        description="With pipeline parallelism, the data-parallel ranks of a stage share the writing of its layer "
        'files instead of leaving it all to the first one; must be true or false (a string such as "true" is '
        "a config error).",
        ds_constant=f"{_CONSTANTS}.CHECKPOINT_PARALLEL_WRITE_PIPELINE_STAGE_DEFAULT",
    )


class CheckpointWriterConfig(DictSection):
    """Writes checkpoints through DeepSpeed's fast file writer (DeepNVMe) instead of `torch.save`.

    The section's presence selects the fast checkpoint engine (the decoupled one with `decoupled`); the
    fast writer uses the `aio` settings.
    """

    type: WriterType = option(
        "FAST",
        enforced=True,
        case_insensitive=True,
        description="Which file writer to use.",
        enum_docs=(
            ("FAST", "Asynchronous I/O through DeepNVMe (libaio or GPUDirect Storage) with a pinned buffer."),
            ("PYTHON", "Plain Python file writes."),
            ("MOCK", "Writes nothing; for testing and benchmarking."),
        ),
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_WRITER_TYPE_DEFAULT",
    )
    io_buffer_size: int = option(
        67108864,
        enforced=True,
        ge=0,
        unit="bytes",
        description="Size of the pinned staging buffer of the fast writer.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_BUFFER_SIZE_DEFAULT",
    )
    io_buffer_double: bool = option(
        True,
        description="Splits the staging buffer in two halves so that filling one overlaps writing the other.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_BUFFER_DOUBLE_DEFAULT",
    )
    show_statistics: bool = option(
        False,
        description="Logs write statistics of each file written.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_STATISTICS_DEFAULT",
    )
    data_parallel: WriterDataParallel | None = option(
        None,
        enforced=True,
        case_insensitive=True,
        description="Lets data-parallel ranks share the writing of replicated state, one writer per replica, "
        "CPU socket or machine; null leaves it to data-parallel rank 0.",
        enum_docs=(
            ("REPLICA", "Every data-parallel replica writes a slice."),
            ("SOCKET", "One writer per CPU socket."),
            ("MACHINE", "One writer per machine."),
        ),
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_DATA_PARALLEL_DEFAULT",
    )
    decoupled: bool = option(
        False,
        description="Writes checkpoints in a separate process so that training continues while they are saved.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_WRITER_DECOUPLED_DEFAULT",
    )
    io_multiplier: int = option(
        1,
        unit="count",
        description="Multiplies the number of parallel writers (and output file slices) of a data-parallel save.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_MULTIPLIER_DEFAULT",
    )


class CheckpointConfig(DictSection):
    """How checkpoints are saved and loaded: tag checking across ranks, universal checkpoints, node-local
    storage, parallel and fast writing.
    """

    tag_validation: TagValidationMode = option(
        "WARN",
        enforced=True,
        case_insensitive=True,
        description="What happens when ranks save a checkpoint under different tags.",
        enum_docs=(
            ("WARN", "Log a warning and continue."),
            ("IGNORE", "Skip the check."),
            ("FAIL", "Stop with an error."),
        ),
        ds_constant=f"{_CONSTANTS}.CHECKPOINT_TAG_VALIDATION_DEFAULT",
        example="Fail",
    )
    load_universal: bool = option(
        False,
        since="0.7.0",
        description="Loads a universal checkpoint (converted with ds_to_universal), which can be resumed with a "
        "different parallel layout.",
        ds_constant=f"{_CONSTANTS}.LOAD_UNIVERSAL_CHECKPOINT_DEFAULT",
    )
    use_node_local_storage: bool = option(
        False,
        since="0.7.5",
        description="Names checkpoint files by local rank so that each node can save to and load from its own "
        "disk when there is no shared file system.",
        ds_constant=f"{_CONSTANTS}.USE_NODE_LOCAL_STORAGE_CHECKPOINT_DEFAULT",
    )
    parallel_write: ParallelWriteConfig = option(
        default_factory=ParallelWriteConfig,
        since="0.7.4",
        description="Spreading checkpoint writes over ranks.",
    )
    checkpoint_serialization: bool = option(
        True,
        since="0.17.1",
        description="Saves with torch's zip-file serialization; false writes the older, non-zip format.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_SERIALIZATION_DEFAULT",
    )
    writer: CheckpointWriterConfig | None = option(
        None,
        since="0.17.1",
        description="Fast checkpoint writer; when present (not null) it is used instead of torch.save.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_WRITER_DEFAULT",
    )


class DataStatesCkptConfig(PassthroughSection):
    """Settings of the DataStates-LLM asynchronous checkpoint engine (an external package, `datastates`).

    DeepSpeed does not read any key itself: it hands a copy of the value to the DataStates engine. Any value
    other than `false` (even `{}` or `null`) selects that engine, unless `checkpoint.writer` is set; if
    the package is missing, DeepSpeed logs an error and falls back to `torch.save`.
    """


class CheckpointOptions(Section):
    """Top-level fields contributed by this module."""

    checkpoint: CheckpointConfig = option(
        default_factory=CheckpointConfig,
        since="0.3.11",
    )
    datastates_ckpt: DataStatesCkptConfig | bool | None = option(
        False,
        since="0.18.1",
        description="Selects the DataStates asynchronous checkpoint engine: its mere presence enables it unless "
        "the value is literally false.",
        ds_constant="deepspeed.datastates.config.DATASTATES_CHECKPOINTING_ENABLED",
    )
