"""Will it fit, and if not, what to change: each change recomputed through :func:`.peak.peak_memory`, ranked by what
it costs in speed, with the edit that makes it.

>>> from .model import Architecture
>>> arch = Architecture("llama", "llama", 4096, 11008, 32, 32, 32, 128, 32000, False)
>>> verdict = advise(arch, Run(stage=2, gpus_per_node=8, seq_len=4096, micro_batch=4), 80 * 2**30)
>>> verdict.fits, [change.key for change in verdict.changes]
(False, ['checkpointing', 'micro_batch'])
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Literal

from ..records import record
from .peak import Peak, Run, peak_memory
from .quantities import MAX_BYTES, EstimateError, Param, check_int

__all__ = [
    "CHANGES",
    "NOT_MODELLED",
    "RESERVE_PERCENT",
    "TIGHT_PERCENT",
    "Advice",
    "Change",
    "advise",
    "check_budget",
    "fragmentation_reserve",
    "usable_memory",
]

ChangeKey = Literal[
    "sdpa", "buckets", "stage2", "checkpointing", "micro_batch", "stage3", "offload_optimizer", "offload_param"
]

CHANGES: tuple[ChangeKey, ...] = (
    "sdpa",
    "buckets",
    "stage2",
    "checkpointing",
    "micro_batch",
    "stage3",
    "offload_optimizer",
    "offload_param",
)
"""Changes in the order of what they cost in speed, cheapest first: a fused attention kernel is faster; smaller
buckets and ZeRO 1 → 2 cost little communication; checkpointing recomputes the forward pass (about a third more
compute); a smaller micro batch with more accumulation keeps the global batch but uses the GPU less well; ZeRO 3
gathers every parameter twice per step; offloading the optimizer runs its step on the CPU; offloading parameters
moves them over PCIe in every forward and backward pass."""


RESERVE_PERCENT: dict[int, float] = {0: 10.0, 1: 10.0, 2: 10.0, 3: 20.0}
"""GPU memory kept back for the allocator's fragmentation, by ZeRO stage, when the caller names no reserve.

PyTorch's caching allocator holds more than the tensors it hands out (``memory_reserved`` over
``memory_allocated``). Below stage 3 the tensors of a step are few and large and 10 % has been the estimate's
reserve. Stage 3 gathers and frees every layer's parameters in each pass, in pieces of many sizes, and holds more:
DeepSpeed issue 3734 (a stage-3 run whose logs print both figures) shows reserved 23 % above allocated, so
1 − 1/1.23 ≈ 19 % of what is held is not in use; stage 3 keeps back 20 %."""


TIGHT_PERCENT = 15.0
"""Headroom under this share of the peak is "tight": the estimate's own error on published runs reached −17 %
(issue 26), so a run this near the line may or may not fit, and is worth measuring."""


NOT_MODELLED: tuple[str, ...] = ("fragmentation", "model_code", "selective_checkpointing")
"""What every fit answer says it leaves out: fragmentation beyond the reserve, model code other than Hugging Face's
layers (custom or fused kernels, other attention code), and selective checkpointing (some layers or some
operations only: the estimate knows all layers or none)."""


def fragmentation_reserve(stage: int) -> float:
    """The percent of GPU memory kept back at ``stage`` (:data:`RESERVE_PERCENT`).

    >>> fragmentation_reserve(2), fragmentation_reserve(3)
    (10.0, 20.0)
    """
    return RESERVE_PERCENT[stage]


def usable_memory(gpu_memory: int, reserve_percent: float) -> int:
    """What a run may use of ``gpu_memory`` once ``reserve_percent`` is kept back."""
    return int(gpu_memory * (100 - reserve_percent) / 100)


SMALL_BUCKET = 50_000_000
"""Bucket size a smaller-buckets change sets (elements): a tenth of DeepSpeed's default, still large enough to keep
NCCL busy."""


@record
class Change:
    """One change: the run it gives, its peak, and the edits that make it."""

    key: ChangeKey
    run: Run
    peak: Peak
    config: dict[str, Any]
    """Options of ds_config.json to set, by dotted path."""
    training: dict[str, Any]
    """Settings outside ds_config.json: Hugging Face ``TrainingArguments`` or ``from_pretrained`` keywords."""

    def to_json(self) -> dict[str, Any]:
        return {
            "change": self.key,
            "peak_bytes": self.peak.bytes,
            "peak_phase": self.peak.phase,
            "cpu_bytes_per_node": self.peak.cpu_bytes,
            "ds_config": self.config,
            "training": self.training,
        }


@record
class Advice:
    """Whether the run fits one GPU's memory, and the changes that make it fit."""

    peak: Peak
    gpu_memory: int
    reserve_percent: float
    cpu_memory: int | None
    fits: bool
    changes: tuple[Change, ...]
    """Each change that makes the run fit on its own, cheapest first."""
    combined: tuple[Change, ...]
    """When no single change is enough: changes taken one after another, cheapest first, until the run fits."""

    reserve_given: bool = False
    """The caller named the reserve; otherwise it is the stage's (:func:`fragmentation_reserve`)."""

    @property
    def usable(self) -> int:
        return usable_memory(self.gpu_memory, self.reserve_percent)

    def usable_for(self, run: Run) -> int:
        """What ``run`` (this one, or a change's) may use: the reserve named, or that of its stage."""
        reserve = self.reserve_percent if self.reserve_given else fragmentation_reserve(run.stage)
        return usable_memory(self.gpu_memory, reserve)

    @property
    def headroom(self) -> int:
        """Usable memory the peak leaves free; negative when the run does not fit."""
        return self.usable - self.peak.bytes

    @property
    def headroom_percent(self) -> float:
        """:attr:`headroom` as a share of the peak: how far the estimate may be low and the run still fit."""
        return 100 * self.headroom / self.peak.bytes

    @property
    def tight(self) -> bool:
        """It fits with less than :data:`TIGHT_PERCENT` of headroom: worth measuring before relying on it."""
        return self.fits and self.headroom_percent < TIGHT_PERCENT

    def to_json(self) -> dict[str, Any]:
        return {
            "gpu_memory_bytes": self.gpu_memory,
            "reserve_percent": self.reserve_percent,
            "reserve_given": self.reserve_given,
            "usable_bytes": self.usable,
            "cpu_memory_bytes": self.cpu_memory,
            "fits": self.fits,
            "headroom_bytes": self.headroom,
            "headroom_percent": round(self.headroom_percent, 1),
            "tight": self.tight,
            "not_modelled": list(NOT_MODELLED),
            "changes": [change.to_json() for change in self.changes],
            "combined": [change.to_json() for change in self.combined],
        }


