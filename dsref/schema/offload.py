"""`zero_optimization.offload_param` and `zero_optimization.offload_optimizer`: ZeRO-Offload and ZeRO-Infinity."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

from ._base import StrictSection
from ._meta import HfAuto, option


class OffloadDevice(str, Enum):
    """Where offloaded tensors live."""

    none = "none"
    cpu = "cpu"
    nvme = "nvme"


_DEVICE_DOCS = (
    ("none", "No offload: the tensors stay in GPU memory."),
    ("cpu", "Host memory, ideally pinned; the usual choice when GPU memory runs short."),
    ("nvme", "An NVMe drive at nvme_path, through DeepSpeed's async I/O (ZeRO-Infinity); slowest, largest."),
)


class OffloadParamConfig(StrictSection):
    """Moves the partitioned model parameters out of GPU memory, to CPU RAM or NVMe, and fetches them back just in
    time for each layer. Only ZeRO stage 3 partitions parameters, so only stage 3 reads this section; at lower stages
    it is accepted and silently has no effect. The NVMe-only keys size the staging buffers.
    """

    ds_class = "deepspeed.runtime.zero.offload_config.DeepSpeedZeroOffloadParamConfig"

    device: OffloadDevice = option(
        OffloadDevice.none,
        docs_default="cpu",
        enum_docs=_DEVICE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="offload_param_device of the accelerate config"),
        description="Where the parameters are offloaded to. A section without this key offloads nothing.",
        example="cpu",
    )
    nvme_path: Path | None = option(
        None,
        docs_default="/local_nvme",
        hf_auto=HfAuto(by=("accelerate",), source="offload_param_nvme_path of the accelerate config"),
        description="Directory on a fast NVMe drive for parameter swap files; required when device is nvme.",
        example="/local_nvme",
    )
    buffer_count: int = option(
        5, ge=0, description="Number of staging buffers for parameters swapped to and from NVMe."
    )
    buffer_size: int = option(
        100_000_000,
        ge=0,
        unit="elements",
        description="Size of each NVMe staging buffer; must hold the largest parameter that is swapped.",
    )
    max_in_cpu: int = option(
        1_000_000_000,
        ge=0,
        unit="elements",
        description="With NVMe offload, how many parameter elements may still be kept in CPU memory.",
    )
    pin_memory: bool = option(
        True,
        description="Uses page-locked CPU memory, which makes GPU transfers faster and asynchronous; turn off only "
        "when the host limits locked memory (default true since 0.19.5).",
    )


class OffloadOptimizerConfig(StrictSection):
    """Moves the optimizer states (and the optimizer step itself, run by DeepSpeed's CPU Adam) off the GPU, to CPU
    RAM or NVMe. Works with ZeRO stages 1, 2 and 3; NVMe swapping is implemented only at stage 3 (stages 1 and 2
    treat nvme as cpu). The pipeline and ratio keys tune ZeRO-Infinity and partial offload.
    """

    ds_class = "deepspeed.runtime.zero.offload_config.DeepSpeedZeroOffloadOptimizerConfig"

    device: OffloadDevice = option(
        OffloadDevice.none,
        docs_default="cpu",
        enum_docs=_DEVICE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="offload_optimizer_device of the accelerate config"),
        description="Where optimizer states are offloaded to; with cpu or nvme the optimizer step runs on the CPU. "
        "A section without this key offloads nothing.",
        example="cpu",
    )
    nvme_path: Path | None = option(
        None,
        docs_default="/local_nvme",
        hf_auto=HfAuto(by=("accelerate",), source="offload_optimizer_nvme_path of the accelerate config"),
        description="Directory on a fast NVMe drive for optimizer-state swap files; required when device is nvme.",
        example="/local_nvme",
    )
    buffer_count: int = option(
        4,
        ge=0,
        description="Number of NVMe staging buffers; use at least the number of tensors the optimizer keeps per "
        "parameter (4 for Adam).",
    )
    pin_memory: bool = option(
        True,
        description="Uses page-locked CPU memory for offloaded states, for faster asynchronous transfers (default "
        "true since 0.19.5).",
    )
    pipeline_read: bool = option(
        False,
        stages=(3,),
        description="With NVMe, reads the next tile of optimizer state while the current one is being updated.",
    )
    pipeline_write: bool = option(
        False,
        stages=(3,),
        description="With NVMe, writes the previous tile back while the current one is being updated.",
    )
    fast_init: bool = option(
        False, stages=(3,), description="Speeds up optimizer initialisation when states are offloaded to NVMe."
    )
    ratio: float = option(
        1.0,
        ge=0.0,
        le=1.0,
        since="0.12.3",
        stages=(3,),
        unit="ratio",
        description="Share of optimizer states to offload (partial offload); values below 1.0 need ZeRO stage 3.",
    )
    super_offload: bool = option(
        False,
        since="0.18.0",
        stages=(3,),
        description="Uses SuperOffload, an optimizer offload tuned for superchips with a fast CPU-GPU link (such as "
        "GH200); stage 3 only.",
    )
    cpuadam_cores_perc: float = option(
        0.8,
        ge=0.0,
        le=1.0,
        since="0.18.0",
        stages=(3,),
        unit="ratio",
        description="Share of CPU cores given to CPU Adam when super_offload is on.",
    )
