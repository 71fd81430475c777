"""Launch files from public repositories (tests/data/launch, sources in SOURCES.tsv), read as their tools read them:
the ds_config each names found where the tool finds it, the world size, the training arguments, the model and the
sequence length; and what `dsref check` says of each."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from dsref.cli.main import main
from dsref.launch.model import Launch
from dsref.launch.read import read_launch

DATA = Path(__file__).parents[2] / "data" / "launch"


def _read(relative: str) -> Launch:
    path = DATA / relative
    return read_launch(str(path), path.read_text(encoding="utf-8"))


def test_every_file_names_its_source() -> None:
    with (DATA / "SOURCES.tsv").open(encoding="utf-8") as handle:
        named = {row["file"] for row in csv.DictReader(handle, delimiter="\t")}
    stored = {str(p.relative_to(DATA)) for p in DATA.rglob("*") if p.is_file() and p.name != "SOURCES.tsv"}
    assert named == stored


def test_llamafactory_example() -> None:
    launch = _read("llamafactory/examples/train_full/llama3_full_sft.yaml")
    assert launch.form == "llamafactory" and launch.world_size is None  # llamafactory-cli starts every GPU
    assert launch.ds_config_path == str(DATA / "llamafactory" / "examples" / "deepspeed" / "ds_z3_config.json")
    assert {n: g.value for n, g in launch.arguments.items()} == {
        "per_device_train_batch_size": 1,
        "gradient_accumulation_steps": 2,
        "learning_rate": 1e-5,
        "num_train_epochs": 3.0,
        "warmup_ratio": 0.1,  # read by transformers before 5.15 only
        "bf16": True,
    }
    assert launch.model is not None and launch.model.value == "meta-llama/Meta-Llama-3-8B-Instruct"
    assert launch.sequence_length is not None and (launch.sequence_length.value, launch.sequence_length.line) == (
        2048,
        13,
    )


def test_a_deepspeed_script_with_a_variable_and_continuations() -> None:
    launch = _read("malaya/session/tiny-llama/run-instructions-16k-rag.sh")
    assert launch.form == "shell" and launch.world_size is None  # no --num_gpus: every GPU of the machine
    assert launch.ds_config is not None and launch.ds_config.line == 3
    assert launch.ds_config_path == str(DATA / "malaya" / "session" / "tiny-llama" / "ds_config_zero3.json")
    given = {n: g.value for n, g in launch.arguments.items()}
    assert given == {
        "per_device_train_batch_size": 6,
        "gradient_accumulation_steps": 6,
        "bf16": True,
        "num_train_epochs": 3.0,
        "learning_rate": 2e-5,
    }
    assert launch.gradient_checkpointing is not None and launch.gradient_checkpointing.value is True


def test_a_torchrun_script_whose_ds_config_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    relative = "taishan1994/script/fintune_full_llama3.2_3B_Instruct.sh"
    launch = _read(relative)  # its last line ends in a backslash, as the shell allows
    assert launch.world_size == 8 and launch.arguments["fp16"].value is True
    assert launch.sequence_length is not None and launch.sequence_length.value == 256
    assert launch.ds_config is not None and launch.ds_config_path is None
    assert main(["check", str(DATA / relative)]) == 2
    err = capsys.readouterr().err
    assert f"{relative}:33:" in err and "../config/ds_config_zero2.json" in err


@pytest.mark.parametrize(("name", "stage"), [("deepspeed_zero3.yaml", 3), ("deepspeed_zero2.yaml", 2)])
def test_trl_accelerate_configs(name: str, stage: int, capsys: pytest.CaptureFixture[str]) -> None:
    launch = _read(f"trl/examples/accelerate_configs/{name}")
    assert launch.form == "accelerate" and launch.world_size == 8
    assert launch.built is not None and launch.built.config is not None
    assert launch.built.config["zero_optimization"]["stage"] == stage
    assert launch.built.config["bf16"] == {"enabled": True}
    assert main(["check", str(DATA / "trl" / "examples" / "accelerate_configs" / name), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["error"] == 0


def test_an_axolotl_yaml_whose_bf16_is_auto() -> None:
    launch = _read("finlora/lora/example_config.yml")
    assert launch.form == "axolotl" and launch.unknown == ("bf16",)
    assert launch.ds_config_path == str(DATA / "finlora" / "lora" / "deepspeed_configs" / "zero1.json")
    assert {n: launch.arguments[n].value for n in ("per_device_train_batch_size", "gradient_accumulation_steps")} == {
        "per_device_train_batch_size": 2,
        "gradient_accumulation_steps": 4,
    }
    assert launch.sequence_length is not None and launch.sequence_length.value == 16384
