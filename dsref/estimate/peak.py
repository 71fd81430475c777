"""The peak GPU memory of one training run: a model, a DeepSpeed config and a batch, part by part and phase by phase.

Model states follow DeepSpeed 0.19.8's code phase by phase (:mod:`.phases`: what ``deepspeed.initialize`` makes,
what backward and the optimizer step add and free); activations follow the model's own layers
(:func:`.activations.saved_activations`); the buffers are the ones DeepSpeed allocates from the config:

* ZeRO 1 and 2 (``stage_1_and_2.py``): through backward, a contiguous 16-bit gradient bucket of
  ``reduce_bucket_size`` elements, two of them with ``overlap_comm``; the step gathers the updated parameters
  straight into the flat 16-bit buffer.
* ZeRO 3 (``stage3.py``): one ``reduce_bucket_size`` bucket; in forward and backward on more than one GPU the module
  being run is gathered whole and the next modules are fetched ahead, up to ``stage3_prefetch_bucket_size``
  elements, all of it bounded by ``stage3_max_live_parameters``; the optimizer steps one ``sub_group_size`` group
  at a time.

The peak is the largest of three phases: forward (its end, everything kept for backward plus the 32-bit copy of the
logits the loss makes; or, earlier, the last layer running: under eager attention its scores' temporaries, with
checkpointing every layer's input beside it), backward (the loss's gradients; the final norm's backward; or the last
layer differentiated, recomputed first with checkpointing, at its own peak: its MLP's gradients, or eager attention's
softmax backward, :func:`.activations.layer_peaks`), and the optimizer step (activations gone, the step's
temporaries).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import field, replace
from typing import Any, Literal

from ..records import record
from .activations import (
    ATTENTIONS,
    FP32,
    Attention,
    ComputeDevice,
    SavedActivations,
    layer_peaks,
    running_layer,
    saved_activations,
)
from .model import Architecture
from .model_states import (
    BUFFER_FACTOR,
    SwapBuffers,
    deepspeed_default,
    zero0_model_states,
    zero1_model_states,
    zero2_model_states,
    zero3_model_states,
    zero3_nvme_model_states,
)
from .phases import Holding, OptimizerKind, StatePhases, state_phases
from .quantities import (
    GIB,
    MAX_GPUS_PER_NODE,
    MAX_MICRO_BATCH,
    MAX_NODES,
    MAX_PARAMS,
    MAX_SEQ_LEN,
    EstimateError,
    OffloadDevice,
    Param,
    Precision,
    check_int,
    describe,
)

__all__ = [
    "COMPONENTS",
    "CONFIG_PATHS",
    "DEFAULTS",
    "PHASES",
    "Default",
    "Peak",
    "Run",
    "RunWarning",
    "peak_memory",
    "run_from_config",
    "run_warnings",
]

Phase = Literal["forward", "backward", "step"]


PHASES: tuple[Phase, ...] = ("forward", "backward", "step")


CUDA_CONTEXT = GIB // 2
"""The CUDA context and the kernels' workspaces (cuBLAS, cuDNN) outside PyTorch's allocator: about 500 MB on
recent NVIDIA GPUs."""


COMMUNICATION = GIB // 2
"""NCCL's own buffers when more than one GPU takes part (its default ``NCCL_BUFFSIZE`` of 4 MB per channel and
peer, a few hundred MB on 8 GPUs)."""


HF_DEFAULT_MICRO_BATCH = 8
"""``TrainingArguments.per_device_train_batch_size``'s default, what Hugging Face writes for an ``"auto"`` micro
batch when none is given."""


Default = Literal["seq_len", "micro_batch", "precision", "attention", "checkpointing"]


DEFAULTS: tuple[Default, ...] = ("seq_len", "micro_batch", "precision", "attention", "checkpointing")
"""The settings of a :class:`Run` that neither the config nor the caller may give, so that the estimate takes
:class:`Run`'s default and says so (in this order)."""


@record
class RunWarning:
    """Something the run asks of the model that the model may not do; the estimate goes on, and says it first."""

    key: str
    """A message of :data:`.messages.M`."""
    args: Mapping[str, Any] = field(default_factory=dict)


