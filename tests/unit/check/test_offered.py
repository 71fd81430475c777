"""One answer about each fix (issue 38, item 8): a fix that check lists, as text or JSON, in the language server or
the playground, is one that ``--fix`` (``--unsafe-fixes`` for an unsafe one) applies; a fix that would raise a
finding is not offered."""

from __future__ import annotations

import json
from pathlib import Path

import hjson
import pytest

from dsref.check.batch import check_and_draw
from dsref.check.fix.fixer import fix_text
from dsref.check.fix.offered import offered
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from tests.conftest import shared_path

RAISES = '{\n  "train_batch_size": 8,\n  "zero_optimisation": {"stage": 3, "colour": 1}\n}\n'
"""A close spelling whose rename turns an ignored section into one DeepSpeed refuses (an unknown key in it)."""


def _json_fixes(path: Path) -> list[object]:
    [piece] = check_and_draw([str(path)], "json", "en", CheckSettings(), jobs=1)
    data = json.loads(piece.text)
    return [f["fix"] for f in data["findings"]]


def test_a_fix_that_raises_a_finding_is_found_but_not_offered(tmp_path: Path) -> None:
    raw = check_text(RAISES, "ds.json")
    assert [f.code for f in raw.findings if f.fix is not None] == ["DS101"]  # the check finds the rename
    assert all(f.fix is None for f in offered(raw).findings)
    path = tmp_path / "ds.json"
    path.write_text(RAISES)
    assert _json_fixes(path) == [None]
    assert fix_text(RAISES, "ds.json", unsafe=True).text == RAISES  # and --fix would not apply it either


def test_the_language_server_offers_the_same_fixes() -> None:
    pytest.importorskip("lsprotocol")
    from dsref.server.analysis import analyse
    from dsref.server.settings import Settings

    assert analyse("file:///w/ds_config.json", RAISES, Settings(), "en").fixes == []


def test_a_fix_that_passes_is_offered_unchanged() -> None:
    text = '{"train_batch_size": 8, "bfloat16": {"enabled": true}, "zero_optimization": {"stage": "2"}}'
    report = check_text(text, "ds.json")
    assert offered(report) is report
    assert sorted(f.code for f in report.findings if f.fix is not None) == ["DS202", "DS301"]


def test_renaming_a_section_hugging_face_fills_under_the_new_name_only_is_unsafe() -> None:
    hf = CheckSettings("hf")
    report = offered(check_text('{"train_batch_size": 8, "bfloat16": {"enabled": "auto"}}', "ds.json", hf), hf)
    fixes = {f.code: f.fix.applicability.value for f in report.findings if f.fix is not None}
    assert fixes["DS301"] == "unsafe"
    deepspeed = check_text('{"train_batch_size": 8, "bfloat16": {"enabled": true}}', "ds.json")
    assert [f.fix.applicability.value for f in deepspeed.findings if f.fix is not None] == ["safe"]


def test_a_python_literal_with_its_comma_gets_the_hint_and_the_safe_fix() -> None:
    """Hjson reads ``True,`` without quotes as the string "True," (real gpt-neox configs): the same help and safe
    fix as ``True`` alone, the comma kept."""
    from dsref.check.report.draw import rendered

    text = '{\n  "train_batch_size": 8,\n  "fp16": {\n    "enabled": True,\n    "loss_scale": 0\n  }\n}\n'
    report = offered(check_text(text, "ds.json"))
    [finding] = [f for f in report.findings if f.code == "DS201"]
    assert finding.fix is not None and finding.fix.safe
    assert finding.fix.title_text("en") == "write true instead of True"
    [shown] = [r for r in rendered(report, "en") if r.code == "DS201"]
    assert shown.help[0].startswith("True is Python; JSON writes true.")
    [zh] = [r for r in rendered(report, "zh") if r.code == "DS201"]
    assert zh.help[0].startswith("True 是 Python 的写法") and "不加引号" in zh.help[0]
    result = fix_text(text, "ds.json")
    assert '"enabled": true,\n' in result.text
    assert hjson.loads(result.text)["fp16"] == {"enabled": True, "loss_scale": 0}
    quoted = offered(check_text('{"train_batch_size": 8, "fp16": {"enabled": "True,"}}', "ds.json"))
    assert [f.fix for f in quoted.findings if f.code == "DS201"] == [None]  # in quotes the comma is the string's
    alone = offered(check_text(text.replace("True,", "True"), "ds.json"))
    [coerced] = [r for r in rendered(alone, "en") if r.code == "DS202"]
    assert coerced.help == ["True is Python; JSON writes true"] and coerced.fix is not None and coerced.fix.safe


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["deepspeed", "hf", None])
def test_every_fix_listed_over_the_corpus_is_applied_by_fix(profile: str | None) -> None:
    files = sorted(shared_path("corpus", "real").glob("*.json")) + sorted(shared_path("seeds").glob("000_*.txt"))
    settings = CheckSettings(profile, 8)  # type: ignore[arg-type]
    listed = missed = 0
    for path in files:
        text = path.read_bytes().decode("utf-8", "replace")
        offers = [f for f in offered(check_text(text, path.name, settings), settings).findings if f.fix is not None]
        for unsafe in (False, True):
            wanted = {(f.code, f.where, f.fix.title) for f in offers if unsafe or f.fix.safe}  # type: ignore[union-attr]
            if not wanted:
                continue
            result = fix_text(text, path.name, settings, unsafe=unsafe)
            applied = {(f.code, f.where, f.fix.title) for f in result.fixed}  # type: ignore[union-attr]
            listed += len(wanted)
            missed += len(wanted - applied)
            assert wanted <= applied, (path.name, unsafe, wanted - applied)
    assert listed > 100 and missed == 0


def test_a_fix_of_what_the_other_reader_sees_is_proven_on_that_reading() -> None:
    """While json.load refuses a file, the duplicate's fix leaves it refused: it passes when Hjson still reads the
    text and nothing got worse as Hjson reads it; the load error's own fix must make the file readable."""
    from dsref.check.fix.proof import judge

    hf = CheckSettings("hf")
    text = '{\n  "train_micro_batch_size_per_gpu": "auto", // x\n  "steps_per_print": 1,\n  "steps_per_print": 2\n}\n'
    before = check_text(text, "ds.json", hf)
    once = check_text(text.replace('  "steps_per_print": 1,\n', ""), "ds.json", hf)
    assert before.error is not None and once.error is not None and once.other_reading is not None
    assert judge(before, once, hf, safe=False, other_reading=True) is None
    assert judge(before, once, hf, safe=False) == "unreadable"
    unread = check_text(text.replace('"steps_per_print": 1,', '"steps_per_print": [,'), "ds.json", hf)
    assert unread.other_reading is None
    assert judge(before, unread, hf, safe=False, other_reading=True) == "unreadable"
    twice = check_text(
        text.replace('"auto", // x', '"auto", // x\n  "train_batch_size": 8, "train_batch_size": 8,'), "ds.json", hf
    )
    assert judge(before, twice, hf, safe=False, other_reading=True) == "severity"  # a new warning, as Hjson reads it
