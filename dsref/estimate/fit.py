"""What fits a GPU: the rows within a memory budget, the cheapest choice in speed, and a starting config for it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .model_states import SwapBuffers
from .quantities import MAX_BYTES, EstimateError, MixedPrecision, OffloadDevice, Param, check_int
from .table import Estimate, Row

__all__ = ["SUGGEST_ORDER", "Suggestion", "fits", "gpu_budget", "starting_config", "suggest"]

SUGGEST_ORDER: tuple[tuple[int, OffloadDevice, OffloadDevice], ...] = (
    (0, "none", "none"),
    (1, "none", "none"),
    (2, "none", "none"),
    (2, "cpu", "none"),
    (3, "none", "none"),
    (3, "cpu", "none"),
    (3, "cpu", "cpu"),
    (3, "nvme", "nvme"),
)
"""Fastest first, as Hugging Face Transformers' DeepSpeed guide orders them (stage 3 rows under zero.Init)."""


@dataclass(frozen=True)
class Suggestion:
    """The first choice in :data:`SUGGEST_ORDER` that fits, or ``row=None``; with the budget it was judged by."""

    row: Row | None
    gpu_memory: int
    reserve_percent: float
    activation_bytes: int
    budget: int
    """GPU bytes left for model states: memory less the reserve and the activations."""
    cpu_memory: int | None
    config: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "gpu_memory_bytes": self.gpu_memory,
            "reserve_percent": self.reserve_percent,
            "activation_bytes": self.activation_bytes,
            "model_state_budget_bytes": self.budget,
            "cpu_memory_bytes": self.cpu_memory,
            "choice": self.row.to_json() if self.row else None,
            "config": self.config,
        }


def fits(row: Row, budget: int, cpu_memory: int | None) -> bool:
    """Whether a row's model states fit the GPU budget and, when known, its CPU figure the node's memory."""
    return row.gpu_bytes <= budget and (cpu_memory is None or row.cpu_bytes <= cpu_memory)


def gpu_budget(gpu_memory: int, reserve_percent: float = 10.0, activation_bytes: int = 0) -> int:
    """GPU bytes left for model states: the memory less the reserve and the activations (may be negative)."""
    return int(gpu_memory * (100 - reserve_percent) / 100) - activation_bytes


def suggest(
    est: Estimate,
    gpu_memory: int,
    *,
    cpu_memory: int | None = None,
    reserve_percent: float = 10.0,
    checkpointing: bool = False,
    micro_batch: int = 1,
    precision: MixedPrecision = "bf16",
    nvme_path: str = "/local_nvme",
) -> Suggestion:
    """The fastest stage and offload whose model states (plus activations, if known) fit ``gpu_memory`` per GPU.

    ``reserve_percent`` of the GPU memory is kept for the CUDA context, communication buffers and fragmentation.
    """
    check_int(gpu_memory, Param.gpu_memory, 1, MAX_BYTES)
    if cpu_memory is not None:
        check_int(cpu_memory, Param.cpu_memory, 1, MAX_BYTES)
    if not (math.isfinite(reserve_percent) and 0 <= reserve_percent <= 90):
        raise EstimateError(
            "out_of_range", option=Param.reserve_percent, value=f"{reserve_percent:g}", minimum=0, maximum=90
        )
    act = est.activation
    activation_bytes = 0 if act is None else (act.with_checkpointing if checkpointing else act.without_checkpointing)
    budget = gpu_budget(gpu_memory, reserve_percent, activation_bytes)
    for stage, opt, par in SUGGEST_ORDER:
        row = est.row(stage, opt, par)
        if budget > 0 and fits(row, budget, cpu_memory):
            config = starting_config(
                row, micro_batch=micro_batch, precision=precision, nvme_path=nvme_path, buffers=est.buffers
            )
            return Suggestion(row, gpu_memory, reserve_percent, activation_bytes, budget, cpu_memory, config)
    return Suggestion(None, gpu_memory, reserve_percent, activation_bytes, budget, cpu_memory, None)


def starting_config(
    row: Row,
    *,
    micro_batch: int = 1,
    precision: MixedPrecision = "bf16",
    nvme_path: str = "/local_nvme",
    buffers: SwapBuffers | None = None,
) -> dict[str, Any]:
    """A minimal ds_config.json for a row: batch, mixed precision, AdamW (what the estimate assumes), ZeRO.

    AdamW is named so that DeepSpeed builds its CPU Adam when the optimizer is offloaded. With NVMe parameter
    offload, ``buffer_size`` is raised when the largest layer's share of a GPU would not fit one buffer.
    """
    zero: dict[str, Any] = {"stage": row.stage}
    if row.offload_optimizer != "none":
        zero["offload_optimizer"] = {"device": row.offload_optimizer, "pin_memory": True}
        if row.offload_optimizer == "nvme":
            zero["offload_optimizer"]["nvme_path"] = nvme_path
    if row.offload_param != "none":
        zero["offload_param"] = {"device": row.offload_param, "pin_memory": True}
        if row.offload_param == "nvme":
            zero["offload_param"]["nvme_path"] = nvme_path
            if buffers is not None and buffers.param_buffer_size != SwapBuffers.defaults().param_buffer_size:
                zero["offload_param"]["buffer_size"] = buffers.param_buffer_size
    return {
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        precision: {"enabled": True},
        "optimizer": {"type": "AdamW"},
        "zero_optimization": zero,
    }
