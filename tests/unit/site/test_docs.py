"""The docs: every ```json block is a config dsref checks as its marker says, and every page exists in both languages.

The markers are described in ``dsref/site/doccheck.py`` (and in the docs conventions): a block with none must be a
complete ds_config that ``dsref check`` accepts without an error or a warning.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from dsref.site import doccheck, reference, rules
from dsref.site.hooks import missing_translations, on_page_markdown, page_title
from dsref.tree.index import OptionIndex

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(DOCS).as_posix() for p in PAGES])
def test_every_json_block_passes_its_check(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    problems = [
        f"{_name(page)}:{result.block.line}: {problem}"
        for block in doccheck.blocks(text, _name(page))
        for result in [doccheck.check(block)]
        for problem in result.problems
    ]
    problems += [
        f"{_name(page)}:{line}: a dsref-check comment that does not stand right before a ```json fence, or an "
        f"{doccheck.OUTPUT_MARKER} that does not follow one"
        for line in doccheck.stray_markers(text)
    ]
    assert problems == []


def test_the_docs_have_json_blocks_in_both_languages() -> None:
    counts = {
        lang: sum(len(doccheck.blocks(p.read_text(encoding="utf-8"))) for p in (DOCS / lang).rglob("*.md"))
        for lang in ("en", "zh")
    }
    assert counts["en"] > 100 and counts["zh"] > 100, counts


def test_every_page_exists_in_both_languages() -> None:
    assert missing_translations(DOCS) == []


def test_a_page_in_one_language_only_is_named(tmp_path: Path) -> None:
    for lang in ("en", "zh"):
        (tmp_path / lang / "guides").mkdir(parents=True)
        (tmp_path / lang / "index.md").write_text("# x\n", encoding="utf-8")
    (tmp_path / "en" / "guides" / "offload.md").write_text("# Offload\n", encoding="utf-8")
    (tmp_path / "zh" / "only.md").write_text("# 只有中文\n", encoding="utf-8")
    assert missing_translations(tmp_path) == [
        "docs/en/guides/offload.md has no zh version: write docs/zh/guides/offload.md",
        "docs/zh/only.md has no en version: write docs/en/only.md",
    ]


def test_every_option_has_a_description_in_both_languages() -> None:
    assert list(reference.missing_texts()) == []


def test_an_option_without_a_description_is_named() -> None:
    index = OptionIndex.load()
    records = [index.get("fp16").to_json(), index.get("fp16.enabled").to_json()]
    records[1]["description"] = ""
    records[0]["description"] = "A section with an English text nobody translated."
    fake = OptionIndex.from_records({"dsref": "x", "deepspeed": "0.19.8", "options": records})
    problems = list(reference.missing_texts(fake))
    assert problems[0].startswith("fp16: no Chinese description")
    assert problems[1].startswith("fp16.enabled: no description")


def test_every_finding_code_has_an_explanation() -> None:
    assert list(rules.missing_texts()) == []


# -- the markers ----------------------------------------------------------------------------------------------------


def _check(markdown: str) -> list[str]:
    return doccheck.check(doccheck.blocks(markdown)[0]).problems


def test_a_complete_config_passes_and_a_wrong_one_is_named() -> None:
    assert _check('```json\n{"train_batch_size": 8, "zero_optimization": {"stage": 2}}\n```\n') == []
    problems = _check('```json\n{"train_batch_size": 8, "zero_optimization": {"stage": "two"}}\n```\n')
    assert len(problems) == 1 and problems[0].startswith("DS20")


def test_expect_needs_every_listed_code_and_no_other() -> None:
    wrong = '{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}}'
    assert _check(f"<!-- dsref-check: expect DS510 -->\n```json\n{wrong}\n```\n") == []
    assert _check(f"<!-- dsref-check: expect DS510 DS101 -->\n```json\n{wrong}\n```\n") == [
        "expected DS101, which dsref did not report"
    ]
    wrong_twice = '{"train_batch_size": 8, "fp16": {"enabled": true}, "bf16": {"enabled": true}, "zero": 1}'
    problems = _check(f"<!-- dsref-check: expect DS510 -->\n```json\n{wrong_twice}\n```\n")
    assert len(problems) == 1 and problems[0].startswith("DS101")


def test_a_fragment_is_checked_under_its_path_without_the_cross_field_rules() -> None:
    assert (
        _check('<!-- dsref-check: fragment zero_optimization.offload_param -->\n```json\n{"device": "cpu"}\n```\n')
        == []
    )
    problems = _check(
        '<!-- dsref-check: fragment zero_optimization -->\n```json\n{"offload_param": {"device": "gpu"}}\n```\n'
    )
    assert len(problems) == 1 and "zero_optimization.offload_param.device" in problems[0]
    assert _check('<!-- dsref-check: fragment -->\n```json\n{"steps_per_print": 10}\n```\n') == []


def test_hf_profile_and_world_size() -> None:
    auto = '{"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "fp16": {"enabled": "auto"}}'
    assert _check(f"<!-- dsref-check: hf -->\n```json\n{auto}\n```\n") == []
    assert _check(f"```json\n{auto}\n```\n") != []
    batch = '{"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1}'
    assert _check(f"<!-- dsref-check: world-size 8 -->\n```json\n{batch}\n```\n") == []
    assert _check(f"<!-- dsref-check: world-size 4 -->\n```json\n{batch}\n```\n") != []


def test_skip_and_a_bad_marker() -> None:
    assert _check("<!-- dsref-check: skip -->\n```json\n{not json at all\n```\n") == []
    problems = _check("<!-- dsref-check: fragmnet x -->\n```json\n{}\n```\n")
    assert problems == [
        "unknown word 'fragmnet' in a dsref-check comment (hf, fragment, expect, world-size, deepspeed-version, skip)"
    ]
    assert _check('```json\n{"a": \n```\n')[0].startswith("DS000")


def test_indented_blocks_in_admonitions_are_found() -> None:
    text = '!!! note\n\n    <!-- dsref-check: fragment fp16 -->\n    ```json\n    {"enabled": true}\n    ```\n'
    found = doccheck.blocks(text)
    assert [(b.marker.fragment, b.text) for b in found] == [("fp16", '{"enabled": true}\n')]


def test_stray_markers_are_found() -> None:
    assert doccheck.stray_markers("<!-- dsref-check: hf -->\n\n```json\n{}\n```\n") == [1]
    assert doccheck.stray_markers("text\n<!-- dsref-check-output -->\n") == [2]
    assert doccheck.stray_markers("```json\n{}\n```\n<!-- dsref-check-output -->\n") == []


# -- the build-time hook ----------------------------------------------------------------------------------------------


def _page(src_uri: str) -> SimpleNamespace:
    return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri), meta={})


def test_check_output_is_replaced_by_the_real_output_in_the_page_language() -> None:
    markdown = (
        "# Page\n\n"
        '```json\n{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 4}\n}\n```\n'
        "<!-- dsref-check-output -->\n\nafter\n"
    )
    english = on_page_markdown(markdown, page=_page("en/guides/x.md"))
    chinese = on_page_markdown(markdown, page=_page("zh/guides/x.md"))
    for out in (english, chinese):
        assert doccheck.OUTPUT_MARKER not in out
        assert "```text\nds_config.json:3:" in out and "[DS204]" in out and out.endswith("after\n")
    assert "error[DS204]" in english and "1 file checked" in english
    assert english != chinese


def test_check_output_inside_an_admonition_keeps_its_indentation() -> None:
    markdown = (
        '!!! example\n\n    <!-- dsref-check: fragment fp16 -->\n    ```json\n    {"enabled": "yes"}\n    ```\n'
        "    <!-- dsref-check-output -->\n"
    )
    out = on_page_markdown(markdown, page=_page("en/x.md"))
    assert "    ```text\n    ds_config.json:1:" in out


def test_generated_pages_get_their_heading_as_title() -> None:
    page = _page("en/reference/fp16.md")
    on_page_markdown("<!-- generated -->\n# `fp16` { .option }\n", page=page)
    assert page.meta["title"] == "fp16"
    assert page_title("no heading") is None


def test_no_stale_generated_page_is_left(generated: dict[Path, bytes]) -> None:
    """A page under a generated folder that the generator no longer writes (a removed option or rule) must go."""
    wanted = set(generated)
    folders = [DOCS / lang / part for lang in ("en", "zh") for part in ("reference", "rules")]
    stale = [_name(p) for folder in folders for p in sorted(folder.rglob("*")) if p.is_file() and p not in wanted]
    assert stale == [], "delete them, then run python scripts/generate.py"


def test_fix_diff_is_replaced_by_what_check_diff_prints() -> None:
    markdown = (
        "# Page\n\n"
        '```json\n{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": true},\n  "amp": {"enabled": true}\n}\n```\n'
        "<!-- dsref-fix-diff: unsafe -->\n\nafter\n"
    )
    english = on_page_markdown(markdown, page=_page("en/guides/x.md"))
    chinese = on_page_markdown(markdown, page=_page("zh/guides/x.md"))
    for out in (english, chinese):
        assert "dsref-fix-diff" not in out and out.endswith("after\n")
        assert "```diff\n--- a/ds_config.json\n+++ b/ds_config.json\n" in out
        assert '\n-  "bfloat16": {"enabled": true},\n' in out and '\n+  "bf16": {"enabled": true}\n' in out
        assert '-  "amp": {"enabled": true}\n' in out
    assert "would fix 2 findings in 1 file" in english and "可修复 2 个问题，涉及 1 个文件" in chinese
    safe_only = on_page_markdown(markdown.replace("dsref-fix-diff: unsafe", "dsref-fix-diff"), page=_page("en/x.md"))
    assert '-  "amp"' not in safe_only and "would fix 1 finding in 1 file" in safe_only


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(DOCS).as_posix() for p in PAGES])
def test_every_fix_diff_in_the_docs_shows_a_change(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    empty = [
        f"{_name(page)}:{block.end_line + 1}: dsref check --diff changes nothing here"
        for block in doccheck.blocks(text, _name(page))
        if block.wants_diff and not doccheck.fix_diff(block, "en")
    ]
    assert empty == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_common_mistakes_table_links_each_mistake_and_each_code(lang: str) -> None:
    """Each row of the table at the top of the guide links to its section, and each code to its rule page."""
    import re

    text = (DOCS / lang / "guides" / "common-mistakes.md").read_text(encoding="utf-8")
    table = text.split("\n|---|---|---|\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(table) >= 15
    for row in table:
        mistake, codes = row.split(" | ")[:2]
        assert re.search(r"\]\(#[a-z0-9_-]+\)", mistake), row
        found = re.findall(r"DS\d{3}", codes)
        assert found and all(f"[{c}](../rules/{c}.md)" in codes for c in found), row


def test_the_guides_follow_the_learning_path_of_the_home_page() -> None:
    """The nav's order of the guides (hooks.GUIDE_ORDER) is the order the home page lists them in, both languages."""
    import re

    from dsref.site.hooks import GUIDE_ORDER

    assert sorted(GUIDE_ORDER) == sorted(p.name for p in (DOCS / "en" / "guides").glob("*.md"))
    for lang in ("en", "zh"):
        home = (DOCS / lang / "index.md").read_text(encoding="utf-8")
        linked = re.findall(r"\]\(guides/([a-z0-9.-]+\.md)\)", home)
        assert list(dict.fromkeys(linked)) == list(GUIDE_ORDER), lang
        assert "<!-- dsref-check-output -->" in home  # the home page shows a config and what dsref check says


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_option_deepspeed_rejects_gets_a_warning_box(lang: str) -> None:
    """A removed option and one only DeepSpeed's docs list (grad_hooks) carry the same kind of box."""
    page = reference.pages(lang)["zero_optimization.md"]  # type: ignore[arg-type]
    for path in ("zero_optimization.grad_hooks", "zero_optimization.zeropp_loco_param"):
        entry = page.split(f"`{path}` {{ .option", 1)[1].split("\n#", 1)[0]
        assert '\n!!! warning "' in entry, path


