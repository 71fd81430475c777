"""A Chinese heading takes its English twin's id (dsref/site/headings.py); where the two pages part, the build
says so with the page and line."""

from __future__ import annotations

from dsref.site.headings import differences, headings, with_ids

EN_IDS = ["getting-started", "a-config-to-start-from", "what-next"]
ZH = "# 入门\n\n正文\n\n## 一份起步的配置\n\n```python\n# 不是标题\n```\n\n## 接下来 { .note }\n"


def test_each_heading_takes_the_id_in_the_same_place_of_the_twin() -> None:
    written = with_ids(ZH, EN_IDS)
    assert "# 入门 {#getting-started}" in written
    assert "## 一份起步的配置 {#a-config-to-start-from}" in written
    assert "## 接下来 { #what-next .note }" in written
    assert "# 不是标题\n" in written  # a comment in code is no heading
    assert written.count("\n") == ZH.count("\n")  # the source's line numbers hold


def test_pages_that_part_are_left_alone_and_reported_with_the_line() -> None:
    assert with_ids(ZH, EN_IDS[:2]) == ZH
    zh_ids = ["getting-started", "_1", "what-next"]
    problems = differences(ZH, zh_ids, EN_IDS, "docs/en/x.md")
    assert problems[0].startswith("line 5: heading #_1 has no twin in docs/en/x.md")
    assert problems[1] == "line 1: docs/en/x.md has headings this page lacks: #a-config-to-start-from"
    assert differences(with_ids(ZH, EN_IDS), EN_IDS, EN_IDS, "docs/en/x.md") == []


def test_option_headings_keep_their_path_and_deep_headings_are_not_counted() -> None:
    text = "## `a.b` { .option }\n\n##### deep\n"
    assert [h.line for h in headings(text)] == [1]
    assert with_ids(text, ["other"]) == text
