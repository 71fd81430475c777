"""A ds_config filled as Trainer fills it under its launch (dsref/launch/trainer.py), and `dsref check CONFIG --
LAUNCH COMMAND`; what transformers' own code does with the same is in tests/functional/test_launch_filling.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.cli.check import split_launch_command
from dsref.cli.main import main
from dsref.launch.read import read_launch
from dsref.launch.trainer import trainer_fill
from dsref.tree.options import option_tree
from tests.trainer_filling import EVERY_AUTO, HIDDEN, tiny_model


def _model(tmp_path: Path, hidden: int = HIDDEN) -> Path:
    return tiny_model(tmp_path / "models" / "tiny", hidden)


def test_every_auto_trainer_fills_comes_from_the_launch(tmp_path: Path) -> None:
    model = _model(tmp_path)
    line = (
        f"deepspeed --num_gpus 4 train.py --deepspeed ds.json --model_name_or_path {model} "
        "--per_device_train_batch_size 2 --gradient_accumulation_steps 8 --learning_rate 3e-5 --bf16 "
        "--max_steps 500 --warmup_steps 0.1 --max_grad_norm 0.5 --weight_decay 0.1\n"
    )
    launch = read_launch(str(tmp_path / "run.sh"), line)
    assert launch.hidden_size == 64 and launch.world_size == 4
    filling = trainer_fill(EVERY_AUTO, launch, launch.world_size, option_tree())
    assert filling.unknown == ()
    config = filling.config
    assert (config["train_batch_size"], config["train_micro_batch_size_per_gpu"]) == (64, 2)
    assert config["gradient_accumulation_steps"] == 8 and config["gradient_clipping"] == 0.5
    assert config["bf16"] == {"enabled": True}
    assert config["optimizer"]["params"] == {"lr": 3e-5, "betas": [0.9, 0.999], "eps": 1e-8, "weight_decay": 0.1}
    params = config["scheduler"]["params"]
    assert params == {"warmup_min_lr": 0, "warmup_max_lr": 3e-5, "warmup_num_steps": 50, "total_num_steps": 500}
    zero = config["zero_optimization"]
    assert zero["reduce_bucket_size"] == 64 * 64 and zero["stage3_param_persistence_threshold"] == 640
    assert zero["stage3_prefetch_bucket_size"] == int(0.9 * 64 * 64)
    assert EVERY_AUTO["train_batch_size"] == "auto"  # the file's own data is left alone
    where = {fill.path: fill.where for fill in filling.filled}
    assert where["optimizer.params.lr"] == f"{tmp_path / 'run.sh'}:1" and where["optimizer.params.eps"] == ""


def test_what_the_launch_does_not_say_is_named_and_left_auto() -> None:
    launch = read_launch("run.sh", "deepspeed train.py --deepspeed ds.json --learning_rate $LR --num_train_epochs 3\n")
    filling = trainer_fill(EVERY_AUTO, launch, launch.world_size, option_tree())
    needs = {u.path: (u.need, u.names) for u in filling.unknown}
    assert needs["train_batch_size"] == ("world_size", ())
    assert needs["optimizer.params.lr"] == ("variable", ("learning_rate",))
    assert needs["scheduler.params.total_num_steps"] == ("steps", ())
    assert needs["zero_optimization.reduce_bucket_size"] == ("hidden_size", ())
    assert filling.config["optimizer"]["params"]["lr"] == "auto"
    assert filling.config["train_micro_batch_size_per_gpu"] == 8  # TrainingArguments' default


def test_the_stage_3_sizes_are_filled_for_stage_3_only(tmp_path: Path) -> None:
    launch = read_launch("run.sh", f"python train.py --model_name_or_path {_model(tmp_path)}\n")
    config = {"zero_optimization": {"stage": 2, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto"}}
    filled = trainer_fill(config, launch, 1, option_tree()).config["zero_optimization"]
    assert filled == {"stage": 2, "reduce_bucket_size": 4096, "stage3_prefetch_bucket_size": "auto"}


def test_an_older_transformers_fills_as_it_did(tmp_path: Path) -> None:
    """Before 4.45 the prefetch size was a float; before 5.18 no warm-up meant 0 warm-up steps."""
    launch = read_launch("run.sh", f"python train.py --model_name_or_path {_model(tmp_path)} --max_steps 10\n")
    old = trainer_fill(EVERY_AUTO, launch, 1, option_tree(), "4.44.2").config
    assert old["zero_optimization"]["stage3_prefetch_bucket_size"] == 0.9 * 64 * 64
    assert old["scheduler"]["params"]["warmup_num_steps"] == 0
    new = trainer_fill(EVERY_AUTO, launch, 1, option_tree(), "5.24.0").config
    assert new["scheduler"]["params"]["warmup_num_steps"] == 1


@pytest.mark.parametrize(
    ("argv", "config_args", "command"),
    [
        (["check", "ds.json", "--", "deepspeed", "t.py"], ["check", "ds.json"], ["deepspeed", "t.py"]),
        (["check", "-j", "1", "a.json", "--", "python", "t.py"], ["check", "-j", "1", "a.json"], ["python", "t.py"]),
        (["check", "--", "-odd.json"], ["check", "--", "-odd.json"], None),  # a '--' before a file name
        (["check", "a.json", "--", "b.json"], ["check", "a.json", "--", "b.json"], None),
        (["check", "a.json"], ["check", "a.json"], None),
    ],
)
def test_a_launch_command_follows_two_dashes(
    argv: list[str], config_args: list[str], command: list[str] | None
) -> None:
    assert split_launch_command(argv) == (config_args, command)


def test_check_a_config_with_a_launch_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's example: 512 = 2 × 32 × 8 runs only with the launch that gives those numbers."""
    monkeypatch.chdir(tmp_path)
    config = {"train_batch_size": 512, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": "auto"}
    Path("ds.json").write_text(json.dumps(config, indent=2))
    launch = ["--", "deepspeed", "--num_gpus", "8", "train.py", "--per_device_train_batch_size", "2"]
    assert main(["check", "ds.json", "--format", "json", *launch]) == 1
    found = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    codes = {(f["code"], f["line"]) for f in found}
    assert ("DS589", 2) in codes and ("DS502", 2) in codes  # Trainer, then DeepSpeed, both at train_batch_size
    assert main(["check", "ds.json", *launch, "--gradient_accumulation_steps=32"]) == 0
    capsys.readouterr()
    assert main(["check", "ds.json", "--show-effective", *launch, "--gradient_accumulation_steps", "32"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["config"]["gradient_accumulation_steps"] == 32 and shown["launch"] == "<command>"
    assert main(["check", "ds.json", "--", "python", "train.py", "--learning_rate", "fast"]) == 2
    assert "learning_rate" in capsys.readouterr().err


def test_the_filled_values_are_checked_as_deepspeed_reads_them() -> None:
    """A launch's micro batch of 0 reaches DeepSpeed through "auto"; checked filled, the schema's bounds see it."""
    launch = read_launch("run.sh", "python train.py --per_device_train_batch_size 0\n")
    text = json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 4})
    codes = {f.code for f in check_text(text, "ds.json", CheckSettings("hf", 1, launch=launch)).findings}
    assert codes & {"DS203", "DS501", "DS502", "DS503", "DS504"}
    unfilled = {f.code for f in check_text(text, "ds.json", CheckSettings("hf", 1)).findings}
    assert not unfilled & {"DS203", "DS501", "DS502", "DS503", "DS504"}


def test_ds590_says_what_the_launch_leaves_unknown(tmp_path: Path) -> None:
    launch = read_launch("run.sh", "deepspeed train.py --learning_rate $LR\n")
    text = json.dumps(EVERY_AUTO)
    report = check_text(text, "ds.json", CheckSettings("hf", None, launch=launch))
    needs = sorted(f.args["needs"] for f in report.findings if f.code == "DS613")
    assert needs == ["hidden_size", "steps", "variable", "world_size"]
    assert "DS612" not in {f.code for f in report.findings}  # with the launch given, DS589 and DS613 say it
    model = _model(tmp_path)
    whole = read_launch("run.sh", f"python train.py --model_name_or_path {model} --max_steps 10\n")
    said = check_text(text, "ds.json", CheckSettings("hf", 1, launch=whole)).findings
    assert "DS613" not in {f.code for f in said}  # a launch that says everything leaves nothing unknown
