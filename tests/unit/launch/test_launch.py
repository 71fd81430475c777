"""dsref check LAUNCH: a shell script, a LLaMA-Factory or an axolotl YAML read as their tools read them, the
ds_config they name found, and Trainer's refusal predicted as transformers' own code makes it."""

from __future__ import annotations

import dataclasses
import json
import shlex
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.cli.main import main
from dsref.launch.arguments import FORMER_ARGUMENTS, TRAINING_ARGUMENTS
from dsref.launch.model import LaunchError
from dsref.launch.read import read_launch
from tests import needs

DS_CONFIG = {
    "train_micro_batch_size_per_gpu": 4,
    "gradient_accumulation_steps": "auto",
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "weight_decay": "auto"}},
    "zero_optimization": {"stage": 3},
}


def _project(tmp_path: Path, config: dict[str, Any] = DS_CONFIG) -> Path:
    (tmp_path / "examples" / "deepspeed").mkdir(parents=True)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "examples" / "deepspeed" / "ds_z3.json").write_text(json.dumps(config))
    return tmp_path


SCRIPT = """#!/bin/bash
LR=2e-5
export NUM_GPUS=8
CUDA_VISIBLE_DEVICES=0,1 deepspeed --num_gpus $NUM_GPUS --num_nodes=2 train.py \\
    --deepspeed examples/deepspeed/ds_z3.json \\
    --per_device_train_batch_size 4 \\
    --learning_rate ${LR} \\
    --bf16 \\
    --max_grad_norm=0.5 \\
    --fp16 false \\
    --output_dir out --model_name_or_path meta-llama/Llama-2-7b-hf --lora_rank 8
"""


def test_a_shell_script_is_read_as_the_shell_and_the_launcher_read_it(tmp_path: Path) -> None:
    root = _project(tmp_path)
    path = root / "scripts" / "train.sh"
    path.write_text(SCRIPT)
    launch = read_launch(str(path), SCRIPT)
    assert launch.form == "shell" and launch.world_size == 16
    assert launch.ds_config is not None and launch.ds_config.line == 5
    assert launch.ds_config_path == str(root / "examples" / "deepspeed" / "ds_z3.json")  # from the repository root
    given = {name: g.value for name, g in launch.arguments.items()}
    assert given == {
        "per_device_train_batch_size": 4,
        "learning_rate": 2e-5,
        "bf16": True,
        "max_grad_norm": 0.5,
        "fp16": False,
    }
    assert launch.arguments["learning_rate"].line == 7 and launch.unknown == ()


@pytest.mark.parametrize(
    ("line", "world"),
    [
        ("torchrun --nproc_per_node 4 --nnodes 2 train.py --deepspeed ds.json", 8),
        ("python -m torch.distributed.run --nproc-per-node=2 train.py --deepspeed ds.json", 2),
        ("accelerate launch --num_processes 6 --mixed_precision bf16 train.py --deepspeed ds.json", 6),
        ("python train.py --deepspeed ds.json", 1),
        ("deepspeed train.py --deepspeed ds.json", None),  # every GPU of the machine: not written anywhere
    ],
)
def test_each_launcher_gives_its_world_size(line: str, world: int | None) -> None:
    launch = read_launch("run.sh", line + " --per_device_train_batch_size 2\n")
    assert launch.world_size == world and launch.arguments["per_device_train_batch_size"].value == 2


def test_a_value_from_an_unknown_variable_is_named_not_guessed() -> None:
    launch = read_launch("run.sh", "deepspeed train.py --deepspeed ds.json --learning_rate $LR --bf16 ${BF:-true}\n")
    assert launch.unknown == ("learning_rate",) and launch.arguments["bf16"].value is True


