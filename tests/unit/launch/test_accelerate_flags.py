"""``accelerate launch``'s own DeepSpeed flags (``--use_deepspeed --zero_stage 3 …``): each read into the key of the
Accelerate config it sets, the plugin's ds_config built from them as from an Accelerate config, the flags over a
config file's keys, findings at the flags; and Accelerate's default config read where the command names none and
gives no DeepSpeed flag. What the real libraries do with the same is in tests/functional/test_accelerate_flags.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsref.launch.accelerate import as_the_plugin_reads
from dsref.launch.opened import open_launch
from dsref.launch.read import default_accelerate_config, read_launch
from tests.cli import run_dsref

RUN = "accelerate launch --use_deepspeed {flags} --num_processes 8 train.py --per_device_train_batch_size 2 {args}\n"


@pytest.fixture(autouse=True)
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))  # no default config of this machine's
    return tmp_path


def _built(flags: str, args: str = "") -> dict[str, Any]:
    launch = read_launch("run.sh", RUN.format(flags=flags, args=args))
    assert launch.built is not None and launch.built.config is not None
    return launch.built.config


@pytest.mark.parametrize(
    ("flags", "location", "value"),
    [
        ("", ("zero_optimization", "stage"), 2),
        ("--zero_stage 3", ("zero_optimization", "stage"), 3),
        ("--zero_stage=1", ("zero_optimization", "stage"), 1),
        ("--offload_optimizer_device CPU", ("zero_optimization", "offload_optimizer", "device"), "cpu"),
        (
            "--offload_param_device nvme",
            ("zero_optimization", "offload_param"),
            {"device": "nvme", "nvme_path": "none"},
        ),
        ("", ("gradient_accumulation_steps",), "auto"),
        ("--gradient_accumulation_steps 4", ("gradient_accumulation_steps",), 4),
        ("--gradient_clipping 0.5", ("gradient_clipping",), 0.5),
        ("", ("gradient_clipping",), "auto"),
        ("--zero3_save_16bit_model true", ("zero_optimization", "stage3_gather_16bit_weights_on_model_save"), True),
        ("--zero3_save_16bit_model False", ("zero_optimization", "stage3_gather_16bit_weights_on_model_save"), False),
        ("--mixed_precision bf16", ("bf16",), {"enabled": True}),
        ("--mixed_precision fp16", ("fp16",), {"enabled": True, "auto_cast": True}),
        ("--mixed_precision fp16", ("bf16",), {"enabled": False}),
    ],
)
def test_each_flag_sets_what_the_plugin_builds(flags: str, location: tuple[str, ...], value: Any) -> None:
    node: Any = _built(flags)
    for key in location:
        node = node[key]
    assert node == value


def test_flags_that_change_nothing_in_the_config_are_read_and_skipped() -> None:
    config = _built("--zero3_init_flag true --deepspeed_multinode_launcher standard --deepspeed_hostfile hosts")
    assert config["zero_optimization"]["stage"] == 2
    launch = read_launch("run.sh", RUN.format(flags="--zero3_init_flag true", args=""))
    assert launch.accelerate_flags["zero3_init_flag"].value == "true"
    assert launch.arguments["per_device_train_batch_size"].value == 2  # train.py found past the flag's value


def test_the_training_arguments_precision_wins_over_the_flag() -> None:
    assert _built("--mixed_precision fp16", "--bf16")["bf16"] == {"enabled": True}


def test_the_world_size_is_num_processes() -> None:
    launch = read_launch("run.sh", RUN.format(flags="--num_machines 2", args=""))
    assert launch.world_size == 8 and launch.nodes is not None and launch.nodes.value == 2


def test_a_mismatch_is_at_the_flag_naming_the_scripts_argument() -> None:
    Path("run.sh").write_text(
        "accelerate launch --use_deepspeed --zero_stage 3 --gradient_accumulation_steps 4 \\\n"
        "  --num_processes 8 train.py --per_device_train_batch_size 2 --gradient_accumulation_steps 2 --bf16\n"
    )
    done = run_dsref("check", "run.sh")
    assert done.returncode == 1
    assert "run.sh:1:50: error[DS589]" in done.stdout
    assert "gradient_accumulation_steps=2 (run.sh:2)" in done.stdout


def test_a_wrong_device_is_at_its_flag() -> None:
    Path("run.sh").write_text("accelerate launch --use_deepspeed --offload_param_device gpu --num_processes 2 t.py\n")
    done = run_dsref("check", "run.sh")
    assert done.returncode == 1
    assert "run.sh:1:58: error[DS204]" in done.stdout and "gpu" in done.stdout


def test_a_file_named_by_the_flag_is_resolved_from_the_script_and_filled_by_the_flags(project: Path) -> None:
    (project / "ds.json").write_text(json.dumps({"zero_optimization": {"stage": "auto"}, "bf16": {"enabled": "auto"}}))
    text = RUN.format(flags="--deepspeed_config_file ds.json --zero_stage 3 --gradient_accumulation_steps 4", args="")
    launch = read_launch("scripts/run.sh", text)
    assert launch.ds_config_path == str(project / "ds.json") and launch.ds_config is not None
    assert launch.ds_config.file == "" and launch.ds_config.line == 1
    assert launch.built is not None and launch.built.config is None and launch.built.refused == ()
    handed = as_the_plugin_reads({"zero_optimization": {"stage": "auto"}}, "no", launch.built.plugin_values)
    assert handed["zero_optimization"]["stage"] == 3
    assert handed["gradient_accumulation_steps"] == 1  # the file writes none: the plugin writes 1, no "auto" filled


def test_the_flags_win_over_the_config_files_keys(project: Path) -> None:
    (project / "acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stage: 2\n  gradient_accumulation_steps: 4\n"
        "num_processes: 4\nmixed_precision: fp16\n"
    )
    launch = read_launch("run.sh", "accelerate launch --config_file acc.yaml --zero_stage 3 train.py\n")
    assert launch.built is not None and launch.built.config is not None
    assert launch.built.config["zero_optimization"]["stage"] == 3  # the flag
    assert launch.built.config["gradient_accumulation_steps"] == 4  # the config's, no flag
    assert launch.built.config["fp16"]["enabled"] is True and launch.world_size == 4
    # the places point into the config's text: the flag's value has none there, the config's keys keep theirs
    assert ("zero_optimization", "stage") not in launch.built.places
    assert ("gradient_accumulation_steps",) in launch.built.places


def test_use_deepspeed_runs_deepspeed_whatever_the_configs_distributed_type(project: Path) -> None:
    (project / "acc.yaml").write_text("distributed_type: MULTI_GPU\nnum_processes: 2\n")
    launch = read_launch("run.sh", "accelerate launch --config_file acc.yaml --use_deepspeed train.py\n")
    assert launch.built is not None and launch.built.config is not None and launch.world_size == 2
    opened = open_launch("run.sh", "accelerate launch --config_file acc.yaml train.py\n")
    assert [s.reason for s in opened.said] == ["accelerate_not_deepspeed"]


def test_flags_beside_a_file_named_in_the_config_are_not_refused_but_its_keys_are(project: Path) -> None:
    (project / "ds.json").write_text(json.dumps({"zero_optimization": {"stage": 2}}))
    (project / "acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n  zero_stage: 2\n"
    )
    opened = open_launch("run.sh", "accelerate launch --config_file acc.yaml --gradient_clipping 1.0 train.py\n")
    assert [(s.reason, s.args.get("key"), s.line) for s in opened.said] == [("accelerate_refused", "zero_stage", 4)]


def test_without_flags_the_default_config_is_read_and_said(project: Path) -> None:
    text = "accelerate launch train.py --per_device_train_batch_size 2 --gradient_accumulation_steps 2\n"
    assert [s.reason for s in open_launch("run.sh", text).said] == ["no_ds_config"]  # no default config: as before
    default = Path(default_accelerate_config())
    assert default == project / "hf" / "accelerate" / "default_config.yaml"
    default.parent.mkdir(parents=True)
    default.write_text("distributed_type: DEEPSPEED\ndeepspeed_config:\n  gradient_accumulation_steps: 4\n")
    opened = open_launch("run.sh", text)
    assert [(s.reason, s.severity, s.line) for s in opened.said] == [("accelerate_default_config", "info", 1)]
    assert opened.said[0].args["path"] == str(default)
    assert "默认配置" in opened.said[0].text("zh") and str(default) in opened.said[0].text("en")
    assert opened.built is not None and opened.built.path == str(default)
    # a DeepSpeed flag on the command line: the default config is left alone
    assert read_launch("run.sh", RUN.format(flags="--zero_stage 3", args="")).built.path == "run.sh"  # type: ignore[union-attr]


def test_the_default_config_follows_hf_home_then_xdg_cache_home(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", "/c")
    assert default_accelerate_config() == "/c/huggingface/accelerate/default_config.yaml"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_accelerate_config() == str(Path("~/.cache/huggingface/accelerate/default_config.yaml").expanduser())


def test_deepspeed_flags_without_use_deepspeed_are_said_to_be_ignored() -> None:
    text = "accelerate launch --num_processes 2 \\\n  --zero_stage 3 --gradient_clipping 1.0 train.py --bf16\n"
    opened = open_launch("run.sh", text)
    assert [(s.reason, s.line, s.stops) for s in opened.said] == [("accelerate_flags_alone", 2, True)]
    assert "--zero_stage --gradient_clipping" in opened.said[0].text("en")
    assert "--use_deepspeed" in opened.said[0].text("zh")
    # with the script's --deepspeed, Trainer reads that file: as before
    launch = read_launch("run.sh", "accelerate launch --zero_stage 3 train.py --deepspeed ds.json\n")
    assert launch.built is None and launch.ds_config is not None


def test_a_flag_set_through_an_unknown_variable_is_named() -> None:
    text = "accelerate launch --use_deepspeed --zero_stage $STAGE --num_processes 2 train.py --bf16\n"
    opened = open_launch("run.sh", text)
    assert [(s.reason, s.args, s.severity) for s in opened.said] == [
        ("unknown_value", {"names": "accelerate launch --zero_stage"}, "info")
    ]
    assert opened.launch is not None and opened.launch.arguments["bf16"].value is True


def test_a_command_after_dashes_says_it_read_the_default_config(project: Path) -> None:
    (project / "ds.json").write_text(json.dumps({"train_micro_batch_size_per_gpu": 2}))
    default = Path(default_accelerate_config())
    default.parent.mkdir(parents=True)
    default.write_text("distributed_type: DEEPSPEED\nnum_processes: 4\n")
    done = run_dsref("check", "ds.json", "--", "accelerate", "launch", "train.py")
    said = "accelerate launch names no config here, so it reads its default config, as dsref does"
    assert f"dsref: <command>: {said}: {default}" in done.stderr
