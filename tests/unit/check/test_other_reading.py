"""What a file holds is checked even when its reader refuses it, and ``check DIR`` checks DeepSpeed configs only
(issue 38, item 9; a duplicate section is never resolved silently, item 8)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsref.check.fix.fixer import fix_text
from dsref.check.fix.offered import offered
from dsref.check.pipeline import check_text, expand
from dsref.check.read.config_file import looks_like_config
from dsref.check.report.draw import render, rendered
from dsref.check.settings import CheckSettings
from dsref.cli.main import main
from tests.conftest import shared_path

# "auto" makes it Hugging Face's file; its comment makes json.load refuse it; Hjson reads two zero_optimization
HF_WITH_COMMENT = """{
  "train_micro_batch_size_per_gpu": "auto",
  "zero_optimization": {"stage": 3, "stage3_prefetch_bucket_size": 5e8},  // first
  "bf16": {"enabled": true},
  "zero_optimization": {"stage": 2, "sub_group_size": 1e9}
}
"""


def test_the_parse_error_comes_first_then_what_the_other_reader_sees() -> None:
    report = check_text(HF_WITH_COMMENT, "ds.json", CheckSettings(None))
    assert report.error is not None and report.error.profile == "hf"
    first, *rest = report.findings
    assert first.code == "DS000" and first.seen_by is None
    assert rest and all(f.seen_by == "deepspeed" for f in rest)
    codes = {f.code for f in rest}
    assert {"DS003", "DS524"} <= codes  # the duplicate, and stage 2's sub_group_size, as Hjson reads the file
    shown = rendered(report, "en")
    assert shown[0].code == "DS000"
    [duplicate] = [r for r in shown if r.code == "DS003"]
    assert duplicate.message.startswith("as Hjson (the deepspeed launcher's reader) reads the file: ")
    assert "also at line 3" in duplicate.message and duplicate.line == 5  # both places
    [zh] = [r for r in rendered(report, "zh") if r.code == "DS003"]
    assert zh.message.startswith("按 Hjson（deepspeed 启动器的读取方式）读取这个文件时：")
    data = json.loads(render([report], "json", "en"))
    findings = data["files"][0]["findings"]
    assert findings[0]["code"] == "DS000" and "seen_by" not in findings[0]
    assert {f.get("seen_by") for f in findings[1:]} == {"deepspeed"}


def test_a_duplicate_section_is_never_dropped_by_a_fix() -> None:
    """Rewriting the file as strict JSON from the data would keep only the later zero_optimization (a whole
    stage-3 block gone, said nowhere): no such fix while a key is written twice; the duplicate is its own finding."""
    settings = CheckSettings(None)
    report = offered(check_text(HF_WITH_COMMENT, "ds.json", settings), settings)
    assert all(f.fix is None for f in report.findings)
    result = fix_text(HF_WITH_COMMENT, "ds.json", settings, unsafe=True)
    assert result.text == HF_WITH_COMMENT
    once = HF_WITH_COMMENT.replace('  "zero_optimization": {"stage": 2, "sub_group_size": 1e9}\n', '  "x": 1\n')
    [fix] = [f.fix for f in check_text(once, "ds.json", settings).findings if f.fix is not None]
    assert fix.title == "strict_json"  # with the key written once, the rewrite is offered again


def test_the_seed_config_shows_its_duplicate_behind_its_comment() -> None:
    seed = next(shared_path("seeds").glob("000_*.txt")).read_bytes().decode("utf-8", "replace")
    report = check_text(seed, "000.txt", CheckSettings(None))
    assert report.findings[0].code == "DS000"
    assert "DS003" in {f.code for f in report.findings[1:]}


def test_findings_of_the_other_reading_offer_no_fix() -> None:
    report = check_text(
        '{"train_batch_size": "auto", "bfloat16": {"enabled": true}} // x', "ds.json", CheckSettings(None)
    )
    assert [f.code for f in report.findings if f.seen_by] == ["DS301"]
    assert all(f.fix is None for f in report.findings if f.seen_by)


def test_check_dir_checks_deepspeed_configs_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "config.json").write_text('{"architectures": ["LlamaForCausalLM"], "hidden_size": 4096}')
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0"}')
    (tmp_path / "stage2.json").write_text('{"train_batch_size": 8, "zero_optimization": {"stage": 2}}')
    (tmp_path / "ds_config.json").write_text("{}")
    expanded = expand([str(tmp_path)])
    assert [Path(p).name for p in expanded.files] == ["ds_config.json", "stage2.json"]
    assert [Path(p).name for p in expanded.skipped] == ["config.json", "package.json"]
    assert main(["check", str(tmp_path)]) in (0, 1)
    captured = capsys.readouterr()
    assert "skipped 2 *.json files that do not look like DeepSpeed configs" in captured.err
    assert "config.json:" not in captured.out.replace("ds_config.json", "")
    main(["check", "--lang", "zh", str(tmp_path / "config.json"), str(tmp_path)])  # named: checked anyway
    captured = capsys.readouterr()
    assert "跳过了 2 个" in captured.err and "config.json:" in captured.out.replace("ds_config.json", "")
    for name in ("stage2.json", "ds_config.json"):
        (tmp_path / name).unlink()
    assert main(["check", str(tmp_path)]) == 2
    assert "no DeepSpeed config found in" in capsys.readouterr().err


def test_the_server_and_check_dir_share_one_rule() -> None:
    pytest.importorskip("lsprotocol")
    from dsref.server.analysis import looks_like_config as server_rule

    for name, text in [
        ("config.json", '{"hidden_size": 1}'),
        ("zero2.json", "{}"),
        ("a.jsonc", '{"fp16": {}, "bf16": {}}'),
    ]:
        assert server_rule(f"file:///w/{name}", text) == looks_like_config(f"/w/{name}", text)
