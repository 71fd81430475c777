"""What the tests of Trainer's filling share (tests/unit/launch/test_trainer.py, and against transformers itself
tests/functional/test_launch_filling.py and test_trainer_contract.py): a ds_config with every "auto" Trainer fills,
a model folder whose ``config.json`` gives the hidden size the ZeRO buckets are sized from, and transformers' own
filling of a config under a launch's arguments."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests import needs

__all__ = ["EVERY_AUTO", "HIDDEN", "Filled", "tiny_model", "transformers_fills"]

HIDDEN = 64
"""The hidden size of :func:`tiny_model`."""

EVERY_AUTO: dict[str, Any] = {
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
"""Each value Trainer fills from its arguments, the model and the number of steps, written as "auto"."""


def tiny_model(folder: Path, hidden: int = HIDDEN) -> Path:
    """``folder`` made a model's folder: a ``config.json`` with its hidden size and two layers."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps({"hidden_size": hidden, "num_hidden_layers": 2}))
    return folder


Filled = tuple[dict[str, Any], list[str]]
"""The config as transformers filled it, and the lines of its mismatch error (``- ds …``; none when it starts)."""


def transformers_fills(config: dict[str, Any], argv: list[str], out: Path, steps: int, hidden: int = HIDDEN) -> Filled:
    """``config`` filled by transformers' HfTrainerDeepSpeedConfig from the TrainingArguments of ``argv`` (both
    stages: ``trainer_config_process``, then ``trainer_config_finalize`` for a model of ``hidden`` and ``steps``
    training steps), on the CPU with ``out`` as the output folder. Skips (fails in CI) without torch, accelerate,
    DeepSpeed and transformers."""
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
        filling.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=hidden)), steps)
    except ValueError as exc:
        return filling.config, [line for line in str(exc).splitlines() if line.startswith("- ds ")]
    return filling.config, []
