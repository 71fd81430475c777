"""Advice (DS6xx, info): settings that work but usually cost speed or memory, each checked against DeepSpeed 0.19.8.

Every piece of advice says why and when it does not apply; none of them means the config is wrong.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import Example, Severity
from . import Context, Hit, Scope, rule
from ._common import (
    UNKNOWN,
    fmt_bytes,
    fmt_count,
    is_true,
    known,
    mapping,
    offload_device,
    optimizer_name,
    related,
    zero_stage,
)
from .precision import bf16_optimizer_path

ZERO = "zero_optimization"
BYTES_PER_ELEMENT = 2
"""fp16/bf16 gradients; ZeRO's buckets count elements, so memory is elements × 2 bytes."""
BUCKET_NOTE_BYTES = 2_000_000_000
"""Gradient buckets taking at least this much GPU memory get a note (DS601)."""
FEW_STEPS = 10
"""steps_per_print below this logs so often that the log becomes hard to read (DS604)."""


@rule(
    "DS600",
    "overlap-comm-off",
    Severity.info,
    message="overlap_comm is off at ZeRO stage {stage}: gradients are reduced after the backward pass instead of "
    "during it",
    explanation=(
        "With `overlap_comm` on, ZeRO reduces each gradient bucket on a separate stream while the backward pass "
        "goes on, hiding most of the communication time; off, the reduction waits. Stage 3 turns it on by "
        "default, stages 1-2 do not. At stage 2 the overlap needs a second gradient bucket of "
        "`reduce_bucket_size` elements (0.9 GB for the default 5e8 at 2 bytes per element); if memory allows, set "
        '`"overlap_comm": true`. It does not apply to pipeline parallelism (DeepSpeed turns overlap off for a '
        "PipelineModule) or when you turned it off to work around a communication problem."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true}
        }
        """,
    ),
    scope=Scope.advice,
)
def overlap_comm_off(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage in (2, 3) and known(ctx, f"{ZERO}.overlap_comm") is False:
        location = ctx.where(f"{ZERO}.overlap_comm") if ctx.is_set(f"{ZERO}.overlap_comm") else ctx.where(ZERO)
        yield Hit(location, f"{ZERO}.overlap_comm", {"stage": stage})


@rule(
    "DS601",
    "reduce-bucket-memory",
    Severity.info,
    message="reduce_bucket_size {count} elements: {buffers} gradient bucket(s) of {each} each, {total} of GPU "
    "memory at 2 bytes per element",
    explanation=(
        "Bucket sizes in ZeRO count elements, not bytes: 5e8 is 500 million gradients, 0.9 GB in fp16 or bf16, not "
        '"500 MB". With `contiguous_gradients` (on by default, and always with optimizer offload at stages 1-2) '
        "DeepSpeed allocates the gradient bucket up front: once at stage 3, and at stages 1-2 twice when "
        "`overlap_comm` is on (a double buffer). At stage 1 with an fp32 `data_types.grad_accum_dtype` on an fp16 "
        "model the bucket is fp32, which doubles the figure. If memory "
        "is short, 2e8 (0.4 GB per buffer) is a common choice; smaller buckets mean more, smaller collectives. "
        "On GPUs with plenty of free memory the default is fine. With bf16 at stage 1 and an fp32 "
        "`grad_accum_dtype`, DeepSpeed's BF16 optimizer replaces the ZeRO optimizer and allocates no such bucket "
        "(see DS583)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 500000000}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "reduce_bucket_size": 200000000}
        }
        """,
    ),
    scope=Scope.advice,
)
def reduce_bucket_memory(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.reduce_bucket_size"
    size = known(ctx, path)
    if not stage or size is UNKNOWN or isinstance(size, bool) or not isinstance(size, int):
        return
    if bf16_optimizer_path(ctx):
        return  # the BF16 optimizer allocates no reduce bucket (DS583)
    offloaded = offload_device(ctx, "optimizer") in ("cpu", "nvme")
    contiguous = known(ctx, f"{ZERO}.contiguous_gradients") is True or (stage in (1, 2) and offloaded)
    if not contiguous:
        return
    buffers = 2 if stage in (1, 2) and known(ctx, f"{ZERO}.overlap_comm") is True else 1
    each = size * BYTES_PER_ELEMENT
    if each * buffers >= BUCKET_NOTE_BYTES:
        location = ctx.where(path) if ctx.is_set(path) else ctx.where(ZERO)
        yield Hit(
            location,
            path,
            {"count": fmt_count(size), "buffers": buffers, "each": fmt_bytes(each), "total": fmt_bytes(each * buffers)},
        )


@rule(
    "DS602",
    "contiguous-gradients-off",
    Severity.info,
    message="contiguous_gradients is off: gradients stay scattered in memory, which fragments it during backward",
    explanation=(
        "With `contiguous_gradients` on (the default) ZeRO copies each gradient into a preallocated bucket as "
        "soon as it is produced, so the backward pass does not leave many small freed blocks behind; off, "
        "large models can run out of memory from fragmentation although enough is free in total. Turning it off "
        "saves the bucket itself (`reduce_bucket_size` elements), which rarely pays. At stages 1-2 with optimizer "
        "offload DeepSpeed turns it on anyway (see DS537)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": false}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true}
        }
        """,
    ),
    scope=Scope.advice,
)
def contiguous_gradients_off(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.contiguous_gradients"
    if not stage or known(ctx, path) is not False or bf16_optimizer_path(ctx):
        return  # (the BF16 optimizer ignores the key: DS583)
    if stage in (1, 2) and offload_device(ctx, "optimizer") in ("cpu", "nvme"):
        return  # forced on: DS537
    yield Hit(ctx.where(path), path)


@rule(
    "DS603",
    "offload-pin-memory-off",
    Severity.info,
    message="{section}.pin_memory is false: copies between GPU and CPU memory are slower and cannot overlap "
    "with compute",
    explanation=(
        "Page-locked (pinned) host memory lets the GPU copy offloaded tensors asynchronously and at full "
        "bandwidth; pageable memory goes through an extra staging copy. DeepSpeed pins by default since 0.19.5. "
        "Keep it false only when the host limits locked memory (containers with a low memlock limit, or many "
        "processes per node running short of RAM)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": false}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}
        }
        """,
    ),
    needs=(f"{ZERO}.offload_param", f"{ZERO}.offload_optimizer"),
    scope=Scope.advice,
)
def offload_pin_memory_off(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if not stage:
        return
    for which in ("param", "optimizer"):
        section = f"{ZERO}.offload_{which}"
        if which == "param" and stage != 3:
            continue  # ignored below stage 3 (DS530)
        if offload_device(ctx, which) in ("cpu", "nvme") and known(ctx, f"{section}.pin_memory") is False:
            yield Hit(ctx.where(f"{section}.pin_memory"), f"{section}.pin_memory", {"section": section})


@rule(
    "DS604",
    "steps-per-print-low",
    Severity.info,
    message="steps_per_print {value} writes a progress line every {value} optimizer steps",
    explanation=(
        "`steps_per_print` sets how often DeepSpeed logs the step, learning rate and momentum (and, with "
        "`wall_clock_breakdown`, timings). The log line itself is cheap, but every few steps it buries other "
        "output; 10 to 100 is usual. Unset means no periodic line at all (the default since 0.15.2, although "
        "the documentation says 10)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "steps_per_print": 1
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "steps_per_print": 100
        }
        """,
    ),
    needs=("steps_per_print",),
    scope=Scope.advice,
)
def steps_per_print_low(ctx: Context) -> Iterator[Hit]:
    value = ctx.get("steps_per_print")
    is_int = isinstance(value, int) and not isinstance(value, bool)
    if ctx.is_set("steps_per_print") and is_int and 0 < value < FEW_STEPS:
        yield Hit(ctx.where("steps_per_print"), "steps_per_print", {"value": value})


@rule(
    "DS605",
    "round-robin-gradients-with-offload",
    Severity.info,
    message="optimizer offload at ZeRO stage {stage}: round_robin_gradients can speed up the copies of gradients "
    "to the CPU",
    explanation=(
        "With optimizer offload at stages 1-2, every rank copies its gradient partition to CPU memory. "
        "`round_robin_gradients: true` reorders the partitioning so the copies are spread more finely over the "
        "ranks; DeepSpeed describes the gain as growing with the number of gradient accumulation steps and of "
        "GPUs. It only reorders which rank owns which parameters; the result of training is the same. Measure "
        "a few steps with and without it. Stage 3 does not read it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "reduce_bucket_size": 200000000,
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "reduce_bucket_size": 200000000,
            "round_robin_gradients": true,
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(f"{ZERO}.offload_optimizer",),
    scope=Scope.advice,
)
def round_robin_with_offload(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.round_robin_gradients"
    if stage in (1, 2) and offload_device(ctx, "optimizer") in ("cpu", "nvme") and known(ctx, path) is False:
        yield Hit(
            ctx.where(path) if ctx.is_set(path) else ctx.where(f"{ZERO}.offload_optimizer"), path, {"stage": stage}
        )


@rule(
    "DS606",
    "wall-clock-breakdown-on",
    Severity.info,
    message="wall_clock_breakdown is on: DeepSpeed waits for the GPU and logs timings at every step",
    explanation=(
        "The breakdown times forward, backward and step with device events and reads them at the end of every "
        "micro-step, which waits for the GPU to finish and writes a log line each time. That is what you want "
        "while profiling and a slowdown otherwise; turn it off for production runs."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "wall_clock_breakdown": true
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
    scope=Scope.advice,
)
def wall_clock_breakdown_on(ctx: Context) -> Iterator[Hit]:
    if is_true(ctx, "wall_clock_breakdown"):
        yield Hit(ctx.where("wall_clock_breakdown"), "wall_clock_breakdown")


@rule(
    "DS607",
    "flops-profiler-enables-wall-clock",
    Severity.info,
    message="flops_profiler.enabled also turns wall_clock_breakdown on, for the whole run",
    explanation=(
        "DeepSpeed sets `wall_clock_breakdown` to `wall_clock_breakdown or flops_profiler.enabled`. The profiler "
        "itself measures only at `profile_step`, but the timing breakdown then runs at every step, waiting for "
        "the GPU and logging (see DS606). Enable the profiler for a short profiling run, not for training."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "flops_profiler": {"enabled": true, "profile_step": 10}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "flops_profiler": {"enabled": false, "profile_step": 10}
        }
        """,
    ),
)
def flops_profiler_wall_clock(ctx: Context) -> Iterator[Hit]:
    if ctx.get("flops_profiler.enabled") is True and not is_true(ctx, "wall_clock_breakdown"):
        yield Hit(ctx.where("flops_profiler.enabled"), "flops_profiler.enabled")


