"""The rules DeepSpeed checks when its engine starts, release by release, against what each release's engine did.

``dsref/generated/releases/engine.json`` holds what each recorded release did when it started an engine
(``deepspeed.initialize`` of a one-layer model on the CPU, ``dsref/generator/release_probe.py engine``) with each
rule's example config and with its repaired config: the error and where in DeepSpeed it was raised, or the optimizer
and scheduler it built. These tests read it as plain JSON, independently of ``dsref.tree.rule_releases``, and hold
``dsref check --deepspeed-version X`` to it: a rule 0.19.8's engine proves fires on its example for release X exactly
where X's engine did what 0.19.8's did. No DeepSpeed is needed, except in the slow test that starts 0.19.8's engine
again and compares it with the record.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from dsref.check.pipeline import check_text
from dsref.check.rules import Scope, all_rules, get_rule
from dsref.check.settings import CheckSettings
from dsref.generator.release_behaviour import config_sha
from dsref.generator.release_rules import rule_configs
from dsref.tree.releases import COVERED
from dsref.tree.rule_releases import ENGINE_FILE, Proof, holds_at, proven_by, rule_releases
from dsref.tree.versions import DEEPSPEED_VERSION, parse_version
from tests import needs


@cache
def recorded() -> dict[str, Any]:
    with open(ENGINE_FILE, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def outcomes(code: str, release: str) -> dict[str, dict[str, Any]] | None:
    """The outcome of each config of ``code`` at ``release``, from the JSON alone; None where not started there."""
    data = recorded()
    found = None
    for run in data["rules"].get(code, []):
        if parse_version(run[0]) <= parse_version(release):
            found = run
    return None if found is None else {v: data["outcomes"][n] for v, n in found[1].items()}


def _site(outcome: dict[str, Any]) -> tuple[str, str | None]:
    return outcome["error"].split(":", 1)[0], outcome.get("raised_at")


def engine_proven() -> list[str]:
    """The rules 0.19.8's engine shows: the repair starts, the example does not (or builds otherwise), and the
    config's own verdicts (rules.json) do not prove them already."""
    found = []
    for code in recorded()["rules"]:
        base = outcomes(code, DEEPSPEED_VERSION)
        if base is None or "repaired" not in base or base["repaired"]["error"] is not None:
            continue
        if base["example"] != base["repaired"] and proven_by(code) is not Proof.read:
            found.append(code)
    return found


def _expected(code: str, release: str) -> bool | None:
    """What the record says of ``code`` at ``release``: None where it cannot tell."""
    base, here = outcomes(code, DEEPSPEED_VERSION), outcomes(code, release)
    assert base is not None
    if here is None or here["repaired"]["error"] is not None:
        return None
    example = here["example"]
    if base["example"]["error"] is None:  # what the engine builds
        if example == base["example"] and here["repaired"] == base["repaired"]:
            return True
        return False if example == here["repaired"] else None
    if example["error"] is None:
        return False
    return True if _site(example) == _site(base["example"]) else None


def test_every_recorded_release_started_an_engine_with_the_rules() -> None:
    assert recorded()["releases"] == list(COVERED)
    for code in engine_proven():
        assert [outcomes(code, release) is not None for release in COVERED] == [True] * len(COVERED), code


def test_the_recorded_configs_are_the_rules_examples_as_they_are_now() -> None:
    """A rule whose example or repair changed is started again (``python scripts/releases.py engine``) before the
    record can speak for it."""
    configs = rule_configs(engine=True)
    shas = {code: {v: config_sha(item) for v, item in variants.items()} for code, variants in configs.items()}
    assert recorded()["configs"] == shas


def test_the_engine_checks_the_issue_names_are_proven() -> None:
    """DS540-DS549 (DS541 only from 0.19.7, where the 1-bit optimizers went), and the other engine-time refusals
    0.19.8's engine shows; advice and Hugging Face's rules are never started."""
    found = set(engine_proven())
    assert {f"DS54{n}" for n in range(10)} <= found
    assert {"DS513", "DS514", "DS517", "DS534", "DS585"} <= found
    for code in found:
        assert proven_by(code) is Proof.engine, code
        assert get_rule(code).scope is Scope.deepspeed, code


@pytest.mark.parametrize("release", COVERED)
def test_check_applies_each_engine_rule_where_the_release_s_engine_makes_the_check(release: str) -> None:
    wrong = []
    for code in engine_proven():
        expected = _expected(code, release)
        assert holds_at(code, release) is expected, f"{code} at {release}: recorded {outcomes(code, release)}"
        if expected is None:
            continue
        example = get_rule(code).example
        settings = CheckSettings(deepspeed_version=release, world_size=example.world_size)
        fired = code in {f.code for f in check_text(example.text, "ds_config.json", settings).findings}
        if fired != expected:
            wrong.append(f"{code}: {'fires' if fired else 'silent'}, recorded {outcomes(code, release)}")
    assert not wrong, f"DeepSpeed {release}: " + "; ".join(wrong)


