"""Hugging Face's "auto" filled as the installed transformers and accelerate fill it: the per-release facts recorded
on the schema (``HfAuto.changes``), the one rule that reads them (``dsref.tree.profiles``), the finding for an
"auto" the installed release leaves, the statement of what is installed, and agreement with the real transformers."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.check.pipeline import check_text
from dsref.check.report.messages import help_lines
from dsref.check.report.target import Release, ReleaseSource, distribution_on_path, installed_hugging_face, statement
from dsref.check.settings import CheckSettings
from dsref.check.validate.validation import validate
from dsref.cli.main import main
from dsref.schema import HfFiller
from dsref.tree.options import OptionTree, option_tree
from dsref.tree.profiles import (
    HfReleases,
    fill_at,
    hugging_face_fills,
    hugging_face_unfilled,
    release_number,
)
from tests import needs


@pytest.fixture(scope="module")
def tree() -> OptionTree:
    return option_tree()


def _at(path: str) -> tuple[str, ...]:
    return tuple(path.split("."))


def _releases(by: HfFiller, release: str | None) -> HfReleases:
    return HfReleases(transformers=release) if by == "transformers" else HfReleases(accelerate=release)


# -- the per-release rule, on the keys whose filling changed ---------------------------------------------------------

# Read from the releases themselves (transformers' trainer_config_process/finalize, accelerate's _prepare_deepspeed),
# on both sides of each change. The other integration is left at its newest, which fills none of these.
FILLED = [
    ("amp.enabled", "transformers", "4.30.0", True),
    ("amp.enabled", "transformers", "4.57.6", True),
    ("amp.enabled", "transformers", "5.0.0", False),  # Apex support went with transformers 5
    ("amp.enabled", "transformers", "5.24.0", False),
    ("amp.opt_level", "transformers", "4.57.6", True),
    ("amp.opt_level", "transformers", "5.0.0", False),
    ("amp.opt_level", "transformers", None, False),  # no release known: the newest
    ("amp.enabled", "accelerate", "0.20.0", False),  # accelerate never filled it
]


@pytest.mark.parametrize(("path", "by", "release", "filled"), FILLED)
def test_which_release_fills_which_key(
    tree: OptionTree, path: str, by: HfFiller, release: str | None, filled: bool
) -> None:
    assert hugging_face_fills(tree, _at(path), _releases(by, release)) is filled


@pytest.mark.parametrize(
    ("path", "by", "release"),
    [
        ("train_micro_batch_size_per_gpu", "transformers", "4.30.0"),
        ("optimizer.params.betas", "transformers", "4.30.0"),
        ("zero_optimization.offload_param.device", "accelerate", "0.20.0"),
        ("bf16.enabled", "transformers", "5.24.0"),
    ],
)
def test_keys_that_never_changed_are_filled_by_every_release(
    tree: OptionTree, path: str, by: HfFiller, release: str
) -> None:
    assert hugging_face_fills(tree, _at(path), _releases(by, release))
    assert fill_at(tree.get(path).meta.hf_auto, by, release) == tree.get(path).meta.hf_auto.source  # type: ignore[arg-type]


# Where the value put in changed: the last release before the change and the first one with it.
VALUE_CHANGED = [
    ("zero_optimization.stage3_prefetch_bucket_size", "transformers", "4.44.2", "4.45.0"),  # a float before
    ("zero_optimization.stage3_prefetch_bucket_size", "accelerate", "0.30.1", "0.31.0"),
    ("fp16.enabled", "transformers", "4.57.6", "5.0.0"),  # no longer off for the Apex backend
    ("bf16.enabled", "accelerate", "0.33.0", "0.34.0"),  # on for mixed_precision "fp8" too since
    ("scheduler.params.warmup_num_steps", "transformers", "5.17.0", "5.18.0"),  # at least 1 since
    ("scheduler.params.warmup_num_steps", "accelerate", "1.14.0", "1.15.0"),
    ("train_batch_size", "accelerate", "1.11.0", "1.12.0"),  # divided by the sequence-parallel size since
    ("gradient_accumulation_steps", "accelerate", "0.22.0", "0.23.0"),  # written over any value before
]


@pytest.mark.parametrize(("path", "by", "before", "since"), VALUE_CHANGED)
def test_the_value_filled_in_follows_the_release(
    tree: OptionTree, path: str, by: HfFiller, before: str, since: str
) -> None:
    hf = tree.get(path).meta.hf_auto
    assert hf is not None
    old, new = fill_at(hf, by, before), fill_at(hf, by, since)
    assert old is not None and new is not None and old != new
    assert new == fill_at(hf, by, None) == hf.source  # from the change on, as the newest
    assert hugging_face_fills(tree, _at(path), _releases(by, before))


def test_the_float_that_old_releases_fill_is_recorded(tree: OptionTree) -> None:
    hf = tree.get("zero_optimization.stage3_prefetch_bucket_size").meta.hf_auto
    assert hf is not None
    assert "float" in (fill_at(hf, "transformers", "4.44.2") or "")
    assert "int(" in (fill_at(hf, "transformers", "4.45.0") or "")


@pytest.mark.parametrize(
    ("version", "number"),
    [("4.46.0.dev0", (4, 46, 0)), ("5.0.0rc1", (5, 0, 0)), ("1.2", (1, 2, 0)), ("v0.31.0", (0, 31, 0)), ("x", None)],
)
def test_installed_versions_are_read_by_their_release(version: str, number: tuple[int, int, int] | None) -> None:
    assert release_number(version) == number


def test_an_unfilled_auto_says_which_release_filled_it(tree: OptionTree) -> None:
    gone = hugging_face_unfilled(tree, _at("amp.opt_level"), HfReleases(transformers="5.2.0"))
    assert gone is not None and (gone.by, gone.installed, gone.release, gone.since) == (
        "transformers",
        "5.2.0",
        "5.0.0",
        False,
    )
    assert hugging_face_unfilled(tree, _at("amp.opt_level"), HfReleases(transformers="4.40.0")) is None
    assert hugging_face_unfilled(tree, _at("steps_per_print"), HfReleases(transformers="4.40.0")) is None


# -- what check says -------------------------------------------------------------------------------------------------

AMP = {"train_batch_size": 8, "amp": {"enabled": "auto", "opt_level": "auto"}}


def test_check_accepts_the_auto_the_installed_release_fills_and_names_the_one_it_does_not() -> None:
    # DeepSpeed 0.18.0 still reads amp (0.19.8 removed it)
    old = validate(
        AMP,
        settings=CheckSettings(
            profile="hf", deepspeed_version="0.18.0", hugging_face=HfReleases(transformers="4.57.6")
        ),
    )
    assert [f for f in old if f.code in ("DS401", "DS402")] == []
    new = validate(
        AMP,
        settings=CheckSettings(profile="hf", deepspeed_version="0.18.0", hugging_face=HfReleases(transformers="5.0.0")),
    )
    autos = [f for f in new if f.code in ("DS401", "DS402")]
    assert {f.location for f in autos} == {("amp", "enabled"), ("amp", "opt_level")}
    for finding in autos:
        assert finding.args["hf_release"] == "5.0.0" and not finding.args["hf_fills"]
        english = " ".join(help_lines(finding, "en"))
        assert "transformers 5.0.0 no longer fills" in english and "before 5.0.0" in english
        chinese = " ".join(help_lines(finding, "zh"))
        assert "transformers 5.0.0" in chinese and "不再填充" in chinese and "5.0.0 之前" in chinese


def test_no_release_known_reads_as_the_newest() -> None:
    autos = [
        f
        for f in validate(AMP, settings=CheckSettings(profile="hf", deepspeed_version="0.18.0"))
        if f.code in ("DS401", "DS402")
    ]
    assert len(autos) == 2
    assert all("the newest transformers no longer fills" in " ".join(help_lines(f, "en")) for f in autos)


def test_the_rules_and_the_pipeline_follow_the_releases() -> None:
    text = json.dumps({"train_batch_size": 8, "amp": {"enabled": "auto", "opt_level": "O1"}})
    old = check_text(
        text,
        "ds.json",
        settings=CheckSettings(profile="hf", deepspeed_version="0.18.0", hugging_face=HfReleases("4.40.0")),
    )
    new = check_text(
        text,
        "ds.json",
        settings=CheckSettings(profile="hf", deepspeed_version="0.18.0", hugging_face=HfReleases("5.1.0")),
    )
    assert not any(f.location == ("amp", "enabled") for f in old.findings if f.code in ("DS401", "DS402"))
    assert any(f.location == ("amp", "enabled") for f in new.findings if f.code in ("DS401", "DS402"))


# -- what is installed, found and stated -----------------------------------------------------------------------------


def test_the_installed_releases_come_from_package_metadata(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "transformers-4.46.1.dist-info").mkdir(parents=True)
    (site / "transformers-4.46.1.dist-info" / "METADATA").write_text("Name: transformers\nVersion: 4.46.1\n")
    (site / "accelerate-0.34.2.dist-info").mkdir()  # no metadata file: the folder's name says it
    (site / "accelerate_extras-9.9.dist-info").mkdir()  # another package
    assert distribution_on_path("transformers", [str(site)]) == "4.46.1"
    assert distribution_on_path("accelerate", [str(site)]) == "0.34.2"
    assert distribution_on_path("accelerate", [str(tmp_path / "missing")]) is None


def test_the_statement_names_them_only_for_a_file_read_as_hugging_faces() -> None:
    release = Release("0.15.4", ReleaseSource.installed, "0.15.4")
    both = HfReleases(transformers="4.46.0", accelerate="1.0.1")
    assert statement(release, "hf", "en", detected=True, hugging_face=both) == (
        "Checked for DeepSpeed 0.15.4 (installed), read as Hugging Face fills it "
        '(the file writes "auto" where they fill a value; transformers 4.46.0, accelerate 1.0.1 installed).'
    )
    assert statement(release, "hf", "zh", detected=False, hugging_face=both) == (
        "检查对象：DeepSpeed 0.15.4（已安装的版本）；按 Hugging Face 的方式读取并填充"
        "（已安装 transformers 4.46.0、accelerate 1.0.1）。"
    )
    assert "transformers" not in statement(release, "deepspeed", "en", detected=True, hugging_face=both)
    assert "transformers" not in statement(release, None, "en", detected=True, hugging_face=both)
    assert statement(release, "hf", "en", detected=True).endswith(
        '(the file writes "auto" where they fill a value).'
    )  # none found


def test_check_states_the_installed_releases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text('{"train_micro_batch_size_per_gpu": "auto"}')
    assert main(["check", str(path), "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)["checked_for"]["hugging_face"]
    installed = installed_hugging_face()
    assert found == {"transformers": installed.transformers, "accelerate": installed.accelerate}


# -- the facts agree with the installed transformers -----------------------------------------------------------------

NOT_FILLED_BY_ANYONE = ["steps_per_print", "zero_optimization.allgather_bucket_size", "optimizer.params.amsgrad"]


def _nested(paths: list[str], value: Any) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for path in paths:
        node = config
        *parents, last = path.split(".")
        for step in parents:
            node = node.setdefault(step, {})
        node[last] = value
    return config


def _autos(config: Any, location: tuple[str, ...] = ()) -> set[str]:
    found = set()
    for key, value in config.items():
        if isinstance(value, dict):
            found |= _autos(value, (*location, key))
        elif value == "auto":
            found.add(".".join((*location, key)))
    return found


@pytest.mark.slow
def test_the_installed_transformers_fills_what_dsref_says(tree: OptionTree, tmp_path: Path) -> None:
    """HF's own HfTrainerDeepSpeedConfig, on a config that writes "auto" on every key any release of transformers or
    accelerate fills (and on a few nobody fills), with small TrainingArguments on the CPU: the "auto"s it replaces
    are the ones dsref says the installed transformers fills."""
    needs.module("torch")
    needs.module("deepspeed")  # transformers' DeepSpeed integration imports it
    needs.module("accelerate")
    transformers = needs.module("transformers")
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

    installed = installed_hugging_face().transformers
    assert installed == transformers.__version__
    hf_paths = [opt.path for opt in tree if opt.meta.hf_auto is not None]
    config = _nested([*hf_paths, *NOT_FILLED_BY_ANYONE], "auto")
    config["zero_optimization"]["stage"] = 3  # the stage-3 keys are filled at stage 3 only
    config["optimizer"]["type"] = "AdamW"
    config["scheduler"]["type"] = "WarmupDecayLR"
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path), per_device_train_batch_size=2, gradient_accumulation_steps=3, use_cpu=True
    )
    filling = HfTrainerDeepSpeedConfig(config)
    filling.trainer_config_process(args)
    filling.trainer_config_finalize(args, SimpleNamespace(config=SimpleNamespace(hidden_size=16)), 100)

    filled_by_hf = set(hf_paths) - {"zero_optimization.stage"} - _autos(filling.config)
    said = {
        path
        for path in hf_paths
        if fill_at(tree.get(path).meta.hf_auto, "transformers", installed) is not None  # type: ignore[arg-type]
    }
    assert filled_by_hf == said
    assert set(NOT_FILLED_BY_ANYONE) <= _autos(filling.config)


# -- the guide's table of what changed -------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
CHANGES_HEADING = {"en": "## What changed, release by release", "zh": "## 各版本的变化"}
FROM_THEN_ON = {"en": ("as in the table above", "not filled"), "zh": ("同上表", "不再填充")}


def _table_rows(heading: str, lang: str) -> list[list[str]]:
    """The cells of the rows of the table in the guide's section under ``heading``."""
    text = (ROOT / "docs" / lang / "guides" / "huggingface.md").read_text(encoding="utf-8")
    section = text.split(heading + "\n", 1)[1].split("\n#", 1)[0]
    rows = [line.strip("|").split(" | ") for line in section.splitlines() if line.startswith("| [")]
    return [[cell.strip() for cell in row] for row in rows]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guide_lists_every_change_as_the_schema_records_it(tree: OptionTree, lang: str) -> None:
    from dsref.text.i18n import translate

    expected = []
    for opt in tree:
        hf = opt.meta.hf_auto
        for change in hf.changes if hf is not None else ():
            before = translate(f"{opt.path}#hf_before:{change.by}:{change.release}", change.before or "", lang)
            after = FROM_THEN_ON[lang][0 if change.by in hf.by else 1]  # type: ignore[union-attr]
            expected.append((opt.path, change.by, change.release, before, after))
    found = []
    for key, library, release, before, after in _table_rows(CHANGES_HEADING[lang], lang):
        path = key.split("`")[1]
        assert key.endswith(f"#{path})"), key  # the link goes to the option's entry
        found.append((path, library.lower(), release, before, after))
    assert sorted(found) == sorted(expected)
    assert found == sorted(found, key=lambda row: (row[1], release_number(row[2]), row[0]))  # by library, release