def test_a_block_that_fails_its_check_fails_the_build_with_page_and_line(caplog: pytest.LogCaptureFixture) -> None:
    markdown = '# Page\n\n<!-- dsref-check: expect DS510 -->\n```json\n{"train_micro_batch_size_per_gpu": 2}\n```\n'
    with caplog.at_level("WARNING", logger="mkdocs.plugins.dsref"):
        on_page_markdown(markdown, page=_page("en/guides/failing-example.md"))
    assert "docs/en/guides/failing-example.md:4: expected DS510, which dsref did not report" in caplog.text


def test_output_and_fix_diff_may_both_follow_a_block() -> None:
    markdown = (
        "# Page\n\n<!-- dsref-check: expect DS202 -->\n"
        '```json\n{"train_micro_batch_size_per_gpu": 2, "bf16": {"enabled": "true"}}\n```\n'
        "<!-- dsref-check-output -->\n<!-- dsref-fix-diff -->\n\nafter\n"
    )
    [block] = doccheck.blocks(markdown)
    assert block.wants_output and block.wants_diff == "safe" and block.markers == 2
    assert doccheck.stray_markers(markdown) == [] and doccheck.still_reported(block) == []
    out = on_page_markdown(markdown, page=_page("en/rules/x.md"))
    assert "dsref-check-output" not in out and "dsref-fix-diff" not in out
    assert out.index("```text\n") < out.index("```diff\n") < out.index("after")


