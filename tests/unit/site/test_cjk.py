"""Chinese prose without stray spaces: the line-join rule (``dsref/site/cjk.py``), the Markdown extension that applies
it (``dsref/site/linejoin.py``), the build check that names a break it missed, and every Chinese page rendered with
the site's own Markdown extensions (``mkdocs.yml``), without a site build."""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from dsref.site.cjk import StrayJoin, joins, source_line, stray_joins
from dsref.site.figures import fill
from dsref.site.hooks import on_page_content
from dsref.site.linejoin import LineJoins
from tests import needs

ROOT = Path(__file__).resolve().parents[3]
ZH_PAGES = sorted((ROOT / "docs" / "zh").rglob("*.md"))
MKDOCS_BUILTINS = ["toc", "tables", "fenced_code"]
"""The extensions MkDocs always loads before those ``mkdocs.yml`` names."""


def _markdown() -> Any:
    return needs.module("markdown")


def _render(text: str) -> str:
    """``text`` rendered as the site renders a page, less the line joins' neighbours it does not need."""
    md = _markdown()
    return str(md.markdown(text, extensions=["admonition", "tables", "pymdownx.superfences", LineJoins()]))


@pytest.mark.parametrize(
    ("before", "after", "joined"),
    [
        ("只保存", "这些", True),  # two Chinese characters
        ("状态。", "没有", True),  # after a full-width stop
        ("状态，", "DeepSpeed", True),  # after a full-width comma, whatever follows
        ("DeepSpeed", "（默认）", True),  # before full-width opening punctuation
        ("（默认）", "只", True),
        ("「引用」", "后", True),
        ("仮名", "かな", True),  # Japanese writes no spaces either
        ("使用", "DeepSpeed", False),  # Chinese and Latin keep a space
        ("DeepSpeed", "的", False),
        ("共", "8 张卡", False),  # Chinese and a digit
        ("words", "words", False),  # English
        ("end.", "Next", False),
        ("한국어", "문장", False),  # Korean separates words with spaces
        ("省", "“4 倍”", True),  # a shared quotation mark is as wide as the text across the break
        ("“术语”", "之外", True),
        ("“中”", "“文”", True),
        ("said", "“hello”", False),
        ("“quoted”", "text", False),
        ("“中文”", "English", False),
        ("", "中", False),  # the start of a paragraph, an image, a <br>
        ("中", "", False),
    ],
)
def test_the_join_rule(before: str, after: str, joined: bool) -> None:
    assert joins(before, after) is joined


def test_a_paragraph_joins_chinese_lines_and_keeps_the_space_before_latin() -> None:
    assert _render("每张卡只保存\n这些状态。\n没有别的。\n  DeepSpeed\n会拒绝\n`stage`\n的值") == (
        "<p>每张卡只保存这些状态。没有别的。DeepSpeed\n会拒绝\n<code>stage</code>\n的值</p>"
    )


def test_english_prose_is_left_as_it_is() -> None:
    text = "Each GPU keeps\nonly its part. The rest\n(the states) stay `a\nb` here,\n“quoted”\n— and more…\nto come."
    md = _markdown()
    assert _render(text) == md.markdown(text, extensions=["admonition", "tables", "pymdownx.superfences"])


def test_list_items_tight_and_loose_and_nested() -> None:
    assert _render("- 第一项\n  继续写\n- 第二项\n    - 嵌套的\n      一项\n") == (
        "<ul>\n<li>第一项继续写</li>\n<li>第二项<ul>\n<li>嵌套的一项</li>\n</ul>\n</li>\n</ul>"
    )
    assert _render("1. 第一项\n   继续写\n\n2. 第二项，\n   继续\n") == (
        "<ol>\n<li>\n<p>第一项继续写</p>\n</li>\n<li>\n<p>第二项，继续</p>\n</li>\n</ol>"
    )


def test_blockquotes_and_admonitions() -> None:
    assert _render("> 引用的\n> 一段话。\n") == "<blockquote>\n<p>引用的一段话。</p>\n</blockquote>"
    assert _render('!!! note "注意"\n\n    盒子里的\n    一段话\n') == (
        '<div class="admonition note">\n<p class="admonition-title">注意</p>\n<p>盒子里的一段话</p>\n</div>'
    )


def test_inline_markup_counts_as_the_text_it_shows() -> None:
    assert _render("见 **文档**\n中的说明，[链接\n文字](x.md)与 *强调*\n之后") == (
        '<p>见 <strong>文档</strong>中的说明，<a href="x.md">链接文字</a>与 <em>强调</em>之后</p>'
    )
    assert _render("转义的 \\*\n中文，实体 &lt;\n中文，<span>标签\n</span>内的") == (
        "<p>转义的 *\n中文，实体 &lt;\n中文，<span>标签</span>内的</p>"
    )


