"""`dsref check` with a launch, against the real tools: the config dsref fills equals the one transformers'
HfTrainerDeepSpeedConfig fills from the same arguments (both of its stages), the mismatches DS589 names are the ones
it refuses, and DeepSpeed's DeepSpeedConfig accepts the filled config exactly where dsref finds no error.

One process on the CPU (the `python` launcher), as transformers can be run here: its ``args.world_size`` is 1."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.check.findings import Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.launch.read import read_launch
from dsref.launch.trainer import trainer_fill
from dsref.tree.options import option_tree
from tests import needs
from tests.trainer_filling import EVERY_AUTO, tiny_model, transformers_fills

PINNED = {  # the values a real config writes beside "auto" (the counts: bf16, micro batch, lr, ...)
    **EVERY_AUTO,
    "train_micro_batch_size_per_gpu": 4,
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": "auto", "eps": "auto", "weight_decay": 0.0}},
}

CASES = [
    (EVERY_AUTO, "--per_device_train_batch_size 2 --gradient_accumulation_steps 4 --learning_rate 3e-5 --bf16"),
    (
        EVERY_AUTO,
        "--per_device_train_batch_size=1 --bf16=true --max_grad_norm 0.3 --warmup_steps 0.25 --weight_decay 0.1",
    ),
    (EVERY_AUTO, "--fp16 True --adam_beta1 0.8 --adam_beta2 0.95 --adam_epsilon 1e-6 --warmup_steps 7"),
    (PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16"),  # matches
    (PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16 False"),
    (PINNED, "--per_device_train_batch_size 2 --learning_rate 1e-4 --weight_decay 0.01 --bf16"),
    (PINNED, "--per_device_train_batch_size 0 --learning_rate 2e-5 --bf16"),  # Trainer refuses first
    (EVERY_AUTO, "--per_device_train_batch_size 0 --bf16"),  # Trainer fills a micro batch of 0, which DeepSpeed refuses
]


def _transformers_fills(config: dict[str, Any], argv: list[str], out: Path, steps: int) -> tuple[Any, list[str]]:
    """The config transformers fills, and the keys its mismatch error names."""
    filled, lines = transformers_fills(config, argv, out, steps)
    return filled, sorted(line.split()[2].split("=")[0] for line in lines)


def _deepspeed_refuses(config: dict[str, Any]) -> bool:
    from deepspeed.runtime.config import DeepSpeedConfig

    try:
        DeepSpeedConfig(json.loads(json.dumps(config)))
    except Exception:  # whatever DeepSpeed raises is the point
        return True
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("config", "script_arguments"), CASES)
def test_dsref_fills_refuses_and_judges_as_the_real_tools(
    config: dict[str, Any], script_arguments: str, tmp_path: Path
) -> None:
    model = tiny_model(tmp_path / "model")
    trainer_argv = f"--max_steps 40 {script_arguments}"
    line = f"python train.py --deepspeed ds.json --model_name_or_path {model} {trainer_argv}\n"
    launch = read_launch(str(tmp_path / "run.sh"), line)
    filled = trainer_fill(config, launch, launch.world_size, option_tree())
    assert filled.unknown == ()
    report = check_text(json.dumps(config), "ds.json", CheckSettings("hf", launch.world_size, launch=launch))
    mismatches = sorted(f.option or "" for f in report.findings if f.code == "DS589")
    refused_by_dsref = any(f.severity is Severity.error and f.code != "DS589" for f in report.findings)

    theirs, refused = _transformers_fills(config, shlex.split(trainer_argv), tmp_path / "out", steps=40)
    assert filled.config == theirs
    assert mismatches == refused
    if not refused:  # Trainer lets it through: DeepSpeed's verdict on what it hands on
        assert refused_by_dsref == _deepspeed_refuses(theirs), [f.code for f in report.findings]
        assert refused_by_dsref == ("per_device_train_batch_size 0" in script_arguments)


# -- the launch files of public repositories (tests/data/launch) -----------------------------------------------------

DATA = Path(__file__).parents[1] / "data" / "launch"
MODEL = Path(__file__).parents[1] / "data" / "hf_models" / "llama-3-8b.json"


def _trainer_argv(relative: str) -> tuple[list[str], dict[str, Any] | None]:
    """The command line or the dict of arguments the launch hands TrainingArguments, as its tool hands them: a
    script's argv (HfArgumentParser leaves the script's own flags), LLaMA-Factory's YAML (parse_dict, extra keys
    allowed), axolotl's YAML through the names it maps."""
    import yaml

    path = DATA / relative
    if path.suffix == ".sh":
        words = shlex.split(path.read_text(encoding="utf-8").replace("\\\n", " "))
        start = words.index("--deepspeed")
        argv = words[start:]
        at = argv.index("--deepspeed")
        return argv[:at] + argv[at + 2 :], None
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if "base_model" in data:  # axolotl: its names for TrainingArguments', "auto" decided by the GPU
        launch = read_launch(str(path), path.read_text(encoding="utf-8"))
        return [f"--{name}={given.value}" for name, given in launch.arguments.items()], None
    return [], {k: v for k, v in data.items() if k != "deepspeed"}