@pytest.mark.parametrize("code", [c for c, *_ in rules.codes() if rules.example_of(c) is not None])
def test_each_example_sets_off_its_code_and_its_repair_clears_it(code: str) -> None:
    """A code's example reports that code (and no other error or warning), and the fix ``dsref check --fix``
    makes, or the repaired config written beside it, no longer reports it (advice included)."""
    example = rules.example_of(code)
    assert example is not None
    profile = "hf" if example.hf else "deepspeed"
    release = example.deepspeed_version
    marker = doccheck.Marker(profile, None, (code, *example.also), example.world_size, False, release)  # type: ignore[arg-type]
    assert doccheck.check(doccheck.Block(example.text, 1, 2, marker)).problems == []
    repaired = example.repaired_text
    if rules.repairing_fix(code, example) is None:
        assert repaired is not None, f"{code}: check --fix does not repair the example; write repaired="
        clean = doccheck.Marker(profile, None, (), example.world_size, False, release)  # type: ignore[arg-type]
        result = doccheck.check(doccheck.Block(repaired, 1, 2, clean))
        assert result.problems == [] and code not in {f.code for f in result.findings}
    else:
        assert repaired is None, f"{code}: check --fix repairs the example; the page shows that, not repaired="


def test_rule_pages_show_their_example_in_both_languages() -> None:
    for lang, title in (("en", "## Example"), ("zh", "## 示例")):
        page = rules.pages(lang)["DS510.md"]  # type: ignore[arg-type]
        assert title in page and "<!-- dsref-check: expect DS510 -->" in page and doccheck.RUN_MARKER in page
        assert "<!-- dsref-fix-diff" in rules.pages(lang)["DS524.md"]  # type: ignore[arg-type]


