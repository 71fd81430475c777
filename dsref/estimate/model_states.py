"""Model states per GPU and per node for each ZeRO stage and offload device: weights, gradients, optimizer states.

Stage 2 and stage 3 use DeepSpeed 0.19.8's own formulas (``estimate_zero2_model_states_mem_needs`` in
``deepspeed/runtime/zero/stage_1_and_2.py`` and ``estimate_zero3_model_states_mem_needs`` in
``deepspeed/runtime/zero/stage3.py``), written with the same expressions so that float rounding agrees to the byte.
Stages 0 and 1 and NVMe offload, which DeepSpeed's functions do not cover, are derived here from the same byte
accounting (DeepSpeed's, mixed precision with Adam), in bytes per parameter: 2 for the 16-bit weights, and 18 more =
2 (16-bit gradients) + 4 (32-bit gradients) + 4 (32-bit master weights) + 8 (Adam momentum and variance).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from ..records import record

__all__ = [
    "BUFFER_FACTOR",
    "BYTES_PER_PARAM",
    "SwapBuffers",
    "deepspeed_default",
    "zero0_model_states",
    "zero1_model_states",
    "zero2_model_states",
    "zero3_model_states",
    "zero3_nvme_model_states",
]

BYTES_PER_PARAM: dict[str, int] = {
    "weights_16bit": 2,
    "gradients_16bit": 2,
    "gradients_32bit": 4,
    "master_weights_32bit": 4,
    "adam_states_32bit": 8,
}
"""DeepSpeed's byte accounting for mixed-precision training with Adam (its comment in ``stage_1_and_2.py``)."""


_W16 = BYTES_PER_PARAM["weights_16bit"]


_G16 = BYTES_PER_PARAM["gradients_16bit"]


_FP32_STATE = (
    BYTES_PER_PARAM["gradients_32bit"] + BYTES_PER_PARAM["master_weights_32bit"] + BYTES_PER_PARAM["adam_states_32bit"]
)
"""16: what ZeRO stage 1 partitions (32-bit gradients, master weights, Adam states)."""


_PARTITIONED = _G16 + _FP32_STATE
"""18: what ZeRO stage 2 partitions on top (DeepSpeed's ``18 * total_params / total_gpus``)."""


BUFFER_FACTOR = 1.5
"""DeepSpeed's ``additional_buffer_factor`` default: CPU figures are multiplied by it."""