def run_warnings(arch: Architecture, run: Run) -> tuple[RunWarning, ...]:
    """What the run asks of the model beyond what the model's config allows: a sequence longer than its positions."""
    if arch.max_positions is None or run.seq_len <= arch.max_positions:
        return ()
    learned = arch.positions > 0  # GPT-2's table of learned positions ends there; rotary positions go on
    name = "n_positions" if arch.family == "gpt2" else "max_position_embeddings"
    return (
        RunWarning(
            "warn_positions",
            {
                "seq": run.seq_len,
                "name": name,
                "positions": arch.max_positions,
                "learned": learned,
                "model_type": arch.model_type,
            },
        ),
    )


@record
class Run:
    """Everything besides the model that the memory of a training run depends on."""

    stage: int = 0
    offload_optimizer: OffloadDevice = "none"
    offload_param: OffloadDevice = "none"
    precision: Precision = "bf16"
    micro_batch: int = 1
    gradient_accumulation: int = 1
    seq_len: int = 2048
    gpus_per_node: int = 1
    nodes: int = 1
    attention: Attention = "sdpa"
    checkpointing: bool = False
    keep_outputs: bool = False
    optimizer: OptimizerKind = "fused"
    """How Adam steps (:data:`.phases.OPTIMIZERS`): DeepSpeed's FusedAdam for an Adam ``optimizer`` section."""
    """The training loop keeps the model's outputs until backward (``outputs = model(**batch)``,
    ``outputs.loss.backward()``), so the logits in the model's precision stay live through the loss's backward;
    Hugging Face's Trainer keeps the loss alone."""
    padded: bool = False
    """Batches padded to their longest sequence, so the model is given an attention mask (see
    :func:`.activations.masked`); packed or equal-length sequences need none."""
    reduce_bucket_size: int = field(default_factory=lambda: deepspeed_default(CONFIG_PATHS["reduce_bucket_size"]))
    allgather_bucket_size: int = field(default_factory=lambda: deepspeed_default(CONFIG_PATHS["allgather_bucket_size"]))
    overlap_comm: bool | None = None
    """None: DeepSpeed's default, on at stage 3 only."""
    contiguous_gradients: bool = True
    prefetch_bucket_size: int = field(default_factory=lambda: deepspeed_default(CONFIG_PATHS["prefetch_bucket_size"]))
    max_live_parameters: int = field(default_factory=lambda: deepspeed_default(CONFIG_PATHS["max_live_parameters"]))
    sub_group_size: int = field(default_factory=lambda: deepspeed_default(CONFIG_PATHS["sub_group_size"]))
    """The bucket, prefetch and sub-group sizes default to DeepSpeed's, read from the schema's generated index."""
    zero_init: bool = True

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    @property
    def overlap(self) -> bool:
        return self.stage == 3 if self.overlap_comm is None else self.overlap_comm

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "offload_optimizer": self.offload_optimizer,
            "offload_param": self.offload_param,
            "precision": self.precision,
            "micro_batch": self.micro_batch,
            "gradient_accumulation_steps": self.gradient_accumulation,
            "seq_len": self.seq_len,
            "gpus_per_node": self.gpus_per_node,
            "nodes": self.nodes,
            "attention": self.attention,
            "gradient_checkpointing": self.checkpointing,
            "padded": self.padded,
            "keep_outputs": self.keep_outputs,
            "optimizer": self.optimizer,
            "reduce_bucket_size": self.reduce_bucket_size,
            "allgather_bucket_size": self.allgather_bucket_size,
            "overlap_comm": self.overlap,
            "stage3_prefetch_bucket_size": self.prefetch_bucket_size,
            "stage3_max_live_parameters": self.max_live_parameters,
            "sub_group_size": self.sub_group_size,
        }


