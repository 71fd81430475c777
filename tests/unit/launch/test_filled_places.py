"""A finding on an "auto" Trainer fills from the launch points at the launch's flag or key that gives the value
(dsref/check/filled.py), with the ds_config's "auto" as its related place: in text, JSON and GitHub output and in
the language server; where TrainingArguments' defaults give the value, it stays at the "auto" and says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsref.check.pipeline import check_text
from dsref.check.report.draw import rendered
from dsref.check.settings import CheckSettings
from dsref.launch.opened import open_launch
from dsref.launch.read import read_launch
from dsref.server.analysis import analyse, analyse_launch
from dsref.server.settings import Settings
from dsref.text.i18n import Lang
from tests.cli import run_dsref

AUTO = {
    "train_batch_size": "auto",
    "train_micro_batch_size_per_gpu": "auto",
    "gradient_accumulation_steps": "auto",
    "bf16": {"enabled": "auto"},
    "fp16": {"enabled": "auto"},
}
CONFIG_TEXT = json.dumps(AUTO, indent=2) + "\n"  # train_micro_batch_size_per_gpu's "auto" at 3:37


def _findings(path: str, text: str, config: str = CONFIG_TEXT, world_size: int | None = None) -> list[Any]:
    launch = read_launch(path, text)
    report = check_text(config, "ds.json", CheckSettings("hf", world_size).launched_by(launch))
    return rendered(report, "en")


def _at(shown: list[Any], code: str, option: str) -> Any:
    return next(r for r in shown if r.code == code and r.option == option)


@pytest.mark.parametrize(
    ("path", "launch", "where", "written"),
    [
        (
            "train.sh",
            "deepspeed --num_gpus 2 train.py \\\n  --deepspeed ds.json \\\n  --per_device_train_batch_size 0 --bf16\n",
            (3, 3),
            "--per_device_train_batch_size 0",
        ),
        ("train.sh", "python train.py --deepspeed ds.json --per_device_train_batch_size=0\n", (1, 37), None),
        (
            "llama3_full_sft.yaml",
            "model_name_or_path: m\nstage: sft\ndeepspeed: ds.json\nper_device_train_batch_size: 0\n",
            (4, 1),
            "per_device_train_batch_size: 0",
        ),
        (
            "qlora.yml",
            "base_model: m\nsequence_len: 512\ndeepspeed: ds.json\n  # the micro batch\nmicro_batch_size:   0\n",
            (5, 1),
            "micro_batch_size:   0",
        ),
    ],
)
def test_a_micro_batch_of_0_points_at_the_launch_that_gives_it(
    path: str, launch: str, where: tuple[int, int], written: str | None
) -> None:
    shown = _findings(path, launch)
    micro = _at(shown, "DS203", "train_micro_batch_size_per_gpu")
    assert (micro.path, micro.line, micro.column) == (path, *where)
    line = launch.split("\n")[where[0] - 1]
    assert micro.source == line
    expected = written or "--per_device_train_batch_size=0"
    assert line[micro.column - 1 : micro.end_column - 1] == expected
    [auto] = micro.related
    assert (auto.path, auto.line, auto.column) == ("ds.json", 3, 37)
    assert micro.help[0] == 'the launch gives this value: Trainer fills the "auto" at ds.json:3:37 with 0'
    assert micro.to_json()["file"] == path
    assert micro.to_json()["related"][0] == auto.to_json()


def test_a_precision_clash_points_at_the_switch() -> None:
    shown = _findings("run.sh", "python train.py --deepspeed ds.json --bf16 True --fp16\n")
    clash = _at(shown, "DS510", "bf16.enabled")
    assert (clash.path, clash.line, clash.column, clash.end_column) == ("run.sh", 1, 37, 48)  # "--bf16 True"


def test_a_batch_relation_points_at_the_launchers_world_size() -> None:
    """The issue's second file: no micro batch written, 32 steps; Trainer fills train_batch_size from 8 processes of
    the default micro batch, and DeepSpeed derives a micro batch of 0 from it."""
    config = json.dumps({"train_batch_size": "auto", "gradient_accumulation_steps": 32}, indent=2) + "\n"
    shown = _findings("run.sh", "deepspeed --num_gpus 8 train.py --deepspeed ds.json\n", config)
    batch = _at(shown, "DS502", "train_batch_size")
    assert (batch.path, batch.line, batch.column, batch.end_column) == ("run.sh", 1, 11, 23)  # "--num_gpus 8"
    assert "per_device_train_batch_size, gradient_accumulation_steps" in batch.help[0]  # the defaults it used
    assert batch.related[0].line == 2
    mismatch = _at(shown, "DS589", "gradient_accumulation_steps")  # held by the ds_config: stays there
    assert (mismatch.path, mismatch.line, mismatch.related) == ("ds.json", 3, [])


def test_a_value_from_the_arguments_defaults_stays_at_the_auto_and_says_so() -> None:
    config = json.dumps({"train_batch_size": "auto", "train_micro_batch_size_per_gpu": 3}, indent=2) + "\n"
    shown = _findings("run.sh", "deepspeed train.py --deepspeed ds.json\n", config, world_size=2)
    batch = _at(shown, "DS502", "train_batch_size")  # 8 × 1 × 2 = 16, no multiple of 3 × 2
    assert (batch.path, batch.line, batch.column, batch.related) == ("ds.json", 2, 3, [])  # its key, as a rule's
    assert batch.help[0] == (
        'Trainer fills this "auto" with 16 from the default of per_device_train_batch_size, '
        "gradient_accumulation_steps: the launch does not give it"
    )
    assert "file" not in batch.to_json() and "related" not in batch.to_json()
    zh = rendered(
        check_text(config, "ds.json", CheckSettings("hf", 2).launched_by(read_launch("run.sh", "deepspeed t.py\n"))),
        "zh",
    )
    assert "默认值" in _at(zh, "DS502", "train_batch_size").help[0]


def test_check_launch_prints_the_launch_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ds.json").write_text(CONFIG_TEXT)
    Path("train.sh").write_text("deepspeed train.py --deepspeed ds.json \\\n  --per_device_train_batch_size 0\n")
    done = run_dsref("check", "train.sh")
    assert done.returncode == 1
    assert "train.sh:2:3: error[DS203]" in done.stdout
    assert " 2 |   --per_device_train_batch_size 0" in done.stdout
    assert '"auto" at ds.json:3:37 with 0' in done.stdout
    github = run_dsref("check", "train.sh", "--format", "github").stdout
    assert "file=train.sh,line=2,col=3," in github
    zh = run_dsref("check", "train.sh", "--lang", "zh").stdout
    assert "train.sh:2:3:" in zh and "ds.json:3:37" in zh
    command = run_dsref(
        "check", "ds.json", "--format", "json", "--", "python", "train.py", "--per_device_train_batch_size", "0"
    )
    found = json.loads(command.stdout)["files"][0]["findings"]
    micro = next(f for f in found if f["path"] == "train_micro_batch_size_per_gpu")
    assert (micro["file"], micro["line"], micro["column"]) == ("<command>", 1, 17)
    assert micro["related"][0]["file"] == "ds.json"


def test_the_language_server_shows_the_launch_beside_the_auto(tmp_path: Path) -> None:
    (tmp_path / "ds.json").write_text(CONFIG_TEXT)
    text = "model_name_or_path: m\nstage: sft\ndeepspeed: ds.json\nper_device_train_batch_size: 0\n"
    (tmp_path / "train.yaml").write_text(text)
    opened = open_launch(str(tmp_path / "train.yaml"), text)
    config = analyse((tmp_path / "ds.json").as_uri(), CONFIG_TEXT, Settings(), "en", launch=opened)
    micro = next(d for d in config.diagnostics if d.code == "DS203" and d.range.start.line == 2)
    assert micro.range.start.character == 36  # the "auto", in the ds_config's own document
    assert micro.related_information is not None
    there = micro.related_information[0]
    assert there.location.uri == (tmp_path / "train.yaml").as_uri()
    assert (there.location.range.start.line, there.location.range.start.character) == (3, 0)
    assert "per_device_train_batch_size: 0" in there.message
    launch = analyse_launch((tmp_path / "train.yaml").as_uri(), text, Settings(), "en")
    assert launch is not None
    here = [d for d in launch.diagnostics if d.code == "DS203"]
    assert {d.range.start.line for d in here} == {3}  # at the key, not at the deepspeed: line
    assert all(d.related_information and d.related_information[0].location.range.start.line in (1, 2) for d in here)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ("num_train_epochs", "--max_steps", "max_steps: in a YAML")),
        ("zh", ("num_train_epochs", "--max_steps", "数据集大小")),
    ],
)
def test_steps_from_epochs_are_unknown_and_the_note_names_max_steps(lang: Lang, words: tuple[str, ...]) -> None:
    config = {"scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": "auto", "warmup_num_steps": 5}}}
    launch = read_launch("run.sh", "python train.py --deepspeed ds.json --num_train_epochs 3\n")
    report = check_text(json.dumps(config), "ds.json", CheckSettings("hf").launched_by(launch))
    [note] = [r for r in rendered(report, lang) if r.code == "DS613"]
    assert all(word in note.message for word in words), note.message
    assert "scheduler.params.total_num_steps" in note.message
    given = read_launch("run.sh", "python train.py --deepspeed ds.json --num_train_epochs 3 --max_steps 40\n")
    filled = check_text(json.dumps(config), "ds.json", CheckSettings("hf").launched_by(given))
    assert "DS613" not in {f.code for f in filled.findings}  # --max_steps decides it
