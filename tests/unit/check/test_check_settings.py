"""One settings record through every stage, one registry of codes, and a rule that fails is reported, not lost."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

import dsref.check.rules as rules_module
from dsref.check.findings import Kind
from dsref.check.pipeline import check_file, check_text
from dsref.check.report.codes import every_code, find_code
from dsref.check.rules import Context, Hit, all_rules, get_rule, run_rules
from dsref.check.settings import DEFAULT_SETTINGS, CheckSettings
from dsref.check.validate.validation import validate
from dsref.cli.main import main

BATCH = {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4}


def test_each_setting_reaches_the_stage_that_needs_it(tmp_path: Path) -> None:
    # world size: the batch rule can only say 32 != 4 * 4 * world when it knows the world
    assert "DS502" not in {f.code for f in check_text(json.dumps(BATCH), "c.json").findings}
    said = check_text(json.dumps(BATCH), "c.json", CheckSettings(world_size=4)).findings
    assert "DS502" in {f.code for f in said}
    # the release: an option newer than the release checked for
    newer = '{"zero_optimization": {"stage": 3, "stage3_allgather_sequential": true}}'
    assert "DS304" not in {f.code for f in validate(json.loads(newer))}
    assert "DS304" in {f.code for f in validate(json.loads(newer), CheckSettings(deepspeed_version="0.17.0"))}
    # the reader: "auto" is Hugging Face's to fill, refused by DeepSpeed's own reader
    auto = '{"train_micro_batch_size_per_gpu": "auto"}'
    assert check_text(auto, "c.json", CheckSettings("deepspeed")).ok is False
    assert check_text(auto, "c.json", CheckSettings("hf")).ok is True
    path = tmp_path / "ds_config.json"
    path.write_text(auto)
    assert check_file(str(path), CheckSettings(profile=None)).loaded.profile == "hf"  # type: ignore[union-attr]


def test_a_file_is_judged_as_its_reader_reads_it_whatever_the_settings_asked() -> None:
    loaded_as = check_text('{"train_micro_batch_size_per_gpu": "auto"}', "c.json", CheckSettings(profile=None))
    assert loaded_as.loaded is not None and loaded_as.loaded.profile == "hf"
    assert CheckSettings(profile=None).read_as("hf") == CheckSettings(profile="hf")
    assert DEFAULT_SETTINGS.read_as("deepspeed") is DEFAULT_SETTINGS


def _failing(code: str) -> list[rules_module.Rule]:
    """Every rule, with ``code``'s check replaced by one that trips over the config as a buggy rule would."""

    def trips(ctx: Context) -> list[Hit]:
        return [Hit((), None, {"x": ctx.config["no such key"]})]

    return [dataclasses.replace(r, check=trips) if r.code == code else r for r in all_rules()]


@pytest.fixture
def ds501_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_module, "all_rules", lambda: _failing("DS501"))


def test_a_rule_that_raises_is_counted_and_the_others_still_answer(ds501_fails: None) -> None:
    config = {**BATCH, "train_batch_size": 33}
    ruled = run_rules(config, CheckSettings(world_size=1))
    assert [(f.code, f.error) for f in ruled.failures] == [("DS501", "KeyError: 'no such key'")]
    assert "DS502" in {f.code for f in ruled.findings}  # the rule after it still ran
    report = check_text(json.dumps(config), "c.json", CheckSettings(world_size=1))
    assert [f.code for f in report.rule_failures] == ["DS501"]
    assert Kind.rule_failed not in {f.kind for f in report.findings}  # a finding only with --debug
    debug = check_text(json.dumps(config), "c.json", CheckSettings(world_size=1, debug=True))
    failed = [f for f in debug.findings if f.kind is Kind.rule_failed]
    assert [f.args["rule"] for f in failed] == ["DS501"] and "KeyError" in failed[0].args["error"]


def test_the_summary_names_a_rule_that_failed_in_every_format_and_language(
    ds501_fails: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(BATCH))
    assert main(["check", str(path), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "1 rule stopped with an exception, so its findings are missing: DS501" in out
    assert "DS009" not in out
    assert main(["check", str(path), "--jobs", "1", "--lang", "zh"]) == 0
    assert "有 1 条规则抛出异常而中止，它的检查结果缺失：DS501" in capsys.readouterr().out
    assert main(["check", str(path), "--jobs", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["summary"]["rules_failed"] == ["DS501"]
    assert main(["check", str(path), "--jobs", "1", "--debug"]) == 0
    out = capsys.readouterr().out
    assert "DS009" in out and "rule DS501 (" in out and "KeyError" in out


def test_a_clean_run_says_nothing_of_failed_rules(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(BATCH))
    assert main(["check", str(path), "--format", "json"]) == 0
    assert "rules_failed" not in json.loads(capsys.readouterr().out)["summary"]


def test_every_code_is_found_by_its_code_and_its_name_and_only_once() -> None:
    codes = every_code()
    assert len({c.code for c in codes}) == len(codes) == len(Kind) + len(all_rules())
    for each in codes:
        assert find_code(each.code) == each
        assert find_code(each.code.lower()) == each
        assert find_code(each.name) == each
        assert (each.kind is None) != (each.rule is None)
        assert each.explanation("en") and each.explanation("zh")
    assert find_code("DS101") == find_code("unknown-key")
    assert find_code("DS560").rule is get_rule("DS560")  # type: ignore[union-attr]
    assert find_code("no-such-rule") is None


@pytest.mark.parametrize("code", ["DS101", "DS009", "DS501"])
def test_dsref_rule_and_the_code_registry_say_the_same(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = find_code(code)
    assert found is not None
    assert main(["rule", code.lower()]) == 0
    out: Any = capsys.readouterr().out
    assert out.startswith(found.code) and found.explanation("en") in out
