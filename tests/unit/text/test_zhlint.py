"""The Chinese text linter (:mod:`dsref.text.zhlint`) on examples of each rule, then over every Chinese text dsref
shows: the catalog, the zh pages, the explain pages and (slow) the zh output of the commands over the corpus."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dsref.text.i18n import option_text
from dsref.text.zhlint import Problem, lint, lint_all
from dsref.tree.index import OptionIndex
from dsref.tree.options import first_sentence
from tests import zhtexts


@pytest.mark.parametrize(
    ("text", "rule", "found"),
    [
        ("- **类型**: `bool`", "halfwidth", "**: "),
        ("取值为正数, 默认 1", "halfwidth", "数, 默"),
        ("见官方文档 (DeepSpeed 这样写)", "halfwidth", "(DeepSpeed"),
        ("它会被忽略。 DeepSpeed 不读", "space", "。 D"),
        ("未知的键 “x”", "space", "键 “"),
        ("只在 stage 1-2 下生效", "range", "1-2"),
        ("常把 beta2 降到 0.95–0.98 以提高稳定性", "range", "0.95–0.98"),
        ("最大的模块有 539M 参数", "count", "539M"),
        ("每卡需要 16G 显存", "bytes", "16G"),
        ("“bf16” 之外还写了 'bfloat16'", "quotes", "' “"),
        ("每个 sub-group 都算一次", "term", "sub-group"),
        ("放进锁页的 staging 区", "english", "staging"),
        ("Comet 要求 32 到 50 个字符", "range", "32 到 50"),
        ("0.17.1 至 0.19.2 的默认值", "range", "0.17.1 至 0.19.2"),
        ("它必须在 1 到 {maximum} 之间", "range", "1 到 {maximum}"),
        ("由训练 数据加载器决定", "spacing", "训练 数"),
        ("**数据并行度** 等于 GPU 数", "spacing", "** 等"),
        ("打印汇总 profile时的深度", "spacing", "profile时"),
        ("与[ZeRO 各 stage 对比](../zero.md)相同", "spacing", "与[ZeRO"),
        ("先把梯度 reduce 到负责它的卡上", "english", "reduce"),  # reduce-scatter is kept whole, reduce is 规约
        ("这一点要 Note 一下", "english", "Note"),  # capitalised, but no English text uses it as a name
    ],
)
def test_each_rule_names_the_line_the_text_and_what_to_write(text: str, rule: str, found: str) -> None:
    problems = [p for p in lint(f"第一行\n{text}", "a.md", line=10) if p.rule == rule]
    assert [(p.where, p.line) for p in problems] == [("a.md", 11)]
    assert found in problems[0].found
    assert problems[0].use
    assert str(problems[0]).startswith(f"a.md:11: [{rule}]")


@pytest.mark.parametrize(
    "text",
    [
        "把 `zero_optimization.stage` 设为 `1-2` 之外的值",  # code
        '示例：\n\n```json\n{"stage": 3, "offload": {"device": "cpu"}}\n```\n',  # a code block
        "请用 --profile hf 检查，或者运行 `dsref check a.json`",  # a command line
        "用 json.dump(config, file) 写出；值为 null 时等同 false",  # a call, JSON literals
        "这个键是“ran out of swap buffers”的来源",  # English quoted verbatim
        "开启激活检查点（gradient checkpointing）之后",  # a gloss after a Chinese term
        "Llama 2 7B 在 8 张卡上；取值 `5e8`（5亿）",  # a model's name; a count in 亿
        "| 默认值 | 作用 |\n|---|---|\n| `true` | 开启。 |",  # a table's cell ends with a space before |
        "打开 *Settings → Languages & Frameworks*",  # a program's own menu, in emphasis
        "The English page stays English: offload, buffers, 1-2, 7B",  # no Chinese at all
        "峰值  放得下  来源",  # a terminal table's column gap
        "合计 70亿参数，用 Adam 和 Hugging Face 的 all-to-all",  # names dsref's English texts use; a hyphenated term
        "从 O0（纯 fp32）到 O3，降到 1 以下",  # 到 that is not a range of numbers
    ],
)
def test_what_is_not_chinese_prose_is_not_judged(text: str) -> None:
    assert lint(text) == []


def _report(problems: list[Problem]) -> str:
    return f"{len(problems)} problems:\n" + "\n".join(str(p) for p in problems[:60])


def test_the_catalog_and_the_pages_follow_the_house_rules() -> None:
    problems = lint_all([*zhtexts.catalog_texts(), *zhtexts.page_texts(), *zhtexts.rule_texts()])
    assert not problems, _report(problems)


def test_the_explain_pages_follow_the_house_rules() -> None:
    # The pages are the catalog's texts hard-wrapped for a terminal: a wrap splits English runs ("round-" "robin")
    # and quoted strings, so words are judged in the catalog, whole, and here only what the renderer adds.
    problems = [p for p in lint_all(zhtexts.explain_texts()) if p.rule != "english"]
    assert not problems, _report(problems)


@pytest.mark.slow
def test_the_commands_output_over_the_corpus_follows_the_house_rules() -> None:
    problems = lint_all(zhtexts.corpus_texts())
    assert not problems, _report(problems)


ALLOWED_CHINESE = {
    "dsref/text/glossary.py": "the glossary is the table of Chinese terms",
    "dsref/text/zhlint.py": "the linter's advice to the developer who broke a rule",
    "dsref/text/punctuation.py": "the marks themselves",
    "dsref/site/units.py": "the words a Chinese page counts in or equates a byte unit with (亿, 等于, 字节)",
    "dsref/text/numbers.py": "the units Chinese counts in (万, 亿, 万亿): locale data, as Babel's was, not a message",
}
"""Modules that may hold Chinese in a string literal (other than a docstring), with the reason."""


def test_every_chinese_string_of_the_code_comes_from_the_catalog() -> None:
    root = Path(__file__).resolve().parents[3]
    found = []
    for path in sorted((root / "dsref").rglob("*.py")):
        where = str(path.relative_to(root))
        if where.startswith("dsref/generated/") or where in ALLOWED_CHINESE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            literal = isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            # a word of two characters or more (one character is a regex's range)
            if literal and re.search(r"[\u4e00-\u9fff]{2}", node.value):
                found.append(f"{where}:{node.lineno}: {node.value[:40]!r}")
    assert not found, "Chinese written in code instead of the catalog:\n" + "\n".join(found)


def _english_sentences(text: str) -> list[str]:
    sentences, rest = [], " ".join(text.split())
    while rest:
        sentence = first_sentence(rest)
        sentences.append(sentence)
        rest = rest[len(sentence) :].strip()
    return sentences


def test_the_chinese_summary_ends_where_the_english_one_does() -> None:
    """A listing, search and the tables show the first sentence of the description as the option's summary, in each
    language: a translation that splits or joins sentences moves the Chinese summary's end (the summary of
    ``stage3_max_reuse_distance`` once said only what happens by default). Every description keeps the English
    sentences one for one."""
    moved = []
    for record in OptionIndex.load():
        if record.summary_is_own or not record.description:
            continue
        chinese = option_text(record.path, record.description, "zh") or ""
        english = _english_sentences(record.description)
        sentences = [s for s in re.split(r"(?<=[。！？])", " ".join(chinese.split())) if s.strip()]
        if len(sentences) != len(english):
            moved.append(
                f"{record.path}: {len(english)} English sentences, {len(sentences)} Chinese; summary “{sentences[0]}”"
            )
    assert not moved, "\n".join(moved)
