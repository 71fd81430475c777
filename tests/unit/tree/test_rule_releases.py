"""The cross-field rules, release by release, against what each release did with each rule's configs.

``dsref/generated/releases/rules.json`` holds each recorded release's verdict on the example config of each rule
of severity error and on its repaired config, built with that release's ``DeepSpeedConfig``
(``dsref/generator/release_rules.py``). These tests read it as plain JSON, independently of
``dsref.tree.rule_releases``, and hold ``dsref check --deepspeed-version X`` to it: a rule DeepSpeed 0.19.8 enforces
while it reads the config fires on its example for release X exactly when X refused that example (and took the
repair, and reads the options the repair changes). No DeepSpeed is needed.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from dsref.check.pipeline import check_text
from dsref.check.rules import all_rules, get_rule
from dsref.check.settings import CheckSettings
from dsref.generator.release_behaviour import config_sha
from dsref.generator.release_rules import repaired_paths, rule_configs
from dsref.tree.releases import COVERED, release_facts
from dsref.tree.rule_releases import RULES_FILE, Proof, holds_at, rule_releases
from dsref.tree.versions import DEEPSPEED_VERSION, parse_version


@cache
def recorded() -> dict[str, Any]:
    with open(RULES_FILE, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def verdicts(code: str, release: str) -> dict[str, str | None]:
    data = recorded()
    found = None
    for run in data["rules"][code]:
        if parse_version(run[0]) <= parse_version(release):
            found = run
    assert found is not None, f"{code}: no verdict recorded for {release}"
    return {v: None if n is None else data["errors"][n] for v, n in found[1].items()}


def proven() -> list[str]:
    """The rules 0.19.8 enforces while it reads the config: it refuses their example (the retired rules' example
    it refuses for another reason: their whole section is gone)."""
    return [
        code
        for code in recorded()["rules"]
        if verdicts(code, DEEPSPEED_VERSION)["example"] is not None and code not in recorded()["retired"]
    ]


def test_every_recorded_release_was_run_on_the_rules() -> None:
    assert recorded()["releases"] == list(COVERED)


def test_the_recorded_configs_are_the_rules_examples_as_they_are_now() -> None:
    """A rule whose example or repair changed is probed again (``python scripts/releases.py rules``) before the
    record can speak for it."""
    configs = rule_configs()
    shas = {code: {v: config_sha(item) for v, item in variants.items()} for code, variants in configs.items()}
    assert recorded()["configs"] == shas
    assert recorded()["about"] == {code: p for code, v in configs.items() if (p := repaired_paths(v))}


def test_the_config_time_checks_are_found_among_the_rules() -> None:
    """Enough of them to matter, and the batch assertion among them (built with the example's world size)."""
    found = proven()
    assert {"DS501", "DS502", "DS510", "DS511", "DS512", "DS520"} <= set(found)
    assert all(get_rule(code) is not None and get_rule(code).severity.value == "error" for code in found)


def _expected(code: str, release: str) -> bool | None:
    """What the record says of ``code`` at ``release``, read here from the JSON alone: None where it cannot tell."""
    base, here = verdicts(code, DEEPSPEED_VERSION), verdicts(code, release)
    if here["example"] is None:
        return False
    facts = release_facts(release)
    about = recorded()["about"].get(code, [])
    if facts is not None and not all(facts.exists(path) for path in about):
        return False
    if base.get("repaired", "absent") is None and here.get("repaired") is not None:
        return None
    return True


@pytest.mark.parametrize("release", COVERED)
def test_check_applies_each_config_time_rule_where_the_release_makes_the_check(release: str) -> None:
    wrong = []
    for code in proven():
        expected = _expected(code, release)
        assert holds_at(code, release) is expected, f"{code} at {release}"
        if expected is None:
            continue
        example = get_rule(code).example
        settings = CheckSettings(deepspeed_version=release, world_size=example.world_size)
        fired = code in {f.code for f in check_text(example.text, "ds_config.json", settings).findings}
        if fired != expected:
            wrong.append(f"{code}: {'fires' if fired else 'silent'}, recorded {verdicts(code, release)}")
    assert not wrong, f"DeepSpeed {release}: " + "; ".join(wrong)


def test_a_rule_a_release_does_not_make_yet_is_not_applied_there() -> None:
    """A loss_scale_window of 0 with dynamic loss scaling: fp16's model refuses it from 0.19.3 (its bound); 0.19.2,
    whose model already read fp16 (from 0.17.1), took it."""
    assert holds_at("DS515", "0.19.2") is False and holds_at("DS515", "0.19.3") is True
    assert rule_releases("DS515").holds == COVERED[COVERED.index("0.19.3") :]
    example = get_rule("DS515").example.text
    for release, fires in (("0.16.9", False), ("0.19.2", False), ("0.19.3", True), (DEEPSPEED_VERSION, True)):
        codes = {f.code for f in check_text(example, "ds.json", CheckSettings(deepspeed_version=release)).findings}
        assert ("DS515" in codes) is fires, release


def test_fp16_master_weights_need_stage_2_up_to_0_18_0_but_not_at_0_18_9() -> None:
    """0.18.0's own error check allows 16-bit fp16 master weights at stage 2 only; 0.18.9's at stages 1-3."""
    config = json.dumps(
        {
            "train_batch_size": 8,
            "fp16": {"enabled": True, "fp16_master_weights_and_grads": True},
            "zero_optimization": {"stage": 1},
        }
    )
    for release, fires in (("0.18.0", True), ("0.18.9", False), (DEEPSPEED_VERSION, False)):
        codes = {f.code for f in check_text(config, "ds.json", CheckSettings(deepspeed_version=release)).findings}
        assert ("DS511" in codes) is fires, release


def test_every_rule_says_where_it_holds_and_no_blanket_note_is_left() -> None:
    assert get_rule("DS584") is None
    for each in all_rules():
        found = rule_releases(each.code)
        if each.code in proven():
            assert found is not None and DEEPSPEED_VERSION in found.holds, each.code
            assert set(found.holds) | set(found.lacks) | set(found.untold) == set(COVERED), each.code
        elif each.retired:
            assert found is not None and DEEPSPEED_VERSION in found.lacks and not found.untold, each.code
            assert set(found.holds) | set(found.lacks) == set(COVERED), each.code
        else:  # proven when its engine starts (tests/unit/tree/test_rule_engine_releases.py), or not at all
            assert found is None or found.proof is Proof.engine, each.code


def test_the_releases_are_written_as_runs() -> None:
    from dsref.check.report.rule_holds import spans

    assert spans(["0.10.0", "0.10.1", "0.10.3", "0.19.8"], "en") == "0.10.0-0.10.1, 0.10.3, 0.19.8"
    assert spans(["0.10.0", "0.10.1", "0.10.3", "0.19.8"], "zh") == "0.10.0～0.10.1、0.10.3、0.19.8"
    assert spans(COVERED, "en") == f"{COVERED[0]}-{COVERED[-1]}"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dsref_rule_and_the_rule_page_say_where_the_rule_holds(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.check.report.rule_holds import holds_text, spans
    from dsref.cli.main import main
    from dsref.site.rules import pages

    found = rule_releases("DS515")
    assert found is not None and found.lacks
    said = holds_text("DS515", lang)
    assert spans(found.holds, lang) in said and spans(found.lacks, lang) in said
    assert main(["rule", "DS515", "--lang", lang]) == 0
    assert said in capsys.readouterr().out
    assert said in pages(lang)["DS515.md"].replace("\n", " ") or said in pages(lang)["DS515.md"].replace("\n", "")
    assert main(["rule", "DS600", "--lang", lang]) == 0  # advice: not a check made while the config is read
    assert holds_text("DS600", lang) in capsys.readouterr().out


def _retired() -> list[str]:
    return [r.code for r in all_rules() if r.retired]


def test_the_retired_rules_are_recorded_as_retired_and_0_19_8_does_not_make_their_checks() -> None:
    """A rule declared ``retired`` is about a check 0.19.8 no longer makes: the record lists it, 0.19.8 judges its
    example and its repair alike (it refuses the removed section whole), and some recorded release refuses the
    example and takes the repair."""
    assert {"DS590", "DS591", "DS592", "DS593"} <= set(_retired())
    assert recorded()["retired"] == sorted(_retired())
    for code in _retired():
        base = verdicts(code, DEEPSPEED_VERSION)
        assert base["example"] == base["repaired"], code
        assert holds_at(code, DEEPSPEED_VERSION) is False, code
        assert rule_releases(code) is not None and rule_releases(code).holds, code


@pytest.mark.parametrize("release", COVERED)  # 0.19.8 among them
def test_check_applies_a_retired_rule_exactly_where_the_release_refuses_its_example(release: str) -> None:
    """Read from the JSON alone: the release refuses the example, takes the repair and reads the options the repair
    changes. Anywhere else (0.19.8 included) the rule finds nothing, on its example or on its repair."""
    wrong = []
    for code in _retired():
        here = verdicts(code, release)
        facts = release_facts(release)
        about = recorded()["about"].get(code, [])
        expected = (
            here["example"] is not None
            and here["repaired"] is None
            and (facts is None or all(facts.exists(path) for path in about))
        )
        assert holds_at(code, release) is expected, f"{code} at {release}"
        example = get_rule(code).example
        settings = CheckSettings(deepspeed_version=release)
        fired = code in {f.code for f in check_text(example.text, "ds_config.json", settings).findings}
        repaired = code in {f.code for f in check_text(example.repaired_text, "ds_config.json", settings).findings}
        if fired != expected or repaired:
            wrong.append(f"{code}: {'fires' if fired else 'silent'} (repair: {repaired}), recorded {here}")
    assert not wrong, f"DeepSpeed {release}: " + "; ".join(wrong)


@pytest.mark.parametrize(
    ("code", "last"), [("DS590", "0.19.6"), ("DS591", "0.19.6"), ("DS592", "0.19.7"), ("DS593", "0.19.6")]
)
def test_the_retired_checks_end_with_the_release_that_removed_their_section(code: str, last: str) -> None:
    """Compression training and sparse attention were removed in 0.19.7, elasticity in 0.19.8: the record shows
    each check made by every recorded release up to the last that had the section, and by none after."""
    found = rule_releases(code)
    assert found is not None
    assert found.holds == tuple(r for r in COVERED if parse_version(r) <= parse_version(last))
    assert not found.untold


def test_each_compression_method_switched_on_without_groups_is_refused_where_the_check_holds() -> None:
    """DS590's example proves the check with weight quantization; the release reads every method alike."""
    methods = ("activation_quantization", "row_pruning", "channel_pruning", "sparse_pruning")
    for method in methods:
        text = json.dumps(
            {
                "train_micro_batch_size_per_gpu": 1,
                "compression_training": {method: {"shared_parameters": {"enabled": True}}},
            }
        )
        for release, fires in (("0.16.9", True), ("0.19.6", True), ("0.19.7", False), (DEEPSPEED_VERSION, False)):
            found = check_text(text, "ds.json", CheckSettings(deepspeed_version=release)).findings
            assert ("DS590" in {f.code for f in found}) is fires, (method, release)
    snip = {"enabled": True, "method": "snip_momentum"}
    text = json.dumps(
        {"train_micro_batch_size_per_gpu": 1, "compression_training": {"sparse_pruning": {"shared_parameters": snip}}}
    )
    codes = {f.code for f in check_text(text, "ds.json", CheckSettings(deepspeed_version="0.19.6")).findings}
    assert "DS590" not in codes


def test_a_listed_value_of_the_wrong_type_is_refused_where_the_release_asserts_the_list() -> None:
    """quantization_type is read with dict.get up to 0.19.6, and the release's own assert of the listed values
    refused the battery's list there (behaviour.json): dsref refuses a list there too; a string outside the list,
    which the battery did not write, stays a warning."""

    def severity(value: Any, release: str) -> str:
        shared = {"quantization_type": value}
        config = {
            "train_micro_batch_size_per_gpu": 1,
            "compression_training": {"weight_quantization": {"shared_parameters": shared}},
        }
        found = check_text(json.dumps(config), "ds.json", CheckSettings(deepspeed_version=release)).findings
        (finding,) = [f for f in found if f.code == "DS204"]
        return finding.severity.value

    assert severity(["symmetric"], "0.16.9") == "error"
    assert severity(["symmetric"], "0.19.6") == "error"
    assert severity("nearest", "0.19.6") == "warning"