CONFIG_PATHS: dict[str, str] = {
    "stage": "zero_optimization.stage",
    "offload_optimizer": "zero_optimization.offload_optimizer.device",
    "offload_param": "zero_optimization.offload_param.device",
    "bf16": "bf16.enabled",
    "fp16": "fp16.enabled",
    "micro_batch": "train_micro_batch_size_per_gpu",
    "gradient_accumulation": "gradient_accumulation_steps",
    "train_batch_size": "train_batch_size",
    "reduce_bucket_size": "zero_optimization.reduce_bucket_size",
    "allgather_bucket_size": "zero_optimization.allgather_bucket_size",
    "overlap_comm": "zero_optimization.overlap_comm",
    "contiguous_gradients": "zero_optimization.contiguous_gradients",
    "prefetch_bucket_size": "zero_optimization.stage3_prefetch_bucket_size",
    "max_live_parameters": "zero_optimization.stage3_max_live_parameters",
    "sub_group_size": "zero_optimization.sub_group_size",
}
"""The options of ds_config.json a run is read from, by canonical path (the caller resolves spellings)."""


def _bad_value(path: str, value: Any) -> EstimateError:
    return EstimateError("config_bad_value", field=tuple(path.split(".")), path=path, value=describe(value))


def _int(value: Any, path: str, minimum: int = 0) -> int:
    number = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not number or value != int(value) or value < minimum:  # int() of an infinity or NaN would raise
        raise _bad_value(path, value)
    return int(value)


def _device(value: Any) -> OffloadDevice:
    return value if value in ("cpu", "nvme") else "none"


