"""The playground's launch pane (dsref/site/playground_launch.py): a pasted launch with the pasted config says what
``dsref check LAUNCH`` says of the same two files, in both languages; the browser side is
tests/functional/test_playground.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsref.check.report import target
from dsref.site.playground import config_fragment
from dsref.site.playground_launch import LAUNCH_NAMES, check_launch_document, launch_kind, launch_packages
from dsref.tree.profiles import HfReleases
from tests.cli import run_dsref

CONFIG = """{
  "train_micro_batch_size_per_gpu": 2,
  "gradient_accumulation_steps": "auto",
  "bf16": {"enabled": true},
  "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}},
  "zero_optimization": {"stage": 3}
}
"""

SHELL = """#!/bin/bash
# a launch that mismatches: Trainer compares the config's 2 with --per_device_train_batch_size 4
deepspeed --num_gpus 8 train.py \\
  --deepspeed ds_config.json \\
  --per_device_train_batch_size 4 \\
  --bf16 --learning_rate 2e-5
"""

LLAMA_FACTORY = """### model
model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
stage: sft
finetuning_type: full
deepspeed: examples/deepspeed/ds_z3_config.json
per_device_train_batch_size: 2
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
bf16: false
cutoff_len: 2048
"""

ACCELERATE = """compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
deepspeed_config:
  gradient_accumulation_steps: 4
  offload_optimizer_device: disk
  offload_param_device: cpu
  zero_stage: 2
  zero_stage3_prefetch: 10
mixed_precision: bf16
num_machines: 2
num_processes: 16
"""


@pytest.fixture
def no_libraries(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The command line as the browser's Python runs it: no DeepSpeed, transformers or accelerate installed, in a
    folder of its own (where the launch and its ds_config are written)."""
    monkeypatch.setattr(target, "installed_hugging_face", lambda *a, **k: HfReleases())
    monkeypatch.setattr(target, "installed_deepspeed", lambda *a, **k: None)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _cli(launch: str, config_at: str | None, *args: str, config: str = CONFIG) -> tuple[Any, list[str]]:
    """``dsref check --format json ARGS launch.sh`` (or ``launch.yaml``) on the two files: its report, and what it
    says on standard error, line by line."""
    name = LAUNCH_NAMES[launch_kind(launch) or "shell"]
    Path(name).write_text(launch, encoding="utf-8")
    if config_at is not None:
        Path(config_at).parent.mkdir(parents=True, exist_ok=True)
        Path(config_at).write_text(config, encoding="utf-8")
    done = run_dsref("check", "--format", "json", "--deepspeed-version", "0.19.8", *args, name)
    assert done.returncode in (0, 1, 2), done.stderr  # 2: nothing to check
    report = json.loads(done.stdout) if done.returncode != 2 else None
    return report, [line.removeprefix("dsref: ") for line in done.stderr.splitlines()]


def _said_as_the_cli_says_it(answer: dict[str, Any]) -> list[str]:
    return [f"{s['file'] or answer['launch_file']}:{s['line']}:{s['column']}: {s['message']}" for s in answer["said"]]


def test_the_kind_of_a_pasted_launch_is_told_from_its_first_line() -> None:
    assert launch_kind("") == "" and launch_kind(" \n\t\n") == ""  # the pane left empty: the config alone
    assert launch_kind(SHELL) == "shell"
    assert launch_kind("CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 train.py --deepspeed ds.json") == "shell"
    assert launch_kind("accelerate launch --config_file a.yaml train.py") == "shell"
    assert launch_kind(LLAMA_FACTORY) == "yaml" and launch_kind(ACCELERATE) == "yaml"
    assert launch_kind("---\nbase_model: x\n") == "yaml" and launch_kind('"deepspeed": ds.json\n') == "yaml"
    # PyYAML is loaded for a YAML launch only (the first answer never waits for it)
    assert launch_packages(LLAMA_FACTORY) == ["pyyaml"] and launch_packages(SHELL) == [] and launch_packages("") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shell_launch_with_the_pasted_config_is_checked_as_dsref_check_launch(no_libraries: Path, lang: str) -> None:
    answer = json.loads(check_launch_document(SHELL, CONFIG, lang))  # type: ignore[arg-type]
    report, said = _cli(SHELL, "ds_config.json", "--lang", lang)
    assert answer["report"] == report
    assert _said_as_the_cli_says_it(answer) == said == []
    assert (answer["form"], answer["named"], answer["pane"]) == ("shell", "ds_config.json", "config")
    assert answer["world_size"] == 8  # --num_gpus 8
    findings = report["files"][0]["findings"]
    (mismatch,) = [f for f in findings if f["code"] == "DS589"]
    assert mismatch["line"] == 2 and "launch.sh:5" in mismatch["message"]
    # marked in the launch too, at the value Trainer compares it with (line 5: --per_device_train_batch_size 4)
    (mark,) = [m for m in answer["marks"] if findings[m["finding"]] == mismatch]
    assert (mark["line"], mark["column"], mark["end_column"]) == (5, 33, 34)
    assert SHELL.splitlines()[4][mark["column"] - 1 : mark["end_column"] - 1] == "4"
    assert all(findings[m["finding"]]["code"] == "DS589" for m in answer["marks"])
    # the filled config is --show-effective's
    shown = run_dsref("check", "--show-effective", "--deepspeed-version", "0.19.8", "launch.sh")
    assert answer["effective"] == json.loads(shown.stdout)
    assert answer["effective"]["config"]["optimizer"]["params"]["lr"] == 2e-5  # filled from --learning_rate


