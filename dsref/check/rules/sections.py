"""Rules about the other sections: logging, checkpoint engines, tensor parallelism, data efficiency, unused keys."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from ...tree.options import Option, OptionTree
from ..findings import Example, Severity
from ..validate.values import accepts
from . import Context, Hit, rule
from ._common import known, mapping, related, zero_stage


@rule(
    "DS570",
    "comms-logger-disabled-still-logs",
    Severity.warning,
    message="comms_logger.enabled is false, but the section's presence turns communication logging on",
    explanation=(
        "DeepSpeed decides whether to log collective calls by whether the `comms_logger` section exists, not by "
        "its `enabled` key (it reads the key and never consults it). So a `comms_logger` section with "
        "`enabled: false` logs every call, and the timing it adds synchronises the device and slows training. "
        "Remove the whole section to switch the logger off."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "comms_logger": {"enabled": false}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
    needs=("comms_logger",),
)
def comms_logger_disabled(ctx: Context) -> Iterator[Hit]:
    path = "comms_logger.enabled"
    if mapping(ctx, "comms_logger") is not None and ctx.is_set(path) and ctx.get(path) is False:
        yield Hit(ctx.where(path), path)


def _looks_off(value: Any) -> bool:
    if value is None or value == 0 or (isinstance(value, str) and value.strip().lower() in ("false", "off", "no")):
        return True
    if isinstance(value, Mapping):
        enabled = value.get("enabled", True)
        return enabled is False or enabled is None or enabled == 0 or str(enabled).lower() == "false"
    return False


@rule(
    "DS571",
    "datastates-enabled-by-value",
    Severity.warning,
    message="datastates_ckpt is {value}, which DeepSpeed reads as on: only the literal false turns it off",
    explanation=(
        "DeepSpeed enables the DataStates checkpoint engine whenever `datastates_ckpt` is present with any value "
        'other than the JSON literal false: null, 0, "false" and an object with `enabled: false` all turn it on. The '
        "engine then needs the external `datastates` package, and without it the engine start fails. Write "
        '`"datastates_ckpt": false` or remove the key to keep the default torch checkpoints.'
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "datastates_ckpt": null
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "datastates_ckpt": false
        }
        """,
    ),
)
def datastates_enabled_by_value(ctx: Context) -> Iterator[Hit]:
    if not isinstance(ctx.config, Mapping) or "datastates_ckpt" not in ctx.config:
        return
    value = ctx.config["datastates_ckpt"]
    if value is not False and _looks_off(value):
        shown = "null" if value is None else value if not isinstance(value, Mapping) else dict(value)
        yield Hit(("datastates_ckpt",), "datastates_ckpt", {"value": shown})


@rule(
    "DS572",
    "datastates-overridden-by-writer",
    Severity.warning,
    message="datastates_ckpt is ignored because checkpoint.writer is set; the writer's engine is used",
    explanation=(
        "DeepSpeed picks one checkpoint engine: the fast or decoupled writer when `checkpoint.writer` is set, "
        "otherwise DataStates when `datastates_ckpt` is on, otherwise torch.save. With both in the file the "
        "writer wins and the DataStates settings are unused. Keep one of them."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "checkpoint": {"writer": {"type": "fast"}},
          "datastates_ckpt": {}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "checkpoint": {"writer": {"type": "fast"}}
        }
        """,
    ),
)
def datastates_overridden(ctx: Context) -> Iterator[Hit]:
    if not isinstance(ctx.config, Mapping) or ctx.config.get("datastates_ckpt", False) is False:
        return
    if mapping(ctx, "checkpoint.writer") is not None:
        yield Hit(("datastates_ckpt",), "datastates_ckpt", related=related(ctx, "checkpoint.writer"))


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@rule(
    "DS573",
    "tp-size-mismatch",
    Severity.error,
    message="tensor_parallel.tp.tp_size {tp_size} must be 1 or equal to tensor_parallel.autotp_size {autotp_size}",
    explanation=(
        "For training, AutoTP's degree is `tensor_parallel.autotp_size`; when the engine sets up AutoTP (autotp_size "
        "above 1) it overwrites `tp.tp_size` with it, and raises ValueError first if `tp.tp_size` is neither 1 "
        "nor that same value. Leave `tp` out (or its `tp_size` at 1) and set only `autotp_size`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"autotp_size": 4, "tp": {"tp_size": 2}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"autotp_size": 4}
        }
        """,
    ),
)
def tp_size_mismatch(ctx: Context) -> Iterator[Hit]:
    autotp, tp = _int(ctx.get("tensor_parallel.autotp_size")), _int(ctx.get("tensor_parallel.tp.tp_size"))
    if autotp is not None and tp is not None and autotp > 1 and tp not in (1, autotp):
        yield Hit(
            ctx.where("tensor_parallel.tp.tp_size"),
            "tensor_parallel.tp.tp_size",
            {"tp_size": tp, "autotp_size": autotp},
            related(ctx, "tensor_parallel.autotp_size"),
        )


