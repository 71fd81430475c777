"""`checkpoint` and `datastates_ckpt`: how checkpoints are validated, written and loaded."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from ._base import DictSection, PassthroughSection, Section
from ._coerce import upper_case as _upper_case
from ._meta import option

_CONSTANTS = "deepspeed.runtime.constants"
_MC_CONSTANTS = "deepspeed.runtime.model_checkpointing.constants"

TagValidationMode = Annotated[Literal["WARN", "IGNORE", "FAIL"], BeforeValidator(_upper_case)]
WriterType = Annotated[Literal["MOCK", "PYTHON", "FAST"], BeforeValidator(_upper_case)]
WriterDataParallel = Annotated[Literal["REPLICA", "SOCKET", "MACHINE"], BeforeValidator(_upper_case)]


class ParallelWriteConfig(DictSection):
    """Spreads the writing of a checkpoint over several ranks instead of leaving it to one.

    Its only key, `pipeline_stage`, concerns pipeline parallelism; for sharing the writes among data-parallel ranks with
    the fast writer, see `checkpoint.writer.data_parallel`.
    """

    pipeline_stage: bool = option(
        False,
        enforced=True,
        strict=True,
        description="With pipeline parallelism, the data-parallel replicas of a stage split the stage's layer files "
        "evenly among themselves instead of data-parallel rank 0 writing them all. This speeds up saving large "
        "pipelined models when storage bandwidth grows with the number of writers, and has no effect without a "
        '`PipelineModule`. Must be true or false (a string such as "true" is a config error).',
        ds_constant=f"{_CONSTANTS}.CHECKPOINT_PARALLEL_WRITE_PIPELINE_STAGE_DEFAULT",
    )


class CheckpointWriterConfig(DictSection):
    """Writes checkpoints through DeepSpeed's fast file writer (DeepNVMe) instead of `torch.save`.

    The section's presence selects the fast checkpoint engine (the decoupled one with `decoupled`), which takes
    precedence over `datastates_ckpt`; the FAST writer uses the `aio` settings. Setting it up reads the `CROSS_RANK` and
    `CROSS_SIZE` environment variables that the `deepspeed` launcher sets, so start training with that launcher.
    """

    type: WriterType = option(
        "FAST",
        enforced=True,
        case_insensitive=True,
        description="Which file writer the fast checkpoint engine uses. FAST, the reason to configure `writer`, "
        "streams data through a pinned buffer with asynchronous direct I/O (libaio, or GPUDirect Storage with "
        "`aio.use_gds`); PYTHON uses ordinary file writes and MOCK writes nothing, both for comparison and testing.",
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
        description="Size in bytes of the staging buffer the FAST writer copies tensors through, allocated once as "
        "pinned CPU memory (in GPU memory with `aio.use_gds`). Larger buffers mean fewer, bigger writes at the cost "
        "of that memory on every writing rank; the default is 64 MB. With `io_buffer_double` the two halves are used "
        "in turn.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_BUFFER_SIZE_DEFAULT",
        example=134_217_728,
    )
    io_buffer_double: bool = option(
        True,
        description="Splits the FAST writer's staging buffer into two halves, so one half is filled from the tensors "
        "while the other is being written to disk. Usually faster; false writes through the whole buffer without that "
        "overlap.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_BUFFER_DOUBLE_DEFAULT",
    )
    show_statistics: bool = option(
        False,
        description="Prints write statistics (bytes, time, throughput) after each file, on the ranks that write. For "
        "tuning `io_buffer_size` and the `aio` settings; leave it off otherwise.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_STATISTICS_DEFAULT",
    )
    data_parallel: WriterDataParallel | None = option(
        None,
        example="REPLICA",
        enforced=True,
        case_insensitive=True,
        description="Which data-parallel ranks share the writing of the replicated model state: null leaves it all to "
        "data-parallel rank 0; REPLICA splits it across every replica, and SOCKET or MACHINE use one writer per CPU "
        "socket (two are assumed per machine) or per machine. More writers add bandwidth when each has its own path "
        "to storage. Ignored under ZeRO stage 3, where every rank saves its own shard anyway.",
        enum_docs=(
            ("REPLICA", "Every data-parallel replica writes a slice."),
            ("SOCKET", "One writer per CPU socket."),
            ("MACHINE", "One writer per machine."),
        ),
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_DATA_PARALLEL_DEFAULT",
    )
    decoupled: bool = option(
        False,
        description="Hands each checkpoint to a separate writer process, so `save_checkpoint` returns at once and "
        "training continues with the next forward and backward passes. The next optimizer step waits until the write "
        "has finished, since it would change the weights being saved. Each writing rank runs one extra process.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_WRITER_DECOUPLED_DEFAULT",
    )
    io_multiplier: int = option(
        1,
        unit="count",
        description="Multiplies the number of slices a data-parallel save is split into without adding writers; leave "
        "it at 1. With values above 1 the files are named for more slices than there are writing ranks, and the "
        "slices beyond the last writer are never written.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_IO_MULTIPLIER_DEFAULT",
        example=2,
    )


class CheckpointConfig(DictSection):
    """How checkpoints are saved and loaded: tag checking across ranks, universal checkpoints, node-local storage,
    parallel and fast writing.

    These settings act on `engine.save_checkpoint` and `engine.load_checkpoint`. By default each file is written with
    `torch.save` by the rank that owns it; `writer` and the top-level `datastates_ckpt` switch to faster checkpoint
    engines.
    """

    tag_validation: TagValidationMode = option(
        "WARN",
        enforced=True,
        case_insensitive=True,
        description="What `save_checkpoint` does when the ranks pass different checkpoint tags, which would scatter "
        "one checkpoint over several directories. The check costs two small all-reduces per save; FAIL catches "
        "rank-dependent tags early, IGNORE skips the collectives.",
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
        description="Makes `load_checkpoint` read a universal checkpoint, the layout-independent format produced by "
        "`python -m deepspeed.checkpoint.ds_to_universal`, so training can resume with different data-, tensor- or "
        "pipeline-parallel sizes. Set it only in the resuming run while loading such a checkpoint: without an "
        "explicit tag it reads the `latest_universal` file and fails if that is missing. Checkpoints saved afterwards "
        "are ordinary ones.",
        ds_constant=f"{_CONSTANTS}.LOAD_UNIVERSAL_CHECKPOINT_DEFAULT",
    )
    use_node_local_storage: bool = option(
        False,
        since="0.7.5",
        description="For clusters without a shared file system: the first process on every node (local rank 0), not "
        "only global rank 0, creates the checkpoint directory and writes the model-state files, so each node's disk "
        "holds what its ranks need to resume. The `latest` tag file is still written on the node of global rank 0 "
        "only, so pass an explicit tag to `load_checkpoint`. Leave it off with shared storage, where several "
        "processes would write the same files.",
        ds_constant=f"{_CONSTANTS}.USE_NODE_LOCAL_STORAGE_CHECKPOINT_DEFAULT",
    )
    parallel_write: ParallelWriteConfig = option(
        default_factory=ParallelWriteConfig,
        since="0.7.4",
        description="Spreads checkpoint writes over several ranks; currently only the layer files of pipeline stages.",
    )
    checkpoint_serialization: bool = option(
        True,
        since="0.17.1",
        description="Saves checkpoint files in torch's zip-based format, the `torch.save` default; false writes "
        "torch's older non-zip format, which `torch.load` still reads. It applies to the default writer and the fast "
        "writer alike, and there is rarely a reason to change it.",
        ds_constant=f"{_MC_CONSTANTS}.CHECKPOINT_SERIALIZATION_DEFAULT",
    )
    writer: CheckpointWriterConfig | None = option(
        None,
        since="0.17.1",
        description="Switches checkpoint saving to DeepSpeed's fast writer when present and not null, instead of "
        "`torch.save`.",
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
