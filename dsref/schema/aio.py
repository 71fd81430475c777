"""`aio`: asynchronous I/O settings for NVMe offload and fast checkpoint writing."""

from __future__ import annotations

from ._base import DictSection, Section
from ._meta import option

_CONSTANTS = "deepspeed.runtime.swap_tensor.constants"


class AioConfig(DictSection):
    """Tunes the asynchronous I/O library (libaio, or NVIDIA GPUDirect Storage) that DeepSpeed uses to swap
    parameters and optimizer states to NVMe (ZeRO-Infinity) and to write checkpoints with the fast writer.

    `null` counts as absent.
    """

    block_size: int = option(
        1048576,
        enforced=True,
        unit="bytes",
        description="Size of a single I/O request.",
        ds_constant=f"{_CONSTANTS}.AIO_BLOCK_SIZE_DEFAULT",
        example=1048576,
    )
    queue_depth: int = option(
        8,
        enforced=True,
        unit="count",
        description="Number of I/O requests kept in flight at once.",
        ds_constant=f"{_CONSTANTS}.AIO_QUEUE_DEPTH_DEFAULT",
        example=8,
    )
    intra_op_parallelism: int = option(
        1,
        enforced=True,
        since="0.16.4",
        unit="count",
        docs_names=("thread_count",),
        description="Number of threads that split one read or write among them; the docs call it thread_count, a "
        "key DeepSpeed does not read.",
        ds_constant=f"{_CONSTANTS}.AIO_INTRA_OP_PARALLELISM_DEFAULT",
        example=1,
    )
    single_submit: bool = option(
        False,
        enforced=True,
        description="Submits requests one at a time instead of in batches.",
        ds_constant=f"{_CONSTANTS}.AIO_SINGLE_SUBMIT_DEFAULT",
    )
    overlap_events: bool = option(
        True,
        enforced=True,
        description="Submits new requests while waiting for earlier ones to complete.",
        ds_constant=f"{_CONSTANTS}.AIO_OVERLAP_EVENTS_DEFAULT",
    )
    use_gds: bool = option(
        False,
        since="0.15.0",
        description="Uses NVIDIA GPUDirect Storage instead of libaio; only on CUDA devices (asserted while the "
        "config is parsed).",
        ds_constant=f"{_CONSTANTS}.AIO_USE_GDS_DEFAULT",
    )


class AioOptions(Section):
    """Top-level field contributed by this module."""

    aio: AioConfig | None = option(
        default_factory=AioConfig,
        since="0.3.15",
    )