KEYS_HEADING = {"en": '## The keys that take `"auto"`', "zh": '## 可以写 `"auto"` 的配置项'}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guide_table_of_keys_gives_the_schemas_values(tree: OptionTree, lang: str) -> None:
    """The table of keys that take "auto": every option with Hugging Face facts, each with the newest releases' value
    (a removed option's row goes on to say so)."""
    from dsref.text.i18n import translate

    found = {}
    for key, _who, value in _table_rows(KEYS_HEADING[lang], lang):
        path = key.split("`")[1]
        found[path] = value
    assert set(found) == {opt.path for opt in tree if opt.meta.hf_auto is not None}
    for path, value in found.items():
        hf = tree.get(path).meta.hf_auto
        assert hf is not None
        if hf.source:
            said = translate(f"{path}#hf_source", hf.source, lang)
        else:  # filled by older releases only: what the last of them put in
            last = max(hf.changes, key=lambda c: release_number(c.release) or ())
            said = translate(f"{path}#hf_before:{last.by}:{last.release}", last.before or "", lang)
        assert value.startswith(said), path


# -- a value an older release fills that DeepSpeed refuses (DS561) ----------------------------------------------------

FILLED = {
    "train_micro_batch_size_per_gpu": "auto",
    "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": "auto"},
    "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}},
}


