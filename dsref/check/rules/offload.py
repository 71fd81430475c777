"""Rules about ZeRO-Offload and ZeRO-Infinity: `offload_param`, `offload_optimizer` and NVMe."""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import Example, Severity
from . import Context, Hit, rule
from ._common import UNKNOWN, auto_paths, built_optimizer, known, mapping, offload_device, related, zero_stage
from .precision import bf16_optimizer_path

PARAM, OPTIM = "zero_optimization.offload_param", "zero_optimization.offload_optimizer"


@rule(
    "DS530",
    "param-offload-below-stage3",
    Severity.warning,
    message="parameter offload to {device} is ignored at ZeRO stage {stage}; only stage 3 offloads parameters",
    explanation=(
        "Only ZeRO stage 3 partitions the parameters, so only the stage 3 engine (and `zero.Init`, which Hugging "
        "Face uses at stage 3) reads `offload_param`. At stages 0-2 DeepSpeed accepts the section without a "
        "word and the parameters stay on the GPU. Use stage 3 if parameters must leave the GPU, or remove the "
        "section; `offload_optimizer` is the offload that works at stages 1 and 2. The old switch "
        "`cpu_offload_param: true` means the same as `offload_param` with device cpu."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_param": {"device": "cpu"}}
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
)
def param_offload_below_stage3(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage is None or stage == 3:
        return
    device = offload_device(ctx, "param")
    if device in ("cpu", "nvme"):
        yield Hit(ctx.where(f"{PARAM}.device"), PARAM, {"device": device, "stage": stage})
    elif device is None and known(ctx, "zero_optimization.cpu_offload_param") is True:
        path = "zero_optimization.cpu_offload_param"
        yield Hit(ctx.where(path), path, {"device": "cpu", "stage": stage})


@rule(
    "DS531",
    "nvme-offload-without-path",
    Severity.error,
    message="{section}.device is nvme but nvme_path is not set; ZeRO stage 3 cannot create its swap files",
    explanation=(
        "NVMe offload swaps tensors to files in a directory on a fast local drive, given by `nvme_path` in the "
        "same section. Its default is null (not /local_nvme as the documentation says). At stage 3 DeepSpeed "
        "fails when it sets up the swapping: `zero.Init` asserts that `nvme_path` is set for parameters, and the "
        "optimizer joins a null path (TypeError). Set `nvme_path` to a directory on an NVMe drive that every "
        "rank can write to."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "/local_nvme"}}
        }
        """,
    ),
    needs=(PARAM, OPTIM),
)
def nvme_without_path(ctx: Context) -> Iterator[Hit]:
    if zero_stage(ctx) != 3:
        return
    for which, section in (("param", PARAM), ("optimizer", OPTIM)):
        if offload_device(ctx, which) == "nvme" and known(ctx, f"{section}.nvme_path") is None:
            yield Hit(ctx.where(f"{section}.device"), f"{section}.nvme_path", {"section": section})


@rule(
    "DS532",
    "optimizer-nvme-below-stage3",
    Severity.warning,
    message="optimizer offload to nvme acts as cpu at ZeRO stage {stage}; NVMe swapping exists only at stage 3",
    explanation=(
        "The stage 1-2 optimizer knows one kind of offload: any device other than none puts the optimizer "
        "states and step in CPU memory. Swapping them on to NVMe (ZeRO-Infinity) is implemented at stage 3 only, "
        "so at stages 1-2 `device: nvme` needs as much CPU memory as `cpu`, and `nvme_path` and the NVMe buffer "
        "settings are not used. Write `cpu` to say what happens, or move to stage 3 for NVMe."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "offload_optimizer": {"device": "nvme", "nvme_path": "/local_nvme"}
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
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(OPTIM,),
)
def optimizer_nvme_below_stage3(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage in (1, 2) and offload_device(ctx, "optimizer") == "nvme":
        yield Hit(ctx.where(f"{OPTIM}.device"), f"{OPTIM}.device", {"stage": stage})


@rule(
    "DS533",
    "partial-offload-below-stage3",
    Severity.error,
    message="offload_optimizer.ratio {ratio} (partial offload) needs ZeRO stage 3, not stage {stage}",
    explanation=(
        "`offload_optimizer.ratio` below 1.0 offloads only part of the optimizer states, a feature of the stage 3 "
        "optimizer. DeepSpeed's ZeRO config asserts, while it reads the config, that the stage is 3 whenever the "
        "`offload_optimizer` section has a ratio below 1.0 (even with device none). Remove `ratio` (or set it to "
        "1.0), or use stage 3."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "offload_optimizer": {"device": "cpu", "ratio": 0.3}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 3,
            "offload_optimizer": {"device": "cpu", "ratio": 0.3}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(OPTIM,),
)
def partial_offload_below_stage3(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    ratio = known(ctx, f"{OPTIM}.ratio")
    if stage is None or stage == 3 or mapping(ctx, OPTIM) is None:
        return
    if isinstance(ratio, (int, float)) and not isinstance(ratio, bool) and ratio < 1.0:
        yield Hit(ctx.where(f"{OPTIM}.ratio"), f"{OPTIM}.ratio", {"ratio": ratio, "stage": stage})


@rule(
    "DS534",
    "partial-offload-needs-cpu-adam",
    Severity.error,
    message="partial optimizer offload (ratio {ratio}) works only with DeepSpeed's CPU Adam, and the optimizer "
    "here is {optimizer}",
    explanation=(
        "With `offload_optimizer.ratio` below 1.0 the ZeRO-3 optimizer steps part of the parameters on the GPU "
        "with a backup AdamW and the rest with the offloaded optimizer, which must be `DeepSpeedCPUAdam`; it "
        "asserts this when it is built. DeepSpeed builds CPU Adam from optimizer type Adam or AdamW when the "
        "optimizer is offloaded (not with `torch_adam`, not with ZenFlow). Use Adam/AdamW, or offload fully "
        "(ratio 1.0)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 0.3}},
          "optimizer": {"type": "Lion", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_optimizer": {"device": "cpu", "ratio": 0.3}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(OPTIM,),
)
def partial_offload_needs_cpu_adam(ctx: Context) -> Iterator[Hit]:
    ratio = known(ctx, f"{OPTIM}.ratio")
    if zero_stage(ctx) != 3 or offload_device(ctx, "optimizer") not in ("cpu", "nvme"):
        return
    built = built_optimizer(ctx)
    if isinstance(ratio, (int, float)) and ratio != 1.0 and built is not None and built != "DeepSpeedCPUAdam":
        yield Hit(
            ctx.where(f"{OPTIM}.ratio"),
            f"{OPTIM}.ratio",
            {"ratio": ratio, "optimizer": built},
            related(ctx, "optimizer.type"),
        )


@rule(
    "DS535",
    "offload-without-device",
    Severity.warning,
    message="{section} has no device, so nothing is offloaded (DeepSpeed's default device is none)",
    explanation=(
        "An offload section without `device` does not offload: DeepSpeed's default is `none`, although its "
        "documentation says `cpu` and that a missing device triggers an assertion. Neither happens; the section's "
        'other keys, `pin_memory` included, are then unused. Add `"device": "cpu"` (or `nvme` with '
        "`nvme_path`) if you meant to offload, or remove the section."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"pin_memory": true}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu", "pin_memory": true}}
        }
        """,
    ),
    needs=(PARAM, OPTIM),
)
def offload_without_device(ctx: Context) -> Iterator[Hit]:
    for section in (PARAM, OPTIM):
        device = f"{section}.device"
        # auto_paths (a walk of the whole file) last: only a section without a device needs it
        if mapping(ctx, section) is not None and not ctx.is_set(device) and device not in auto_paths(ctx):
            yield Hit(ctx.where(section), section, {"section": section})


