"""Upgrade fixes: a config written for an earlier DeepSpeed carried to the release checked for. A value an earlier
release spelled otherwise (``communication_data_type: "bfp16"``, DeepSpeed up to 0.13) gets a safe fix to today's
spelling, with a help line naming the last release that took the old one; checked for such a release, the old
spelling is no finding at all."""

from __future__ import annotations

import copy
import json
import logging
from typing import Any

import pytest

from dsref.check.fix.fixer import fix_text
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.tree.releases import COVERED, release_facts
from tests.conftest import require_deepspeed

OLD = '{"train_batch_size": 8, "bf16": {"enabled": true}, "communication_data_type": "bfp16"}\n'


def _codes(text: str, release: str) -> list[str]:
    return [
        f.code for f in check_text(text, "ds_config.json", settings=CheckSettings(deepspeed_version=release)).findings
    ]


def test_the_releases_that_spelled_it_so_take_it_and_the_later_ones_get_a_safe_fix() -> None:
    taking = [
        r
        for r in COVERED
        if (facts := release_facts(r)) is not None and facts.accepts_probe("communication_data_type=bfp16")
    ]
    assert taking and taking[-1] == "0.14.0"  # recorded from the releases themselves
    assert "DS204" not in _codes(OLD, "0.12.6")
    for release in ("0.14.5", "0.19.8"):
        [finding] = [
            f
            for f in check_text(OLD, "x.json", settings=CheckSettings(deepspeed_version=release)).findings
            if f.code == "DS204"
        ]
        assert finding.fix is not None and finding.fix.safe
        assert finding.args["former_new"] == "bf16" and finding.args["former_last"] == "0.14.0"


