"""The glossary decides how each term reads in Chinese: no Chinese text of dsref (the catalog, every zh page) uses a
rendering the glossary rules out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsref.text import catalog as cat
from dsref.text.glossary import TERMS, expand

DOCS_ZH = Path(__file__).resolve().parents[1] / "docs" / "zh"

CODE = re.compile(
    r"```.*?```|`[^`\n]*`|\]\([^)]*\)|<[^>\n]+>|https?://\S+|\{[a-z_]+\}|'[^'\n]*'|\"[^\"\n]*\"|<!--.*?-->", re.S
)
"""What is not running text: code, link targets, HTML, addresses, placeholders, quoted JSON strings."""


def prose(text: str) -> str:
    return CODE.sub(" ", text)


def _pattern(rendering: str) -> re.Pattern[str]:
    if re.fullmatch(r"[A-Za-z ]+", rendering):  # an English word left in Chinese running text
        return re.compile(rf"(?<![\w.-]){re.escape(rendering)}(?![\w.-])")
    return re.compile(re.escape(rendering))


AVOIDED = [(term.english[0], rendering, _pattern(rendering)) for term in TERMS for rendering in term.avoid]


def _chinese_texts() -> list[tuple[str, str]]:
    texts = []
    for message in cat.read_catalog(cat.po_path("zh")):
        if message.id and isinstance(message.string, str) and message.string:
            texts.append((f"catalog {message.context}", message.string))
    for page in sorted(DOCS_ZH.rglob("*.md")):
        if page.name != "glossary.md":  # it names what it rules out
            texts.append((str(page.relative_to(DOCS_ZH)), page.read_text(encoding="utf-8")))
    return texts


def test_the_glossary_rules_out_renderings() -> None:
    assert len(AVOIDED) >= 14
    assert {"归约", "engine", "数据并行大小", "一阶动量", "mode", "type", "workspace", "leaf", "gather"} <= {
        r for _, r, _ in AVOIDED
    }


def test_no_chinese_text_uses_a_rendering_the_glossary_rules_out() -> None:
    found = []
    for where, text in _chinese_texts():
        running = prose(text)
        for english, rendering, pattern in AVOIDED:
            for match in pattern.finditer(running):
                around = running[max(0, match.start() - 15) : match.end() + 15].replace("\n", " ")
                found.append(f"{where}: '{rendering}' for {english!r} in …{around}…")
    assert not found, f"{len(found)} renderings the glossary rules out:\n" + "\n".join(found[:40])


@pytest.mark.parametrize("word", ["规约", "引擎", "数据并行度", "矩估计"])
def test_search_knows_the_chosen_terms(word: str) -> None:
    assert len(expand(word)) > 1
