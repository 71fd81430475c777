"""``--show-effective`` shows what DeepSpeed builds (issue 38, item 9): the ``params`` of the optimizer and scheduler
in use only, as ``DeepSpeedConfig`` of DeepSpeed 0.19.8 holds them, and ``"auto"`` filled where Hugging Face fills
it for a file read as theirs."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dsref.check.report.show_effective import HF_FILLED, effective_document
from dsref.check.validate.constructors import SCHEDULER_KEYWORDS
from dsref.cli.main import main
from dsref.tree.profiles import NEWEST
from tests.conftest import require_deepspeed

CONFIGS = [
    {
        "train_micro_batch_size_per_gpu": 4,
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "betas": [0.9, 0.95], "weight_decay": 0.01}},
        "scheduler": {"type": "WarmupDecayLR", "params": {"warmup_num_steps": 100, "total_num_steps": 1000}},
    },
    {
        "train_micro_batch_size_per_gpu": 4,
        "optimizer": {"type": "Lamb", "params": {"lr": 1e-3}},
        "scheduler": {"type": "OneCycle", "params": {"cycle_min_lr": 1e-5, "cycle_max_lr": 1e-3}},
    },
    {"train_micro_batch_size_per_gpu": 4, "optimizer": {"params": {"lr": 1e-3}}},  # no type: DeepSpeed reads none
]


@pytest.mark.parametrize("config", CONFIGS)
def test_params_are_those_of_the_class_in_use(config: dict[str, Any]) -> None:
    doc = effective_document(config, world_size=1)["config"]
    optimizer = config["optimizer"]
    assert doc["optimizer"]["params"] == (optimizer["params"] if "type" in optimizer else None)  # as written
    scheduler = config.get("scheduler")
    if scheduler is None:
        assert (doc.get("scheduler") or {}).get("params") is None
        return
    shown = doc["scheduler"]["params"]
    assert set(shown) == set(SCHEDULER_KEYWORDS[scheduler["type"]])  # its own keys, no other scheduler's
    assert {key: shown[key] for key in scheduler["params"]} == scheduler["params"]
    assert not {"muon_lr", "ns_method"} & set(doc["optimizer"]["params"])


@pytest.mark.parametrize("config", CONFIGS)
def test_params_as_deepspeed_builds_them(config: dict[str, Any]) -> None:
    """The optimizer's params are DeepSpeedConfig's; the scheduler's are DeepSpeedConfig's and, for each key left
    out, the default of the scheduler's own constructor."""
    require_deepspeed()
    import inspect

    from deepspeed.runtime import lr_schedules
    from deepspeed.runtime.config import DeepSpeedConfig

    built = DeepSpeedConfig(copy.deepcopy(config))
    doc = effective_document(config, world_size=1)["config"]
    assert (doc.get("optimizer") or {}).get("params") == built.optimizer_params
    shown_type = (doc.get("optimizer") or {}).get("type")
    assert (shown_type.lower() if shown_type else None) == built.optimizer_name  # DeepSpeed lowercases its own names
    if built.scheduler_name is None:
        return
    shown = doc["scheduler"]["params"]
    assert {key: shown[key] for key in built.scheduler_params} == built.scheduler_params
    signature = inspect.signature(getattr(lr_schedules, built.scheduler_name).__init__).parameters
    for key, value in shown.items():
        default = signature[key].default
        if key not in built.scheduler_params:  # a key the constructor requires has no default: shown as null
            assert value == (None if default is inspect.Parameter.empty else default), key


def test_the_scheduler_keywords_are_deepspeed_s() -> None:
    require_deepspeed()
    import inspect

    from deepspeed.runtime import lr_schedules

    for name, keywords in SCHEDULER_KEYWORDS.items():
        assert tuple(inspect.signature(getattr(lr_schedules, name).__init__).parameters)[2:] == keywords


def test_auto_is_filled_for_a_file_read_as_hugging_face_s(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = {
        "train_micro_batch_size_per_gpu": "auto",
        "optimizer": {"type": "AdamW", "params": {"lr": "auto", "eps": 1e-8}},
        "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"},
    }
    doc = effective_document(config, hugging_face=NEWEST)["config"]
    assert doc["train_micro_batch_size_per_gpu"] == HF_FILLED
    assert doc["optimizer"]["params"] == {"lr": HF_FILLED, "eps": 1e-8}
    assert doc["zero_optimization"]["stage3_prefetch_bucket_size"] == HF_FILLED
    assert effective_document(config)["config"]["optimizer"]["params"]["lr"] == "auto"  # as DeepSpeed alone has it
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(config))
    main(["check", "--show-effective", str(path)])
    assert json.loads(capsys.readouterr().out)["config"]["optimizer"]["params"]["lr"] == HF_FILLED
