"""`dsref check` with a launch, against the real tools: the config dsref fills equals the one transformers'
HfTrainerDeepSpeedConfig fills from the same arguments (both of its stages), the mismatches DS589 names are the ones
it refuses, and DeepSpeed's DeepSpeedConfig accepts the filled config exactly where dsref finds no error.

One process on the CPU (the `python` launcher), as transformers can be run here: its ``args.world_size`` is 1."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.check.findings import Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.launch.read import read_launch
from dsref.launch.trainer import trainer_fill
from dsref.tree.options import option_tree
from tests import needs

HIDDEN = 64
AUTO: dict[str, Any] = {
    "train_batch_size": "auto",
    "train_micro_batch_size_per_gpu": "auto",
    "gradient_accumulation_steps": "auto",
    "gradient_clipping": "auto",
    "fp16": {"enabled": "auto"},
    "bf16": {"enabled": "auto"},
    "optimizer": {"type": "AdamW", "params": {"lr": "auto", "betas": "auto", "eps": "auto", "weight_decay": "auto"}},
    "scheduler": {
        "type": "WarmupDecayLR",
        "params": {
            "warmup_min_lr": "auto",
            "warmup_max_lr": "auto",
            "warmup_num_steps": "auto",
            "total_num_steps": "auto",
        },
    },
    "zero_optimization": {
        "stage": 3,
        "reduce_bucket_size": "auto",
        "stage3_prefetch_bucket_size": "auto",
        "stage3_param_persistence_threshold": "auto",
    },
}
PINNED = {  # the values a real config writes beside "auto" (the counts: bf16, micro batch, lr, ...)
    **AUTO,
    "train_micro_batch_size_per_gpu": 4,
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": "auto", "eps": "auto", "weight_decay": 0.0}},
}

CASES = [
    (AUTO, "--per_device_train_batch_size 2 --gradient_accumulation_steps 4 --learning_rate 3e-5 --bf16"),
    (AUTO, "--per_device_train_batch_size=1 --bf16=true --max_grad_norm 0.3 --warmup_steps 0.25 --weight_decay 0.1"),
    (AUTO, "--fp16 True --adam_beta1 0.8 --adam_beta2 0.95 --adam_epsilon 1e-6 --warmup_steps 7"),
    (PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16"),  # matches
    (PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16 False"),
    (PINNED, "--per_device_train_batch_size 2 --learning_rate 1e-4 --weight_decay 0.01 --bf16"),
    (PINNED, "--per_device_train_batch_size 0 --learning_rate 2e-5 --bf16"),  # Trainer refuses first
    (AUTO, "--per_device_train_batch_size 0 --bf16"),  # Trainer fills a micro batch of 0, which DeepSpeed refuses
]


def _transformers_fills(config: dict[str, Any], argv: list[str], out: Path, steps: int) -> tuple[Any, list[str]]:
    needs.module("torch")
    needs.module("accelerate")
    needs.module("deepspeed")
    transformers = needs.module("transformers")
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (args,) = parser.parse_args_into_dataclasses(args=["--output_dir", str(out), "--use_cpu", *argv])
    filling = HfTrainerDeepSpeedConfig(json.loads(json.dumps(config)))
    filling.trainer_config_process(args)
    try:
        filling.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=HIDDEN)), steps)
    except ValueError as exc:
        refused = [line.split()[2].split("=")[0] for line in str(exc).splitlines() if line.startswith("- ds ")]
        return filling.config, sorted(refused)
    return filling.config, []


def _deepspeed_refuses(config: dict[str, Any]) -> bool:
    from deepspeed.runtime.config import DeepSpeedConfig

    try:
        DeepSpeedConfig(json.loads(json.dumps(config)))
    except Exception:  # whatever DeepSpeed raises is the point
        return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("config", "script_arguments"), CASES)
def test_dsref_fills_refuses_and_judges_as_the_real_tools(
    config: dict[str, Any], script_arguments: str, tmp_path: Path
) -> None:
    model = tmp_path / "model"
    model.mkdir()
    (model / "config.json").write_text(json.dumps({"hidden_size": HIDDEN}))
    trainer_argv = f"--max_steps 40 {script_arguments}"
    line = f"python train.py --deepspeed ds.json --model_name_or_path {model} {trainer_argv}\n"
    launch = read_launch(str(tmp_path / "run.sh"), line)
    filled = trainer_fill(config, launch, launch.world_size, option_tree())
    assert filled.unknown == ()
    report = check_text(json.dumps(config), "ds.json", CheckSettings("hf", launch.world_size, launch=launch))
    mismatches = sorted(f.option or "" for f in report.findings if f.code == "DS589")
    refused_by_dsref = any(f.severity is Severity.error and f.code != "DS589" for f in report.findings)

    theirs, refused = _transformers_fills(config, shlex.split(trainer_argv), tmp_path / "out", steps=40)
    assert filled.config == theirs
    assert mismatches == refused
    if not refused:  # Trainer lets it through: DeepSpeed's verdict on what it hands on
        assert refused_by_dsref == _deepspeed_refuses(theirs), [f.code for f in report.findings]
        assert refused_by_dsref == ("per_device_train_batch_size 0" in script_arguments)