def run_from_config(
    values: Mapping[str, Any],
    autos: set[str],
    arch: Architecture,
    *,
    micro_batch: int | None = None,
    precision: Precision | None = None,
    **flags: Any,
) -> tuple[Run, list[str]]:
    """A :class:`Run` from the values of :data:`CONFIG_PATHS` as DeepSpeed reads them, and the ``"auto"`` paths.

    ``"auto"`` is filled as Hugging Face Transformers fills it: the micro batch from ``micro_batch`` (its default
    8 without one), the precision from ``precision``, ``reduce_bucket_size`` as hidden², the stage-3 prefetch bucket
    as 0.9 × hidden², the gradient accumulation as 1. ``flags`` (any field of :class:`Run`) override the file.
    Returns the run and what was filled (``path = value``), for the assumptions.
    """
    filled: list[str] = []

    defaults = Run()

    def value(name: str, auto: Any = None) -> Any:
        """The file's value, the filled "auto", or (absent from the mapping) DeepSpeed's default."""
        path = CONFIG_PATHS[name]
        if path in autos:
            filled.append(f"{path} = {json.dumps(auto)}")
            return auto
        found = values.get(path)
        return getattr(defaults, name, None) if found is None else found

    h = arch.hidden
    batch_path = CONFIG_PATHS["micro_batch"]
    if batch_path in autos:
        batch_value = value("micro_batch", micro_batch if micro_batch is not None else HF_DEFAULT_MICRO_BATCH)
    else:
        batch_value = values.get(batch_path)
    accumulation = value("gradient_accumulation", 1)
    total = values.get(CONFIG_PATHS["train_batch_size"]) if CONFIG_PATHS["train_batch_size"] not in autos else None
    stage = _int(values.get(CONFIG_PATHS["stage"], 0) or 0, CONFIG_PATHS["stage"])
    if stage > 3:
        raise _bad_value(CONFIG_PATHS["stage"], stage)
    bf16 = value("bf16", (precision or "bf16") == "bf16")
    fp16 = value("fp16", (precision or "bf16") == "fp16")
    chosen: Precision = precision or ("bf16" if bf16 is True else "fp16" if fp16 is True else "fp32")
    run = Run(
        stage=stage,
        offload_optimizer=_device(values.get(CONFIG_PATHS["offload_optimizer"])) if stage else "none",
        offload_param=_device(values.get(CONFIG_PATHS["offload_param"])) if stage == 3 else "none",
        precision=chosen,
        micro_batch=micro_batch if micro_batch is not None else _int(batch_value or 1, CONFIG_PATHS["micro_batch"], 1),
        gradient_accumulation=_int(accumulation or 1, CONFIG_PATHS["gradient_accumulation"], 1),
        reduce_bucket_size=_int(value("reduce_bucket_size", h * h), CONFIG_PATHS["reduce_bucket_size"], 1),
        allgather_bucket_size=_int(value("allgather_bucket_size"), CONFIG_PATHS["allgather_bucket_size"], 1),
        overlap_comm=values.get(CONFIG_PATHS["overlap_comm"]),
        contiguous_gradients=bool(value("contiguous_gradients")),
        prefetch_bucket_size=_int(
            value("prefetch_bucket_size", int(0.9 * h * h)), CONFIG_PATHS["prefetch_bucket_size"]
        ),
        max_live_parameters=_int(value("max_live_parameters"), CONFIG_PATHS["max_live_parameters"]),
        sub_group_size=_int(value("sub_group_size"), CONFIG_PATHS["sub_group_size"], 1),
    )
    run = replace(run, **{k: v for k, v in flags.items() if v is not None})
    if micro_batch is None and batch_value is None and isinstance(total, int) and total > 0:
        # only train_batch_size given: DeepSpeed divides it by the accumulation and the GPUs
        run = replace(run, micro_batch=max(1, total // (run.gradient_accumulation * run.total_gpus)))
    return check_run(run), filled


def check_run(run: Run) -> Run:
    """Refuse impossible numbers with a message naming the field of :class:`Run`, so that no figure is ever negative
    or absurd."""
    check_int(run.seq_len, Param.seq_len, 1, MAX_SEQ_LEN)
    check_int(run.micro_batch, Param.micro_batch, 1, MAX_MICRO_BATCH)
    check_int(run.gpus_per_node, Param.gpus_per_node, 1, MAX_GPUS_PER_NODE)
    check_int(run.nodes, Param.nodes, 1, MAX_NODES)
    check_int(run.gradient_accumulation, Param.gradient_accumulation, 1, MAX_MICRO_BATCH)
    if run.attention not in ATTENTIONS:
        choices = ", ".join(ATTENTIONS)
        raise EstimateError("bad_choice", option=Param.attention, value=describe(run.attention), choices=choices)
    for param in (
        Param.reduce_bucket_size,
        Param.allgather_bucket_size,
        Param.prefetch_bucket_size,
        Param.sub_group_size,
    ):
        check_int(getattr(run, param.value), param, 0, MAX_PARAMS)
    return run


COMPONENTS: tuple[str, ...] = (
    "params",
    "gradients",
    "optimizer",
    "activations",
    "logits",
    "buckets",
    "gathered",
    "step_temporaries",
    "context",
)
"""The parts of the peak, in the order they are shown."""


@record
class Peak:
    """Bytes per GPU by part and by phase, the peak and when it happens, and the CPU memory per node."""

    arch: Architecture
    run: Run
    parts: dict[str, int]
    """Each of :data:`COMPONENTS` at the phase of the peak."""
    phases: dict[Phase, int]
    phase: Phase
    activations: SavedActivations
    cpu_bytes: int
    """CPU memory per node: what DeepSpeed's estimators count, plus offloaded states."""
    nvme_bytes: int | None
    init_bytes: int = 0
    """Model states per GPU after ``deepspeed.initialize`` (no context, no activations)."""
    steady_bytes: int = 0
    """Model states per GPU between steps (no context, no activations)."""
    states_bytes: Mapping[Phase, int] = field(default_factory=dict)
    """Each phase less its activations and logits: model states, buffers, gathered parameters, context."""

    @property
    def bytes(self) -> int:
        return self.phases[self.phase]

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.arch.to_json(),
            "run": self.run.to_json(),
            "peak_bytes": self.bytes,
            "peak_phase": self.phase,
            "phases_bytes": dict(self.phases),
            "parts_bytes": dict(self.parts),
            "activations": self.activations.to_json(),
            "cpu_bytes_per_node": self.cpu_bytes,
            "nvme_bytes_per_node": self.nvme_bytes,
            "states_after_init_bytes": self.init_bytes,
            "states_between_steps_bytes": self.steady_bytes,
            "states_by_phase_bytes": dict(self.states_bytes),
        }


def _model_states(params: int, run: Run) -> tuple[int, int, int]:
    """(16-bit parameters, gradients, optimizer states) per GPU, DeepSpeed's accounting split by what it holds."""
    n = run.total_gpus
    if run.precision == "fp32":  # no mixed precision: 4-byte weights and gradients, Adam's 8 bytes
        weight, grad16, grad32, state = 4, 4, 0, 8
    else:
        weight, grad16, grad32, state = 2, 2, 4, 12  # state: 32-bit master weights and Adam's two moments
    offload = run.offload_optimizer != "none"
    if run.stage == 0:
        return weight * params, (grad16 + grad32) * params, state * params
    if run.stage in (1, 2):
        grads16 = grad16 * params if run.stage == 1 else (0 if offload else -(-grad16 * params // n))
        if offload:
            return weight * params, grads16, 0
        return weight * params, grads16 + grad32 * params // n, state * params // n
    params_here = 0 if run.offload_param != "none" else weight * params // n
    if offload:
        return params_here, 0, 0
    return params_here, grad32 * params // n if grad32 else grad16 * params // n, state * params // n


def _state_phases(arch: Architecture, run: Run, buckets: int) -> StatePhases:
    """Model states per GPU by phase: as DeepSpeed allocates them without offload (:mod:`.phases`); with offload,
    DeepSpeed's accounting held alike through every phase, the step adding its sub-group at stage 3."""
    act = 4 if run.precision == "fp32" else 2
    if run.offload_optimizer == "none" and run.offload_param == "none":
        return state_phases(
            arch.params,
            arch.largest_layer,
            stage=run.stage,
            gpus=run.total_gpus,
            weight_bytes=act,
            reduce_buckets=buckets,
            sub_group_size=run.sub_group_size,
            optimizer=run.optimizer,
        )
    params, grads, optim = _model_states(arch.params, run)
    held = Holding(params, grads, optim, buckets)
    step = 0
    if run.stage == 3 and run.offload_optimizer == "none":
        step = min(run.sub_group_size, -(-arch.params // run.total_gpus)) * act
    return StatePhases(held, held, held, 0, replace(held, temporaries=step))


def _cpu(arch: Architecture, run: Run) -> tuple[int, int | None]:
    """CPU bytes per node (and NVMe bytes per node) from DeepSpeed's estimators for the nearest row."""
    p, layer, gpn, nodes = arch.params, arch.largest_layer, run.gpus_per_node, run.nodes
    opt_cpu = run.offload_optimizer != "none"
    if run.offload_optimizer == "nvme" or run.offload_param == "nvme":
        cpu, _, nvme = zero3_nvme_model_states(p, layer, gpn, nodes, run.zero_init, SwapBuffers.defaults())
        return cpu, nvme
    if run.stage == 0:
        return zero0_model_states(p, gpn)[0], None
    if run.stage == 1:
        return zero1_model_states(p, gpn, nodes, opt_cpu)[0], None
    if run.stage == 2:
        return zero2_model_states(p, gpn, nodes, opt_cpu)[0], None
    par_cpu = run.offload_param == "cpu"
    return zero3_model_states(p, layer, gpn, nodes, opt_cpu or par_cpu, par_cpu, run.zero_init, BUFFER_FACTOR)[0], None


def peak_memory(arch: Architecture, run: Run, *, device: ComputeDevice = "cuda") -> Peak:
    """The peak GPU memory of ``run`` training ``arch``, per GPU, and when it happens. ``device``: where the model
    runs, for the few kernels whose memory differs (``"cpu"`` for the measurements on the CPU)."""
    check_run(run)
    act = 4 if run.precision == "fp32" else 2
    saved = saved_activations(
        arch,
        run.seq_len,
        run.micro_batch,
        attention=run.attention,
        checkpointing=run.checkpointing,
        dtype_bytes=act,
        device=device,
        padded=run.padded,
    )
    tokens = run.seq_len * run.micro_batch
    logits = tokens * arch.vocab
    # forward's end: the logits in the model's precision and the loss's 32-bit copy of them, besides what is kept;
    # in fp32 the loss's .float() returns the logits themselves, no copy
    forward_logits = logits * act + (logits * FP32 if act != FP32 else 0)
    # backward starts with the gradient of the log-probabilities and of the logits, both 32-bit; a loop that keeps
    # the outputs keeps the logits as well
    backward_logits = 2 * logits * FP32 + (logits * act if run.keep_outputs else 0)
    work = layer_peaks(
        arch,
        run.seq_len,
        run.micro_batch,
        attention=run.attention,
        checkpointing=run.checkpointing,
        dtype_bytes=act,
        device=device,
        padded=run.padded,
    )
    buckets = 0
    if run.stage in (1, 2) and (run.contiguous_gradients or run.offload_optimizer != "none"):
        buckets = run.reduce_bucket_size * act * (2 if run.overlap else 1)
    elif run.stage == 3 and run.contiguous_gradients:
        buckets = run.reduce_bucket_size * act
    n = run.total_gpus
    gathered = 0
    if run.stage == 3 and n > 1:  # on one GPU the partitions are the whole parameters: nothing is gathered
        gathered = min(arch.largest_layer + run.prefetch_bucket_size, max(run.max_live_parameters, arch.largest_layer))
        gathered *= act
    context = CUDA_CONTEXT + (COMMUNICATION if n > 1 else 0)
    states = _state_phases(arch, run, buckets)
    layers_kept = saved.total - saved.loss
    # what the other layers keep while the last one runs or is differentiated (the final norm and the loss not yet
    # made, or already freed); with checkpointing every layer's input and what each holds beside it
    if run.checkpointing:
        others = saved.layers + saved.embedding + work.held
    else:
        others = saved.layers - saved.per_layer + saved.embedding
    # backward: the loss's gradients while everything is still kept, then the final norm's backward, or, later, the
    # last layer differentiated (recomputed first with checkpointing) at its own peak
    # with checkpointing, what each checkpointed layer holds beside its input lives until its backward
    layers_kept += work.held
    loss_spike = (layers_kept, saved.loss + backward_logits)
    final_norm = (layers_kept - saved.final_norm + work.final_norm_backward, 0)
    backward = max(loss_spike, final_norm, (others + work.backward, 0), key=sum)
    backward_states = states.backward
    if states.backward_end > sum(backward):  # the gradients flattened once the activations are gone
        backward = (0, 0)
        backward_states = replace(backward_states, buckets=backward_states.buckets + states.backward_end)
    forward = (layers_kept, saved.loss + forward_logits)
    if run.checkpointing:  # or, earlier, the last layer running without autograd on every layer's input
        running = running_layer(arch, run.seq_len, run.micro_batch, run.attention, act, device)
        forward = max(forward, (saved.layers + saved.embedding + running, 0), key=sum)
    elif work.forward:  # or, earlier, the last layer's eager attention beside its scores' temporaries
        forward = max(forward, (others + work.mask + work.forward, 0), key=sum)
    split: dict[Phase, tuple[int, int]] = {
        "forward": forward,
        "backward": backward,
        "step": (0, 0),
    }
    held: dict[Phase, Holding] = {"forward": states.steady, "backward": backward_states, "step": states.step}
    without: dict[Phase, int] = {
        name: context + held[name].total + (gathered if name != "step" else 0) for name in PHASES
    }
    phases: dict[Phase, int] = {name: without[name] + sum(split[name]) for name in PHASES}
    phase: Phase = max(PHASES, key=lambda name: phases[name])
    activations_part, logits_part = split[phase]
    at = held[phase]
    parts = {
        "params": at.params,
        "gradients": at.gradients,
        "optimizer": at.optimizer,
        "activations": activations_part,
        "logits": logits_part,
        "buckets": at.buckets,
        "gathered": gathered if phase != "step" else 0,
        "step_temporaries": at.temporaries,
        "context": context,
    }
    assert sum(parts.values()) == phases[phase]
    cpu, nvme = _cpu(arch, run)
    return Peak(arch, run, parts, phases, phase, saved, cpu, nvme, states.init.total, states.steady.total, without)