@pytest.mark.slow
def test_the_training_arguments_are_converted_as_hf_argument_parser_converts_them() -> None:
    transformers = needs.module("transformers")
    script_arguments = (
        "--per_device_train_batch_size=4 --learning_rate 2e-5 --bf16 --fp16 False --max_grad_norm 0.5 "
        "--adam_beta1 0.8 --warmup_steps 10 --max_steps=100 --gradient_accumulation_steps 2 --weight_decay 0.1"
    )
    launch = read_launch("run.sh", f"python train.py --deepspeed ds.json {script_arguments}\n")
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    argv = ["--output_dir", "out", "--use_cpu", *shlex.split(script_arguments)]
    (args,) = parser.parse_args_into_dataclasses(args=argv)
    for name, given in launch.arguments.items():
        assert getattr(args, name) == given.value and type(getattr(args, name)) is type(given.value), name


@pytest.mark.slow
def test_the_arguments_dsref_knows_are_transformers_own() -> None:
    transformers = needs.module("transformers")
    fields = {f.name: f for f in dataclasses.fields(transformers.TrainingArguments)}
    for name, (kind, default) in TRAINING_ARGUMENTS.items():
        if name in FORMER_ARGUMENTS:  # older releases' (tests/unit/launch/test_hf_records.py holds them)
            continue
        assert fields[name].default == default, name
        assert fields[name].type in (kind, kind.__name__), name


def test_llamafactory_and_axolotl_yaml(tmp_path: Path) -> None:
    root = _project(tmp_path)
    factory = root / "llama3_lora_sft.yaml"
    factory.write_text(
        "model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nstage: sft\n"
        "deepspeed: examples/deepspeed/ds_z3.json\nper_device_train_batch_size: 2\n"
        "gradient_accumulation_steps: 8\nlearning_rate: 1.0e-4\nbf16: true\ncutoff_len: 2048\n"
    )
    launch = read_launch(str(factory), factory.read_text())
    assert launch.form == "llamafactory" and launch.ds_config_path is not None
    assert {n: g.value for n, g in launch.arguments.items()} == {
        "per_device_train_batch_size": 2,
        "gradient_accumulation_steps": 8,
        "learning_rate": 1e-4,
        "bf16": True,
    }
    assert launch.arguments["learning_rate"].line == 6
    axolotl = root / "qlora.yml"
    axolotl.write_text(
        "base_model: NousResearch/Llama-2-7b-hf\nsequence_len: 4096\nmicro_batch_size: 2\nnum_epochs: 4\n"
        "deepspeed: examples/deepspeed/ds_z3.json\nbf16: auto\nlearning_rate: 0.0002\n"
    )
    launch = read_launch(str(axolotl), axolotl.read_text())
    assert launch.form == "axolotl" and launch.unknown == ("bf16",)
    assert {n: g.value for n, g in launch.arguments.items()} == {
        "per_device_train_batch_size": 2,
        "num_train_epochs": 4.0,
        "learning_rate": 2e-4,
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\n", "accelerate_not_deepspeed"),
        ("name: my-service\nreplicas: 3\n", "unknown_yaml"),
        ("key: [unclosed\n", "bad_yaml"),
        # deeper than Python's recursion limit lets PyYAML compose or build
        ("stage: sft\nkey: " + "[" * 5000 + "]" * 5000 + "\n", "yaml_too_deep"),
        ("distributed_type: DEEPSPEED\ndeepspeed_config: " + "[" * 5000 + "]" * 5000 + "\n", "yaml_too_deep"),
        ("stage: sft\nkey: " + "[" * 900 + "]" * 900 + "\n", "yaml_too_deep"),
    ],
)
def test_a_yaml_dsref_does_not_read_says_which_forms_it_reads(text: str, reason: str) -> None:
    with pytest.raises(LaunchError) as caught:
        read_launch("x.yaml", text)
    assert caught.value.reason == reason


def test_a_missing_ds_config_is_one_line_with_the_path_as_written_and_where_dsref_looked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "train.sh"
    path.write_text("deepspeed train.py \\\n  --deepspeed configs/nowhere.json --bf16\n")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ":2:" in err[0] and "configs/nowhere.json" in err[0] and "looked for" in err[0]
    assert main(["check", str(path), "--lang", "zh"]) == 2
    assert "不存在" in capsys.readouterr().err


