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

from dsref.check.fixer import fix_text
from dsref.check.pipeline import check_text
from dsref.tree.releases import COVERED, release_facts

from .conftest import require_deepspeed

OLD = '{"train_batch_size": 8, "bf16": {"enabled": true}, "communication_data_type": "bfp16"}\n'


def _codes(text: str, release: str) -> list[str]:
    return [f.code for f in check_text(text, "ds_config.json", deepspeed_version=release).findings]


def test_the_releases_that_spelled_it_so_take_it_and_the_later_ones_get_a_safe_fix() -> None:
    taking = [
        r
        for r in COVERED
        if (facts := release_facts(r)) is not None and facts.accepts_probe("communication_data_type=bfp16")
    ]
    assert taking and taking[-1] == "0.13.5"  # recorded from the releases themselves
    assert "DS204" not in _codes(OLD, "0.12.6")
    for release in ("0.14.5", "0.19.8"):
        [finding] = [f for f in check_text(OLD, "x.json", deepspeed_version=release).findings if f.code == "DS204"]
        assert finding.fix is not None and finding.fix.safe
        assert finding.args["former_new"] == "bf16" and finding.args["former_last"] == "0.13.5"


def test_check_fix_carries_an_old_config_forward() -> None:
    result = fix_text(OLD, "ds_config.json")
    assert json.loads(result.text)["communication_data_type"] == "bf16"
    assert not [f for f in result.after.findings if f.code == "DS204"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_help_names_the_last_release_that_took_the_old_spelling(lang: str) -> None:
    from dsref.check.report import render_text

    text = render_text([check_text(OLD, "ds_config.json")], lang)  # type: ignore[arg-type]
    assert "0.13.5" in text and "bf16" in text


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