def _refused_fills(releases: HfReleases, deepspeed: str) -> dict[str, str]:
    report = check_text(
        json.dumps(FILLED),
        "c.json",
        settings=CheckSettings(profile="hf", deepspeed_version=deepspeed, hugging_face=releases),
    )
    return {f.option: f.args["library"] for f in report.findings if f.code == "DS561" and f.option is not None}


def test_a_fill_deepspeed_refuses_is_said_with_the_release_that_fills_it() -> None:
    prefetch, warmup = "zero_optimization.stage3_prefetch_bucket_size", "scheduler.params.warmup_num_steps"
    assert _refused_fills(HfReleases(transformers="4.44.2"), "0.19.8") == {
        prefetch: "transformers",
        warmup: "transformers",
    }
    assert _refused_fills(HfReleases(transformers="4.45.0"), "0.19.8") == {warmup: "transformers"}
    assert _refused_fills(HfReleases(transformers="5.18.0", accelerate="0.30.1"), "0.19.8") == {
        prefetch: "accelerate",  # before 0.31
        warmup: "accelerate",  # before 1.15
    }
    assert _refused_fills(HfReleases(transformers="5.18.0", accelerate="1.15.0"), "0.19.8") == {}
    assert _refused_fills(HfReleases(), "0.19.8") == {}  # none installed: the newest, which fill what DeepSpeed takes
    # WarmupLR raised 0 to 2 up to DeepSpeed 0.19.2 (recorded from the releases): nothing to say there
    assert warmup not in _refused_fills(HfReleases(transformers="4.44.2"), "0.19.2")


