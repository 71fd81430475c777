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


def test_a_duplicate_section_is_removed_by_its_own_fix_before_the_rewrite() -> None:
    """Rewriting the file as strict JSON from the data would keep only the later zero_optimization (a whole stage-3
    block gone, said nowhere): the rewrite waits while a key is written twice. The duplicate offers its own unsafe
    fix, which names the block that goes and the one that stays; the file is then strict JSON, or rewritten as such
    on the next pass."""
    settings = CheckSettings(None)
    report = offered(check_text(HF_WITH_COMMENT, "ds.json", settings), settings)
    assert [(f.code, f.fix.applicability.value) for f in report.findings if f.fix is not None] == [("DS003", "unsafe")]
    [fix] = [f.fix for f in report.findings if f.fix is not None]
    assert fix.title_text("en") == (
        'remove the first "zero_optimization" (line 3) and keep the later one (line 5), the value json.load keeps'
    )
    assert (
        fix.title_text("zh") == "删除第一个“zero_optimization”（第 3 行），保留后一个（第 5 行），即 json.load 保留的值"
    )
    assert fix_text(HF_WITH_COMMENT, "ds.json", settings).text == HF_WITH_COMMENT  # unsafe: only when asked
    result = fix_text(HF_WITH_COMMENT, "ds.json", settings, unsafe=True)
    assert result.fixed[0].code == "DS003"
    # its line goes with its comment; the file is strict JSON now, read as Hugging Face's, and stage 2's stays
    assert json.loads(result.text)["zero_optimization"]["stage"] == 2
    assert "stage3_prefetch_bucket_size" not in result.text and "// first" not in result.text
    assert result.after.error is None and result.after.loaded is not None and result.after.loaded.profile == "hf"
    once = HF_WITH_COMMENT.replace('  "zero_optimization": {"stage": 2, "sub_group_size": 1e9}\n', '  "x": 1\n')
    [fix] = [f.fix for f in check_text(once, "ds.json", settings).findings if f.fix is not None]
    assert fix.title == "strict_json"  # with the key written once, the rewrite is offered again


def _seed() -> str:
    return next(shared_path("seeds").glob("000_*.txt")).read_bytes().decode("utf-8", "replace")


def test_the_seed_is_fixed_in_passes_duplicate_first_then_strict_json() -> None:
    """Seed 000, read as Hugging Face's: its duplicate goes first (unsafe, the later block stays, as json.load and
    Hjson without DeepSpeed's hook keep it), then the file is rewritten as strict JSON on the next pass."""
    import hjson

    seed = _seed()
    settings = CheckSettings("hf")
    result = fix_text(seed, "000.txt", settings, unsafe=True)
    assert [f.code for f in result.fixed][:2] == ["DS003", "DS000"]
    data = json.loads(result.text)
    kept = hjson.loads(seed)["zero_optimization"]  # what a reader that takes a key written twice keeps: the later
    assert kept["stage"] == 2 and data["zero_optimization"]["stage"] == 2
    assert result.after.error is None
    assert not fix_text(result.text, "000.txt", settings, unsafe=True).changed


def test_more_fixes_may_follow_is_said_exactly_when_a_pass_makes_one_possible(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from dsref.check.fix.fixer import more_fixes_follow

    settings = CheckSettings("hf")
    seed = _seed()
    report = offered(check_text(seed, "000.txt", settings), settings)
    assert more_fixes_follow(report, settings)  # the rewrite as strict JSON, once the duplicate is gone
    # a file whose one fix opens the way to no other, and one with no fix at all
    lone = '{"train_batch_size": 8, "bfloat16": {"enabled": true}}'
    assert not more_fixes_follow(offered(check_text(lone, "x.json"), CheckSettings()), CheckSettings())
    assert not more_fixes_follow(check_text('{"train_batch_size": 8}', "x.json"), CheckSettings())
    path = tmp_path / "ds_config.json"
    path.write_text(seed, encoding="utf-8")
    main(["check", "--profile", "hf", str(path)])
    out = capsys.readouterr().out
    assert out.rstrip().endswith("1 fixable with --fix --unsafe-fixes; more fixes may follow once these are applied"), (
        out
    )
    main(["check", "--profile", "hf", "--lang", "zh", str(path)])
    assert (
        capsys.readouterr()
        .out.rstrip()
        .endswith("1 个可用 --fix --unsafe-fixes 修复；应用这些修复后，可能还会有更多修复")
    )
    main(["check", "--profile", "hf", "--format", "json", str(path)])
    data = json.loads(capsys.readouterr().out)
    assert data["files"][0]["more_fixes_follow"] is True and data["summary"]["more_fixes_follow"] is True
    # --fix without --unsafe-fixes leaves the file as it is, and says so of what it still lists
    main(["check", "--profile", "hf", "--fix", str(path)])
    assert "more fixes may follow once these are applied" in capsys.readouterr().out
    assert path.read_text(encoding="utf-8") == seed
    # --diff shows every pass: the duplicate's removal and the rewrite
    main(["check", "--profile", "hf", "--diff", "--unsafe-fixes", str(path)])
    captured = capsys.readouterr()
    assert '-    "stage": 3,' in captured.out and "-  # " in captured.out and "would fix 3 findings" in captured.err
    # once fixed, nothing is listed and nothing more is said
    main(["check", "--profile", "hf", "--fix", "--unsafe-fixes", str(path)])
    capsys.readouterr()
    main(["check", "--profile", "hf", str(path)])
    assert "more fixes may follow" not in capsys.readouterr().out
    lone_path = tmp_path / "lone.json"
    lone_path.write_text(lone, encoding="utf-8")
    main(["check", "--format", "json", str(lone_path)])
    data = json.loads(capsys.readouterr().out)
    assert "more_fixes_follow" not in data["files"][0] and "more_fixes_follow" not in data["summary"]


def test_launch_notes_are_held_back_while_hugging_face_cannot_read_the_file() -> None:
    """DS612 lists the launch flags Trainer compares with the file: nothing to say of a file json.load refuses, no
    launch starts with it. The same file as strict JSON gets the note."""
    strict = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "gradient_clipping": 1.0\n}\n'
    commented = strict.replace("1.0\n", "1.0 // clip\n")
    settings = CheckSettings("hf")
    assert "DS612" in {f.code for f in check_text(strict, "ds.json", settings).findings}
    refused = check_text(commented, "ds.json", settings)
    assert refused.error is not None and refused.findings[0].code == "DS000"
    assert "DS612" not in {f.code for f in refused.findings}
    from dsref.check.rules import get_rule

    assert {code for code in ("DS612", "DS613", "DS589") if get_rule(code).about_launch} == {"DS612", "DS613"}


def test_the_seed_config_shows_its_duplicate_behind_its_comment() -> None:
    report = check_text(_seed(), "000.txt", CheckSettings(None))
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