def zero2_model_states(
    total_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) for ZeRO stage 2, exactly as DeepSpeed 0.19.8 computes them.

    Same expressions as ``deepspeed.runtime.zero.stage_1_and_2.estimate_zero2_model_states_mem_needs``. Note that
    DeepSpeed's CPU figure with offload grows with the total GPU count and is not divided among nodes.

    >>> zero2_model_states(1_000_000_000, 8, 1, cpu_offload=False)
    (48000000000, 4250000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    if cpu_offload:
        gpu_mem = 2 * total_params
        cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        gpu_mem = 2 * total_params + int(18 * total_params / total_gpus)
        cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


def zero3_model_states(
    total_params: int,
    largest_layer_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    cpu_offload_params: bool = True,
    zero_init: bool = True,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int, int]:
    """(CPU bytes per node, GPU bytes per GPU, largest-layer bytes) for ZeRO stage 3, exactly as DeepSpeed 0.19.8.

    Same expressions as ``deepspeed.runtime.zero.stage3.estimate_zero3_model_states_mem_needs``; the GPU always
    holds one gathered layer (4 bytes per parameter of the largest layer, DeepSpeed's allowance).

    >>> zero3_model_states(1_000_000_000, 50_000_000, 8, 1, cpu_offload=False, cpu_offload_params=False)
    (2400000000, 2450000000, 200000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    if cpu_offload:
        if cpu_offload_params:
            gpu_mem = largest_layer_memory
            if zero_init:
                cpu_mem = total_params * 18 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 18 * gpus_factor) * additional_buffer_factor
        else:
            gpu_mem = largest_layer_memory + int(2 * total_params / total_gpus)
            if zero_init:
                cpu_mem = total_params * 16 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 16 * gpus_factor) * additional_buffer_factor
    else:
        gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu_mem = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem), largest_layer_memory


def zero0_model_states(
    total_params: int, num_gpus_per_node: int = 1, additional_buffer_factor: float = BUFFER_FACTOR
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) without ZeRO. Derived by dsref, not a DeepSpeed function.

    Every GPU holds all 2 + 18 bytes per parameter; the CPU side is what DeepSpeed's stage-2 estimate counts
    without offload (each process loads the model in 32-bit).

    >>> zero0_model_states(1_000_000_000, 8)
    (48000000000, 20000000000)
    """
    gpu_mem = (_W16 + _PARTITIONED) * total_params
    cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


def zero1_model_states(
    total_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = False,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) for ZeRO stage 1. Derived by dsref, not a DeepSpeed function.

    Stage 1 runs DeepSpeed's stage-1/2 optimizer without partitioning gradients: each GPU keeps the 16-bit weights
    and the whole 16-bit gradients (2 + 2 bytes per parameter) and its share of the 16 bytes of 32-bit state; with
    offload that share lives in CPU memory. The CPU side is the same as stage 2's, so its figure is DeepSpeed's.

    >>> zero1_model_states(1_000_000_000, 8, 1)
    (48000000000, 6000000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    cpu_mem, _ = zero2_model_states(total_params, num_gpus_per_node, num_nodes, cpu_offload, additional_buffer_factor)
    gpu_mem = (_W16 + _G16) * total_params
    if not cpu_offload:
        gpu_mem += int(_FP32_STATE * total_params / total_gpus)
    return cpu_mem, gpu_mem


@record
class SwapBuffers:
    """The pinned CPU buffers NVMe offload swaps through, per GPU; defaults are DeepSpeed's (from the option tree)."""

    param_buffer_count: int
    param_buffer_size: int
    optimizer_buffer_count: int
    sub_group_size: int

    @classmethod
    def defaults(cls) -> SwapBuffers:
        """DeepSpeed 0.19.8's defaults, from dsref's generated option index (the schema's facts, read fast)."""
        return _default_buffers()

    def for_model(self, total_params: int, largest_layer_params: int, total_gpus: int) -> SwapBuffers:
        """These buffers with ``param_buffer_size`` raised to hold the largest layer's share of one GPU.

        DeepSpeed asserts that a parameter's partition fits in one buffer (``partitioned_param_swapper.py``).
        """
        share = -(-largest_layer_params // total_gpus)
        return replace(self, param_buffer_size=max(self.param_buffer_size, share))

    def bytes_per_gpu(self, total_params: int, total_gpus: int) -> int:
        """16-bit parameter buffers plus 32-bit optimizer buffers of the largest sub-group partition."""
        params = self.param_buffer_count * self.param_buffer_size * 2
        return params + self.optimizer_bytes_per_gpu(total_params, total_gpus)

    def optimizer_bytes_per_gpu(self, total_params: int, total_gpus: int) -> int:
        """The 32-bit optimizer buffers: ``buffer_count`` of the largest sub-group of a GPU's partition."""
        partition = -(-total_params // total_gpus)
        return self.optimizer_buffer_count * min(self.sub_group_size, partition) * 4


@cache
def deepspeed_default(path: str) -> int:
    """DeepSpeed 0.19.8's default of the integer option at ``path``, from dsref's generated option index (the
    schema's facts, read fast): the estimator types no default of its own."""
    from ..tree.index import OptionIndex

    return int(OptionIndex.load().get(path).default)


@cache
def _default_buffers() -> SwapBuffers:
    default = deepspeed_default
    return SwapBuffers(
        param_buffer_count=default("zero_optimization.offload_param.buffer_count"),
        param_buffer_size=default("zero_optimization.offload_param.buffer_size"),
        optimizer_buffer_count=default("zero_optimization.offload_optimizer.buffer_count"),
        sub_group_size=default("zero_optimization.sub_group_size"),
    )


def zero3_nvme_model_states(
    total_params: int,
    largest_layer_params: int,
    num_gpus_per_node: int,
    num_nodes: int,
    zero_init: bool,
    buffers: SwapBuffers,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int, int]:
    """(CPU bytes per node, GPU bytes per GPU, NVMe bytes per node) for stage 3 with optimizer and parameters on NVMe.

    Derived by dsref. GPU: as DeepSpeed's stage-3 CPU-offload figure (one gathered layer). NVMe: the 2 + 16 bytes
    per parameter (16-bit weights; 32-bit gradients, master weights, Adam states) that DeepSpeed's CPU-offload
    figure keeps in CPU memory, shared by the nodes. CPU: what the model is built with (the largest layer per
    process under zero.Init, else the whole model in 32-bit, as DeepSpeed's figures count it) plus the pinned swap
    buffers, times the buffer factor.
    """
    total_gpus = num_nodes * num_gpus_per_node
    gpu_mem = 4 * largest_layer_params
    built = (largest_layer_params if zero_init else total_params) * 4 * num_gpus_per_node
    swap = buffers.bytes_per_gpu(total_params, total_gpus) * num_gpus_per_node
    cpu_mem = int((built + swap) * additional_buffer_factor)
    nvme = -(-(_W16 + _FP32_STATE) * total_params // num_nodes)
    return cpu_mem, gpu_mem, nvme
