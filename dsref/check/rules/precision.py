"""Rules about mixed precision: fp16, bf16 and the master-weight options."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ...tree.options import Option, OptionTree
from ..findings import Example, Severity
from . import Context, Hit, rule
from ._common import UNKNOWN, built_optimizer, is_true, known, offload_device, per_file, zero_stage


@rule(
    "DS510",
    "fp16-with-bf16",
    Severity.error,
    message="fp16 and bf16 are both enabled; DeepSpeed refuses to run with both",
    explanation=(
        "DeepSpeed trains in one half-precision format at a time. When both `fp16.enabled` and `bf16.enabled` "
        "are true, building the config fails with an assertion. Keep the one your hardware supports (bf16 on "
        "Ampere and newer GPUs needs no loss scaling) and set the other to false or remove its section. The old "
        "section name `bfloat16` counts as `bf16` when `bf16` is absent."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "fp16": {"enabled": true},
          "bf16": {"enabled": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
)
def fp16_with_bf16(ctx: Context) -> Iterator[Hit]:
    if _enabled(ctx, "fp16") and _enabled(ctx, "bf16"):
        yield Hit(ctx.where("bf16.enabled"), "bf16.enabled", related=(ctx.where("fp16.enabled"),))


def _enabled(ctx: Context, section: str) -> bool:
    """``section.enabled`` is on. A release that reads the section with ``dict.get`` (fp16 and bf16 before 0.17.1)
    keeps an unfilled ``"auto"`` there as a string, which counts as true."""
    path = f"{section}.enabled"
    if ctx.get(path) is True:
        return True
    release = ctx.release
    unfilled = path in ctx.effective.autos and not (ctx.profile == "hf" and path in ctx.effective.filled)
    return unfilled and release is not None and release.reads_leniently(section)


# DeepSpeed's DtypeEnum (deepspeed/runtime/config.py): every spelling it accepts, by the dtype it names.
DTYPE_SPELLINGS: dict[str, str] = {
    **dict.fromkeys(("fp16", "float16", "half", "torch.float16"), "fp16"),
    **dict.fromkeys(("fp32", "float32", "float", "torch.float32"), "fp32"),
    **dict.fromkeys(("bf16", "bfloat16", "torch.bfloat16"), "bf16"),
    **dict.fromkeys(("int8", "torch.int8"), "int8"),
}


@per_file
def model_dtype(ctx: Context) -> str | None:
    """The dtype DeepSpeed trains the model in: fp16, bf16 or fp32 (None when Hugging Face decides)."""
    fp16, bf16 = known(ctx, "fp16.enabled"), known(ctx, "bf16.enabled")
    if fp16 is True:
        return "fp16"
    if bf16 is True:
        return "bf16"
    if fp16 is UNKNOWN or bf16 is UNKNOWN:
        return None
    return "fp32"


@per_file
def grad_accum_dtype(ctx: Context) -> str | None:
    """data_types.grad_accum_dtype as the dtype it names; the model dtype when unset; None when unknown."""
    if ctx.is_set("data_types.grad_accum_dtype") and ctx.get("data_types.grad_accum_dtype") is not None:
        return DTYPE_SPELLINGS.get(ctx.get("data_types.grad_accum_dtype"))
    return model_dtype(ctx)


@per_file
def bf16_optimizer_path(ctx: Context) -> bool:
    """Whether DeepSpeed wraps a configured optimizer in its BF16_Optimizer instead of a ZeRO optimizer.

    ``engine._do_optimizer_sanity_check``: bf16 model, fp32 gradient accumulation, ZeRO stage 1 and no CPU
    optimizer offload (nvme does not count as CPU there).
    """
    return (
        model_dtype(ctx) == "bf16"
        and grad_accum_dtype(ctx) == "fp32"
        and zero_stage(ctx) == 1
        and offload_device(ctx, "optimizer") != "cpu"
    )


def _stage_bound_precision_options(ctx: Context) -> list[Option]:
    return _stage_bound(ctx.tree)


@cache
def _stage_bound(tree: OptionTree) -> list[Option]:
    # Options outside zero_optimization that name ZeRO stages: DeepSpeed asserts their stage when it builds the
    # config (fp16/bf16 master weights, bf16 optimizer states).
    return [
        opt
        for opt in tree
        if opt.stages is not None and opt.kind == "leaf" and not opt.path.startswith("zero_optimization.")
    ]


@rule(
    "DS511",
    "master-weights-need-zero",
    Severity.error,
    message="{option} is true but ZeRO stage is {stage}; it works only with ZeRO stage {stages}",
    explanation=(
        "Keeping master weights, gradients or optimizer states in 16 bits (`fp16.fp16_master_weights_and_grads`, "
        "`bf16.bf16_master_weights_and_grads`, `bf16.bf16_optimizer_states`) is a feature of the ZeRO optimizers. "
        "Without ZeRO (stage 0, the default) DeepSpeed stops with an assertion while it reads the config. Turn the "
        "option off, or set `zero_optimization.stage` to 1, 2 or 3 (and read the other requirements of these "
        "options: optimizer offload with DeepSpeed's CPU Adam, in most cases)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
)
def master_weights_need_zero(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage is None:
        return
    for opt in _stage_bound_precision_options(ctx):
        if is_true(ctx, opt.path) and stage not in (allowed := _allowed_stages(ctx, opt)):
            stages = f"{min(allowed)}-{max(allowed)}" if max(allowed) > min(allowed) else str(min(allowed))
            yield Hit(ctx.where(opt.path), opt.path, {"option": opt.path, "stage": stage, "stages": stages})


def _allowed_stages(ctx: Context, opt: Option) -> tuple[int, ...]:
    """The ZeRO stages the release checked for allows ``opt`` at: the schema's (0.19.8's), unless that release's
    own error check was recorded judging a stage otherwise (fp16 master weights: stage 2 only up to 0.17.6)."""
    facts = ctx.release
    schema = opt.stages or ()
    if facts is None:
        return schema
    allowed = []
    for stage in range(4):
        verdict = facts.accepts_probe(f"{opt.path}=true,zero_optimization.stage={stage}")
        if verdict or (verdict is None and stage in schema):
            allowed.append(stage)
    return tuple(allowed) or schema


@rule(
    "DS512",
    "bf16-optimizer-states-need-master-weights",
    Severity.error,
    message="bf16.bf16_optimizer_states needs bf16.bf16_master_weights_and_grads to be true as well",
    explanation=(
        "bf16 optimizer states only exist on top of bf16 master weights: DeepSpeed asserts, while it reads the "
        "config, that `bf16.bf16_master_weights_and_grads` is on whenever `bf16.bf16_optimizer_states` is. Turn "
        "both on (with ZeRO stage 1-3), or turn `bf16_optimizer_states` off."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_optimizer_states": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true, "bf16_optimizer_states": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
)
def bf16_states_need_master(ctx: Context) -> Iterator[Hit]:
    if is_true(ctx, "bf16.bf16_optimizer_states") and known(ctx, "bf16.bf16_master_weights_and_grads") is False:
        yield Hit(ctx.where("bf16.bf16_optimizer_states"), "bf16.bf16_optimizer_states")


@rule(
    "DS513",
    "fp16-and-bf16-master-weights",
    Severity.error,
    message="fp16_master_weights_and_grads and bf16_master_weights_and_grads cannot both be true",
    explanation=(
        "The ZeRO optimizer keeps its master weights in one 16-bit format at most. The config accepts both "
        "`fp16.fp16_master_weights_and_grads` and `bf16.bf16_master_weights_and_grads`, but building the ZeRO "
        "optimizer fails with an assertion when both are true. Keep the one that matches the enabled precision "
        "(fp16 or bf16) and set the other to false. This does not apply when DeepSpeed uses its BF16_Optimizer "
        "instead of ZeRO (bf16, stage 1, fp32 gradient accumulation, no CPU offload)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true},
          "fp16": {"enabled": false, "fp16_master_weights_and_grads": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
)
def fp16_and_bf16_master(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage is None or stage == 0 or bf16_optimizer_path(ctx):
        return
    if is_true(ctx, "fp16.fp16_master_weights_and_grads") and is_true(ctx, "bf16.bf16_master_weights_and_grads"):
        yield Hit(
            ctx.where("bf16.bf16_master_weights_and_grads"),
            "bf16.bf16_master_weights_and_grads",
            related=(ctx.where("fp16.fp16_master_weights_and_grads"),),
        )


@rule(
    "DS514",
    "master-weights-need-cpu-adam",
    Severity.error,
    message="{option} needs optimizer offload (zero_optimization.offload_optimizer.device cpu or nvme) with "
    "DeepSpeed's CPU Adam; here the offload device is {device} and the optimizer {optimizer}",
    explanation=(
        "16-bit master weights in the ZeRO optimizers are implemented for DeepSpeed's CPU Adam only. When "
        "DeepSpeed builds the ZeRO optimizer it asserts that optimizer offload is on and that the optimizer is "
        "exactly `DeepSpeedCPUAdam`: this holds for `fp16.fp16_master_weights_and_grads`, for "
        "`bf16.bf16_master_weights_and_grads` without `bf16_optimizer_states`, and for bf16 optimizer states "
        "together with offload. Set `offload_optimizer.device` to `cpu` (or `nvme`) and use optimizer type Adam "
        "or AdamW (without `torch_adam`), which DeepSpeed then builds as CPU Adam. bf16 master weights with "
        "`bf16_optimizer_states` and no offload keep everything on the GPU and need neither."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true, "bf16_master_weights_and_grads": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "offload_optimizer": {"device": "cpu"}},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
)
def master_weights_need_cpu_adam(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage is None or stage == 0 or bf16_optimizer_path(ctx):
        return
    device = offload_device(ctx, "optimizer")
    if device is UNKNOWN:
        return
    offload = device in ("cpu", "nvme")
    built = built_optimizer(ctx)
    wrong_optimizer = offload and built is not None and built != "DeepSpeedCPUAdam"
    states = is_true(ctx, "bf16.bf16_optimizer_states")
    candidates = []
    if is_true(ctx, "fp16.fp16_master_weights_and_grads"):
        candidates.append(("fp16.fp16_master_weights_and_grads", not offload or wrong_optimizer))
    if is_true(ctx, "bf16.bf16_master_weights_and_grads"):
        candidates.append(("bf16.bf16_master_weights_and_grads", (not states and not offload) or wrong_optimizer))
    for path, fails in candidates:
        if fails:
            shown = built if built is not None else "?"  # passed in code
            yield Hit(ctx.where(path), path, {"option": path, "device": device or "none", "optimizer": shown})


@rule(
    "DS515",
    "fp16-dynamic-scale-settings",
    Severity.error,
    message="{option} is {value}; with dynamic loss scaling (loss_scale 0) it must be greater than 0",
    explanation=(
        "With fp16 enabled and `loss_scale` 0, DeepSpeed scales the loss dynamically: `loss_scale_window` is the "
        "number of clean steps before the scale grows (0 would divide by zero) and `min_loss_scale` is the floor "
        "of the scale (0 or less lets it collapse). DeepSpeed's fp16 config rejects either value at 0 or below "
        "while it reads the config. Use positive values (defaults 1000 and 1). A fixed `loss_scale`, or fp16 "
        "turned off, skips this check."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 0}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "fp16": {"enabled": true, "loss_scale": 0, "loss_scale_window": 1000}
        }
        """,
    ),
)
def fp16_dynamic_scale(ctx: Context) -> Iterator[Hit]:
    if not is_true(ctx, "fp16.enabled") or known(ctx, "fp16.loss_scale") != 0:
        return
    for key in ("loss_scale_window", "min_loss_scale"):
        path = f"fp16.{key}"
        value = ctx.get(path)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
            yield Hit(ctx.where(path), path, {"option": path, "value": value})


