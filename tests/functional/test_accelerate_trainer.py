"""``accelerate launch --config_file acc.yaml train.py …`` read by dsref against the installed transformers and
Accelerate: the environment ``accelerate launch`` hands the training process (accelerate/utils/launch.py,
``prepare_deepspeed_cmd_env``), ``TrainingArguments.__post_init__``'s ``ACCELERATE_USE_DEEPSPEED`` branch (a
``DeepSpeedPlugin`` from that environment, its ``set_mixed_precision``), then ``propagate_args_to_deepspeed`` and
``HfTrainerDeepSpeedConfig``'s two stages. dsref's filled config and its DS589 list equal theirs, for a config built
inline and for a ``deepspeed_config_file``, with each mixed precision.

One process on the CPU, as transformers can be run here (``num_processes: 1``)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.check.pipeline import check_built, check_file
from dsref.check.settings import CheckSettings
from dsref.launch.accelerate import as_the_plugin_reads
from dsref.launch.read import read_launch
from dsref.launch.trainer import trainer_fill
from dsref.tree.options import option_tree
from tests import needs
from tests.functional.test_accelerate_config import ENVIRONMENT

FILE = "ds.json"
"""A case whose section is this names the ds_config file written beside it."""

CASES: list[tuple[dict[str, Any] | str, str, str, dict[str, Any] | None]] = [
    # the LLaMA-Factory report: 4 steps in the Accelerate config, 2 on the command line (and bf16 without --bf16)
    ({"gradient_accumulation_steps": 4, "zero_stage": 2}, "bf16", "--per_device_train_batch_size 2 "
     "--gradient_accumulation_steps 2", None),
    ({"gradient_accumulation_steps": 4, "zero_stage": 2}, "bf16", "--per_device_train_batch_size 2 "
     "--gradient_accumulation_steps 4 --bf16", None),
    ({"zero_stage": 3, "gradient_clipping": 0.5, "offload_optimizer_device": "cpu"}, "fp16", "--fp16", None),
    ({"zero_stage": 3, "gradient_clipping": 0.5}, "fp16", "--fp16 --max_grad_norm 0.5", None),
    ({"zero_stage": 2}, "no", "--bf16 --learning_rate 3e-5", None),
    ({"zero_stage": 1}, "no", "--per_device_train_batch_size 3", None),
    ({"gradient_accumulation_steps": 2}, "fp16", "--bf16 --gradient_accumulation_steps 2", None),
    ({"gradient_accumulation_steps": 2}, "fp16", "--gradient_accumulation_steps 2", None),
    (FILE, "no", "--gradient_accumulation_steps 2 --bf16", {
        "train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": "auto"}, "bf16": {"enabled": "auto"},
    }),
    (FILE, "no", "--fp16 --gradient_accumulation_steps 3", {
        "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto", "fp16": {"enabled": "auto"},
        "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "auto"}},
    }),
    (FILE, "no", "--per_device_train_batch_size 2", {
        "train_batch_size": 2, "gradient_accumulation_steps": "auto", "fp16": {"enabled": True},
        "zero_optimization": {"stage": 1},
    }),
    (FILE, "no", "", {
        "train_batch_size": "auto", "gradient_clipping": "auto", "bf16": {"enabled": "auto"},
        "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": 0.01}},
        "zero_optimization": {"stage": 3, "stage3_gather_16bit_weights_on_model_save": "auto"},
    }),
]  # fmt: skip


def _accelerate_config(section: dict[str, Any] | str, precision: str) -> str:
    lines = ["compute_environment: LOCAL_MACHINE", "deepspeed_config:"]
    if section == FILE:
        lines.append(f"  deepspeed_config_file: {FILE}")
    else:
        assert isinstance(section, dict)
        lines += [f"  {key}: {json.dumps(value)}" for key, value in section.items()] or ["  {}"]
    lines += ["distributed_type: DEEPSPEED", "num_machines: 1", "num_processes: 1"]
    if section != FILE:  # beside a file, Accelerate refuses it (dsref says so)
        lines.append(f"mixed_precision: {precision}")
    return "\n".join(lines) + "\n"


def _theirs(
    section: dict[str, Any] | str, precision: str, argv: list[str], out: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[dict[str, Any], list[str]]:
    """What the training process does: its environment as accelerate launch sets it, TrainingArguments, then
    Trainer's propagation and both stages; the config it hands DeepSpeed and the values it refuses."""
    needs.module("torch")
    needs.module("accelerate")
    needs.module("deepspeed")
    transformers = needs.module("transformers")
    from transformers.integrations.deepspeed import propagate_args_to_deepspeed

    names = [env for env, _ in ENVIRONMENT.values()]
    names += ["ACCELERATE_DEEPSPEED_CONFIG_FILE", "ACCELERATE_CONFIG_DS_FIELDS", "ACCELERATE_MIXED_PRECISION"]
    for name in names:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ACCELERATE_USE_DEEPSPEED", "true")
    monkeypatch.setenv("ACCELERATE_MIXED_PRECISION", precision)
    if section == FILE:
        monkeypatch.setenv("ACCELERATE_DEEPSPEED_CONFIG_FILE", FILE)
        monkeypatch.setenv("ACCELERATE_CONFIG_DS_FIELDS", "deepspeed_config_file")
    else:
        assert isinstance(section, dict)
        for key, value in section.items():
            env, written = ENVIRONMENT[key]
            monkeypatch.setenv(env, written(value))
        monkeypatch.setenv("ACCELERATE_CONFIG_DS_FIELDS", ",".join([*section, "mixed_precision"]))
    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    (args,) = parser.parse_args_into_dataclasses(args=["--output_dir", str(out), "--use_cpu", *argv])
    plugin = args.deepspeed_plugin
    assert plugin is not None
    propagate_args_to_deepspeed(SimpleNamespace(state=SimpleNamespace(deepspeed_plugin=plugin)), args)
    refused: list[str] = []
    try:
        plugin.hf_ds_config.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=64)), 10)
    except ValueError as exc:
        refused = [line.split()[2].split("=")[0] for line in str(exc).splitlines() if line.startswith("- ds ")]
    config = dict(plugin.deepspeed_config)
    config.pop("steps_per_print")  # float("inf"): Accelerate's way to keep DeepSpeed quiet
    return config, sorted(refused)


