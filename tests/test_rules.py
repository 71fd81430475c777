"""Cross-field rules: each fires where DeepSpeed 0.19.8 misbehaves and stays quiet on the near miss.

Config-time rules are also replayed against DeepSpeed's own `DeepSpeedConfig` when DeepSpeed is installed, so
an error finding here is an exception there, and the quiet twin builds.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import hjson
import pytest

from dsref.effective import effective
from dsref.findings import Location
from dsref.options import OptionTree
from dsref.rules import Context, all_rules, get_rule, run_rules
from dsref.rules import _common as common

from .conftest import require_deepspeed, shared_path

Z = "zero_optimization"
ADAM = {"type": "Adam", "params": {"lr": 1e-4}}


def z(stage: int, **keys: Any) -> dict[str, Any]:
    return {Z: {"stage": stage, **keys}}


# code, config, location of the finding, profile
FIRES: list[tuple[str, dict[str, Any], Location, str]] = [
    ("DS510", {"fp16": {"enabled": True}, "bf16": {"enabled": True}}, ("bf16", "enabled"), "deepspeed"),
    (
        "DS511",
        {"bf16": {"bf16_master_weights_and_grads": True}},
        ("bf16", "bf16_master_weights_and_grads"),
        "deepspeed",
    ),
    (
        "DS511",
        {"fp16": {"fp16_master_weights_and_grads": True}},
        ("fp16", "fp16_master_weights_and_grads"),
        "deepspeed",
    ),
    ("DS512", {**z(1), "bf16": {"bf16_optimizer_states": True}}, ("bf16", "bf16_optimizer_states"), "deepspeed"),
    (
        "DS513",
        {**z(2), "bf16": {"bf16_master_weights_and_grads": True}, "fp16": {"fp16_master_weights_and_grads": True}},
        ("bf16", "bf16_master_weights_and_grads"),
        "deepspeed",
    ),
    (
        "DS514",
        {**z(2), "optimizer": ADAM, "bf16": {"enabled": True, "bf16_master_weights_and_grads": True}},
        ("bf16", "bf16_master_weights_and_grads"),
        "deepspeed",
    ),
    (
        "DS514",
        {
            **z(2, offload_optimizer={"device": "cpu"}),
            "optimizer": {"type": "Lion"},
            "fp16": {"enabled": True, "fp16_master_weights_and_grads": True},
        },
        ("fp16", "fp16_master_weights_and_grads"),
        "deepspeed",
    ),
    ("DS515", {"fp16": {"enabled": True, "loss_scale_window": 0}}, ("fp16", "loss_scale_window"), "deepspeed"),
    ("DS515", {"fp16": {"enabled": True, "min_loss_scale": 0}}, ("fp16", "min_loss_scale"), "deepspeed"),
    (
        "DS516",
        {**z(3, zero_quantized_weights=True), "torch_autocast": {"enabled": True}},
        (Z, "zero_quantized_weights"),
        "deepspeed",
    ),
    (
        "DS517",
        {"data_types": {"param_dtype": "bf16"}, "fp16": {"enabled": True}},
        ("data_types", "param_dtype"),
        "deepspeed",
    ),
    (
        "DS518",
        {"bf16": {"enabled": True}, "data_types": {"grad_accum_dtype": "fp32"}},
        ("data_types", "grad_accum_dtype"),
        "deepspeed",
    ),
    ("DS520", z(2, cpu_offload=False, offload_optimizer={"device": "cpu"}), (Z, "cpu_offload"), "deepspeed"),
    ("DS520", z(3, cpu_offload_param=True, offload_param=None), (Z, "cpu_offload_param"), "deepspeed"),
    ("DS521", z(3, compute_grad_norm=False), (Z, "compute_grad_norm"), "deepspeed"),
    ("DS521", {Z: {"compute_grad_norm": False}}, (Z, "compute_grad_norm"), "deepspeed"),
    ("DS522", z(2, compute_grad_norm=False), (Z, "compute_grad_norm"), "deepspeed"),
    (
        "DS522",
        {**z(2, compute_grad_norm=False, offload_optimizer={"device": "cpu"}), "gradient_clipping": 0},
        (Z, "compute_grad_norm"),
        "deepspeed",
    ),
    ("DS523", z(2, legacy_stage1=True), (Z, "legacy_stage1"), "deepspeed"),
    ("DS524", z(2, stage3_prefetch_bucket_size=5e8), (Z, "stage3_prefetch_bucket_size"), "deepspeed"),
    ("DS524", z(2, prefetch_bucket_size=5e8), (Z, "prefetch_bucket_size"), "deepspeed"),
    ("DS524", z(3, allgather_bucket_size=5e8), (Z, "allgather_bucket_size"), "deepspeed"),
    (
        "DS524",
        z(2, offload_optimizer={"device": "nvme", "pipeline_read": True}),
        (Z, "offload_optimizer", "pipeline_read"),
        "deepspeed",
    ),
    ("DS525", z(2, allgather_bucket_size=1001), (Z, "allgather_bucket_size"), "deepspeed"),
    ("DS529", z(3, zero_quantized_gradients=True, reduce_scatter=False), (Z, "reduce_scatter"), "deepspeed"),
    ("DS526", {**z(2), "prescale_gradients": True}, ("prescale_gradients",), "deepspeed"),
    (
        "DS526",
        {**z(3), "gradient_predivide_factor": 2.0, "gradient_allreduce_op": "sum"},
        ("gradient_predivide_factor",),
        "deepspeed",
    ),
    (
        "DS527",
        z(3, stage3_allgather_sequential=True, stage3_prefetch_bucket_size=1000),
        (Z, "stage3_prefetch_bucket_size"),
        "deepspeed",
    ),
    ("DS528", {Z: {"overlap_comm": True, "reduce_bucket_size": 2e8}}, (Z,), "deepspeed"),
    ("DS530", z(2, offload_param={"device": "cpu"}), (Z, "offload_param", "device"), "deepspeed"),
    ("DS530", z(1, cpu_offload_param=True), (Z, "cpu_offload_param"), "deepspeed"),
    ("DS531", z(3, offload_param={"device": "nvme"}), (Z, "offload_param", "device"), "deepspeed"),
    (
        "DS531",
        z(3, offload_optimizer={"device": "nvme", "nvme_path": None}),
        (Z, "offload_optimizer", "device"),
        "deepspeed",
    ),
    (
        "DS532",
        z(2, offload_optimizer={"device": "nvme", "nvme_path": "/nvme"}),
        (Z, "offload_optimizer", "device"),
        "deepspeed",
    ),
    ("DS533", z(2, offload_optimizer={"ratio": 0.5}), (Z, "offload_optimizer", "ratio"), "deepspeed"),
    (
        "DS534",
        {**z(3, offload_optimizer={"device": "cpu", "ratio": 0.5}), "optimizer": {"type": "Lion"}},
        (Z, "offload_optimizer", "ratio"),
        "deepspeed",
    ),
    ("DS535", z(2, offload_optimizer={"pin_memory": True}), (Z, "offload_optimizer"), "deepspeed"),
    (
        "DS536",
        {**z(0, offload_optimizer={"device": "cpu"}), "optimizer": ADAM},
        (Z, "offload_optimizer", "device"),
        "deepspeed",
    ),
    (
        "DS537",
        z(2, contiguous_gradients=False, offload_optimizer={"device": "cpu"}),
        (Z, "contiguous_gradients"),
        "deepspeed",
    ),
    (
        "DS540",
        {"optimizer": {"type": "AdamW", "params": {"max_grad_norm": 0}}},
        ("optimizer", "params", "max_grad_norm"),
        "deepspeed",
    ),
    ("DS541", {"optimizer": {"type": "OnebitAdam"}}, ("optimizer", "type"), "deepspeed"),
    ("DS542", {"optimizer": {"type": "FusedAdam"}}, ("optimizer", "type"), "deepspeed"),
    ("DS542", {"optimizer": {"type": "sgd"}}, ("optimizer", "type"), "deepspeed"),
    ("DS543", {**z(2), "optimizer": {"type": "SGD"}}, ("optimizer", "type"), "deepspeed"),
    ("DS543", {**z(1), "optimizer": {"type": "LAMB"}}, ("optimizer", "type"), "hf"),
    ("DS544", {"optimizer": {"type": "Lamb"}, "fp16": {"loss_scale": 128}}, ("fp16", "loss_scale"), "deepspeed"),
    ("DS545", {**z(3), "optimizer": {"type": "Muon"}}, ("optimizer", "type"), "deepspeed"),
    ("DS546", {"optimizer": ADAM, "scheduler": {"type": "WarmupLR"}}, ("scheduler", "type"), "deepspeed"),
    ("DS547", {"optimizer": ADAM, "scheduler": {"type": "cosine", "params": {}}}, ("scheduler", "type"), "deepspeed"),
    ("DS548", {"optimizer": {"params": {"lr": 1e-4}}}, ("optimizer", "params"), "deepspeed"),
    ("DS548", {"scheduler": {"type": None, "params": {}}}, ("scheduler", "params"), "deepspeed"),
    ("DS550", {**z(3), "gradient_allreduce_op": "SUM"}, ("gradient_allreduce_op",), "deepspeed"),
    ("DS550", {**z(2, zenflow={}), "gradient_allreduce_op": "sum"}, ("gradient_allreduce_op",), "deepspeed"),
    (
        "DS550",
        {"compile": {"deepcompile": True}, "gradient_allreduce_op": "sum"},
        ("gradient_allreduce_op",),
        "deepspeed",
    ),
    (
        "DS551",
        {**z(1, overlap_comm=True), "managed_gradient_accumulation": False},
        ("managed_gradient_accumulation",),
        "deepspeed",
    ),
    ("DS560", {"train_batch_size": "auto", "gradient_clipping": "auto", "bf16": {"enabled": "auto"}}, (), "deepspeed"),
    ("DS570", {"comms_logger": {"enabled": False}}, ("comms_logger", "enabled"), "deepspeed"),
    ("DS571", {"datastates_ckpt": None}, ("datastates_ckpt",), "deepspeed"),
    ("DS571", {"datastates_ckpt": {"enabled": False}}, ("datastates_ckpt",), "deepspeed"),
    ("DS572", {"datastates_ckpt": {}, "checkpoint": {"writer": {"type": "FAST"}}}, ("datastates_ckpt",), "deepspeed"),
    (
        "DS573",
        {"tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 4}}},
        ("tensor_parallel", "tp", "tp_size"),
        "deepspeed",
    ),
    ("DS574", {"tensor_parallel": {"tp": {"tp_size": 4}}}, ("tensor_parallel", "tp", "tp_size"), "deepspeed"),
    (
        "DS575",
        {"data_efficiency": {"data_sampling": {"curriculum_learning": {"enabled": True}}}},
        ("data_efficiency", "data_sampling", "curriculum_learning", "enabled"),
        "deepspeed",
    ),
    (
        "DS575",
        {"data_efficiency": {"enabled": False, "data_sampling": {"dynamic_batching": {"enabled": True}}}},
        ("data_efficiency", "data_sampling", "dynamic_batching", "enabled"),
        "deepspeed",
    ),
    ("DS576", z(2, allgather_partitions=False), (Z, "allgather_partitions"), "deepspeed"),
    (
        "DS577",
        {"tensor_parallel": {"autotp_size": 2, "preset_model": "llama3"}},
        ("tensor_parallel", "preset_model"),
        "deepspeed",
    ),
    (
        "DS578",
        {**z(3, zero_hpz_partition_size=8), "expert_parallel": {"enabled": True, "preset_model": "mixtral"}},
        (Z, "zero_hpz_partition_size"),
        "deepspeed",
    ),
    ("DS576", {"pipeline": {"stages": 4}}, ("pipeline", "stages"), "deepspeed"),
    ("DS600", z(2), (Z,), "deepspeed"),
    ("DS600", z(3, overlap_comm=False), (Z, "overlap_comm"), "deepspeed"),
    ("DS601", z(2, overlap_comm=True), (Z,), "deepspeed"),
    ("DS601", z(3, reduce_bucket_size=1e9), (Z, "reduce_bucket_size"), "deepspeed"),
    ("DS602", z(3, contiguous_gradients=False), (Z, "contiguous_gradients"), "deepspeed"),
    (
        "DS603",
        z(2, offload_optimizer={"device": "cpu", "pin_memory": False}),
        (Z, "offload_optimizer", "pin_memory"),
        "deepspeed",
    ),
    ("DS604", {"steps_per_print": 1}, ("steps_per_print",), "deepspeed"),
    ("DS605", z(2, offload_optimizer={"device": "cpu"}), (Z, "offload_optimizer"), "deepspeed"),
    ("DS606", {"wall_clock_breakdown": True}, ("wall_clock_breakdown",), "deepspeed"),
    ("DS607", {"flops_profiler": {"enabled": True}}, ("flops_profiler", "enabled"), "deepspeed"),
    ("DS608", {**z(2), "pipeline": {"activation_checkpoint_interval": 1}}, ("pipeline",), "deepspeed"),
    ("DS609", {"optimizer": {"type": "adam", "params": {"weight_decay": 0.1}}}, ("optimizer", "type"), "deepspeed"),
    (
        "DS610",
        {"activation_checkpointing": {"contiguous_memory_optimization": True, "partition_activations": True}},
        ("activation_checkpointing", "contiguous_memory_optimization"),
        "deepspeed",
    ),
    ("DS611", {"vocabulary_size": 50257}, ("vocabulary_size",), "deepspeed"),
]

# code, config, profile: the near miss, on which the rule must stay quiet
QUIET: list[tuple[str, dict[str, Any], str]] = [
    ("DS510", {"fp16": {"enabled": True}, "bf16": {"enabled": False}}, "deepspeed"),
    ("DS510", {"fp16": {"enabled": True}, "bf16": {"enabled": "auto"}}, "hf"),
    ("DS511", {**z(1), "bf16": {"bf16_master_weights_and_grads": True}}, "deepspeed"),
    ("DS511", {Z: {"stage": "auto"}, "bf16": {"bf16_master_weights_and_grads": True}}, "hf"),
    ("DS512", {**z(1), "bf16": {"bf16_optimizer_states": True, "bf16_master_weights_and_grads": True}}, "deepspeed"),
    ("DS513", {**z(2), "bf16": {"bf16_master_weights_and_grads": True}}, "deepspeed"),
    (
        "DS514",
        {
            **z(2, offload_optimizer={"device": "cpu"}),
            "optimizer": ADAM,
            "bf16": {"enabled": True, "bf16_master_weights_and_grads": True},
        },
        "deepspeed",
    ),
    (
        "DS514",
        {
            **z(2),
            "optimizer": ADAM,
            "bf16": {"enabled": True, "bf16_master_weights_and_grads": True, "bf16_optimizer_states": True},
        },
        "deepspeed",
    ),
    ("DS515", {"fp16": {"enabled": True, "loss_scale": 128, "loss_scale_window": 0}}, "deepspeed"),
    ("DS515", {"fp16": {"enabled": False, "min_loss_scale": 0}}, "deepspeed"),
    ("DS516", {**z(3, zero_quantized_weights=True), "torch_autocast": {"enabled": False}}, "deepspeed"),
    ("DS517", {"data_types": {"param_dtype": "half"}, "fp16": {"enabled": True}}, "deepspeed"),
    ("DS517", {"data_types": {"param_dtype": "bf16"}, "bf16": {"enabled": "auto"}}, "hf"),
    ("DS518", {**z(1), "bf16": {"enabled": True}, "data_types": {"grad_accum_dtype": "fp32"}}, "deepspeed"),
    ("DS518", {"bf16": {"enabled": True}, "data_types": {"grad_accum_dtype": "bfloat16"}}, "deepspeed"),
    ("DS520", z(2, cpu_offload=True), "deepspeed"),
    ("DS520", z(2, cpu_offload="auto", offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS520", z(3, cpu_offload_use_pin_memory=True, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS521", z(2, compute_grad_norm=False), "deepspeed"),
    ("DS522", {**z(2, compute_grad_norm=False), "gradient_clipping": 0}, "deepspeed"),
    ("DS523", z(0, legacy_stage1=True), "deepspeed"),
    (
        "DS523",
        {
            **z(1, legacy_stage1=True),
            "optimizer": ADAM,
            "bf16": {"enabled": True},
            "data_types": {"grad_accum_dtype": "fp32"},
        },
        "deepspeed",
    ),
    ("DS524", z(3, stage3_prefetch_bucket_size=5e8), "deepspeed"),
    ("DS524", z(0, stage3_prefetch_bucket_size=5e8), "deepspeed"),
    ("DS524", z(2, stage3_prefetch_bucket_size="auto"), "hf"),
    ("DS524", z(3, load_from_fp32_weights=False, compute_grad_norm=True), "deepspeed"),
    ("DS524", z(1, ignore_unused_parameters=False, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS525", z(2, allgather_bucket_size=1000), "deepspeed"),
    ("DS529", z(3, zero_quantized_gradients=True), "deepspeed"),
    ("DS529", z(2, zero_quantized_gradients=True, reduce_scatter=False), "deepspeed"),
    ("DS525", z(3, allgather_bucket_size=1001), "deepspeed"),
    ("DS526", {**z(1), "prescale_gradients": True}, "deepspeed"),
    ("DS526", {**z(2), "prescale_gradients": True, "gradient_allreduce_op": "sum"}, "deepspeed"),
    ("DS526", {**z(2, reduce_scatter=False), "gradient_predivide_factor": 2.0}, "deepspeed"),
    ("DS527", z(3, stage3_allgather_sequential=True), "deepspeed"),
    ("DS528", z(0, overlap_comm=True), "deepspeed"),
    ("DS528", {Z: {"stage": "auto", "overlap_comm": True}}, "hf"),
    ("DS528", {Z: {}}, "deepspeed"),
    ("DS530", z(3, offload_param={"device": "cpu"}), "deepspeed"),
    ("DS530", z(2, offload_param={"device": "none"}), "deepspeed"),
    ("DS531", z(3, offload_param={"device": "nvme", "nvme_path": "/local_nvme"}), "deepspeed"),
    ("DS531", z(2, offload_optimizer={"device": "nvme"}), "deepspeed"),
    ("DS531", z(3, offload_param={"device": "nvme", "nvme_path": "auto"}), "hf"),
    ("DS532", z(3, offload_optimizer={"device": "nvme", "nvme_path": "/nvme"}), "deepspeed"),
    ("DS533", z(3, offload_optimizer={"device": "cpu", "ratio": 0.5}), "deepspeed"),
    ("DS533", z(2, offload_optimizer=None), "deepspeed"),
    ("DS534", {**z(3, offload_optimizer={"device": "cpu", "ratio": 0.5}), "optimizer": ADAM}, "deepspeed"),
    ("DS534", z(3, offload_optimizer={"device": "cpu", "ratio": 0.5}), "deepspeed"),
    ("DS535", z(2, offload_optimizer={"device": "none"}), "deepspeed"),
    ("DS535", z(2, offload_optimizer={"device": "auto"}), "hf"),
    ("DS536", z(1, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS537", z(3, contiguous_gradients=False, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS537", z(2, contiguous_gradients=False), "deepspeed"),
    ("DS540", {"optimizer": {"params": {"max_grad_norm": 1.0}}}, "deepspeed"),
    ("DS540", {"optimizer": ADAM, "gradient_clipping": 1.0}, "deepspeed"),
    ("DS541", {"optimizer": ADAM}, "deepspeed"),
    ("DS542", {"optimizer": {"type": "ADAMW"}}, "deepspeed"),
    ("DS542", {"optimizer": {"type": "RMSprop"}}, "deepspeed"),
    ("DS542", {"optimizer": {"type": "OneBitLamb"}}, "deepspeed"),
    ("DS543", {**z(2), "optimizer": {"type": "SGD"}, "zero_allow_untested_optimizer": True}, "deepspeed"),
    ("DS543", {**z(0), "optimizer": {"type": "SGD"}}, "deepspeed"),
    ("DS543", {**z(3, offload_optimizer={"device": "cpu"}), "optimizer": {"type": "Lion"}}, "deepspeed"),
    ("DS543", {**z(2), "optimizer": {"type": "Muon"}}, "deepspeed"),
    ("DS544", {"optimizer": {"type": "Lamb"}, "fp16": {"enabled": True, "loss_scale": 0}}, "deepspeed"),
    ("DS545", {**z(3, reduce_scatter=False), "optimizer": {"type": "Muon"}}, "deepspeed"),
    ("DS545", {**z(2), "optimizer": {"type": "Muon"}}, "deepspeed"),
    ("DS546", {"optimizer": ADAM, "scheduler": {"type": "WarmupLR", "params": {}}}, "deepspeed"),
    ("DS547", {"optimizer": ADAM, "scheduler": {"type": "CosineAnnealingLR", "params": {"T_max": 10}}}, "deepspeed"),
    ("DS548", {"optimizer": ADAM, "scheduler": {"type": "WarmupLR", "params": {}}}, "deepspeed"),
    ("DS550", {**z(2), "gradient_allreduce_op": "sum"}, "deepspeed"),
    ("DS550", {**z(3), "gradient_allreduce_op": "mean"}, "deepspeed"),
    ("DS550", {**z(2, zenflow=None), "gradient_allreduce_op": "sum"}, "deepspeed"),
    ("DS551", {**z(2, overlap_comm=True), "managed_gradient_accumulation": False}, "deepspeed"),
    ("DS551", {**z(1), "managed_gradient_accumulation": False}, "deepspeed"),
    ("DS560", {"train_batch_size": "auto", "gradient_clipping": "auto"}, "hf"),
    ("DS560", {"train_batch_size": "auto"}, "deepspeed"),
    ("DS570", {"comms_logger": {"enabled": True}}, "deepspeed"),
    ("DS571", {"datastates_ckpt": False}, "deepspeed"),
    ("DS571", {"datastates_ckpt": {"enabled": True}}, "deepspeed"),
    ("DS572", {"datastates_ckpt": False, "checkpoint": {"writer": {"type": "FAST"}}}, "deepspeed"),
    ("DS573", {"tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 2}}}, "deepspeed"),
    ("DS573", {"tensor_parallel": {"autotp_size": 2, "tp": {"tp_size": 1}}}, "deepspeed"),
    ("DS574", {"tensor_parallel": {"autotp_size": 4, "tp": {"tp_size": 4}}}, "deepspeed"),
    ("DS575", {"data_efficiency": {"data_sampling": {"curriculum_learning": {"enabled": False}}}}, "deepspeed"),
    (
        "DS575",
        {"data_efficiency": {"data_sampling": {"dynamic_batching": {"enabled": True, "max_tokens": 4096}}}},
        "deepspeed",
    ),
    ("DS576", z(2, allgather_partitions=True), "deepspeed"),
    ("DS576", {"comms_logger": {"enabled": False}}, "deepspeed"),
    ("DS576", z(2, allgather_partitions="True,"), "deepspeed"),
    ("DS577", {"tensor_parallel": {"autotp_size": 2, "preset_model": "Qwen2"}}, "deepspeed"),
    ("DS578", {**z(2, zero_quantized_gradients=True), "expert_parallel": {"enabled": True}}, "deepspeed"),
    ("DS578", {**z(3, zero_quantized_gradients=True), "expert_parallel": {"enabled": False}}, "deepspeed"),
    ("DS600", z(2, overlap_comm=True), "deepspeed"),
    ("DS600", z(3), "deepspeed"),
    ("DS600", z(1), "deepspeed"),
    ("DS601", z(2, overlap_comm=True, reduce_bucket_size=2e8), "deepspeed"),
    ("DS601", z(2, overlap_comm=True, reduce_bucket_size="auto"), "hf"),
    ("DS601", z(3, reduce_bucket_size=1e9, contiguous_gradients=False), "deepspeed"),
    ("DS602", z(2, contiguous_gradients=False, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS603", z(2, offload_param={"device": "cpu", "pin_memory": False}), "deepspeed"),
    ("DS604", {"steps_per_print": 10}, "deepspeed"),
    ("DS605", z(2, offload_optimizer={"device": "cpu"}, round_robin_gradients=True), "deepspeed"),
    ("DS605", z(3, offload_optimizer={"device": "cpu"}), "deepspeed"),
    ("DS606", {"wall_clock_breakdown": False}, "deepspeed"),
    ("DS607", {"flops_profiler": {"enabled": True}, "wall_clock_breakdown": True}, "deepspeed"),
    ("DS608", {**z(1), "pipeline": {"activation_checkpoint_interval": 1}}, "deepspeed"),
    ("DS608", {**z(3), "pipeline": {}}, "deepspeed"),
    ("DS609", {"optimizer": {"type": "AdamW", "params": {"weight_decay": 0.1}}}, "deepspeed"),
    ("DS609", {"optimizer": {"type": "Adam", "params": {"weight_decay": 0.1, "adam_w_mode": True}}}, "deepspeed"),
    (
        "DS610",
        {
            "activation_checkpointing": {
                "contiguous_memory_optimization": True,
                "partition_activations": True,
                "number_checkpoints": 24,
            }
        },
        "deepspeed",
    ),
    ("DS611", {"vocabulary_size": 50304}, "deepspeed"),
]

# Rules DeepSpeed enforces while it builds the config: replayed against DeepSpeedConfig.
CONFIG_TIME = {"DS510", "DS511", "DS512", "DS515", "DS520", "DS521", "DS533", "DS550", "DS575"}


def found(code: str, config: dict[str, Any], profile: str = "deepspeed") -> list[Any]:
    return [f for f in run_rules(config, profile=profile, select={code})]


@pytest.mark.parametrize(
    ("code", "config", "location", "profile"), FIRES, ids=[f"{c}-{i}" for i, (c, *_) in enumerate(FIRES)]
)
def test_rule_fires(code: str, config: dict[str, Any], location: Location, profile: str) -> None:
    findings = found(code, config, profile)
    rule = get_rule(code)
    assert rule is not None
    assert [(f.code, f.severity, f.location) for f in findings][:1] == [(code, rule.severity, location)]
    for f in findings:
        assert rule.text("message", "en", **f.args)  # every placeholder has its argument


@pytest.mark.parametrize(("code", "config", "profile"), QUIET, ids=[f"{c}-{i}" for i, (c, *_) in enumerate(QUIET)])
def test_rule_stays_quiet(code: str, config: dict[str, Any], profile: str) -> None:
    assert found(code, config, profile) == []


def test_every_rule_is_tested_both_ways() -> None:
    codes = {r.code for r in all_rules()}
    fired = {code for code, *_ in FIRES}
    quiet = {code for code, *_ in QUIET}
    own_tests = {"DS501", "DS502", "DS503", "DS580"}  # rules that need a world size have their own tests
    assert codes - own_tests <= fired
    assert codes - own_tests <= quiet


def test_hpz_group_size_must_divide_the_world() -> None:
    config = {"train_micro_batch_size_per_gpu": 1, Z: {"stage": 3, "zero_hpz_partition_size": 8}}
    (finding,) = run_rules(config, world_size=12, select={"DS580"})
    assert finding.location == (Z, "zero_hpz_partition_size") and finding.severity.value == "error"
    assert run_rules(config, world_size=16, select={"DS580"}) == []
    assert run_rules(config, world_size=4, select={"DS580"}) == []  # DeepSpeed uses min(size, world)
    assert run_rules(config, select={"DS580"}) == []  # unknown world size: nothing to say
    stage2 = {"train_micro_batch_size_per_gpu": 1, Z: {"stage": 2, "zero_hpz_partition_size": 8}}
    assert run_rules(stage2, world_size=12, select={"DS580"}) == []


def test_rule_texts_are_well_formed() -> None:
    for r in all_rules():
        assert r.code[:3] in ("DS5", "DS6"), r.code
        if r.code.startswith("DS6"):
            assert r.severity.value == "info", r.code  # advice
        elif r.code != "DS560":  # DS560 is a note on how to check the file, in the "auto" group
            assert r.severity.value in ("error", "warning"), r.code
        assert "\n" not in r.message, r.code
        assert "{" not in r.explanation, f"{r.code}: explanations are shown as they are, never formatted"
        assert r.name == r.name.lower() and " " not in r.name


def test_one_finding_per_file_for_hugging_face_look() -> None:
    config = {"train_batch_size": "auto", "gradient_clipping": "auto", "optimizer": {"params": {"lr": "auto"}}}
    findings = found("DS560", config)
    assert len(findings) == 1 and findings[0].args["count"] == 3


def test_stage_ignored_reports_the_topmost_key_only() -> None:
    config = z(
        2,
        offload_optimizer={"device": "cpu", "pipeline_read": True, "pipeline_write": True},
        stage3_max_live_parameters=1e9,
        offload_param={"device": "cpu", "buffer_count": 4},
    )
    locations = [f.location for f in found("DS524", config)]
    assert locations == [
        (Z, "offload_optimizer", "pipeline_read"),
        (Z, "offload_optimizer", "pipeline_write"),
        (Z, "stage3_max_live_parameters"),
    ]


def test_bucket_memory_counts_elements_at_two_bytes() -> None:
    (finding,) = found("DS601", z(2, overlap_comm=True, reduce_bucket_size=5e8))
    assert dict(finding.args) == {"count": "5e8", "buffers": 2, "each": "1.0 GB", "total": "2.0 GB"}


def test_suggestions_for_unknown_types() -> None:
    (opt,) = found("DS542", {"optimizer": {"type": "sgd"}})
    (sched,) = found("DS547", {"scheduler": {"type": "warmuplr", "params": {}}})
    assert opt.args["suggestions"] == ["SGD"] and sched.args["suggestions"] == ["WarmupLR"]


@pytest.mark.parametrize(
    "config",
    [
        None,
        [],
        "auto",
        3,
        {"zero_optimization": "auto"},
        {"optimizer": []},
        {"zero_optimization": {"stage": [3], "offload_param": 5}},
        {"scheduler": {"type": 5}},
        {"datastates_ckpt": [1]},
    ],
)
def test_odd_inputs_raise_nothing(tree: OptionTree, config: Any) -> None:
    for profile in ("deepspeed", "hf"):
        ctx = Context(config, effective(config, tree), tree, None, profile)
        for r in all_rules():
            list(r.check(ctx))


def test_every_rule_runs_on_the_real_corpus(tree: OptionTree) -> None:
    corpus = shared_path("corpus", "real")
    checked = 0
    for path in sorted(Path(corpus).glob("*.json")):
        try:
            config = hjson.loads(path.read_text(encoding="utf-8", errors="replace"))
        except Exception:  # files no reader accepts are the loader's business
            continue
        for profile in ("deepspeed", "hf"):
            ctx = Context(config, effective(config, tree), tree, 8, profile)
            for r in all_rules():
                for hit in r.check(ctx):  # any exception fails the test
                    r.text("message", "en", **hit.args)
        checked += 1
    assert checked > 300


# -- against DeepSpeed itself ------------------------------------------------------------------------------------


def _deepspeed_config(config: dict[str, Any]) -> BaseException | None:
    from deepspeed.runtime.config import DeepSpeedConfig

    config = {"train_batch_size": 8, **config}
    try:
        DeepSpeedConfig(config)
    except Exception as exc:  # whatever DeepSpeed raises is the point
        return exc
    return None


@pytest.mark.parametrize(
    ("code", "config"),
    [(code, config) for code, config, _loc, profile in FIRES if code in CONFIG_TIME and profile == "deepspeed"],
)
def test_config_time_errors_are_deepspeed_errors(code: str, config: dict[str, Any]) -> None:
    require_deepspeed()
    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    assert _deepspeed_config(config) is not None


@pytest.mark.parametrize(
    ("code", "config"),
    [(code, config) for code, config, profile in QUIET if code in CONFIG_TIME and profile == "deepspeed"],
)
def test_config_time_near_misses_build(code: str, config: dict[str, Any]) -> None:
    require_deepspeed()
    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    assert _deepspeed_config(config) is None


def test_name_tables_match_deepspeed_and_torch() -> None:
    require_deepspeed()
    import inspect

    import torch
    from deepspeed.runtime import config as ds_config
    from deepspeed.runtime import lr_schedules
    from deepspeed.runtime.zero.muon.muon_optimizer import MuonWithAuxAdam
    from deepspeed.runtime.zero.utils import ZERO_SUPPORTED_OPTIMIZERS

    assert set(ds_config.DEEPSPEED_OPTIMIZERS) == common.DEEPSPEED_OPTIMIZERS
    torch_optimizers = {
        n for n, c in vars(torch.optim).items() if inspect.isclass(c) and issubclass(c, torch.optim.Optimizer)
    } - {"Optimizer"}
    assert torch_optimizers == common.TORCH_OPTIMIZERS
    schedulers = {
        n for n, c in vars(lr_schedules).items() if inspect.isclass(c) and c.__module__ == lr_schedules.__name__
    }
    assert schedulers == common.DEEPSPEED_SCHEDULERS
    base = torch.optim.lr_scheduler.LRScheduler
    torch_schedulers = {
        n
        for n, c in vars(torch.optim.lr_scheduler).items()
        if inspect.isclass(c) and (issubclass(c, base) or n == "ReduceLROnPlateau") and not n.startswith("_")
    }
    assert torch_schedulers == common.TORCH_LR_SCHEDULERS
    tested = {
        c.__name__ if c.__module__.startswith("deepspeed") else f"torch.optim.{c.__name__}"
        for c in [*ZERO_SUPPORTED_OPTIMIZERS, MuonWithAuxAdam]
        if not c.__module__.startswith("apex")
    }
    assert tested == common.ZERO_TESTED_OPTIMIZERS
    spellings = {v: m.name for m in ds_config.DtypeEnum for v in m._all_values if isinstance(v, str)}
    from dsref.rules.precision import DTYPE_SPELLINGS

    assert spellings == DTYPE_SPELLINGS

    from deepspeed.module_inject.autotp_config import AutoTPPresets

    from dsref.rules.sections import AUTOTP_PRESETS

    assert all(AutoTPPresets.get_preset(name) is not None for name in AUTOTP_PRESETS)
    source = inspect.getsource(AutoTPPresets.get_preset)
    assert sorted(re.findall(r'"(\w+)": AutoTPPresets', source)) == sorted(AUTOTP_PRESETS)