@pytest.mark.slow
@pytest.mark.parametrize(
    "relative",
    [
        "llamafactory/examples/train_full/llama3_full_sft.yaml",
        "malaya/session/tiny-llama/run-instructions-16k-rag.sh",
        "finlora/lora/example_config.yml",
    ],
)
def test_real_launches_fill_as_transformers_fills(relative: str, tmp_path: Path) -> None:
    """On one process: every value dsref fills is the value transformers fills; what dsref leaves "auto" it names
    (DS613), and transformers fills it from what dsref named (the steps of an epoch, the model)."""
    path = DATA / relative
    launch = read_launch(str(path), path.read_text(encoding="utf-8"))
    assert launch.ds_config_path is not None
    config = json.loads(Path(launch.ds_config_path).read_text(encoding="utf-8"))
    filled = trainer_fill(config, launch, 1, option_tree())

    needs.module("torch")
    needs.module("accelerate")
    needs.module("deepspeed")
    transformers = needs.module("transformers")
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    argv, as_dict = _trainer_argv(relative)
    if as_dict is not None:
        (args,) = parser.parse_dict({**as_dict, "output_dir": str(tmp_path), "use_cpu": True}, allow_extra_keys=True)
    else:
        args, _rest = parser.parse_args_into_dataclasses(
            args=["--output_dir", str(tmp_path), "--use_cpu", *argv], return_remaining_strings=True
        )
    if "bf16" in launch.unknown:
        args.bf16 = True  # what axolotl's "auto" makes of it on a GPU with bfloat16
    hidden = json.loads(MODEL.read_text())["hidden_size"]
    theirs = HfTrainerDeepSpeedConfig(json.loads(json.dumps(config)))
    theirs.trainer_config_process(args)
    theirs.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=hidden)), 100)

    unknown = {u.path for u in filled.unknown}
    for fill in filled.filled:
        node = theirs.config
        for key in fill.path.split("."):
            node = node[key]
        assert node == fill.value, fill.path
    for path_ in unknown:  # left "auto" by dsref, filled by transformers from what the launch does not say
        node = theirs.config
        for key in path_.split("."):
            node = node[key]
        assert node != "auto", path_
    report = check_text(json.dumps(config), "ds.json", CheckSettings("hf", 1, launch=launch))
    said = {f.option for f in report.findings if f.code == "DS613"}
    first_of_each_need: dict[str, str] = {}
    for item in filled.unknown:
        first_of_each_need.setdefault(item.need, item.path)
    assert said == set(first_of_each_need.values())  # one note for each thing the launch leaves unsaid
    assert not [f for f in report.findings if f.severity is Severity.error]
    assert not _deepspeed_refuses(theirs.config)
