"""The glossary decides how each term reads in Chinese: no Chinese text of dsref (the catalog, every zh page, the
explain pages, what the commands print over the corpus) uses a rendering the glossary rules out."""

from __future__ import annotations

import pytest

from dsref.text.glossary import TERMS, expand
from dsref.text.zhlint import Problem, lint, lint_all
from tests import zhtexts


def test_the_glossary_rules_out_renderings() -> None:
    avoided = {r for term in TERMS for r in term.avoid}
    assert {"归约", "engine", "数据并行大小", "一阶动量", "mode", "type", "workspace", "leaf", "gather"} <= avoided
    assert {"配置块", "sub-group", "buffer", "swap", "preset", "数据并行 GPU 数", "激活内存"} <= avoided
    assert {"Adam 的动量", "动量和方差", "做 checkpoint", "被 checkpoint"} <= avoided


@pytest.mark.parametrize(
    ("text", "use"),
    [
        ("把它放进 NVMe 的 buffer 里", "缓冲区"),
        ("每个 sub-group 各自更新", "子组"),
        ("删掉这个配置块", "配置段"),
        ("沿用 preset 的名字", "预设"),
        ("保存 Adam 的动量", "一阶矩"),
        ("哪些层做 checkpoint 由模型决定", "激活检查点"),
        ("swap 到 NVMe", "交换"),
        ("激活内存随 batch 增长", "激活显存"),
    ],
)
def test_a_ruled_out_rendering_is_named_with_the_one_to_use(text: str, use: str) -> None:
    found = [p for p in lint(text, "a.md", line=7) if p.rule == "term"]
    assert [(p.where, p.line, p.use) for p in found] == [("a.md", 7, use)]


def test_code_and_names_are_not_prose() -> None:
    text = '设置 `buffer_count` 和 `"preset_model": "auto"`，见 [链接](swap.md)，`sub_group_size`；checkpoint 保存模型'
    assert [p for p in lint(text) if p.rule == "term"] == []


def _terms(problems: list[Problem]) -> list[str]:
    return [str(p) for p in problems if p.rule == "term"]


def test_no_catalog_text_or_page_uses_a_ruled_out_rendering() -> None:
    texts = [*zhtexts.catalog_texts(), *zhtexts.page_texts(), *zhtexts.explain_texts(), *zhtexts.rule_texts()]
    found = _terms(lint_all(texts))
    assert not found, f"{len(found)} renderings the glossary rules out:\n" + "\n".join(found[:40])


@pytest.mark.slow
def test_no_command_output_over_the_corpus_uses_a_ruled_out_rendering() -> None:
    found = _terms(lint_all(zhtexts.corpus_texts()))
    assert not found, f"{len(found)} renderings the glossary rules out:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("word", ["规约", "引擎", "数据并行度", "矩估计", "子组", "缓冲区"])
def test_search_knows_the_chosen_terms(word: str) -> None:
    assert len(expand(word)) > 1
