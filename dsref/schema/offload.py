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


_PARAM_NVME = (
    ("zero_optimization.offload_param.device", "nvme"),
    ("zero_optimization.offload_param.nvme_path", "/local_nvme"),
)
"""What the NVMe keys of `offload_param` need beside them to take effect."""
_OPTIMIZER_NVME = (
    ("zero_optimization.offload_optimizer.device", "nvme"),
    ("zero_optimization.offload_optimizer.nvme_path", "/local_nvme"),
)
"""What the NVMe keys of `offload_optimizer` need beside them (NVMe optimizer offload is stage 3 only)."""

_DEVICE_DOCS = (
    ("none", "No offload: the tensors stay in GPU memory."),
    ("cpu", "Host memory, ideally pinned; the usual choice when GPU memory runs short."),
    ("nvme", "An NVMe drive at nvme_path, through DeepSpeed's async I/O (ZeRO-Infinity); slowest, largest."),
)


class OffloadParamConfig(StrictSection):
    """Moves the partitioned model parameters out of GPU memory, to CPU RAM or NVMe, and fetches them back just in
    time for each layer. Only ZeRO stage 3 partitions parameters, so only stage 3 reads this section; at lower stages
    it is accepted and silently has no effect. Use it when the 16-bit parameters do not fit in GPU memory even when
    partitioned; every forward and backward pass then waits on host transfers, so training slows down. The NVMe keys
    size the pinned staging buffers, and NVMe throughput is tuned in the `aio` section.
    """

    ds_class = "deepspeed.runtime.zero.offload_config.DeepSpeedZeroOffloadParamConfig"

    device: OffloadDevice = option(
        OffloadDevice.none,
        docs_default="cpu",
        enum_docs=_DEVICE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="offload_param_device of the accelerate config"),
        description="Where the parameter partitions live: cpu (host memory), nvme (swap files under `nvme_path`), or "
        "none to keep them on the GPU. A section without this key offloads nothing. The usual choice is cpu; nvme "
        "fits far larger models but is slower and needs the NVMe keys and the `aio` section.",
        example="cpu",
    )
    nvme_path: Path | None = option(
        None,
        requires=_PARAM_NVME,
        docs_default="/local_nvme",
        hf_auto=HfAuto(by=("accelerate",), source="offload_param_nvme_path of the accelerate config"),
        description="Directory on a fast local NVMe drive for parameter swap files; required when `device` is nvme. "
        "DeepSpeed writes under <nvme_path>/zero_stage_3/<dtype>params/rank<N> and empties that folder at start-up, "
        "so each node needs its own local path with room for its ranks' 16-bit parameter partitions.",
        example="/local_nvme",
    )
    buffer_count: int = option(
        5,
        requires=_PARAM_NVME,
        ge=0,
        description="Number of pinned staging buffers, each `buffer_size` elements, through which parameters move "
        "between NVMe and the GPU. More buffers allow more parameters in flight (prefetched) at once and cost "
        "buffer_count times buffer_size elements of pinned host memory (GPU memory with `aio.use_gds`); raise it if "
        "DeepSpeed reports that no swap buffer is available.",
        example=8,
    )
    buffer_size: int = option(
        100_000_000,
        requires=_PARAM_NVME,
        ge=0,
        unit="elements",
        description="Size of each NVMe staging buffer, in elements of the model's dtype. Every parameter partition "
        "swapped to NVMe must fit in one buffer, otherwise DeepSpeed stops with an error, so raise it for models "
        "with very large single tensors such as big embedding tables.",
        example=200_000_000,
    )
    max_in_cpu: int = option(
        1_000_000_000,
        requires=_PARAM_NVME,
        ge=0,
        unit="elements",
        description="With NVMe parameter offload at stage 3, how many elements of this rank's 16-bit parameter "
        "partitions are kept in CPU memory instead of on NVMe; the rest stay on NVMe and are swapped in when needed. "
        "Raise it when host RAM is plentiful, to swap less.",
        example=2_000_000_000,
    )
    pin_memory: bool = option(
        True,
        description="Keeps CPU-offloaded parameter partitions in page-locked (pinned) host memory, which the GPU "
        "copies from faster and asynchronously. Pinned memory cannot be paged out, so turn it off only when the host "
        "limits locked memory (ulimit -l) or has little RAM; the default became true in 0.19.5.",
    )