def test_a_block_can_be_checked_for_another_release() -> None:
    marker = doccheck.parse_marker("deepspeed-version 0.17.6 expect DS304")
    assert marker.deepspeed_version == "0.17.6" and marker.expect == ("DS304",)
    with pytest.raises(doccheck.MarkerError, match="needs a release"):
        doccheck.parse_marker("deepspeed-version latest")
    block = doccheck.blocks(
        '<!-- dsref-check: deepspeed-version 0.17.6 expect DS304 -->\n```json\n{"train_micro_batch_size_per_gpu": 4,'
        ' "bf16": {"enabled": true, "bf16_master_weights_and_grads": true}}\n```\n'
    )[0]
    assert doccheck.check(block).problems == []
    assert "(checking for 0.17.6)" in doccheck.output(block, "en")


def test_every_code_but_five_has_an_example() -> None:
    """DS002 (a key that is not a string) cannot come from a file, nor DS009 (a rule of dsref's own that fails: a
    bug, tested in tests/unit/check/test_check_settings.py); DS561 is about the transformers or accelerate installed
    (an old one; the page is built with the newest), and DS589 and DS613 need a launch besides the config
    (tests/unit/launch/test_launch.py, test_trainer.py); every other code's page shows a config that sets it off."""
    codes = [c for c, *_ in rules.codes() if rules.example_of(c) is None]
    assert codes == ["DS002", "DS009", "DS561", "DS589", "DS613"]