@rule(
    "DS536",
    "optimizer-offload-without-zero",
    Severity.warning,
    message="optimizer offload to {device} with ZeRO off (stage 0): DeepSpeed builds a CPU optimizer for "
    "parameters that stay on the GPU, and the first step fails",
    explanation=(
        "Offloading the optimizer is a ZeRO feature: stages 1-3 move the optimizer states and step to the CPU. At "
        "stage 0 nothing is moved, but DeepSpeed still reads `offload_optimizer.device` to pick the optimizer "
        "class: it builds its CPU Adam (or CPU Adagrad or CPU Lion), which asserts at the first step that the "
        "parameters are on the CPU; an optimizer passed in code is refused at start-up instead, unless "
        "`zero_force_ds_cpu_optimizer` is false. Set `zero_optimization.stage` to 1 or higher, or remove the "
        "offload."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 0, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(OPTIM,),
)
def optimizer_offload_without_zero(ctx: Context) -> Iterator[Hit]:
    device = offload_device(ctx, "optimizer")
    if zero_stage(ctx) == 0 and device in ("cpu", "nvme"):
        yield Hit(ctx.where(f"{OPTIM}.device"), f"{OPTIM}.device", {"device": device})


@rule(
    "DS537",
    "contiguous-gradients-forced",
    Severity.warning,
    message="contiguous_gradients false is overridden: with optimizer offload ZeRO stage {stage} always keeps "
    "gradients contiguous",
    explanation=(
        "The stage 1-2 optimizer copies gradients to the CPU from a contiguous buffer, so with optimizer offload "
        "it turns `contiguous_gradients` on whatever the file says. The false in the file has no effect; remove "
        "it. (Stage 3 does honour it.)"
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "contiguous_gradients": false,
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
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=(OPTIM,),
)
def contiguous_gradients_forced(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = "zero_optimization.contiguous_gradients"
    device = offload_device(ctx, "optimizer")
    if stage not in (1, 2) or device in (None, "none", UNKNOWN) or bf16_optimizer_path(ctx):
        return
    if known(ctx, path) is False:
        yield Hit(ctx.where(path), path, {"stage": stage})
