"""`aio`: asynchronous I/O settings for NVMe offload and fast checkpoint writing."""

from __future__ import annotations

from ._base import DictSection, Section
from ._meta import option

_CONSTANTS = "deepspeed.runtime.swap_tensor.constants"


class AioConfig(DictSection):
    """Tunes the asynchronous I/O library (libaio, or NVIDIA GPUDirect Storage) that DeepSpeed uses to swap parameters
    and optimizer states to NVMe (ZeRO-Infinity) and to write checkpoints with the fast writer.

    It matters only with ZeRO stage 3 and `offload_param` or `offload_optimizer` on `nvme`, or with a FAST
    `checkpoint.writer`. Good values depend on the drive: the `ds_nvme_tune` tool measures them, but it names the thread
    count `num_threads` (the key here is `intra_op_parallelism`) and writes booleans as strings, so copy its numbers in
    by hand. `null` counts as absent.
    """

    block_size: int = option(
        1048576,
        unit="bytes",
        description="Size in bytes of each I/O request a large read or write is split into. It also sets the smallest "
        "tensor worth swapping: NVMe offload keeps tensors under max(1 MB, `block_size`) in memory. The 1 MB "
        "default suits most drives; `ds_nvme_tune` compares it with 8 MB.",
        ds_constant=f"{_CONSTANTS}.AIO_BLOCK_SIZE_DEFAULT",
        example=8_388_608,
    )
    queue_depth: int = option(
        8,
        unit="count",
        description="Maximum number of `block_size` requests each I/O thread keeps in flight. Deeper queues let fast "
        "NVMe drives serve more requests in parallel; `ds_nvme_tune` tries 32 and 128, well above the default of 8.",
        ds_constant=f"{_CONSTANTS}.AIO_QUEUE_DEPTH_DEFAULT",
        example=32,
    )
    intra_op_parallelism: int = option(
        1,
        since="0.16.4",
        unit="count",
        docs_names=("thread_count",),
        former_names=("thread_count",),
        description="Number of threads each I/O handle runs; every read or write is divided evenly among them, and "
        "each thread keeps its own queue of `queue_depth` requests. Raise it (`ds_nvme_tune` tries 1 to 8) when one "
        "thread cannot keep the drive busy; swap buffers are aligned to 1024 × this many bytes. The docs call it "
        "thread_count, a key DeepSpeed does not read.",
        ds_constant=f"{_CONSTANTS}.AIO_INTRA_OP_PARALLELISM_DEFAULT",
        example=4,
    )
    single_submit: bool = option(
        False,
        description="Submits the requests of a batch to the kernel one at a time instead of in a single call. Batched "
        "submission (false) is normally faster; `ds_nvme_tune` tries both.",
        ds_constant=f"{_CONSTANTS}.AIO_SINGLE_SUBMIT_DEFAULT",
    )
    overlap_events: bool = option(
        True,
        description="Keeps the queue full by submitting new requests as soon as earlier ones complete; false submits "
        "`queue_depth` requests and waits for all of them before the next batch. Overlapping is normally faster; "
        "leave it on unless tuning shows otherwise.",
        ds_constant=f"{_CONSTANTS}.AIO_OVERLAP_EVENTS_DEFAULT",
    )
    use_gds: bool = option(
        False,
        since="0.15.0",
        description="Moves data directly between GPU memory and NVMe with NVIDIA GPUDirect Storage instead of staging "
        "it in CPU memory with libaio. It applies to ZeRO stage 3 parameter offload to NVMe and to the FAST "
        "checkpoint writer, whose buffers then live in GPU memory; optimizer-state swapping always uses libaio. Needs "
        "a CUDA device (asserted while the config is parsed) and a GDS-capable driver and file system.",
        ds_constant=f"{_CONSTANTS}.AIO_USE_GDS_DEFAULT",
    )


class AioOptions(Section):
    """Top-level field contributed by this module."""

    aio: AioConfig | None = option(
        default_factory=AioConfig,
        requires=(
            ("zero_optimization.stage", 3),
            ("zero_optimization.offload_param.device", "nvme"),
            ("zero_optimization.offload_param.nvme_path", "/local_nvme"),
        ),
        since="0.3.15",
    )
