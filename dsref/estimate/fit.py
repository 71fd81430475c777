"""What fits a GPU: each stage and offload choice judged by the peak of the run on it, the cheapest choice in speed,
and a starting config for it.

The peak is :func:`.peak.peak_memory`'s, the same for a model read from a config.json and for one given by flags
(:func:`.model.architecture_from_flags`): model states, activations, logits, DeepSpeed's buffers and the CUDA
context, judged against the GPU's memory less the stage's reserve for fragmentation
(:func:`.advice.fragmentation_reserve`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..records import record
from .advice import Advice, check_budget, fragmentation_reserve, usable_memory
from .model import Architecture
from .model_states import SwapBuffers
from .peak import Peak, Run, peak_memory
from .quantities import MixedPrecision, OffloadDevice
from .table import Estimate, Row

__all__ = [
    "SUGGEST_ORDER",
    "RowFit",
    "Suggestion",
    "fit_rows",
    "row_peaks",
    "row_run",
    "starting_config",
    "suggest",
]

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


@record
class RowFit:
    """One row of the model-state table, judged by the peak of the run on it."""

    row: Row
    peak: Peak
    usable: int
    """The GPU memory less the reserve kept back at the row's stage."""
    fits: bool
    """The peak within :attr:`usable` and, when the node's CPU memory is known, the row's CPU figure within it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "peak_bytes": self.peak.bytes,
            "peak_phase": self.peak.phase,
            "usable_bytes": self.usable,
            "fits": self.fits,
        }


def row_run(est: Estimate, row: Row, run: Run) -> Run:
    """``run`` on ``row``'s stage and offload, on the table's GPUs."""
    return replace(
        run,
        stage=row.stage,
        offload_optimizer=row.offload_optimizer,
        offload_param=row.offload_param,
        zero_init=row.zero_init is not False,
        gpus_per_node=est.gpus_per_node,
        nodes=est.nodes,
    )


def row_peaks(est: Estimate, arch: Architecture, run: Run) -> tuple[Peak, ...]:
    """The peak of ``run`` training ``arch`` on each row of ``est``, in the table's order."""
    return tuple(peak_memory(arch, row_run(est, row, run)) for row in est.rows)


def fit_rows(
    est: Estimate,
    arch: Architecture,
    run: Run,
    gpu_memory: int,
    *,
    cpu_memory: int | None = None,
    reserve_percent: float | None = None,
) -> tuple[RowFit, ...]:
    """Every row of ``est`` judged by the peak of ``run`` training ``arch`` on it; ``reserve_percent`` (default: the
    stage's) of ``gpu_memory`` is kept back for fragmentation."""
    check_budget(gpu_memory, cpu_memory, reserve_percent)
    out = []
    for row, peak in zip(est.rows, row_peaks(est, arch, run), strict=True):
        reserve = fragmentation_reserve(row.stage) if reserve_percent is None else reserve_percent
        usable = usable_memory(gpu_memory, reserve)
        fits = peak.bytes <= usable and (cpu_memory is None or row.cpu_bytes <= cpu_memory)
        out.append(RowFit(row, peak, usable, fits))
    return tuple(out)


@record
class Suggestion:
    """Every row judged, and the first choice in :data:`SUGGEST_ORDER` that fits (None when none does)."""

    rows: tuple[RowFit, ...]
    choice: RowFit | None
    gpu_memory: int
    reserve_percent: float | None
    """The reserve the caller named; None: each stage's own."""
    cpu_memory: int | None
    config: dict[str, Any] | None

    @property
    def row(self) -> Row | None:
        return None if self.choice is None else self.choice.row

    def advice(self) -> Advice | None:
        """The choice's fit answer, as ``--model`` gives one (headroom, "tight", what is not modelled)."""
        if self.choice is None:
            return None
        peak = self.choice.peak
        given = self.reserve_percent is not None
        reserve = self.reserve_percent if self.reserve_percent is not None else fragmentation_reserve(peak.run.stage)
        return Advice(peak, self.gpu_memory, reserve, self.cpu_memory, True, (), (), given)

    def to_json(self) -> dict[str, Any]:
        advice = self.advice()
        return {
            "gpu_memory_bytes": self.gpu_memory,
            "reserve_percent": self.reserve_percent,
            "cpu_memory_bytes": self.cpu_memory,
            "choice": self.row.to_json() if self.row else None,
            "answer": None if advice is None else advice.to_json(),
            "config": self.config,
        }


def suggest(
    est: Estimate,
    arch: Architecture,
    run: Run,
    gpu_memory: int,
    *,
    cpu_memory: int | None = None,
    reserve_percent: float | None = None,
    precision: MixedPrecision = "bf16",
    nvme_path: str = "/local_nvme",
) -> Suggestion:
    """The fastest stage and offload on which the peak of ``run`` training ``arch`` fits ``gpu_memory`` per GPU."""
    rows = fit_rows(est, arch, run, gpu_memory, cpu_memory=cpu_memory, reserve_percent=reserve_percent)
    by_key = {fit.row.key: fit for fit in rows}
    for stage, opt, par in SUGGEST_ORDER:
        fit = by_key[est.row(stage, opt, par).key]
        if fit.fits:
            config = starting_config(
                fit.row, micro_batch=run.micro_batch, precision=precision, nvme_path=nvme_path, buffers=est.buffers
            )
            return Suggestion(rows, fit, gpu_memory, reserve_percent, cpu_memory, config)
    return Suggestion(rows, None, gpu_memory, reserve_percent, cpu_memory, None)


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