LAUNCHER_FLAGS = [
    # accelerate launch's own --mixed_precision wins over the config's, and the script's --bf16 over both
    ("--mixed_precision fp16", {"zero_stage": 2}, "bf16", "--per_device_train_batch_size 2", None),
    ("--mixed_precision fp16", {"zero_stage": 2}, "bf16", "--fp16", None),
    ("--mixed_precision no", {"zero_stage": 2}, "bf16", "--bf16", None),
]


@pytest.mark.slow
@pytest.mark.parametrize(("section", "precision", "arguments", "file"), CASES)
def test_dsref_fills_and_refuses_as_trainer_under_accelerate(
    section: dict[str, Any] | str,
    precision: str,
    arguments: str,
    file: dict[str, Any] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compare("", section, precision, arguments, file, tmp_path, monkeypatch)


@pytest.mark.slow
@pytest.mark.parametrize(("flags", "section", "precision", "arguments", "file"), LAUNCHER_FLAGS)
def test_accelerate_launchs_own_mixed_precision_is_the_one_trainer_sees(
    flags: str,
    section: dict[str, Any] | str,
    precision: str,
    arguments: str,
    file: dict[str, Any] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _compare(flags, section, precision, arguments, file, tmp_path, monkeypatch)


def _compare(
    flags: str,
    section: dict[str, Any] | str,
    precision: str,
    arguments: str,
    file: dict[str, Any] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("acc.yaml").write_text(_accelerate_config(section, precision))
    if file is not None:
        Path(FILE).write_text(json.dumps(file, indent=2))
    Path("run.sh").write_text(f"accelerate launch --config_file acc.yaml {flags} train.py {arguments}\n")
    launch = read_launch("run.sh", Path("run.sh").read_text())
    assert launch.built is not None and launch.world_size == 1
    settings = CheckSettings(None).launched_by(launch)
    if file is None:
        assert launch.built.config is not None
        handed = launch.built.config
        report = check_built(launch.built.text, launch.built.path, launch.built, settings)
    else:
        assert launch.ds_config_path is not None
        handed = as_the_plugin_reads(file, launch.built.mixed_precision)
        report = check_file(launch.ds_config_path, settings)
    filled = trainer_fill(handed, launch, launch.world_size, option_tree())
    mismatches = sorted(f.option or "" for f in report.findings if f.code == "DS589")

    launched_with = flags.split()[1] if flags.startswith("--mixed_precision") else precision  # prepare_..._env
    theirs, refused = _theirs(section, launched_with, arguments.split(), tmp_path / "out", monkeypatch)
    assert filled.config == theirs
    print("REFUSED", refused, mismatches)
    assert mismatches == refused


def test_the_llamafactory_report_is_predicted_at_the_yaml_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast half of the first case above: the line of the Accelerate config, and the flag it differs from."""
    monkeypatch.chdir(tmp_path)
    Path("acc.yaml").write_text(_accelerate_config({"gradient_accumulation_steps": 4, "zero_stage": 2}, "bf16"))
    Path("run.sh").write_text(
        "accelerate launch --config_file acc.yaml src/train.py \\\n"
        "    --per_device_train_batch_size 2 \\\n    --gradient_accumulation_steps 2 --bf16\n"
    )
    launch = read_launch("run.sh", Path("run.sh").read_text())
    assert launch.built is not None
    report = check_built(launch.built.text, "acc.yaml", launch.built, CheckSettings(None).launched_by(launch))
    assert report.loaded is not None
    [mismatch] = [f for f in report.findings if f.code == "DS589"]
    assert report.loaded.locate(mismatch.location).line == 3  # "  gradient_accumulation_steps: 4"
    assert mismatch.args["where"] == "run.sh:3" and mismatch.args["given"] == "2"