@rule(
    "DS516",
    "autocast-with-quantized-weights",
    Severity.error,
    message="torch_autocast cannot be enabled together with zero_optimization.zero_quantized_weights",
    explanation=(
        "When `torch_autocast.enabled` is on, the engine checks at start-up that ZeRO++ quantized weights "
        "(`zero_quantized_weights`, qwZ) are off and stops with an assertion otherwise; the two change the "
        "weights' precision in incompatible ways. Use either torch.autocast or quantized weight all-gathers."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "torch_autocast": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_quantized_weights": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "torch_autocast": {"enabled": true},
          "zero_optimization": {"stage": 3}
        }
        """,
    ),
)
def autocast_with_quantized_weights(ctx: Context) -> Iterator[Hit]:
    # torch_autocast is read with dict.get and tested for truth; zero_quantized_weights is checked at any stage.
    if ctx.get("torch_autocast.enabled") and is_true(ctx, "zero_optimization.zero_quantized_weights"):
        yield Hit(
            ctx.where("zero_optimization.zero_quantized_weights"),
            "zero_optimization.zero_quantized_weights",
            related=(ctx.where("torch_autocast.enabled"),),
        )


@rule(
    "DS517",
    "param-dtype-mismatch",
    Severity.error,
    message="data_types.param_dtype {value} names {dtype}, but the model trains in {mode}",
    explanation=(
        "`data_types.param_dtype` only restates the model's dtype; the dtype itself comes from `fp16.enabled` and "
        "`bf16.enabled` (fp32 when neither is on). When the engine starts it asserts that the two agree, because "
        "the optimizer and gradient paths follow the fp16/bf16 flags. Enable the matching precision section or "
        "remove `param_dtype`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "data_types": {"param_dtype": "fp16"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "data_types": {"param_dtype": "bf16"}
        }
        """,
    ),
)
def param_dtype_mismatch(ctx: Context) -> Iterator[Hit]:
    value = ctx.get("data_types.param_dtype")
    mode = model_dtype(ctx)
    if not isinstance(value, str) or mode is None:
        return
    dtype = DTYPE_SPELLINGS.get(value)
    if dtype is not None and dtype != mode:
        yield Hit(
            ctx.where("data_types.param_dtype"),
            "data_types.param_dtype",
            {"value": value, "dtype": dtype, "mode": mode},
        )


