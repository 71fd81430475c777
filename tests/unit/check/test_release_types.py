"""An optimizer or scheduler type a release does not have yet is unknown to that release (DS542, DS547), as each
release's own record lists its names (``optimizers_absent``, ``schedulers`` recorded as None): DeepSpeed then looks
for a torch class of that name, and the engine stops at start-up."""

from __future__ import annotations

import json

import pytest

from dsref.check.pipeline import check_text
from dsref.check.rules import _common as common
from dsref.check.rules import get_rule
from dsref.check.settings import CheckSettings
from dsref.tree.releases import COVERED, release_layer, type_introduced_in
from dsref.tree.versions import DEEPSPEED_VERSION

OPTIMIZER_NAMES = ("Adam", "AdamW", "Adagrad", "Lamb", "Lion", "Muon", "MuAdam", "MuAdamW", "MuSGD")

FIRST = {("optimizer", "Lion"): "0.11.0", ("optimizer", "MuAdam"): "0.10.2", ("scheduler", "WarmupCosineLR"): "0.12.3"}
"""Read off the releases' sources: ``deepspeed/runtime/config.py``'s optimizer names (LION_OPTIMIZER first in 0.11.0,
the mup names in 0.10.2) and ``lr_schedules.py``'s VALID_LR_SCHEDULES (WARMUP_COSINE_LR first in 0.12.3)."""


def _codes(config: dict[str, object], release: str) -> list[str]:
    report = check_text(json.dumps(config), "ds.json", CheckSettings(deepspeed_version=release))
    return [f.code for f in report.findings]


def _turns(section: str) -> list[str]:
    """The releases where the record's list of names changes, and the release before each."""
    shown: list[str] = []
    previous = None
    for index, release in enumerate(COVERED):
        facts = release_layer(release)
        names = (facts.optimizers_absent if section == "optimizer" else facts.schedulers_absent) if facts else None
        if names != previous and index:
            shown += [COVERED[index - 1], release]
        previous = names
    return sorted(set(shown), key=COVERED.index)


@pytest.mark.parametrize(("section", "name"), sorted(FIRST))
def test_the_record_says_when_each_name_came_as_the_sources_do(section: str, name: str) -> None:
    assert type_introduced_in(section, name) == FIRST[section, name]


@pytest.mark.parametrize("release", _turns("optimizer"))
def test_an_optimizer_a_release_does_not_have_is_unknown_there(release: str) -> None:
    facts = release_layer(release)
    absent = facts.optimizers_absent if facts else frozenset()
    for name in OPTIMIZER_NAMES:
        config = {"train_micro_batch_size_per_gpu": 1, "optimizer": {"type": name, "params": {"lr": 1e-4}}}
        unknown = name.lower() in absent and name not in common.TORCH_OPTIMIZERS
        assert ("DS542" in _codes(config, release)) is unknown, (release, name)


@pytest.mark.parametrize("release", _turns("scheduler"))
def test_a_scheduler_a_release_does_not_have_is_unknown_there(release: str) -> None:
    facts = release_layer(release)
    absent = facts.schedulers_absent if facts else frozenset()
    for name in sorted(common.DEEPSPEED_SCHEDULERS):
        params = {"total_num_steps": 10000} if name in ("WarmupDecayLR", "WarmupCosineLR") else {}
        config = {"train_micro_batch_size_per_gpu": 1, "scheduler": {"type": name, "params": params}}
        unknown = name in absent and name not in common.TORCH_LR_SCHEDULERS
        assert ("DS547" in _codes(config, release)) is unknown, (release, name)


def test_the_message_names_the_release_that_brought_it_in_both_languages() -> None:
    config = {"train_micro_batch_size_per_gpu": 1, "optimizer": {"type": "Lion", "params": {"lr": 1e-4}}}
    for lang, words in (
        ("en", "DeepSpeed 0.11.0 brought it; DeepSpeed 0.10.0 does not have it"),
        ("zh", "0.11.0 才加入"),
    ):
        report = check_text(json.dumps(config), "ds.json", CheckSettings(deepspeed_version="0.10.0"))
        (finding,) = [f for f in report.findings if f.code == "DS542"]
        rule = get_rule("DS542")
        assert rule is not None and words in rule.text("message", lang, **finding.args)
    assert "DS542" not in _codes(config, DEEPSPEED_VERSION)