def test_code_spans_code_blocks_html_blocks_and_tables_are_never_touched() -> None:
    assert _render("代码 `中\n文` 之外") == "<p>代码 <code>中\n文</code> 之外</p>"
    fenced = _render("前文\n\n```text\n中\n文。\n后\n```\n")
    assert "中\n文。\n后" in fenced
    assert "中\n文。\n后" in _render("前文\n\n    中\n    文。\n    后\n")
    assert _render("<div>\n中\n文\n</div>\n") == "<div>\n中\n文\n</div>"
    assert "<td>中文</td>\n<td>中文</td>" in _render("| 甲 | 乙 |\n|---|---|\n| 中文 | 中文 |\n")
    listed = _render("- 列表\n\n    ```text\n    中\n    文\n    ```\n\n  后面的\n  文字\n")
    assert "中\n文" in listed and "后面的文字" in listed


def test_a_break_beside_an_image_or_a_line_break_is_left() -> None:
    assert _render("图片 ![图](a.png)\n中文") == '<p>图片 <img alt="图" src="a.png" />\n中文</p>'
    assert _render("硬换行  \n中文") == "<p>硬换行<br />\n中文</p>"


def test_the_check_finds_breaks_the_extension_did_not_join() -> None:
    html = (
        "<p>只保存\n这些，\n<code>x\ny</code> 的\nDeepSpeed</p>\n<p>中</p>\n<pre><code>中\n文</code></pre>"
        "<table><tr><td>中\n文</td></tr></table><p>English\nwords</p><ul>\n<li>列表\n项</li>\n</ul>"
    )
    assert stray_joins(html) == [
        StrayJoin("只保存", "这些，"),
        StrayJoin("这些，", "x y 的"),
        StrayJoin("列表", "项"),
    ]
    assert stray_joins(_render("只保存\n这些，\n`x`\n的 DeepSpeed\n\n- 列表\n  项")) == []


def test_the_source_line_of_a_stray_break() -> None:
    source = "# 标题\n\n- 每张卡只保存\n  这些**状态**。\n\n> 见 [文档](a.md#b)\n> 中的说明\n"
    assert source_line(source, StrayJoin("每张卡只保存", "这些状态。")) == 3
    assert source_line(source, StrayJoin("见 文档", "中的说明")) == 6
    assert source_line(source, StrayJoin("不在", "这里")) is None


def test_a_stray_break_fails_the_build_with_page_and_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A break the extension leaves (beside an HTML comment) is a warning, so mkdocs build --strict fails."""
    source = tmp_path / "x.md"
    source.write_text("# 标题\n\n这一行断在 <!-- 注释 -->\n之前，\n<abbr>缩写</abbr>不算\n", encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="zh/guides/x.md", abs_src_path=str(source)))
    html = _render(source.read_text(encoding="utf-8"))
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.dsref"):
        assert on_page_content(html, page=page) == html
    assert caplog.messages == [
        "docs/zh/guides/x.md:3: the line break in “这一行断在⏎之前，缩写不算” shows as a space in Chinese text; "
        "join the two lines (dsref.site.linejoin, in mkdocs.yml, joins all but those beside an HTML comment or an "
        "image)"
    ]


@cache
def _site_markdown() -> Any:
    """A Markdown converter with the extensions the site uses: MkDocs' own, then those of ``mkdocs.yml``."""
    yaml = needs.module("yaml")
    md = _markdown()
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    names: list[str] = list(MKDOCS_BUILTINS)
    settings: dict[str, Any] = {}
    for entry in config["markdown_extensions"]:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, {})
        names.append(name)
        settings[name] = options or {}
    assert "dsref.site.linejoin" in names
    return md.Markdown(extensions=names, extension_configs=settings)


@pytest.mark.slow
@pytest.mark.parametrize("page", ZH_PAGES, ids=[p.relative_to(ROOT / "docs").as_posix() for p in ZH_PAGES])
def test_no_chinese_page_shows_a_stray_space(page: Path) -> None:
    """Every Chinese page, its figures filled in, rendered as the site renders it: no line break shows as a space
    between Chinese text."""
    source = page.read_text(encoding="utf-8")
    md = _site_markdown()
    html = md.reset().convert(fill(source, "zh")[0])
    assert [f"line {source_line(source, stray)}: {stray}" for stray in stray_joins(html)] == []
