"""The Chinese text linter: the house rules of :mod:`.glossary` checked over a text, each problem with its line, the
offending text and what to write instead.

It reads only running text: code (fenced blocks, code spans), link targets, HTML, addresses, message placeholders
(``{name}``), page macros (``{{ … }}``), attribute lists (``{ .option }``) and quoted JSON strings are masked first
(:func:`prose`), so option names, values, JSON and command lines are never judged as Chinese prose. It lives in
:mod:`dsref.text` beside the glossary it enforces because more than the tests read it: the catalog check and the
site's doc checks can call :func:`lint` on any text.

>>> [p.rule for p in lint("类型: 整数，取值 1-3。 DeepSpeed 用 7B 参数")]
['halfwidth', 'space', 'range', 'count']
>>> lint("用 `stage: 1-3` 和 “auto”")
[]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .glossary import KEEP_IN_ENGLISH, TERMS

HAN = r"\u3400-\u9fff\uf900-\ufaff"
"""Chinese characters (CJK unified ideographs, extension A, compatibility)."""
FULL_PUNCT = "。，、；：？！（）"

_CODE = re.compile(
    r"```.*?```|~~~.*?~~~|`[^`\n]*`|\]\([^)\n]*\)|<!--.*?-->|<[A-Za-z/][^>\n]*>|https?://\S+|\{\{.*?\}\}"
    r"|\{[a-z_][a-z_0-9]*(?:![rsa])?(?::[^{}\n]*)?\}|\{ ?[.#][^}\n]*\}|\x1b\[[0-9;]*m",
    re.S,
)
"""What is not running text, even in a Chinese sentence."""
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
"""ASCII-quoted strings: JSON keys and values, or words quoted the English way (judged by the quote rule)."""
MASK = "\x00"
_VERBATIM = re.compile(r"“[\x00-\x7f]*?”|(?<=\[)[\x00-\x7f]*?(?=\]\x00)|^#+ [\x00-\x7f]*$", re.M)
"""English quoted verbatim (“ran out of swap buffers”), an English title of a link or heading: not judged as
English words left in Chinese text."""


@dataclass(frozen=True)
class Problem:
    """One place that breaks a house rule."""

    where: str
    line: int
    rule: str
    found: str
    use: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: [{self.rule}] “{self.found}” → {self.use}"


def _blank(match: re.Match[str]) -> str:
    return "".join("\n" if c == "\n" else MASK for c in match.group())


def prose(text: str, *, quotes: bool = False) -> str:
    """``text`` with everything that is not running text masked (same length, same lines), quoted strings too
    unless ``quotes``."""
    masked = _CODE.sub(_blank, text)
    return masked if quotes else _QUOTED.sub(_blank, masked)


def _avoided() -> list[tuple[re.Pattern[str], str]]:
    found = []
    for term in TERMS:
        for rendering in term.avoid:
            if re.fullmatch(r"[A-Za-z ]+", rendering):  # an English word left in Chinese running text
                pattern = re.compile(rf"(?<![\w.\-\x00]){re.escape(rendering)}(?![\w\-\x00])")
            else:
                pattern = re.compile(re.escape(rendering))
            found.append((pattern, term.chinese[0]))
    return found


_AVOIDED = _avoided()

_H = f"[{HAN}]"
_CHECKS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    # half-width punctuation touching a Chinese character (through emphasis marks), or brackets around Chinese
    ("halfwidth", re.compile(rf"(?<={_H})\**[,;:?](?=\s|$|{_H}|\*)|(?<={_H})\s?\((?=[^()\n]*\))"), "全角标点"),
    # brackets around Chinese words, unless they group a formula (×, /, +, =) or hold a call's arguments
    ("halfwidth", re.compile(rf"(?<![\w\x00])\((?![^()\n]*[×/+=*−])[^()\n]*{_H}[^()\n]*\)"), "全角括号（…）"),
    ("halfwidth", re.compile(rf"[,;:?](?={_H})"), "全角标点"),
    # a space beside full-width punctuation, inside a line
    ("space", re.compile(rf"(?<=[{FULL_PUNCT}]) +(?=[^\s|\x00])|(?<=[^\s\x00|]) +(?=[{FULL_PUNCT}])"), "去掉空格"),
    ("range", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?\s?[-–—~]\s?\d+(?:\.\d+)?(?![\w.\-/\x00])"), "浪纹线：1～3"),
    ("count", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?\s?[KMBT](?![\w\-\x00])"), "以万、亿计：5亿"),
    ("bytes", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?(?:GiB|MiB|KiB|TiB|G|M|K|T|GB|MB|KB|TB)\b"), "16 GB"),
)


def _around(text: str, start: int, end: int) -> str:
    """The offending text with a few characters either side, on its own line."""
    left = max(text.rfind("\n", 0, start) + 1, start - 8)
    right = text.find("\n", end)
    return text[left : min(end + 8, len(text) if right < 0 else right)]


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def lint(text: str, where: str = "", *, line: int = 1) -> list[Problem]:
    """Every problem of one message or page; ``line`` is where ``text`` starts in its file."""
    if not re.search(_H, text):
        return []
    running = prose(text)
    found: list[Problem] = []

    def add(index: int, rule: str, what: str, use: str) -> None:
        found.append(Problem(where, line + _line_of(text, index) - 1, rule, what.strip() or what, use))

    for pattern, use in _AVOIDED:
        for m in pattern.finditer(running):
            add(m.start(), "term", m.group(), use)
    for rule, pattern, use in _CHECKS:
        for m in pattern.finditer(running):
            add(m.start(), rule, _around(text, m.start(), m.end()), use)
    found += [Problem(where, line + n - 1, "quotes", q, "同一条消息只用一种引号：“…”") for n, q in _mixed_quotes(text)]
    verbatim = _VERBATIM.sub(_blank, running)
    for m in re.finditer(r"(?<![\w\x00.\-/'])[A-Za-z][a-z]+(?:[ -][a-z]+)*(?![\w\x00.\-/'])", verbatim):
        words = m.group()
        if not _kept(words):
            add(m.start(), "english", words, "译成中文，或写作代码，或加入 glossary.KEEP_IN_ENGLISH")
    return sorted(set(found), key=lambda p: (p.line, p.rule, p.found))


def _kept(words: str) -> bool:
    """Whether English words are ones Chinese running text keeps: names (capitalised), the glossary's list, or an
    option's key or value (written bare)."""
    return all(w[0].isupper() or w.lower() in KEEP_IN_ENGLISH or w in _option_words() for w in re.split(r"[ -]", words))