def test_check_launch_names_each_mismatch_at_the_ds_config_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _project(tmp_path)
    path = root / "scripts" / "train.sh"
    path.write_text(SCRIPT.replace("${LR}", "1e-5"))
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "DS589" in out and "learning_rate=1e-05" in out and "train.sh:7" in out
    path.write_text(SCRIPT)
    assert main(["check", str(path)]) == 0  # the launch gives what the file writes
    assert "DS589" not in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize(
    "script_arguments",
    [
        "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16",  # matches
        "--per_device_train_batch_size 2 --learning_rate 2e-5 --bf16",
        "--per_device_train_batch_size 4 --learning_rate 1e-4",
        "--per_device_train_batch_size=4 --learning_rate=2e-5 --bf16 False --gradient_accumulation_steps 3",
    ],
)
def test_dsref_predicts_the_mismatches_transformers_reports(
    script_arguments: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The options DS589 names are the ones HfTrainerDeepSpeedConfig lists, for one process on the CPU."""
    root = _project(tmp_path)
    launch = root / "scripts" / "train.sh"
    launch.write_text(f"python train.py --deepspeed examples/deepspeed/ds_z3.json {script_arguments}\n")
    main(["check", str(launch), "--format", "json"])  # before DeepSpeed is imported: its logger prints
    report = json.loads(capsys.readouterr().out)
    said = sorted(f["option"] for file in report["files"] for f in file["findings"] if f["code"] == "DS589")

    needs.module("torch")
    needs.module("accelerate")
    needs.module("deepspeed")
    transformers = needs.module("transformers")
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    argv = ["--output_dir", str(tmp_path / "out"), "--use_cpu", *shlex.split(script_arguments)]
    (args,) = parser.parse_args_into_dataclasses(args=argv)
    filling = HfTrainerDeepSpeedConfig(json.loads(json.dumps(DS_CONFIG)))
    filling.trainer_config_process(args)
    try:
        filling.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=16)), 10)
        refused: list[str] = []
    except ValueError as exc:
        refused = sorted(line.split()[2].split("=")[0] for line in str(exc).splitlines() if line.startswith("- ds "))
    assert said == refused


def test_a_yaml_launch_without_pyyaml_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "yaml", None)  # as if PyYAML were not installed: the launch extra's
    with pytest.raises(LaunchError) as caught:
        read_launch("x.yaml", "stage: sft\n")
    assert caught.value.reason == "yaml_missing"
    assert read_launch("run.sh", "python train.py --deepspeed ds.json\n").form == "shell"  # shell needs nothing


@pytest.mark.parametrize(
    ("flags", "world"),
    [
        ("--hostfile hostfile", 20),  # every host's slots
        ("-H hostfile --num_nodes 2", 16),  # the first two hosts
        ("--hostfile=hostfile --num_gpus 2", 6),  # two GPUs on each host
        ("--hostfile missing --num_gpus 4", 4),  # no hostfile: one node, as the launcher runs without one
    ],
)
def test_a_hostfile_gives_the_world_size_as_the_deepspeed_launcher_reads_it(
    flags: str, world: int, tmp_path: Path
) -> None:
    (tmp_path / "hostfile").write_text("# the cluster\nworker-0 slots=8\nworker-1 slots=8\n\nworker-2 slots=4\n")
    launch = read_launch(str(tmp_path / "run.sh"), f"deepspeed {flags} train.py --deepspeed ds.json\n")
    assert launch.world_size == world


def test_a_hostfile_the_launcher_refuses_gives_no_world_size(tmp_path: Path) -> None:
    (tmp_path / "hostfile").write_text("worker-0 slots=8\nworker-0 slots=4\n")  # a host twice
    launch = read_launch(str(tmp_path / "run.sh"), "deepspeed --hostfile hostfile train.py --deepspeed ds.json\n")
    assert launch.world_size is None