@rule(
    "DS574",
    "tp-size-without-autotp",
    Severity.warning,
    message="tensor_parallel.tp.tp_size {tp_size} has no effect: training uses tensor parallelism only when "
    "tensor_parallel.autotp_size is above 1",
    explanation=(
        "The training engine turns on automatic tensor parallelism only when `tensor_parallel.autotp_size` is "
        "greater than 1 (default 0), and then sets `tp.tp_size` from it. With `autotp_size` unset or 1 the model "
        "is not split, whatever `tp.tp_size` says. Set `autotp_size` to the tensor-parallel degree you want."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"tp": {"tp_size": 4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"autotp_size": 4}
        }
        """,
    ),
)
def tp_size_without_autotp(ctx: Context) -> Iterator[Hit]:
    autotp, tp = _int(ctx.get("tensor_parallel.autotp_size")), _int(ctx.get("tensor_parallel.tp.tp_size"))
    if tp is not None and tp > 1 and autotp is not None and autotp <= 1:
        yield Hit(ctx.where("tensor_parallel.tp.tp_size"), "tensor_parallel.tp.tp_size", {"tp_size": tp})


_SAMPLING = "data_efficiency.data_sampling"


@rule(
    "DS575",
    "data-sampling-missing-key",
    Severity.error,
    message="{section} is enabled but has no {missing}; DeepSpeed refuses the config",
    explanation=(
        "Two data-sampling features need a key that has no default: curriculum learning needs "
        "`curriculum_metrics` (which metric orders the samples, and its schedule), and dynamic batching needs "
        "`max_tokens` (the token budget of a batch). DeepSpeed asserts both while it reads the config, even when "
        "`data_efficiency.enabled` is false. Add the key, or set the feature's `enabled` to false."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "data_efficiency": {
            "enabled": true,
            "data_sampling": {"enabled": true, "dynamic_batching": {"enabled": true}}
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "data_efficiency": {
            "enabled": true,
            "data_sampling": {"enabled": true, "dynamic_batching": {"enabled": true, "max_tokens": 8192}}
          }
        }
        """,
    ),
    needs=(_SAMPLING,),
)
def data_sampling_missing_key(ctx: Context) -> Iterator[Hit]:
    for feature, key in (("curriculum_learning", "curriculum_metrics"), ("dynamic_batching", "max_tokens")):
        section = f"{_SAMPLING}.{feature}"
        raw = mapping(ctx, section)
        # Both getters read the raw dict and test `enabled` for truth, and look for the key by name.
        if raw is not None and raw.get("enabled") and key not in raw:
            yield Hit(ctx.where(f"{section}.enabled"), f"{section}.{key}", {"section": section, "missing": key})