def test_check_fix_carries_an_old_config_forward() -> None:
    result = fix_text(OLD, "ds_config.json")
    assert json.loads(result.text)["communication_data_type"] == "bf16"
    assert not [f for f in result.after.findings if f.code == "DS204"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_names_the_last_release_that_took_the_old_spelling(lang: str) -> None:
    from dsref.check.report.draw import render_text

    text = render_text([check_text(OLD, "ds_config.json")], lang)  # type: ignore[arg-type]
    assert "0.14.0" in text and "bf16" in text


@pytest.mark.slow
def test_deepspeed_refuses_the_old_spelling_and_builds_the_fixed_one_as_bf16() -> None:
    require_deepspeed()
    import torch
    from deepspeed.runtime.config import DeepSpeedConfig
    from deepspeed.utils import logger

    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with pytest.raises(Exception):  # noqa: B017 - DeepSpeed raises its own kinds
            DeepSpeedConfig(copy.deepcopy(json.loads(OLD)))
        built: Any = DeepSpeedConfig(copy.deepcopy(json.loads(fix_text(OLD, "ds_config.json").text)))
    finally:
        logger.setLevel(level)
    assert built.communication_data_type == torch.bfloat16  # what 0.13's "bfp16" meant


# -- keys an earlier release read and a later one refuses -------------------------------------------------------------


def _finding(config: dict[str, Any], release: str, code: str, option: str | None) -> Any:
    report = check_text(json.dumps(config), "ds_config.json", settings=CheckSettings(deepspeed_version=release))
    [found] = [f for f in report.findings if f.code == code and (option is None or f.option == option)]
    return found


@pytest.mark.parametrize(
    ("written", "safe"),
    [
        ({"amp": {"enabled": False, "opt_level": "O2"}}, True),  # switched off: the releases that read it did nothing
        ({"amp": {"opt_level": "O2"}}, True),  # enabled left out: false as those releases read it
        ({"amp": {"enabled": True}}, False),  # on: what replaces Apex AMP is the user's call
        ({"amp": {"enabled": "false"}}, False),  # a string: dict.get handed it on, and a non-empty string is true
        ({"zero_optimization": {"stage": 3, "mics_shard_size": -1}}, True),  # the default
        ({"zero_optimization": {"stage": 3, "mics_shard_size": 8}}, False),
        # optimizer params reach the constructor as written: with Adam, the key itself was the old release's error
        ({"optimizer": {"type": "Adam", "params": {"lr": 1e-3, "cuda_aware": False}}}, False),
    ],
)
def test_a_removed_key_that_did_nothing_is_removed_safely(written: dict[str, Any], safe: bool) -> None:
    config = {"train_batch_size": 8, **written}
    found = _finding(config, "0.19.8", "DS302", None)
    assert found.fix is not None and found.fix.safe is safe
    assert ("written_for" in found.args) is safe
    after = check_text(json.dumps(config), "c.json", CheckSettings(deepspeed_version="0.19.6"))
    assert not [f for f in after.findings if f.code == "DS302"]


def test_a_key_an_earlier_release_ignored_in_a_section_read_key_by_key_is_removed_safely() -> None:
    config = {"train_batch_size": 8, "bf16": {"enabled": True, "loss_scale": 1.0}}
    found = _finding(config, "0.19.8", "DS101", None)
    assert found.severity.value == "error" and found.fix is not None and found.fix.safe
    assert found.args["former_last"] == "0.17.0"  # bf16 became a model in 0.17.1, recorded from the releases
    old = _finding(config, "0.17.0", "DS101", None)  # that release ignores it: a warning, nothing to carry
    assert old.severity.value == "warning" and "former_last" not in old.args
    # compile.enabled was a field of 0.13.5's compile model: removing it is not what every release did
    compiled = {"train_batch_size": 8, "compile": {"enabled": True}}
    found = _finding(compiled, "0.19.8", "DS101", None)
    assert "former_last" not in found.args and (found.fix is None or not found.fix.safe)
    typo = {"train_batch_size": 8, "bf16": {"enabeld": True}}  # a misspelling keeps its rename, unsafe
    found = _finding(typo, "0.19.8", "DS101", None)
    assert found.fix is not None and not found.fix.safe and "former_last" not in found.args


def test_the_release_a_file_was_written_for_is_the_oldest_its_keys_tell() -> None:
    config = {
        "train_batch_size": 8,
        "communication_data_type": "bfp16",  # up to 0.14.0
        "bf16": {"enabled": True, "loss_scale": 1.0},  # up to 0.17.0
        "amp": {"enabled": False},  # up to 0.19.7
    }
    report = check_text(json.dumps(config), "ds_config.json", settings=CheckSettings(deepspeed_version="0.19.8"))
    upgrades = [f for f in report.findings if f.args.get("former_last")]
    assert len(upgrades) == 3
    assert {(f.args["written_for"], f.args["written_for_by"]) for f in upgrades} == {
        ("0.14.0", "communication_data_type")
    }
    assert not [f for f in report.findings if "written_for" in f.args and not f.args.get("former_last")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_says_which_release_the_file_was_written_for(lang: str) -> None:
    from dsref.check.report.draw import render_text

    config = {"train_batch_size": 8, "amp": {"enabled": False}}
    report = check_text(json.dumps(config), "ds_config.json", settings=CheckSettings(deepspeed_version="0.19.8"))
    text = render_text([report], lang)  # type: ignore[arg-type]
    assert text.count("0.19.7") == 2 and "0.19.8" in text


MEGATRON = "deepspeedai__Megatron-DeepSpeed__ds_zero2_config_bf16.json"
"""A real config of the 0.12 era: communication_data_type "bfp16" (DeepSpeed up to 0.13), the section spelled
bfloat16, and a loss_scale in it that the releases reading bf16 key by key (up to 0.17.0) ignored."""


def test_check_fix_carries_a_real_0_12_config_to_0_19_8(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.cli.main import main
    from dsref.generator.release_agreement import recorded_verdicts
    from dsref.generator.releases import sha256_of
    from tests.conftest import shared_path

    original = shared_path("corpus", "real", MEGATRON)
    assert recorded_verdicts().error("0.12.6", sha256_of(original)) is None  # DeepSpeed 0.12.6 took it as written
    path = tmp_path / "ds_config.json"
    path.write_bytes(original.read_bytes())
    assert main(["check", str(path), "--deepspeed-version", "0.19.8", "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert "written for DeepSpeed 0.14.0 or earlier (communication_data_type says so)" in out
    main(["check", str(path), "--fix", "--deepspeed-version", "0.19.8", "--lang", "en"])
    capsys.readouterr()
    fixed = json.loads(path.read_text())
    assert fixed["communication_data_type"] == "bf16" and fixed["bf16"] == {"enabled": True}
    assert "bfloat16" not in fixed
    report = check_text(path.read_text(), "c.json", CheckSettings(deepspeed_version="0.19.8"))
    errors = [f for f in report.findings if f.severity.value == "error"]
    assert not errors


@pytest.mark.slow
def test_deepspeed_0_19_8_refuses_the_real_0_12_config_and_builds_the_fixed_one() -> None:
    require_deepspeed()
    import torch
    from deepspeed.runtime.config import DeepSpeedConfig
    from deepspeed.utils import logger

    from tests.conftest import shared_path

    text = shared_path("corpus", "real", MEGATRON).read_text()
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with pytest.raises(Exception):  # noqa: B017 - DeepSpeed raises its own kinds
            DeepSpeedConfig(json.loads(text))
        built: Any = DeepSpeedConfig(
            json.loads(fix_text(text, "ds_config.json", settings=CheckSettings(deepspeed_version="0.19.8")).text)
        )
    finally:
        logger.setLevel(level)
    # what 0.12's reading meant: bf16 on, gradients reduced in bf16, no loss scaling in bf16
    assert built.bfloat16_config.enabled and not built.float16_config.enabled
    assert built.communication_data_type == torch.bfloat16


@pytest.mark.parametrize(
    ("key", "section", "last"),
    [("seq_parallel_comm_data_type", None, "0.16.4"), ("thread_count", "aio", "0.16.3")],
)
def test_a_key_renamed_between_releases_is_read_by_the_releases_that_had_it(
    key: str, section: str | None, last: str
) -> None:
    """Recorded from the releases: 0.11.2-0.16.4 read seq_parallel_comm_data_type, 0.10.3-0.16.3 aio.thread_count;
    later ones read the new names and ignore the old ones."""
    value: Any = "bf16" if section is None else 2
    config: dict[str, Any] = {"train_batch_size": 8, **({key: value} if section is None else {section: {key: value}})}
    then = check_text(json.dumps(config), "c.json", settings=CheckSettings(deepspeed_version=last)).findings
    assert not [f for f in then if f.code == "DS101"]
    found = _finding(config, "0.19.8", "DS101", None if section is None else f"{section}.intra_op_parallelism")
    assert found.severity.value == "warning" and found.args["former_last"] == last
    assert found.args["written_for"] == last
    assert found.fix is not None and not found.fix.safe  # 0.19.8 ignores the old key: renaming changes what it does
    from dsref.check.report.messages import help_lines

    assert any(f"DeepSpeed {last} and earlier read this key as" in line for line in help_lines(found, "en"))
    assert any(f"DeepSpeed {last} 及更早的版本" in line for line in help_lines(found, "zh"))