class OffloadOptimizerConfig(StrictSection):
    """Moves the optimizer states and fp32 master weights off the GPU, to CPU RAM or NVMe, and runs the optimizer step
    on the CPU. Works with ZeRO stages 1, 2 and 3; NVMe swapping is implemented only at stage 3 (stages 1 and 2 treat
    nvme as cpu). The step needs DeepSpeed's CPU optimizers: Adam, AdamW, Adagrad and Lion from the `optimizer` section
    get them automatically, while another client optimizer is rejected unless `zero_force_ds_cpu_optimizer` is false.
    The pipeline and ratio keys tune ZeRO-Infinity and partial offload.
    """

    ds_class = "deepspeed.runtime.zero.offload_config.DeepSpeedZeroOffloadOptimizerConfig"

    device: OffloadDevice = option(
        OffloadDevice.none,
        docs_default="cpu",
        enum_docs=_DEVICE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="offload_optimizer_device of the accelerate config"),
        description="Where the optimizer states and fp32 master weights live: cpu (host memory), nvme (swap files "
        "under `nvme_path`, stage 3 only; stages 1-2 treat it as cpu), or none to keep them on the GPU. With cpu or "
        "nvme the optimizer step runs on the CPU, which frees most of the training state's GPU memory but makes each "
        "step depend on CPU speed. A section without this key offloads nothing.",
        example="cpu",
    )
    nvme_path: Path | None = option(
        None,
        requires=_OPTIMIZER_NVME,
        docs_default="/local_nvme",
        hf_auto=HfAuto(by=("accelerate",), source="offload_optimizer_nvme_path of the accelerate config"),
        description="Directory on a fast local NVMe drive for optimizer-state swap files; required when `device` is "
        "nvme at stage 3. Files go under <nvme_path>/zero_stage_3/optimizer/rank<N>, so each node needs its own "
        "local path with room for its ranks' fp32 master weights and optimizer states.",
        example="/local_nvme",
    )
    buffer_count: int = option(
        4,
        requires=_OPTIMIZER_NVME,
        ge=0,
        description="Number of pinned host buffers that stream optimizer state between NVMe and the CPU optimizer, "
        "each as large as the largest `sub_group_size` sub-group in the master-weight dtype (normally fp32). It must "
        "cover every tensor stepped together for one sub-group, which is 4 for Adam (master weights, gradient and "
        "two moments); raise it if DeepSpeed reports running out of swap buffers, as `pipeline_read` and "
        "`pipeline_write` may need more.",
        example=8,
    )
    pin_memory: bool = option(
        True,
        description="Keeps the offloaded master weights, optimizer states and gradient buffers in page-locked "
        "(pinned) host memory, so copies between CPU and GPU are faster and asynchronous. Turn it off only when the "
        "host limits locked memory (ulimit -l) or has little RAM; the default became true in 0.19.5.",
    )
    pipeline_read: bool = option(
        False,
        requires=_OPTIMIZER_NVME,
        stages=(3,),
        description="With NVMe optimizer offload at stage 3, reads the next sub-group's optimizer state from NVMe "
        "while the current sub-group is being stepped, hiding read latency. It may need a larger `buffer_count`; "
        "usually set together with `pipeline_write`.",
    )
    pipeline_write: bool = option(
        False,
        requires=_OPTIMIZER_NVME,
        stages=(3,),
        description="With NVMe optimizer offload at stage 3, writes the previous sub-group's updated optimizer state "
        "back to NVMe while the current sub-group is being stepped, hiding write latency. It may need a larger "
        "`buffer_count`; usually set together with `pipeline_read`.",
    )
    fast_init: bool = option(
        False,
        requires=_PARAM_NVME + _OPTIMIZER_NVME,
        stages=(3,),
        description="Speeds up start-up when both parameters and optimizer states are offloaded to NVMe at stage 3: "
        "the fp32 master weights are built from the NVMe-resident 16-bit parameters in batches, straight into the "
        "optimizer swap files. In other setups it has no effect.",
    )
    ratio: float = option(
        1.0,
        example=0.3,
        ge=0.0,
        le=1.0,
        since="0.12.3",
        stages=(3,),
        unit="ratio",
        description="Stage 3 partial offload: the share of optimizer sub-groups (see `sub_group_size`) whose states "
        "and step go to the CPU; the rest stay on the GPU and are stepped there with PyTorch's AdamW. Lower it when "
        "GPU memory is left over, to speed up the step; values below 1.0 need stage 3 and DeepSpeed's CPU Adam, and "
        "with only a few sub-groups the split is coarse.",
    )
    super_offload: bool = option(
        False,
        since="0.18.0",
        stages=(3,),
        description="Stage 3: uses SuperOffload, an optimizer offload for Superchips with a fast CPU-GPU link (such "
        "as NVIDIA GH200), which runs CPU Adam in a separate worker process on its own CPU cores and overlaps it "
        "with GPU work. It needs CUDA and `device` cpu; `cpuadam_cores_perc` splits the cores, and other stages "
        "ignore it.",
    )
    cpuadam_cores_perc: float = option(
        0.8,
        ge=0.0,
        le=1.0,
        since="0.18.0",
        stages=(3,),
        unit="ratio",
        description="With `super_offload`, the share of this process's allowed CPU cores given to the CPU Adam "
        "worker process; the remaining cores stay with the PyTorch training process. It must be above 0 when used; "
        "raise it if the optimizer step is the bottleneck, lower it if data loading or other host work starves.",
        example=0.6,
    )