def test_a_finding_on_an_auto_the_launch_fills_is_placed_in_the_launch(no_libraries: Path) -> None:
    config = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": {"enabled": "auto"}\n}\n'
    launch = "deepspeed --num_gpus 2 train.py --deepspeed ds_config.json --per_device_train_batch_size 0 --bf16\n"
    answer = json.loads(check_launch_document(launch, config, "en"))
    report, _ = _cli(launch, "ds_config.json", config=config)
    assert answer["report"] == report
    findings = report["files"][0]["findings"]
    (zero,) = [f for f in findings if f["option"] == "train_micro_batch_size_per_gpu" and f.get("file")]
    assert zero["file"] == "launch.sh" and launch[zero["column"] - 1 : zero["end_column"] - 1].endswith(" 0")
    assert [(r["file"], r["line"]) for r in zero["related"]] == [("ds_config.json", 2)]  # the "auto" beside it
    assert all(findings[m["finding"]] is not zero and not findings[m["finding"]].get("file") for m in answer["marks"])
    assert answer["effective"]["config"]["train_micro_batch_size_per_gpu"] == 0


def test_a_llama_factory_yaml_names_its_ds_config_as_written(no_libraries: Path) -> None:
    answer = json.loads(check_launch_document(LLAMA_FACTORY, CONFIG, "en"))
    report, said = _cli(LLAMA_FACTORY, "examples/deepspeed/ds_z3_config.json")
    assert answer["report"] == report and _said_as_the_cli_says_it(answer) == said
    assert answer["form"] == "llamafactory" and answer["named"] == "examples/deepspeed/ds_z3_config.json"
    assert answer["world_size"] is None  # llamafactory-cli's processes are not in the file
    codes = [f["code"] for f in report["files"][0]["findings"]]
    assert codes.count("DS589") == 1  # bf16: false against the config's true; the micro batch matches
    lines = {LLAMA_FACTORY.splitlines()[m["line"] - 1] for m in answer["marks"]}
    assert lines == {"bf16: false"}


def test_an_accelerate_config_builds_its_ds_config_and_needs_no_config_pane(no_libraries: Path) -> None:
    answer = json.loads(check_launch_document(ACCELERATE, "", "zh"))
    report, said = _cli(ACCELERATE, None, "--lang", "zh")
    assert answer["report"] == report and _said_as_the_cli_says_it(answer) == said
    assert answer["pane"] == "launch" and answer["builds"] and answer["named"] is None
    assert answer["world_size"] == 16 and answer["marks"] == []
    findings = report["files"][0]["findings"]
    assert report["files"][0]["file"] == "launch.yaml"
    assert {f["code"] for f in findings} >= {"DS204", "DS530"}  # the wrong device, parameter offload at stage 2
    assert [s["reason"] for s in answer["said"]] == ["accelerate_ignored"]
    # what the config pane holds plays no part
    assert json.loads(check_launch_document(ACCELERATE, "{ not json", "zh"))["report"] == answer["report"]


def test_what_is_no_launch_is_said_and_nothing_is_checked(no_libraries: Path) -> None:
    answer = json.loads(check_launch_document("echo hello\n", CONFIG, "en"))
    assert answer["report"] is None and answer["effective"] is None
    assert [s["reason"] for s in answer["said"]] == ["no_command"]
    _, said = _cli("echo hello\n", "ds_config.json")
    assert said == [f"launch.sh: {answer['said'][0]['message']}"]  # said of the whole file: no line
    assert answer["said"][0]["line"] == 1  # shown on the first line of the pane
    broken = json.loads(check_launch_document("stage: sft\n  bad: [\n", CONFIG, "en"))
    assert [s["reason"] for s in broken["said"]] == ["bad_yaml"] and broken["report"] is None


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_accelerate_config_the_command_names_is_asked_for_in_the_launch_editor(
    no_libraries: Path, lang: str
) -> None:
    from dsref.site.playground import PLAYGROUND

    command = "accelerate launch --config_file configs/zero3.yaml train.py --deepspeed ds.json --bf16\n"
    answer = json.loads(check_launch_document(command, CONFIG, lang))  # type: ignore[arg-type]
    _, said = _cli(command, "ds.json", "--lang", lang)
    assert [s["message"] for s in answer["said"]] == [line.split(": ", 1)[1] for line in said]
    assert answer["report"] is None
    (missing,) = answer["said"]
    assert missing["reason"] == "accelerate_config_missing"
    assert missing["help"] == [PLAYGROUND.text("launch_one_file", lang)]  # type: ignore[arg-type]


def test_a_release_dsref_refuses_is_said_as_for_the_config_alone() -> None:
    assert set(json.loads(check_launch_document(SHELL, CONFIG, "en", deepspeed_version="0.9.0"))) == {"refused"}


def test_the_share_link_carries_the_launch() -> None:
    import base64

    fragment = config_fragment(CONFIG, launch=SHELL)
    tail = fragment.split("&launch=")[1]
    assert base64.urlsafe_b64decode(tail + "=" * (-len(tail) % 4)).decode("utf-8") == SHELL
    assert config_fragment(CONFIG, launch="") == config_fragment(CONFIG)