def _candidates(
    arch: Any, run: Run, batch_auto: bool = False
) -> list[tuple[ChangeKey, Run, dict[str, Any], dict[str, Any]]]:
    out: list[tuple[ChangeKey, Run, dict[str, Any], dict[str, Any]]] = []
    edit: dict[str, Any]
    if run.attention == "eager":
        out.append(("sdpa", replace(run, attention="sdpa"), {}, {"attn_implementation": "sdpa"}))
    zero = "zero_optimization."
    if run.stage in (1, 2) and (run.reduce_bucket_size > SMALL_BUCKET or run.allgather_bucket_size > SMALL_BUCKET):
        smaller = replace(run, reduce_bucket_size=SMALL_BUCKET, allgather_bucket_size=SMALL_BUCKET)
        edit = {f"{zero}reduce_bucket_size": SMALL_BUCKET, f"{zero}allgather_bucket_size": SMALL_BUCKET}
        out.append(("buckets", smaller, edit, {}))
    elif run.stage == 3 and (run.reduce_bucket_size > SMALL_BUCKET or run.prefetch_bucket_size > SMALL_BUCKET // 5):
        smaller = replace(run, reduce_bucket_size=SMALL_BUCKET, prefetch_bucket_size=SMALL_BUCKET // 5)
        edit = {f"{zero}reduce_bucket_size": SMALL_BUCKET, f"{zero}stage3_prefetch_bucket_size": SMALL_BUCKET // 5}
        out.append(("buckets", smaller, edit, {}))
    if run.stage < 2:
        out.append(("stage2", replace(run, stage=2), {f"{zero}stage": 2}, {}))
    if not run.checkpointing:
        out.append(("checkpointing", replace(run, checkpointing=True), {}, {"gradient_checkpointing": True}))
    if run.micro_batch > 1:
        batch = run.micro_batch // 2
        accumulation = run.gradient_accumulation * run.micro_batch // batch
        if batch * accumulation == run.micro_batch * run.gradient_accumulation:
            smaller = replace(run, micro_batch=batch, gradient_accumulation=accumulation)
            if batch_auto:  # Hugging Face fills "auto" from its arguments and refuses a config that disagrees
                hf = {"per_device_train_batch_size": batch, "gradient_accumulation_steps": accumulation}
                out.append(("micro_batch", smaller, {}, hf))
            else:
                edit = {"train_micro_batch_size_per_gpu": batch, "gradient_accumulation_steps": accumulation}
                out.append(("micro_batch", smaller, edit, {}))
    if run.stage < 3:
        out.append(("stage3", replace(run, stage=3), {f"{zero}stage": 3}, {}))
    if run.offload_optimizer == "none":
        stage = max(run.stage, 2)
        edit = {f"{zero}stage": stage} if stage != run.stage else {}
        edit[f"{zero}offload_optimizer.device"] = "cpu"
        out.append(("offload_optimizer", replace(run, stage=stage, offload_optimizer="cpu"), edit, {}))
    if run.offload_param == "none":
        edit = {f"{zero}stage": 3} if run.stage != 3 else {}
        if run.offload_optimizer == "none":
            edit[f"{zero}offload_optimizer.device"] = "cpu"
        edit[f"{zero}offload_param.device"] = "cpu"
        offloaded = replace(run, stage=3, offload_optimizer=run.offload_optimizer if run.offload_optimizer != "none"
                            else "cpu", offload_param="cpu")  # fmt: skip
        out.append(("offload_param", offloaded, edit, {}))
    return out


def check_budget(gpu_memory: int, cpu_memory: int | None, reserve_percent: float | None) -> None:
    """:class:`EstimateError` for memory a run cannot have: GPU or CPU memory outside 1 byte to
    :data:`MAX_BYTES`, a reserve outside 0-90 %."""
    check_int(gpu_memory, Param.gpu_memory, 1, MAX_BYTES)
    if cpu_memory is not None:
        check_int(cpu_memory, Param.cpu_memory, 1, MAX_BYTES)
    if reserve_percent is not None and not (math.isfinite(reserve_percent) and 0 <= reserve_percent <= 90):
        raise EstimateError(
            "out_of_range", option=Param.reserve_percent, value=f"{reserve_percent:g}", minimum=0, maximum=90
        )


def advise(
    arch: Any,
    run: Run,
    gpu_memory: int,
    *,
    reserve_percent: float | None = None,
    cpu_memory: int | None = None,
    batch_auto: bool = False,
) -> Advice:
    """Whether ``run`` fits ``gpu_memory`` per GPU (less ``reserve_percent`` for the allocator's fragmentation; by
    default the reserve of each run's stage, :func:`fragmentation_reserve`) and, when ``cpu_memory`` is given, the
    node's CPU memory; and which changes would make it fit.

    When no change fits alone, the cheapest change that lowers the peak is taken, then the next, until the run
    fits or nothing lowers it further (``combined``, whose last entry may still not fit). With ``batch_auto`` (the
    config writes the micro batch as ``"auto"``) a smaller micro batch is a change to Hugging Face's arguments.
    """
    check_budget(gpu_memory, cpu_memory, reserve_percent)
    given = reserve_percent is not None

    def reserve(of: Run) -> float:
        return reserve_percent if reserve_percent is not None else fragmentation_reserve(of.stage)

    def fits(peak: Peak) -> bool:
        usable = usable_memory(gpu_memory, reserve(peak.run))
        return peak.bytes <= usable and (cpu_memory is None or peak.cpu_bytes <= cpu_memory)

    base = peak_memory(arch, run)
    if fits(base):
        return Advice(base, gpu_memory, reserve(run), cpu_memory, True, (), (), given)
    singles = []
    for key, changed, config, training in _candidates(arch, run, batch_auto):
        peak = peak_memory(arch, changed)
        while key == "micro_batch" and not fits(peak) and changed.micro_batch > 1:
            smaller = next((c for c in _candidates(arch, changed, batch_auto) if c[0] == "micro_batch"), None)
            if smaller is None:
                break
            _, changed, config, training = smaller
            peak = peak_memory(arch, changed)
        if fits(peak):
            singles.append(Change(key, changed, peak, config, training))
    combined: list[Change] = []
    if not singles:
        current, config, training = run, {}, {}
        current_peak = base
        for _ in range(32):
            options = [
                (key, changed, edit, extra)
                for key, changed, edit, extra in _candidates(arch, current, batch_auto)
                if peak_memory(arch, changed).bytes < current_peak.bytes
            ]
            if not options:
                break
            key, current, edit, extra = options[0]
            config, training = {**config, **edit}, {**training, **extra}
            current_peak = peak_memory(arch, current)
            combined.append(Change(key, current, current_peak, dict(config), dict(training)))
            if fits(current_peak):
                break
    return Advice(base, gpu_memory, reserve(run), cpu_memory, False, tuple(singles), tuple(combined), given)
