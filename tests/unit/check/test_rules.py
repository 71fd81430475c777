"""Cross-field rules: each fires where DeepSpeed 0.19.8 misbehaves and stays quiet on the near miss.

Config-time rules are also replayed against DeepSpeed's own `DeepSpeedConfig` when DeepSpeed is installed, so
an error finding here is an exception there, and the quiet twin builds.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import hjson
import pytest

from dsref.check.findings import Location
from dsref.check.rules import Context, all_rules, get_rule, run_rules
from dsref.check.rules import _common as common
from dsref.check.settings import CheckSettings
from dsref.check.validate.effective import effective
from dsref.tree.options import OptionTree
from dsref.tree.releases import release_facts
from tests.conftest import require_deepspeed, shared_path

Z = "zero_optimization"
ADAM = {"type": "Adam", "params": {"lr": 1e-4}}
BF16_PATH = {"bf16": {"enabled": True}, "data_types": {"grad_accum_dtype": "fp32"}, "optimizer": ADAM}
"""bf16, fp32 gradient accumulation and (with stage 1) DeepSpeed's BF16_Optimizer instead of the ZeRO optimizer."""


def z(stage: int, **keys: Any) -> dict[str, Any]:
    return {Z: {"stage": stage, **keys}}


# code, config, location of the finding, profile
FIRES: list[tuple[str, dict[str, Any], Location, str]] = [
    ("DS612", {"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": True}}, (), "hf"),
    (
        "DS588",
        {"gradient_accumulation_steps": "4", "bf16": {"enabled": "auto"}},
        ("gradient_accumulation_steps",),
        "hf",
    ),
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
    (
        "DS549",
        {"optimizer": {"type": "AdamW", "params": {"momentum": 0.9}}},
        ("optimizer", "params", "momentum"),
        "deepspeed",
    ),
    ("DS549", {"optimizer": {"type": "Lion", "params": {"eps": 1e-8}}}, ("optimizer", "params", "eps"), "hf"),
    (
        "DS581",
        {"optimizer": {"type": "Muon", "params": {"nesterov": True}}},
        ("optimizer", "params", "nesterov"),
        "deepspeed",
    ),
    (
        "DS582",
        {"optimizer": ADAM, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100.0}}},
        ("scheduler", "params", "warmup_num_steps"),
        "hf",
    ),
    (
        "DS583",
        {**BF16_PATH, **z(1, reduce_bucket_size=2e8, overlap_comm=True)},
        (Z, "reduce_bucket_size"),
        "deepspeed",
    ),
    ("DS585", {"optimizer": {"type": "SGD", "params": {"lr": -0.1}}}, ("optimizer", "params", "lr"), "deepspeed"),
    ("DS586", {"optimizer": {"type": "AdamW", "params": {"eps": 0}}}, ("optimizer", "params", "eps"), "deepspeed"),
    (
        "DS587",
        {"scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0.1, "warmup_max_lr": 0.01}}},
        ("scheduler", "params", "warmup_max_lr"),
        "deepspeed",
    ),
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
    ("DS612", {"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": "auto"}}, "hf"),
    ("DS612", {"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": True}}, "deepspeed"),
    ("DS588", {"gradient_accumulation_steps": 4, "bf16": {"enabled": "auto"}}, "hf"),
    ("DS588", {"gradient_accumulation_steps": "4"}, "deepspeed"),
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
    (
        "DS549",
        {"optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "adam_w_mode": True, "torch_adam": False}}},
        "deepspeed",
    ),
    ("DS549", {"optimizer": {"type": "SGD", "params": {"momentum": 0.9, "nesterov": True}}}, "deepspeed"),
    ("DS549", {"optimizer": {"type": "MuAdam", "params": {"anything": 1}}}, "deepspeed"),
    (
        "DS581",
        {"optimizer": {"type": "Muon", "params": {"muon_lr": 0.02, "adam_lr": 3e-4, "ns_method": "gram"}}},
        "deepspeed",
    ),
    ("DS582", {"optimizer": ADAM, "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}}}, "hf"),
    ("DS582", {"optimizer": ADAM, "scheduler": {"type": "OneCycle", "params": {"cycle_first_step_size": 100.0}}}, "hf"),
    ("DS583", {**BF16_PATH, **z(2, reduce_bucket_size=2e8)}, "deepspeed"),
    ("DS583", {**BF16_PATH, **z(1, allgather_bucket_size=2e8, elastic_checkpoint=True)}, "deepspeed"),
    ("DS585", {"optimizer": {"type": "SGD", "params": {"lr": 0.1, "momentum": 0.9}}}, "deepspeed"),
    ("DS586", {"optimizer": {"type": "AdamW", "params": {"eps": 1e-8, "betas": [0.9, 0.999]}}}, "deepspeed"),
    ("DS587", {"scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 0.01}}}, "deepspeed"),
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
    """The rule's findings; a profile ``name@X.Y.Z`` checks for DeepSpeed release X.Y.Z."""
    profile, _, version = profile.partition("@")
    return [
        f
        for f in run_rules(
            config, settings=CheckSettings(profile=profile, deepspeed_version=version or "0.19.8"), select={code}
        ).findings
    ]


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
    # rules that need a world size have their own tests: tests/unit/check/test_batch_rules.py, test_hpz_group_size_...;
    # DS561 needs an old transformers or accelerate installed: tests/functional/test_hf_releases.py gives the releases;
    # DS589 and DS613 need a launch: tests/unit/launch/test_launch.py, test_trainer.py
    # the retired rules apply only at older releases: tests/unit/tree/test_rule_releases.py, release by release
    own_tests = {"DS501", "DS502", "DS503", "DS561", "DS580", "DS589", "DS613"} | {
        r.code for r in all_rules() if r.retired
    }
    assert codes - own_tests <= fired
    assert codes - own_tests <= quiet


def test_hpz_group_size_must_divide_the_world() -> None:
    config = {"train_micro_batch_size_per_gpu": 1, Z: {"stage": 3, "zero_hpz_partition_size": 8}}
    (finding,) = run_rules(config, settings=CheckSettings(world_size=12), select={"DS580"}).findings
    assert finding.location == (Z, "zero_hpz_partition_size") and finding.severity.value == "error"
    assert run_rules(config, settings=CheckSettings(world_size=16), select={"DS580"}).findings == []
    assert (
        run_rules(config, settings=CheckSettings(world_size=4), select={"DS580"}).findings == []
    )  # DeepSpeed uses min(size, world)
    assert run_rules(config, select={"DS580"}).findings == []  # unknown world size: nothing to say
    stage2 = {"train_micro_batch_size_per_gpu": 1, Z: {"stage": 2, "zero_hpz_partition_size": 8}}
    assert run_rules(stage2, settings=CheckSettings(world_size=12), select={"DS580"}).findings == []


def test_rule_texts_are_well_formed() -> None:
    for r in all_rules():
        assert r.code[:3] in ("DS5", "DS6"), r.code
        if r.code.startswith("DS6"):
            assert r.severity.value == "info", r.code  # advice
        elif r.code != "DS560":  # a note on how the file is checked: with --profile hf
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
    # 5e8 elements × 2 bytes = 1e9 bytes = 0.93 GB, GB being 2**30 bytes on every page and in every message
    assert dict(finding.args) == {"count": "5e8", "buffers": 2, "each": "0.9 GB", "total": "1.9 GB"}


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
        ctx = Context(config, effective(config, tree), tree, CheckSettings(profile))
        for r in all_rules():
            list(r.check(ctx))


def _without_a_key(config: Any) -> Iterator[Any]:
    """``config``, then ``config`` without each of its keys, and without each key of each of its sections."""
    yield config
    if not isinstance(config, dict):
        return
    for key, value in config.items():
        yield {k: v for k, v in config.items() if k != key}
        if isinstance(value, dict):
            for inner in value:
                yield {**config, key: {k: v for k, v in value.items() if k != inner}}


def _skipped_rules_find_nothing(tree: OptionTree, configs: Iterable[Any]) -> int:
    """Run every rule that declares ``needs`` on each config (and its variants without a key) that writes none of
    them, as run_rules would skip it: it must find nothing there. Returns how many such runs there were."""
    gated = [r for r in all_rules() if r.needs]
    runs = 0
    for config in configs:
        for variant in _without_a_key(config):
            for profile, version in (("deepspeed", "0.19.8"), ("hf", "0.19.8"), ("deepspeed", "0.14.0")):
                seen = effective(variant, tree, release=release_facts(version))
                ctx = Context(variant, seen, tree, CheckSettings(profile, 8, version))
                for r in gated:
                    if r.needs.isdisjoint(seen.values):
                        assert list(r.check(ctx)) == [], (r.code, profile, version, variant)
                        runs += 1
    return runs


def test_a_rule_skipped_for_want_of_its_options_would_find_nothing(tree: OptionTree) -> None:
    """``Rule.needs`` lets run_rules skip a rule: on every config of these tests and of the rules' pages, and on
    each without one of its keys, a rule whose options are not written finds nothing when it does run."""
    configs: list[Any] = [config for _, config, *_ in FIRES] + [config for _, config, _ in QUIET]
    for r in all_rules():
        if r.example is not None:
            configs += [hjson.loads(text) for text in (r.example.config, r.example.repaired) if text]
    assert _skipped_rules_find_nothing(tree, configs) > 10_000
    assert all(r.needs for r in all_rules() if r.code in {"DS524", "DS535", "DS549", "DS586"})  # the costly ones


@pytest.mark.slow
def test_a_rule_skipped_for_want_of_its_options_would_find_nothing_in_the_corpus(tree: OptionTree) -> None:
    corpus = shared_path("corpus", "real")
    configs = []
    for path in sorted(Path(corpus).glob("*.json")):
        try:
            configs.append(hjson.loads(path.read_text(encoding="utf-8", errors="replace")))
        except Exception:  # files no reader accepts are the loader's business
            continue
    assert _skipped_rules_find_nothing(tree, configs) > 100_000


@pytest.mark.slow
def test_every_rule_runs_on_the_real_corpus(tree: OptionTree) -> None:
    corpus = shared_path("corpus", "real")
    checked = 0
    for path in sorted(Path(corpus).glob("*.json")):
        try:
            config = hjson.loads(path.read_text(encoding="utf-8", errors="replace"))
        except Exception:  # files no reader accepts are the loader's business
            continue
        for profile in ("deepspeed", "hf"):
            ctx = Context(config, effective(config, tree), tree, CheckSettings(profile, 8))
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
@pytest.mark.slow
def test_config_time_errors_are_deepspeed_errors(code: str, config: dict[str, Any]) -> None:
    require_deepspeed()
    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    assert _deepspeed_config(config) is not None


@pytest.mark.parametrize(
    ("code", "config"),
    [(code, config) for code, config, profile in QUIET if code in CONFIG_TIME and profile == "deepspeed"],
)
@pytest.mark.slow
def test_config_time_near_misses_build(code: str, config: dict[str, Any]) -> None:
    require_deepspeed()
    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    assert _deepspeed_config(config) is None


@pytest.mark.slow
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
    from dsref.check.rules.precision import DTYPE_SPELLINGS

    assert spellings == DTYPE_SPELLINGS

    from deepspeed.module_inject.autotp_config import AutoTPPresets

    from dsref.check.rules.sections import AUTOTP_PRESETS

    assert all(AutoTPPresets.get_preset(name) is not None for name in AUTOTP_PRESETS)
    source = inspect.getsource(AutoTPPresets.get_preset)
    assert sorted(re.findall(r'"(\w+)": AutoTPPresets', source)) == sorted(AUTOTP_PRESETS)


# -- what deepspeed.initialize does with the optimizer section, the scheduler and the BF16 path --------------------

_INITIALIZE = r"""
import json, logging, os, socket, sys
with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK="0", WORLD_SIZE="1", LOCAL_RANK="0")
import torch, deepspeed
from deepspeed.ops.op_builder.builder import OpBuilder
from deepspeed.utils import logger
logger.setLevel(logging.ERROR)

# Compiling DeepSpeed's C++ ops (CPU Adam, fused Adam, the shared-memory allreduce) takes minutes on a fresh machine
# and decides nothing here: arguments are bound, and refused, before any op is loaded. A near miss that gets past its
# constructor's arguments stops at the first op it would compile, with this error instead of a TypeError.
def _not_compiled(self, verbose=True):
    raise RuntimeError(f"op {self.name} is not compiled in this test")
OpBuilder.load = _not_compiled
deepspeed.ops.__compatible_ops__["deepspeed_shm_comm"] = False  # world size 1: the plain allreduce serves
out = []
for config in json.load(sys.stdin):
    model = torch.nn.Linear(4, 4)
    try:
        engine, optimizer, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    except Exception as exc:
        out.append({"error": type(exc).__name__, "message": str(exc)})
    else:
        out.append({"optimizer": type(optimizer).__name__})
print("RESULT " + json.dumps(out))
"""


def initialize(configs: list[dict[str, Any]]) -> list[dict[str, str]]:
    """``deepspeed.initialize`` on a tiny CPU model for each config, in a subprocess (it initialises
    torch.distributed, which other tests need untouched): the exception raised, or the optimizer built."""
    require_deepspeed()
    import json
    import subprocess
    import sys

    configs = [{"train_batch_size": 1, **c} for c in configs]
    proc = subprocess.run(
        [sys.executable, "-c", _INITIALIZE], input=json.dumps(configs), capture_output=True, text=True, timeout=600
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("RESULT ")]
    assert lines, proc.stdout[-2000:] + proc.stderr[-2000:]
    result: list[dict[str, str]] = json.loads(lines[-1][len("RESULT ") :])
    return result


OFFLOAD = z(2, offload_optimizer={"device": "cpu"})

# optimizer section, and the key DS549 must report (None: the near miss that builds)
OPTIMIZER_PARAMS: list[tuple[dict[str, Any], str | None]] = [
    ({"optimizer": {"type": "AdamW", "params": {"lr": 1e-3, "momentum": 0.9}}}, "momentum"),  # FusedAdam
    ({"optimizer": {"type": "Adam", "params": {"lr": 1e-3, "foreach": True}}}, "foreach"),  # FusedAdam
    ({"optimizer": {"type": "Adam", "params": {"lr": 1e-3, "betas1": 0.9}}}, "betas1"),  # a misspelling
    ({"optimizer": {"type": "AdamW", "params": {"adamw_mode": True}}, **OFFLOAD}, "adamw_mode"),  # passed twice
    ({"optimizer": {"type": "Lion", "params": {"lr": 1e-3, "eps": 1e-8}}}, "eps"),  # FusedLion
    ({"optimizer": {"type": "Adagrad", "params": {"fp32_optimizer_states": True}}}, "fp32_optimizer_states"),
    ({"optimizer": {"type": "SGD", "params": {"lr": 1e-3, "betas": [0.9, 0.99]}}}, "betas"),  # torch.optim.SGD
    ({"optimizer": {"type": "Adam", "params": {"torch_adam": True, "bias_correction": True}}}, "bias_correction"),
    (
        {"optimizer": {"type": "Adam", "params": {"lr": 1e-3, "adam_w_mode": False, "fp32_optimizer_states": True}}},
        None,
    ),
    ({"optimizer": {"type": "AdamW", "params": {"torch_adam": True, "foreach": False, "fused": False}}}, None),
    ({"optimizer": {"type": "AdamW", "params": {"fp32_optimizer_states": False, "amsgrad": False}}, **OFFLOAD}, None),
    ({"optimizer": {"type": "Adagrad", "params": {"fp32_optimizer_states": True}}, **OFFLOAD}, None),
    ({"optimizer": {"type": "Lion", "params": {"betas": [0.9, 0.99], "set_grad_none": True}}}, None),
    ({"optimizer": {"type": "SGD", "params": {"lr": 1e-3, "momentum": 0.9, "nesterov": True}}}, None),
]


@pytest.mark.slow
def test_optimizer_params_against_deepspeed_initialize() -> None:
    """Each key DS549 reports makes deepspeed.initialize fail with a TypeError naming it; the near misses get past
    the constructor's arguments."""
    results = initialize([config for config, _ in OPTIMIZER_PARAMS])
    for (config, key), result in zip(OPTIMIZER_PARAMS, results, strict=True):
        reported = [f.location[-1] for f in found("DS549", config)]
        if key is None:
            # built, or stopped later than the arguments (FusedLion has no CPU kernel: "not implemented on CPU")
            assert reported == [] and result.get("error") != "TypeError", (config, result)
        else:
            assert reported == [key], (config, reported)
            assert result.get("error") == "TypeError" and key in result["message"], (config, result)


@pytest.mark.slow
def test_scheduler_steps_against_deepspeed_initialize() -> None:
    """A float warmup_num_steps stops the engine (DS582, read as JSON); the integer builds."""
    adam = {"type": "AdamW", "params": {"lr": 1e-3, "torch_adam": True}}
    bad = {
        "optimizer": adam,
        "scheduler": {"type": "WarmupCosineLR", "params": {"warmup_num_steps": 10.0, "total_num_steps": 100}},
    }
    good = {
        "optimizer": adam,
        "scheduler": {"type": "WarmupCosineLR", "params": {"warmup_num_steps": 10, "total_num_steps": 100}},
    }
    failed, built = initialize([bad, good])
    assert failed["error"] == "ValueError" and "warmup_num_steps" in failed["message"]
    assert "optimizer" in built
    assert [f.code for f in found("DS582", bad, "hf")] == ["DS582"] and found("DS582", good, "hf") == []


@pytest.mark.slow
def test_bf16_path_against_deepspeed_initialize() -> None:
    """bf16 + stage 1 + fp32 accumulation builds BF16_Optimizer (DS583 warns: it runs); bf16 accumulation does not."""
    keys = {"reduce_bucket_size": 2e8, "overlap_comm": True, "round_robin_gradients": True}
    adam = {"type": "AdamW", "params": {"lr": 1e-3, "torch_adam": True}}
    bf16_path = {
        "bf16": {"enabled": True},
        "data_types": {"grad_accum_dtype": "fp32"},
        "optimizer": adam,
        **z(1, **keys),
    }
    zero_path = {"bf16": {"enabled": True}, "optimizer": adam, **z(1, **keys)}
    (with_bf16, with_zero) = initialize([bf16_path, zero_path])
    assert with_bf16 == {"optimizer": "BF16_Optimizer"} and with_zero == {"optimizer": "DeepSpeedZeroOptimizer"}
    (finding,) = found("DS583", bf16_path)
    assert finding.args["written"] == "reduce_bucket_size, overlap_comm, round_robin_gradients"
    assert found("DS583", zero_path) == []


@pytest.mark.slow
def test_optimizer_signatures_match_deepspeed_and_torch() -> None:
    """The constructor keywords DS549 checks against are those of the installed DeepSpeed 0.19.8 and torch."""
    require_deepspeed()
    import inspect

    import torch
    from deepspeed.ops.adagrad import DeepSpeedCPUAdagrad
    from deepspeed.ops.adam import DeepSpeedCPUAdam, FusedAdam, ZenFlowCPUAdam
    from deepspeed.ops.lamb import FusedLamb
    from deepspeed.ops.lion import DeepSpeedCPULion, FusedLion
    from deepspeed.runtime.engine import DeepSpeedEngine

    from dsref.check.rules._signatures import CONSTRUCTOR_KEYWORDS, MUON_CONFIG_KEYS

    def keywords(cls: type) -> frozenset[str]:
        params = list(inspect.signature(cls.__init__).parameters.values())[1:]
        named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if any(p.kind is p.VAR_KEYWORD for p in params):  # ZenFlowCPUAdam hands the rest to its base class
            return frozenset(p.name for p in named) | keywords(cls.__mro__[1])
        return frozenset(p.name for p in named[1:])  # the first one takes the parameters

    classes: dict[str, type] = {
        "FusedAdam": FusedAdam,
        "DeepSpeedCPUAdam": DeepSpeedCPUAdam,
        "ZenFlowCPUAdam": ZenFlowCPUAdam,
        "DeepSpeedCPUAdagrad": DeepSpeedCPUAdagrad,
        "FusedLamb": FusedLamb,
        "FusedLion": FusedLion,
        "DeepSpeedCPULion": DeepSpeedCPULion,
        **{f"torch.optim.{name}": getattr(torch.optim, name) for name in common.TORCH_OPTIMIZERS},
    }
    assert {name: keywords(cls) for name, cls in classes.items()} == CONSTRUCTOR_KEYWORDS
    muon = {*DeepSpeedEngine._MUON_HALF_KEYS, *DeepSpeedEngine._ADAM_HALF_KEYS, "muon_lr", "adam_lr"}
    assert muon | {"adam_w_mode", "torch_adam", "fp32_optimizer_states"} == MUON_CONFIG_KEYS
    source = inspect.getsource(DeepSpeedEngine._muon_half_defaults) + inspect.getsource(
        DeepSpeedEngine._muon_param_groups
    )
    assert '"muon_lr"' in source and '"adam_lr"' in source


@pytest.mark.slow
def test_scheduler_integer_checks_match_deepspeed() -> None:
    """DS582's table: exactly these constructors check isinstance(…, int) on these params."""
    require_deepspeed()
    import inspect

    from deepspeed.runtime import lr_schedules

    from dsref.check.rules.optimizer import INTEGER_CHECKED_SCHEDULER_PARAMS

    checked: dict[str, set[str]] = {}
    for name in common.DEEPSPEED_SCHEDULERS:
        cls = getattr(lr_schedules, name)
        source = "".join(inspect.getsource(c.__init__) for c in cls.__mro__ if c.__module__ == lr_schedules.__name__)
        for key in re.findall(r"isinstance\((\w+), int\)", source):
            checked.setdefault(key, set()).add(name)
    assert checked == {k: set(v) for k, v in INTEGER_CHECKED_SCHEDULER_PARAMS.items()}


@pytest.mark.slow
def test_bf16_optimizer_reads_only_the_listed_zero_keys(tree: OptionTree) -> None:
    """DS583: every stage-1 ZeRO key it reports is read in engine.py only inside _configure_zero_optimizer."""
    require_deepspeed()
    import ast
    import inspect

    from deepspeed.runtime import engine as ds_engine
    from deepspeed.runtime.zero.config import DeepSpeedZeroConfig

    from dsref.check.rules.zero import BF16_OPTIMIZER_READS

    source = inspect.getsource(ds_engine)
    module = ast.parse(source)
    (cls,) = [n for n in module.body if isinstance(n, ast.ClassDef) and n.name == "DeepSpeedEngine"]
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    accessor = {}  # zero_config field -> engine method returning it
    for name, node in methods.items():
        text = ast.get_source_segment(source, node) or ""
        match = re.search(r"return self\._config\.zero_config\.(\w+)\s*$", text.strip())
        if match and len(node.body) == 1:
            accessor[match.group(1)] = name

    def lines(name: str) -> set[int]:
        node = methods[name]
        return set(range(node.lineno, (node.end_lineno or node.lineno) + 1))

    # DeepCompile reads reduce_bucket_size too; DS583 stays quiet when compile.deepcompile is on.
    inside = lines("_configure_zero_optimizer") | lines("_initialize_deepcompile_native")
    ignored = [
        opt
        for opt in tree.children(Z)
        if opt.stages is not None and 1 in opt.stages and opt.path not in BF16_OPTIMIZER_READS and opt.kind == "leaf"
    ]
    assert len(ignored) >= 8
    for opt in ignored:
        if opt.meta.deprecated or opt.removed_in:
            continue
        field = opt.key
        assert field in DeepSpeedZeroConfig.model_fields, field  # the name the engine reads it by
        uses = [
            node.lineno
            for node in ast.walk(cls)
            if isinstance(node, ast.Attribute)
            and (node.attr == accessor.get(field) or node.attr == field)
            and not (isinstance(node.value, ast.Name) and node.value.id == "self" and node.attr == field)
        ]
        allowed = inside | (lines(accessor[field]) if field in accessor else set())
        if field == "overlap_comm":  # _do_sanity_check asserts it off when managed_gradient_accumulation is off
            allowed |= lines("_do_sanity_check")
        outside = [line for line in uses if line not in allowed]
        assert not outside, f"{opt.path} is read outside _configure_zero_optimizer at engine.py lines {outside}"


def test_rules_follow_the_target_release() -> None:
    """--deepspeed-version: DS541 knows when the 1-bit optimizers went; rules about newer options stay quiet (what
    each release's own checks say of the other rules: tests/unit/tree/test_rule_releases.py, and when the engine
    starts: test_rule_engine_releases.py)."""
    one_bit = {"optimizer": {"type": "OneBitAdam", "params": {}}}
    assert [f.code for f in run_rules(one_bit, select={"DS541"}).findings] == ["DS541"]
    assert run_rules(one_bit, settings=CheckSettings(deepspeed_version="0.19.6"), select={"DS541"}).findings == []
    no_norm = z(1, compute_grad_norm=False)  # compute_grad_norm came in 0.19.7
    assert [f.code for f in run_rules(no_norm, select={"DS522"}).findings] == ["DS522"]
    assert run_rules(no_norm, settings=CheckSettings(deepspeed_version="0.19.6"), select={"DS522"}).findings == []


# -- fixes declared beside the checks -------------------------------------------------------------------------------


def _example_findings(code: str) -> list[Any]:
    from dsref.check.pipeline import check_text
    from dsref.site import rules as pages

    example = pages.example_of(code)
    assert example is not None, f"{code} declares a fix but has no example to show it on"
    profile = "hf" if example.hf else "deepspeed"
    report = check_text(
        example.text, "ds_config.json", settings=CheckSettings(profile=profile, world_size=example.world_size)
    )
    return [f for f in report.findings if f.code == code]


@pytest.mark.parametrize("code", sorted(r.code for r in all_rules() if r.fix is not None))
def test_a_rule_that_declares_a_fix_fixes_its_own_example(code: str) -> None:
    declared = get_rule(code)
    assert declared is not None
    fixes = [f.fix for f in _example_findings(code) if f.fix is not None]
    assert fixes, f"{code} declares a fix (fix=) and its example gets none"
    assert {fix.applicability for fix in fixes} == {declared.fix}


def test_a_rule_whose_example_gets_a_fix_declares_it() -> None:
    undeclared = [
        r.code
        for r in all_rules()
        if r.fix is None and r.example is not None and any(f.fix for f in _example_findings(r.code))
    ]
    assert undeclared == []
