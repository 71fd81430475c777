"""The page "What changed in the config, release by release" and the changes it is drawn from: the changes known
from DeepSpeed's history (issue 23's list) are found where they happened, and both languages list the same."""

from __future__ import annotations

import re

import pytest

from dsref.site.changes import pages
from dsref.tree.changes import What, changes, history
from dsref.tree.releases import COVERED
from dsref.tree.versions import parse_version


def _found(what: What, path: str) -> list[str]:
    return [c.release for c in changes() if c.what is what and c.path == path]


def test_gradient_clipping_defaults_to_one_from_0_19_3() -> None:
    [change] = [c for c in history("gradient_clipping") if c.what is What.default]
    assert (change.release, change.before, change.after) == ("0.19.3", 0.0, 1.0)


def test_fp16_and_bf16_are_validated_from_0_17_1() -> None:
    assert _found(What.validated, "fp16") == ["0.17.1"]
    assert _found(What.validated, "bf16") == ["0.17.1"]


def test_bfp16_is_refused_after_0_13() -> None:
    [release] = _found(What.refused, "communication_data_type=bfp16")
    assert release == COVERED[COVERED.index("0.14.0") + 1]
    assert COVERED[COVERED.index("0.14.0") + 1] in _found(What.accepted, "communication_data_type=bf16")


def test_removed_sections_are_gone_in_0_19_8_and_listed_once() -> None:
    assert "0.19.8" in _found(What.gone, "amp")
    text = pages("en")["changes.md"]
    section = text[text.index("## 0.19.8") : text.index("## 0.19.6")]
    assert "`amp`" in section and "`amp.enabled`" not in section  # the section, not each option below it


def test_every_step_between_covered_releases_has_its_heading() -> None:
    text = pages("en")["changes.md"]
    assert re.findall(r"^## (\S+)$", text, re.M) == list(reversed(COVERED[1:]))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_list_the_same_changes(lang: str) -> None:
    english, other = pages("en")["changes.md"], pages(lang)["changes.md"]
    assert re.findall(r"^## .*$", english, re.M) == re.findall(r"^## .*$", other, re.M)
    assert re.findall(r"\]\(reference/[^)]+\)", english) == re.findall(r"\]\(reference/[^)]+\)", other)


def test_each_reference_entry_says_what_the_releases_changed() -> None:
    from dsref.site.reference import pages as reference_pages

    english, chinese = reference_pages("en"), reference_pages("zh")
    entry = english["gradient_clipping.md"]
    assert "- **By release**: default `1.0` from 0.19.3 (`0.0` before)" in entry
    assert "从 0.19.3 起默认值为 `1.0`（此前为 `0.0`）" in chinese["gradient_clipping.md"]
    assert "validated from 0.17.1" in english["fp16.md"]
    said = sum(page.count("- **By release**") for page in english.values())
    listed = {c.path.split("=", 1)[0] for c in changes()}
    assert said and sum(page.count("- **各版本变化**") for page in chinese.values()) == said
    assert said <= len(listed)  # at most one line per option, and only for options a release changed


def test_each_change_is_listed_once_at_the_first_release_that_made_it() -> None:
    from itertools import pairwise

    from dsref.tree.changes import changes_between

    assert changes_between("0.16.9", "0.19.8") == tuple(c for c in changes() if parse_version(c.release) > (0, 16, 9))
    for start, end in pairwise(COVERED):
        step = changes_between(start, end)
        assert all(c.release == end and c.previous == start for c in step)
    seen = [(c.release, c.what, c.path) for c in changes()]
    assert len(seen) == len(set(seen))


def test_wrong_types_of_the_fp16_keys_are_refused_from_0_17_1() -> None:
    """fp16 was read key by key up to 0.17.0: a loss_scale_window of the wrong type passed; 0.17.1's model refuses
    it."""
    assert _found(What.type_checked, "fp16.loss_scale_window") == ["0.17.1"]


def test_a_cross_field_check_a_release_starts_making_is_a_change_of_that_release() -> None:
    from dsref.tree.rule_releases import holds_at

    made = [c for c in changes() if c.what is What.rule_made]
    assert made, "no release started a cross-field check: the rules' record is missing"
    for change in made:
        assert holds_at(change.path, change.previous) is False and holds_at(change.path, change.release) is True
    assert _found(What.rule_made, "DS515") == ["0.19.3"]  # fp16's model bounds the dynamic loss-scale settings


def test_a_check_a_release_s_engine_starts_making_is_a_change_of_that_release() -> None:
    """Proven by starting an engine (dsref/generated/releases/engine.json): the release before started with the
    rule's example, this one refuses it as 0.19.8 does."""
    from dsref.tree.rule_releases import Proof, holds_at, proven_by

    made = [c for c in changes() if c.what is What.engine_made]
    assert made, "no release's engine started a check: the engine record is missing"
    for change in made:
        assert proven_by(change.path) is Proof.engine
        assert holds_at(change.path, change.previous) is False and holds_at(change.path, change.release) is True
    assert not [c for c in changes() if c.what is What.rule_made and proven_by(c.path) is Proof.engine]
    assert _found(What.engine_made, "DS517") == ["0.19.2"]  # _assert_valid_mixed_precision_config, from 0.19.2


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_terminal_report_lists_what_the_page_lists(lang: str) -> None:
    from dsref.site.changes import report
    from dsref.tree.changes import changes_between

    lines = report("0.14.0", "0.14.5", lang)
    headings = [line.split(" ")[0].split("（")[0] for line in lines if line[:1].isdigit()]
    assert headings == sorted({c.release for c in changes_between("0.14.0", "0.14.5")}, key=parse_version)
    assert "0.14.1" in headings and "0.14.0" not in headings
    assert len(lines) == len(report("0.14.0", "0.14.5", "en"))
    assert report("0.19.8", "0.19.8", lang) == [
        {
            "en": "Nothing changed in the config from DeepSpeed 0.19.8 to 0.19.8.",
            "zh": "DeepSpeed 0.19.8～0.19.8 之间，配置方面没有变化。",
        }[lang]
    ]
