"""Whose file it is: an "auto" where Hugging Face fills a value makes a file Hugging Face's, any other "auto" is a
string. The one rule holds for check, the language server, the estimator and the playground."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsref.check.pipeline import check_file, check_text
from dsref.check.settings import CheckSettings
from dsref.cli.main import main
from dsref.tree.index import hugging_face_auto_paths
from dsref.tree.options import option_tree
from dsref.tree.profiles import writes_auto

LAUNCHER = """{
  // written for the deepspeed launcher, which reads comments
  "train_batch_size": 16,
  "tensorboard": {"enabled": true, "output_path": "runs/", "job_name": "auto"},
  "wandb": {"enabled": true, "project": "auto"}
}
"""


def test_the_generated_paths_are_the_schemas_hf_auto_facts() -> None:
    assert hugging_face_auto_paths() == {opt.path for opt in option_tree() if opt.meta.hf_auto is not None}


@pytest.mark.parametrize("path", sorted(hugging_face_auto_paths()))
def test_an_auto_at_any_option_hugging_face_fills_makes_the_file_theirs(path: str) -> None:
    config: dict[str, object] = {}
    node = config
    *parents, key = path.split(".")
    for part in parents:
        node = node.setdefault(part, {})  # type: ignore[assignment]
    node[key] = "auto"
    assert writes_auto(config)
    assert check_text(json.dumps(config), "ds_config.json", CheckSettings(profile=None)).loaded.profile == "hf"  # type: ignore[union-attr]


def test_an_auto_in_free_text_or_under_an_alias_leaves_the_file_the_launchers(tmp_path: Path) -> None:
    assert not writes_auto({"tensorboard": {"job_name": "auto"}, "wandb": {"project": "auto"}})
    assert not writes_auto({"bfloat16": {"enabled": "auto"}})  # Hugging Face looks keys up as written
    assert not writes_auto({"optimizer": {"params": {"lr": ["auto"]}}})  # nor inside a list
    path = tmp_path / "ds_config.json"
    path.write_text(LAUNCHER)
    report = check_file(str(path), CheckSettings(profile=None))
    assert report.error is None and report.loaded is not None and report.loaded.profile == "deepspeed"
    assert [f.code for f in report.findings] == ["DS004"]  # only the note that json.load would refuse it
    assert main(["check", str(path)]) == 0


def test_the_same_file_with_an_auto_hugging_face_fills_is_refused_as_their_json_load_refuses_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(LAUNCHER.replace('"train_batch_size": 16', '"train_batch_size": "auto"'))
    report = check_file(str(path), CheckSettings(profile=None))
    assert report.error is not None and report.error.profile == "hf"
    assert main(["check", str(path)]) == 2


def test_the_estimator_and_the_language_server_follow_the_same_rule(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dsref.server.analysis import analyse
    from dsref.server.settings import Settings

    assert analyse("file:///ds_config.json", LAUNCHER, Settings(), "en").profile == "deepspeed"
    hf_text = LAUNCHER.replace('"train_batch_size": 16', '"train_batch_size": "auto"')
    assert analyse("file:///ds_config.json", hf_text, Settings(), "en").profile == "hf"
    path = tmp_path / "ds_config.json"
    path.write_text(LAUNCHER)
    model = str(Path(__file__).parents[2] / "data" / "hf_models" / "gpt2.json")
    run = ["estimate", "--config", str(path), "--model", model, "--micro-batch", "1", "--gpus-per-node", "1"]
    assert main(run) == 0  # read as the launcher reads it: comments and all
    said = capsys.readouterr()
    assert "DS000" not in said.err and "refuse" not in said.err
    path.write_text(hf_text)
    assert main(run) != 0  # Hugging Face's json.load stops at the comment: no run to estimate
    assert "DS000" in capsys.readouterr().err
