"""`dsref estimate LAUNCH`: the run a launch starts, estimated with what the launch says (its model, ds_config, micro
batch, sequence length, checkpointing, precision and GPUs), the same as the flags that say it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsref.cli.main import main
from tests.models import SMALL_LLAMA

DS_CONFIG = {"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}


def _estimate(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["estimate", *argv, "--format", "json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text(json.dumps(SMALL_LLAMA))
    (tmp_path / "ds.json").write_text(json.dumps(DS_CONFIG))
    return tmp_path


def test_a_launch_gives_what_the_flags_would(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "run.sh").write_text(
        "torchrun --nproc_per_node 4 --nnodes 2 train.py --deepspeed ds.json --model_name_or_path model \\\n"
        "  --per_device_train_batch_size 3 --model_max_length 256 --gradient_checkpointing --bf16\n"
    )
    launched = _estimate(["run.sh"], capsys)
    flags = [
        "--config", "ds.json", "--model", "model", "--micro-batch", "3", "--seq-len", "256", "--checkpointing",
        "--precision", "bf16", "--gpus-per-node", "4", "--nodes", "2",
    ]  # fmt: skip
    given = _estimate(flags, capsys)
    assert launched["peak_bytes"] == given["peak_bytes"] and launched["run"] == given["run"]
    said = {fact["setting"]: fact["where"] for fact in launched["launch"]["from_launch"]}
    assert said["micro_batch"] == "run.sh:2" and said["gpus"] == "run.sh:1"
    assert _estimate(["run.sh", "--micro-batch", "1"], capsys)["run"]["micro_batch"] == 1  # a flag wins


def test_a_yaml_launch_with_a_hub_id_uses_dsrefs_table(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "sft.yaml").write_text(
        "model_name_or_path: Qwen/Qwen2.5-7B-Instruct\nstage: sft\ndeepspeed: ds.json\n"
        "per_device_train_batch_size: 1\ncutoff_len: 1024\nbf16: true\n"
    )
    out = _estimate(["sft.yaml"], capsys)
    assert out["model"]["hidden_size"] == 3584 and out["run"]["seq_len"] == 1024
    assert any("Qwen/Qwen2.5-7B" in fact["value"] for fact in out["launch"]["from_launch"])


def test_an_unknown_model_says_how_to_give_it(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "run.sh").write_text("deepspeed train.py --deepspeed ds.json --model_name_or_path my-org/secret\n")
    assert main(["estimate", "run.sh"]) == 2
    err = capsys.readouterr().err
    assert "run.sh:1" in err and "my-org/secret" in err and "--model" in err
    assert main(["estimate", "run.sh", "--model", "model"]) == 0  # given, the estimate goes on
    capsys.readouterr()
    assert main(["estimate", "run.sh", "--lang", "zh"]) == 2
    assert "--model" in capsys.readouterr().err
