"""``accelerate launch --config_file acc.yaml train.py …``: the command read with the Accelerate config it names
(dsref/launch/read.py, ``with_accelerate_config``), checked through Trainer's comparison; an Accelerate config on its
own lists the flags the command must give (DS612). What the real libraries do with the same is in
tests/functional/test_accelerate_trainer.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsref.check.pipeline import check_built, check_file
from dsref.check.report.draw import rendered
from dsref.check.settings import CheckSettings
from dsref.launch.read import read_launch
from tests.cli import run_dsref

INLINE = (
    "compute_environment: LOCAL_MACHINE\n"
    "deepspeed_config:\n"
    "  gradient_accumulation_steps: 4\n"
    "  zero_stage: 2\n"
    "distributed_type: DEEPSPEED\n"
    "mixed_precision: bf16\n"
    "num_machines: 1\n"
    "num_processes: 8\n"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "acc.yaml").write_text(INLINE)
    return tmp_path


def test_the_command_reads_the_accelerate_config_it_names(project: Path) -> None:
    launch = read_launch("run.sh", "accelerate launch --config_file configs/acc.yaml train.py --fp16\n")
    assert launch.built is not None and launch.built.config is not None
    assert launch.built.path == str(project / "configs" / "acc.yaml")
    assert launch.world_size == 8 and launch.processes is not None and launch.processes.file == launch.built.path
    assert launch.built.mixed_precision == "fp16"  # --fp16 of the training arguments before the config's bf16
    assert launch.built.config["fp16"] == {"enabled": True, "auto_cast": True}
    assert launch.built.config["bf16"] == {"enabled": False}
    flags = "accelerate launch --config_file configs/acc.yaml --num_processes 2 --mixed_precision no train.py\n"
    launch = read_launch("run.sh", flags)
    assert launch.world_size == 2 and launch.built is not None and launch.built.mixed_precision == "no"


def test_a_mismatch_is_at_the_yaml_line_naming_the_commands_flag(project: Path) -> None:
    Path("run.sh").write_text(
        "accelerate launch --config_file configs/acc.yaml train.py \\\n  --gradient_accumulation_steps 2 --bf16\n"
    )
    done = run_dsref("check", "run.sh")
    assert done.returncode == 1
    assert "configs/acc.yaml:3:3: error[DS589]" in done.stdout
    assert "gradient_accumulation_steps=2 (run.sh:2)" in done.stdout
    assert "DS612" not in done.stdout  # the command is given: DS589 says where it differs
    zh = run_dsref("check", "run.sh", "--lang", "zh").stdout
    assert "configs/acc.yaml:3:3:" in zh and "Trainer 会拒绝启动" in zh


def test_the_world_size_from_the_accelerate_config_points_at_num_processes(project: Path) -> None:
    Path("configs/acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\nnum_processes: 8\n"
    )
    config = {"train_batch_size": "auto", "gradient_accumulation_steps": 32, "zero_optimization": {"stage": 1}}
    Path("configs/ds.json").write_text(json.dumps(config, indent=2))
    launch = read_launch("run.sh", "accelerate launch --config_file configs/acc.yaml train.py\n")
    assert launch.ds_config_path == str(project / "configs" / "ds.json")
    report = check_file(launch.ds_config_path, CheckSettings(None).launched_by(launch))
    shown = rendered(report, "en")
    batch = next(r for r in shown if r.code == "DS502")  # 8 × 8 × 1 = 64 filled, 32 steps: a micro batch of 0
    assert (batch.path, batch.line, batch.column) == ("configs/acc.yaml", 4, 1)
    assert batch.source == "num_processes: 8"
    assert "DS589" in {r.code for r in shown}  # 32 steps against the default 1


def test_the_plugin_writes_one_accumulation_step_into_a_file_that_writes_none(project: Path) -> None:
    Path("configs/acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\nnum_processes: 1\n"
    )
    Path("configs/ds.json").write_text(json.dumps({"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {}}))
    command = "accelerate launch --config_file configs/acc.yaml train.py --gradient_accumulation_steps 2\n"
    launch = read_launch("run.sh", command)
    assert launch.ds_config_path is not None
    report = check_file(launch.ds_config_path, CheckSettings(None).launched_by(launch))
    [mismatch] = [f for f in report.findings if f.code == "DS589"]
    assert mismatch.option == "gradient_accumulation_steps" and mismatch.args["value"] == "1"


def test_a_refused_key_is_said_at_the_accelerate_configs_line(project: Path) -> None:
    Path("configs/acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n  zero_stage: 3\n"
    )
    Path("configs/ds.json").write_text(json.dumps({"train_micro_batch_size_per_gpu": 2, "zero_optimization": {}}))
    Path("run.sh").write_text("accelerate launch --config_file configs/acc.yaml train.py\n")
    done = run_dsref("check", "run.sh")
    assert "dsref: configs/acc.yaml:4:" in done.stderr and "zero_stage" in done.stderr


def test_a_missing_accelerate_config_is_one_line_at_config_file(project: Path) -> None:
    Path("run.sh").write_text("cd /x\naccelerate launch --config_file nowhere.yaml train.py --bf16\n")
    done = run_dsref("check", "run.sh")
    assert done.returncode == 2
    assert "dsref: run.sh:2: the Accelerate config named here is not there: nowhere.yaml" in done.stderr
    zh = run_dsref("check", "run.sh", "--lang", "zh")
    assert "Accelerate 配置不存在" in zh.stderr


def test_a_script_given_deepspeed_keeps_it_and_takes_the_world_size(project: Path) -> None:
    Path("configs/acc.yaml").write_text("distributed_type: MULTI_GPU\nnum_processes: 4\n")
    Path("ds.json").write_text("{}")
    launch = read_launch("run.sh", "accelerate launch --config_file configs/acc.yaml t.py --deepspeed ds.json\n")
    assert launch.built is None and launch.world_size == 4
    assert launch.ds_config_path == str(project / "ds.json")


def test_an_accelerate_config_alone_lists_the_flags_the_command_must_give() -> None:
    launch = read_launch("acc.yaml", INLINE)
    assert launch.built is not None
    report = check_built(INLINE, "acc.yaml", launch.built, CheckSettings(None).launched_by(launch))
    [contract] = [f for f in report.findings if f.code == "DS612"]
    assert "--gradient_accumulation_steps 4" in contract.args["flags"] and "--bf16" in contract.args["flags"]
    assert "DS589" not in {f.code for f in report.findings}  # no command: nothing to compare with


def test_the_language_server_shows_the_accelerate_configs_findings_at_config_file(project: Path) -> None:
    from dsref.server.analysis import analyse_launch
    from dsref.server.settings import Settings

    text = "accelerate launch --config_file configs/acc.yaml train.py \\\n  --gradient_accumulation_steps 2 --bf16\n"
    Path("run.sh").write_text(text)
    analysis = analyse_launch((project / "run.sh").as_uri(), text, Settings(), "en")
    assert analysis is not None
    [mismatch] = [d for d in analysis.diagnostics if d.code == "DS589"]
    assert (mismatch.range.start.line, mismatch.range.start.character) == (0, 32)  # the config's name
    assert mismatch.message.startswith("configs/acc.yaml:3:3: ")
    assert mismatch.related_information is not None
    place = mismatch.related_information[0].location
    assert place.uri == (project / "configs" / "acc.yaml").as_uri() and place.range.start.line == 2