@rule(
    "DS576",
    "unused-option",
    Severity.warning,
    message="{option} is read by DeepSpeed 0.19.8 but nothing uses it; the value {value} changes nothing",
    explanation=(
        "A few keys are still parsed but no code consults them any more: `zero_optimization.allgather_partitions`, "
        "`disable_allgather`, the pipeline section's `stages`, `partition` and `seed_layers` (the PipelineModule's "
        "arguments decide these), most of `weight_quantization`, and some others. Setting them to something "
        "other than the default has no effect. Remove them, or set what they were meant to control where "
        "DeepSpeed reads it. `comms_logger.enabled` has its own finding (DS570)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "allgather_partitions": false}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1}
        }
        """,
    ),
)
def unused_option(ctx: Context) -> Iterator[Hit]:
    written = ctx.effective.values
    for opt in _parsed_unused(ctx.tree):
        if opt.path not in written or opt.path == "comms_logger.enabled":
            continue
        value = ctx.get(opt.path)
        if value != opt.default and accepts(opt, value):  # a value of the wrong type is reported by the schema
            location = ctx.where(opt.path)
            yield Hit(location, opt.path, {"option": opt.path, "value": _shown(value)})


@cache
def _parsed_unused(tree: OptionTree) -> list[Option]:
    return [
        opt
        for opt in tree
        if opt.meta.parsed_unused and not opt.meta.deprecated and not opt.removed_in and opt.kind == "leaf"
    ]


def _shown(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


# deepspeed/module_inject/autotp_config.py AutoTPPresets.get_preset: the names it knows (compared in lower case).
AUTOTP_PRESETS = ("llama", "bloom", "chatglm", "mixtral", "deepseek_v2", "qwen2", "phi3")


@rule(
    "DS577",
    "autotp-unknown-preset",
    Severity.warning,
    message="tensor_parallel.preset_model {value} is not an AutoTP preset, so DeepSpeed uses none",
    explanation=(
        "AutoTP's presets are named after model families: llama, bloom, chatglm, mixtral, deepseek_v2, qwen2 and "
        "phi3 (compared without regard to case). Any other name silently gives no preset: the model is then split "
        "by `partition_config` if there is one, else by the model's own Hugging Face tp_plan or AutoTP's "
        "heuristics. Use one of the preset names, or describe the layers in `partition_config`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"autotp_size": 2, "preset_model": "llama3"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "tensor_parallel": {"autotp_size": 2, "preset_model": "llama"}
        }
        """,
    ),
)
def autotp_unknown_preset(ctx: Context) -> Iterator[Hit]:
    value = ctx.get("tensor_parallel.preset_model")
    if isinstance(value, str) and value and value.lower() not in AUTOTP_PRESETS:
        yield Hit(ctx.where("tensor_parallel.preset_model"), "tensor_parallel.preset_model", {"value": value})


@rule(
    "DS578",
    "autoep-zero3-conflict",
    Severity.error,
    message="AutoEP at ZeRO stage 3 does not support {other}",
    explanation=(
        "When AutoEP has replaced the model's MoE blocks and ZeRO stage 3 builds its optimizer, the engine "
        "asserts that ZeRO++ quantized gradients (`zero_quantized_gradients`, qgZ) and hierarchical partitioning "
        "(`zero_hpz_partition_size` above 1, hpZ) are off, because the expert groups are not wired into them "
        "yet. Turn those off, or use ZeRO stage 1 or 2 with AutoEP."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "expert_parallel": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_quantized_gradients": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "expert_parallel": {"enabled": true},
          "zero_optimization": {"stage": 3}
        }
        """,
    ),
)
def autoep_zero3_conflict(ctx: Context) -> Iterator[Hit]:
    if not ctx.get("expert_parallel.enabled") or zero_stage(ctx) != 3:
        return
    if known(ctx, "zero_optimization.zero_quantized_gradients") is True:
        path = "zero_optimization.zero_quantized_gradients"
        yield Hit(ctx.where(path), path, {"other": path}, related(ctx, "expert_parallel.enabled"))
    hpz = known(ctx, "zero_optimization.zero_hpz_partition_size")
    if isinstance(hpz, int) and not isinstance(hpz, bool) and hpz > 1:
        path = "zero_optimization.zero_hpz_partition_size"
        yield Hit(ctx.where(path), path, {"other": f"{path} {hpz}"}, related(ctx, "expert_parallel.enabled"))