@rule(
    "DS608",
    "pipeline-with-zero-stage",
    Severity.info,
    message="the pipeline section suggests pipeline parallelism, which DeepSpeed refuses with ZeRO stage {stage}",
    explanation=(
        "DeepSpeed's pipeline engine asserts at start-up that the ZeRO stage is 0 or 1 (\"ZeRO-2 and ZeRO-3 are "
        'incompatible with pipeline parallelism"). Whether pipeline parallelism is used is decided in code, by '
        "passing a PipelineModule, so the config alone cannot tell; a `pipeline` section is the only hint. If "
        "the model is a PipelineModule, use stage 0 or 1; if it is not, the `pipeline` section is unused and can "
        "go."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true},
          "pipeline": {"activation_checkpoint_interval": 1}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1},
          "pipeline": {"activation_checkpoint_interval": 1}
        }
        """,
    ),
    needs=("pipeline",),
)
def pipeline_with_zero_stage(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    section = mapping(ctx, "pipeline")
    if stage is not None and stage >= 2 and section:
        yield Hit(ctx.where("pipeline"), "pipeline", {"stage": stage}, related(ctx, f"{ZERO}.stage"))


@rule(
    "DS609",
    "adam-means-adamw",
    Severity.info,
    message="optimizer type Adam with weight_decay {decay} runs AdamW (decoupled weight decay) unless "
    "params.adam_w_mode is false",
    explanation=(
        "For type Adam, DeepSpeed builds its Adam in AdamW mode by default (`adam_w_mode` true): weight decay is "
        "applied to the weights directly instead of being added to the gradient as an L2 penalty. With a "
        "weight decay above 0 the two train differently. If you want classic Adam, set "
        '`"adam_w_mode": false` in `params`; if AdamW is what you want, type AdamW says so.'
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "Adam", "params": {"lr": 1e-4, "weight_decay": 0.01}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "weight_decay": 0.01}}
        }
        """,
    ),
    needs=("optimizer",),
)
def adam_means_adamw(ctx: Context) -> Iterator[Hit]:
    params = mapping(ctx, "optimizer.params")
    if optimizer_name(ctx) != "adam" or params is None or "adam_w_mode" in params:
        return
    decay = params.get("weight_decay")
    if isinstance(decay, (int, float)) and not isinstance(decay, bool) and decay > 0:
        yield Hit(ctx.where("optimizer.type"), "optimizer.type", {"decay": decay})


