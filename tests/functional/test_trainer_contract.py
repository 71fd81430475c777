"""What Trainer compares, against transformers' own HfTrainerDeepSpeedConfig: the schema's ``HfAuto.compared`` facts
name exactly the arguments its mismatch error names, DS612's launch makes it start, and DS588's strings stop it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.tree.options import OptionTree, option_tree
from tests.trainer_filling import transformers_fills

# A value for each option Trainer compares, none equal to TrainingArguments' default; the batch sizes agree with
# one process (train_batch_size = 4 x 2 x 1).
WRITTEN: dict[str, Any] = {
    "train_batch_size": 8,
    "train_micro_batch_size_per_gpu": 4,
    "gradient_accumulation_steps": 2,
    "optimizer.params.lr": 2e-5,
    "optimizer.params.betas": [0.8, 0.95],
    "optimizer.params.eps": 1e-6,
    "optimizer.params.weight_decay": 0.1,
    "gradient_clipping": 0.5,
    "scheduler.params.warmup_max_lr": 2e-5,
    "scheduler.params.warmup_num_steps": 7,
    "scheduler.params.total_num_steps": 100,
    "fp16.enabled": False,
    "bf16.enabled": True,
}
STEPS = 100


@pytest.fixture(scope="module")
def tree() -> OptionTree:
    return option_tree()


def _nested(values: dict[str, Any]) -> dict[str, Any]:
    config: dict[str, Any] = {"optimizer": {"type": "AdamW"}, "scheduler": {"type": "WarmupLR"}}
    for path, value in values.items():
        node = config
        *parents, key = path.split(".")
        for part in parents:
            node = node.setdefault(part, {})
        node[key] = value
    return config


def _mismatches(config: dict[str, Any], argv: list[str], tmp_path: Path, steps: int = STEPS) -> list[str]:
    """The lines transformers' own filling reports for ``config`` launched with ``argv`` (both stages)."""
    return transformers_fills(config, argv, tmp_path, steps, hidden=16)[1]


def test_the_compared_facts_are_the_options_trainer_compares(tree: OptionTree) -> None:
    compared = {opt.path for opt in tree if opt.meta.hf_auto is not None and opt.meta.hf_auto.compared}
    assert compared == set(WRITTEN)


@pytest.mark.slow
def test_trainer_names_each_mismatch_as_the_schema_says(tree: OptionTree, tmp_path: Path) -> None:
    """Launched with TrainingArguments' defaults, every value written differs, and Trainer reports each one by the
    argument the schema's ``compared`` names; options it only fills are never reported."""
    differing = {**WRITTEN, "train_batch_size": 24, "fp16.enabled": True}  # the defaults give 8 and False
    config = _nested(differing)
    reported = {}
    for line in _mismatches(config, [], tmp_path, steps=STEPS + 1):
        match = re.match(r"- ds (\S+)=.* vs hf (.+)=", line)
        assert match is not None, line
        reported[match.group(1)] = match.group(2)
    said = {path: tree.get(path).meta.hf_auto.compared for path in WRITTEN}  # type: ignore[union-attr]
    assert reported == {path: name for path, name in said.items()}


@pytest.mark.slow
def test_the_launch_ds612_gives_makes_trainer_start(tmp_path: Path) -> None:
    config = _nested(WRITTEN)
    report = check_text(json.dumps(config), "ds_config.json", CheckSettings("hf"))
    (note,) = [f for f in report.findings if f.code == "DS612"]
    assert note.args["total"] == 8 and note.args["count"] == len(WRITTEN) - 1  # total_num_steps has no flag
    argv = [*note.args["flags"].split(), "--max_steps", str(STEPS)]
    assert _mismatches(config, argv, tmp_path) == []
    # and one value off is refused again: the note is the whole contract
    wrong = [("0.1" if item == "0.5" else item) for item in argv]
    assert [line.split("=")[0] for line in _mismatches(config, wrong, tmp_path)] == ["- ds gradient_clipping"]


@pytest.mark.slow
def test_a_string_trainer_compares_is_refused_whatever_the_launch(tmp_path: Path) -> None:
    config = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "8"}
    report = check_text(json.dumps(config), "ds_config.json", CheckSettings("hf"))
    assert [(f.code, f.args["fixed"]) for f in report.findings if f.code == "DS588"] == [("DS588", "8")]
    assert _mismatches(config, ["--gradient_accumulation_steps", "8"], tmp_path) == [
        "- ds gradient_accumulation_steps=8 vs hf gradient_accumulation_steps=8"
    ]
    fixed = {**config, "gradient_accumulation_steps": 8}
    assert _mismatches(fixed, ["--gradient_accumulation_steps", "8"], tmp_path) == []
    assert "DS588" not in {f.code for f in check_text(json.dumps(fixed), "c.json", CheckSettings("hf")).findings}


def test_the_notes_are_for_hugging_faces_reading_only() -> None:
    text = json.dumps(_nested({"bf16.enabled": True, "gradient_accumulation_steps": "8"}))
    codes = {f.code for f in check_text(text, "ds_config.json", CheckSettings("deepspeed")).findings}
    assert not codes & {"DS612", "DS588"}
    codes = {f.code for f in check_text(text, "ds_config.json", CheckSettings("hf")).findings}
    assert {"DS612", "DS588"} <= codes
    everything_auto = json.dumps({"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": "auto"}})
    assert "DS612" not in {f.code for f in check_text(everything_auto, "c.json", CheckSettings("hf")).findings}