@pytest.mark.slow
def test_the_refused_fill_is_what_the_formula_gives_and_deepspeed_0_19_8_refuses_it(tree: OptionTree) -> None:
    from tests.conftest import require_deepspeed

    hf = tree.get("zero_optimization.stage3_prefetch_bucket_size").meta.hf_auto
    assert hf is not None
    [example] = {change.example for change in hf.changes}
    assert example == 0.9 * 4096 * 4096  # the formula of transformers < 4.45 for a hidden size of 4096
    require_deepspeed()
    import logging

    from deepspeed.runtime.config import DeepSpeedConfig
    from deepspeed.utils import logger

    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with pytest.raises(Exception):  # noqa: B017 - pydantic's ValidationError, through DeepSpeed
            DeepSpeedConfig(
                {"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": example}}
            )
        DeepSpeedConfig(
            {"train_batch_size": 8, "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": int(example)}}
        )
    finally:
        logger.setLevel(level)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_refused_fill_is_said_in_both_languages(lang: str) -> None:
    from dsref.check.report.draw import render_text

    report = check_text(
        json.dumps(FILLED),
        "c.json",
        settings=CheckSettings(
            profile="hf", deepspeed_version="0.19.8", hugging_face=HfReleases(transformers="4.44.2")
        ),
    )
    text = render_text([report], lang)  # type: ignore[arg-type]
    assert "DS561" in text and "transformers 4.44.2" in text and "15099494.4" in text and "4.45.0" in text
