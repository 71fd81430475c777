"""Model states per GPU phase by phase, as DeepSpeed 0.19.8's code allocates and frees them (no offload).

Found by reading ``runtime/fp16/unfused_optimizer.py`` (stage 0 with 16-bit weights), ``runtime/zero/stage_1_and_2.py``,
``runtime/zero/stage3.py`` and ``runtime/engine.py``, and measured on the CPU under live-tensor tracking
(``tests/functional/test_estimate_phases.py``). With P parameters on n GPUs, w bytes per weight (2, or 4 in fp32):

* **Stage 0** keeps the model's weights (w·P), a 32-bit master copy (4·P, none in fp32) and Adam's two moments (8·P),
  which the mixed-precision wrapper makes at ``deepspeed.initialize`` by stepping once on zero gradients (torch's
  optimizer alone makes them at the first step). Backward holds the gradients (w·P) and, once the activations are
  gone, flattens them for the all-reduce (``buffered_allreduce_fallback``, at most 500 million elements at a time).
  The step copies the gradients to 32-bit (4·P) while the 16-bit ones are still held.
* **Stages 1 and 2** flatten the weights into one buffer (w·P) and clone the GPU's partition in 32-bit (4·P/n);
  Adam's moments (8·P/n) appear at the first step. Stage 1 holds every gradient (w·P) through backward and at its end
  copies the partition's into a buffer of its own (w·P/n); stage 2 reduces into that buffer as backward goes, each
  gradient living on its own until its hook has copied it (the largest tensor's, w·L, at most). The reduce buckets
  live through backward only. The step flattens the partition's gradients (w·P/n more) and converts them
  to 32-bit (4·P/n); both 16-bit copies are freed before the optimizer runs. The updated weights are gathered straight
  into the flat buffer: no all-gather buffer of its own.
* **Stage 3** keeps its partitions of the weights (w·P/n), the 32-bit master weights (4·P/n), a gradient partition
  buffer (w·P/n) and one reduce bucket from ``deepspeed.initialize`` on; Adam's moments appear at the first step;
  backward holds a gradient until its hook has reduced it, as at stage 2. The
  step works one ``sub_group_size`` group (T elements) at a time: its gradients flattened (w·T) and converted (4·T).

Adam's own working memory at the step depends on the implementation (:data:`OPTIMIZERS`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from ..records import record

__all__ = [
    "ALLREDUCE_ELEMENTS",
    "OPTIMIZERS",
    "Holding",
    "OptimizerKind",
    "StatePhases",
    "optimizer_temporaries",
    "state_phases",
]

OptimizerKind = Literal["fused", "foreach", "single"]

OPTIMIZERS: tuple[OptimizerKind, ...] = ("fused", "foreach", "single")
"""How Adam updates, which sets what it allocates while it does: ``fused`` (DeepSpeed's FusedAdam, what an
``optimizer`` section of Adam or AdamW gets on CUDA, or torch's ``fused=True``) works in place; ``foreach`` (torch's
AdamW on CUDA by default, as Hugging Face's Trainer makes it) takes a 32-bit square root of every second moment it
steps at once; ``single`` (torch's default on the CPU) one parameter at a time, two temporaries of its size."""


ALLREDUCE_ELEMENTS = 500_000_000
"""``MEMORY_OPT_ALLREDUCE_SIZE`` in ``runtime/constants.py``: the most gradient elements stage 0 flattens at once."""


FP32 = 4
ADAM = 8


@record
class Holding:
    """Bytes per GPU of the model states at one moment, by what holds them."""

    params: int = 0
    gradients: int = 0
    optimizer: int = 0
    buckets: int = 0
    temporaries: int = 0

    @property
    def total(self) -> int:
        return self.params + self.gradients + self.optimizer + self.buckets + self.temporaries


@record
class StatePhases:
    """The model states of one GPU through a training step; activations and the CUDA context are not in them."""

    init: Holding
    """After ``deepspeed.initialize``, before the first step."""
    steady: Holding
    """Between steps, from the first step on; forward runs on top of it."""
    backward: Holding
    """Held through backward (the activations' gradients and the layer being run come on top)."""
    backward_end: int
    """What backward allocates at its end, once the activations are freed: the larger of the two counts."""
    step: Holding
    """At the optimizer step's peak."""


def optimizer_temporaries(kind: OptimizerKind, elements: int, largest: int) -> int:
    """What Adam allocates while it steps ``elements`` 32-bit values whose largest tensor has ``largest``."""
    if kind == "foreach":
        return FP32 * elements
    if kind == "single":
        return 2 * FP32 * largest
    return 0


def state_phases(
    params: int,
    largest: int,
    *,
    stage: int,
    gpus: int,
    weight_bytes: int,
    reduce_buckets: int,
    sub_group_size: int,
    optimizer: OptimizerKind = "fused",
) -> StatePhases:
    """Model states by phase for ``params`` parameters (``largest`` in the largest tensor) trained with Adam on
    ``gpus`` GPUs at ZeRO ``stage`` without offload; ``weight_bytes`` 2 (bf16, fp16) or 4 (fp32); ``reduce_buckets``
    the bytes of the reduce buckets (stages 1-3).

    >>> phases = state_phases(1000, 100, stage=2, gpus=1, weight_bytes=2, reduce_buckets=0, sub_group_size=10**9)
    >>> phases.init.total, phases.steady.total, phases.step.total
    (6000, 14000, 22000)
    """
    w, p = weight_bytes, params
    mixed = w != FP32
    if stage == 0:
        master = FP32 * p if mixed else 0
        steady = Holding(params=w * p, optimizer=master + ADAM * p)
        init = steady if mixed else Holding(params=w * p)
        grads = Holding(params=w * p, gradients=w * p, optimizer=master + ADAM * p)
        flat = w * min(p, ALLREDUCE_ELEMENTS)
        fp32_grads = FP32 * p if mixed else 0
        temporaries = optimizer_temporaries(optimizer, p, largest)
        step = Holding(w * p, w * p + fp32_grads, master + ADAM * p, 0, temporaries)
        return StatePhases(init, steady, grads, flat, step)
    share = -(-p // gpus)
    if stage in (1, 2):
        init = Holding(params=w * p, optimizer=FP32 * share)
        steady = Holding(params=w * p, optimizer=(FP32 + ADAM) * share)
        held = w * p if stage == 1 else w * share + w * largest  # stage 2: and a gradient on its way to the bucket
        backward = Holding(w * p, held, (FP32 + ADAM) * share, reduce_buckets)
        end = w * share if stage == 1 else 0
        converting = 2 * w * share + FP32 * share
        stepping = FP32 * share + optimizer_temporaries(optimizer, share, share)
        if converting >= stepping:
            step = Holding(w * p, converting, (FP32 + ADAM) * share)
        else:
            step = Holding(w * p, FP32 * share, (FP32 + ADAM) * share, 0, stepping - FP32 * share)
        return StatePhases(init, steady, backward, end, step)
    group = min(sub_group_size, share)
    init = Holding(w * share, w * share, FP32 * share, reduce_buckets)
    steady = Holding(w * share, w * share, (FP32 + ADAM) * share, reduce_buckets)
    converting = w * group + FP32 * group
    stepping = FP32 * group + optimizer_temporaries(optimizer, group, group)
    if converting >= stepping:
        step = Holding(w * share, w * share + converting, (FP32 + ADAM) * share, reduce_buckets)
    else:
        converted = w * share + FP32 * group
        step = Holding(w * share, converted, (FP32 + ADAM) * share, reduce_buckets, stepping - FP32 * group)
    backward = replace(steady, gradients=steady.gradients + w * largest)
    return StatePhases(init, steady, backward, 0, step)