@rule(
    "DS518",
    "grad-accum-dtype-without-zero",
    Severity.error,
    message="data_types.grad_accum_dtype {value} differs from the model dtype {mode}, which needs ZeRO (stage 0 here)",
    explanation=(
        "Accumulating gradients in another dtype than the model's is done by the ZeRO optimizers (and by the "
        "BF16 optimizer that ZeRO stage 1 uses for bf16 with fp32 accumulation). Without ZeRO the engine raises "
        'NotImplementedError ("unsupported mix of model_dtype and grad_accum_dtype") when it sets up the '
        "optimizer. Remove `grad_accum_dtype`, make it equal to the model dtype, or enable ZeRO."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "data_types": {"grad_accum_dtype": "fp32"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1},
          "data_types": {"grad_accum_dtype": "fp32"}
        }
        """,
    ),
)
def grad_accum_without_zero(ctx: Context) -> Iterator[Hit]:
    value = ctx.get("data_types.grad_accum_dtype")
    mode = model_dtype(ctx)
    if zero_stage(ctx) != 0 or not isinstance(value, str) or mode is None:
        return
    dtype = DTYPE_SPELLINGS.get(value)
    if dtype is not None and dtype != mode:
        yield Hit(
            ctx.where("data_types.grad_accum_dtype"), "data_types.grad_accum_dtype", {"value": value, "mode": mode}
        )