@rule(
    "DS610",
    "contiguous-checkpointing-incomplete",
    Severity.info,
    message="activation_checkpointing.contiguous_memory_optimization needs {missing} as well, or "
    "deepspeed.checkpointing.configure() stops",
    explanation=(
        "DeepSpeed does not read `activation_checkpointing` by itself: the section takes effect when the "
        "training code calls `deepspeed.checkpointing.configure()` (Megatron-style models do; Hugging Face "
        "Trainer uses its own gradient checkpointing instead). That call asserts that contiguous memory "
        "checkpointing comes with `partition_activations: true` and a `number_checkpoints` (the number of "
        "checkpointed layers, for sizing the buffer), unless the code passes them as arguments. Add the missing "
        "keys, or drop `contiguous_memory_optimization`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "activation_checkpointing": {"contiguous_memory_optimization": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "activation_checkpointing": {
            "partition_activations": true,
            "contiguous_memory_optimization": true,
            "number_checkpoints": 24
          }
        }
        """,
    ),
)
def contiguous_checkpointing_incomplete(ctx: Context) -> Iterator[Hit]:
    path = "activation_checkpointing.contiguous_memory_optimization"
    if not ctx.get(path):
        return
    missing = []
    if not ctx.get("activation_checkpointing.partition_activations"):
        missing.append("partition_activations")
    if ctx.get("activation_checkpointing.number_checkpoints") is None:
        missing.append("number_checkpoints")
    if missing:
        yield Hit(ctx.where(path), path, {"missing": ", ".join(missing)})


@rule(
    "DS611",
    "vocabulary-size-alignment",
    Severity.info,
    message="vocabulary_size {value} is not a multiple of 8, which makes tensor-core matrix products less efficient",
    explanation=(
        "DeepSpeed uses `vocabulary_size` only for this check, and logs a warning too. Embedding and output "
        "layers whose vocabulary dimension is a multiple of 8 (better, of 64 or 128) map onto tensor cores "
        "without padding. Pad the vocabulary in the model (most tokenizers leave spare ids) and update the value."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "vocabulary_size": 50257
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "vocabulary_size": 50304
        }
        """,
    ),
    scope=Scope.advice,
)
def vocabulary_size_alignment(ctx: Context) -> Iterator[Hit]:
    value = ctx.get("vocabulary_size")
    if isinstance(value, int) and not isinstance(value, bool) and value and value % 8:
        yield Hit(ctx.where("vocabulary_size"), "vocabulary_size", {"value": value})