@functools.cache
def _option_words() -> frozenset[str]:
    """Every option's key and every allowed string value: names from the config, even when not in backticks."""
    from ..tree.index import OptionIndex

    words: set[str] = set()
    for record in OptionIndex.load():
        words.add(record.key)
        words.update(v for v in record.allowed or () if isinstance(v, str))
    return frozenset(words)


def _mixed_quotes(text: str) -> Iterator[tuple[int, str]]:
    """Lines (paragraphs of a page, or a whole message) that quote words in more than one style."""
    start = 0
    for block in re.split(r"\n\s*\n", text):
        running = prose(block, quotes=True)
        styles = {
            name
            for name, pattern in (
                ("'", r"(?<![\w])'[^'\n\x00]+'(?![\w])"),
                ('"', r'"[^"\n\x00]+"'),
                ("“", r"“[^”\n]+”"),
            )
            if re.search(pattern, running)
        }
        if len(styles) > 1 and re.search(_H, running):
            yield _line_of(text, text.index(block, start)), " ".join(sorted(styles))
        start = text.index(block, start) + len(block)


def lint_all(texts: Iterable[tuple[str, int, str]]) -> list[Problem]:
    """Every problem in ``(where, first line, text)`` triples."""
    return [problem for where, line, text in texts for problem in lint(text, where, line=line)]