FIRST_HOLDS = {
    "DS540": "0.10.0",  # engine.py _configure_basic_optimizer: max_grad_norm refused in every release
    "DS542": "0.10.0",  # engine.py _do_sanity_check: "is not a supported DeepSpeed Optimizer"
    "DS543": "0.10.0",  # engine.py _do_optimizer_sanity_check: "untested ZeRO Optimizer"
    "DS544": "0.10.0",  # engine.py _do_sanity_check: Lamb "requires dynamic loss scaling"
    "DS546": "0.10.0",  # engine.py _scheduler_from_config: Scheduler(optimizer, **params)
    "DS547": "0.12.3",  # the repair's WarmupCosineLR is in lr_schedules from 0.12.3
    "DS548": "0.10.0",  # no optimizer is built from params without a type
    "DS549": "0.10.0",  # FusedAdam(**params) in _configure_basic_optimizer
    "DS585": "0.10.0",  # torch's SGD refuses a negative lr, however DeepSpeed hands it on
    "DS534": "0.13.2",  # stage3.py "Hybrid Optimizer Only Supports DeepSpeedCPUAdam" (0.12.3-0.13.1 ask for CUDA)
    "DS571": "0.18.1",  # datastates_checkpoint_engine.py, from 0.18.1
    "DS513": "0.18.3",  # base_optimizer.py: fp16 and bf16 master weights "mutually exclusive", from 0.18.3
    "DS514": "0.18.3",  # stage_1_and_2.py _enforce_cpu_offload for bf16 master weights, from 0.18.3
    "DS545": "0.18.9",  # stage3.py "Muon and reduce scatter cannot be used together", from 0.18.9
    "DS517": "0.19.2",  # engine.py _assert_valid_mixed_precision_config (data_types.param_dtype), from 0.19.2
    "DS541": "0.19.7",  # the 1-bit optimizers were deleted in 0.19.7
}
"""The first release where each rule holds, as read in each release's own source (the line named) and as the
record says: every release from there on holds it, so a change to any entry of the record that moves a rule out
of a release (or into one) fails here."""


def test_each_engine_rule_holds_from_the_release_its_source_names_on() -> None:
    assert set(FIRST_HOLDS) == set(engine_proven())
    for code, first in FIRST_HOLDS.items():
        found = rule_releases(code)
        assert found is not None, code
        assert found.holds == COVERED[COVERED.index(first) :], code
        # before it: the release starts with the example (lacks), or refuses it elsewhere or refuses the repair too
        assert set(found.lacks) | set(found.untold) == set(COVERED[: COVERED.index(first)]), code


def test_every_engine_rule_says_where_it_holds() -> None:
    proven = set(engine_proven())
    for each in all_rules():
        found = rule_releases(each.code)
        if each.code in proven:
            assert found is not None and found.proof is Proof.engine and DEEPSPEED_VERSION in found.holds, each.code
            assert set(found.holds) | set(found.lacks) | set(found.untold) == set(COVERED), each.code
        elif found is not None:
            assert found.proof is Proof.read, each.code


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dsref_rule_and_the_rule_page_say_where_an_engine_rule_holds(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from dsref.check.report.rule_holds import holds_text, spans
    from dsref.cli.main import main
    from dsref.site.rules import pages

    found = rule_releases("DS540")
    assert found is not None and found.proof is Proof.engine
    said = holds_text("DS540", lang)
    assert spans(found.holds, lang) in said
    assert main(["rule", "DS540", "--lang", lang]) == 0
    assert said in capsys.readouterr().out
    page = pages(lang)["DS540.md"]
    assert said in page.replace("\n", " ") or said in page.replace("\n", "")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_advice_and_hugging_face_s_rules_say_so(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """No rule keeps 0.19.8's behaviour for every release without saying why."""
    from dsref.check.report.rule_holds import H, holds_text
    from dsref.tree.releases import COVERED as releases

    args = {"oldest": releases[0], "newest": releases[-1]}
    for each in all_rules():
        said = holds_text(each.code, lang)
        if rule_releases(each.code) is not None:
            continue
        key = {Scope.advice: "advice", Scope.hugging_face: "hugging_face"}.get(each.scope, "unproven")
        assert said == H.text(key, lang, **args), each.code
    assert get_rule("DS600").scope is Scope.advice and get_rule("DS612").scope is Scope.hugging_face


@pytest.mark.slow
def test_the_installed_release_s_engine_still_does_what_was_recorded(tmp_path: Any) -> None:
    """Starts 0.19.8's engine (the installed DeepSpeed) with every rule's configs again, as the generator does, and
    compares what it did with the committed record."""
    needs.module("deepspeed")
    from dsref.generator.release_rules import ENGINE, compact_rules, probe_rules

    live = probe_rules(DEEPSPEED_VERSION, tmp_path, probe=ENGINE)
    shown = compact_rules({DEEPSPEED_VERSION: live}, ENGINE)
    for code in recorded()["rules"]:
        again = {v: shown["outcomes"][n] for v, n in shown["rules"][code][0][1].items()}
        assert again == outcomes(code, DEEPSPEED_VERSION), code
