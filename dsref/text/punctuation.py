"""The punctuation that joins pieces of text, per language: Chinese text takes full-width marks (``：``, ``（）``,
``、``) where English takes ``: ``, `` ()`` and ``, `` (GB/T 15834; checked by :mod:`dsref.text.zhlint`).

>>> colon("zh"), colon("en")
('：', ': ')
>>> aside("默认值", "旧写法", "zh"), aside("default", "old form", "en")
('默认值（旧写法）', 'default (old form)')
>>> listed(["transformers", "accelerate"], "zh"), listed(["transformers", "accelerate"], "en")
('transformers、accelerate', 'transformers, accelerate')
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .i18n import Lang


def colon(lang: Lang) -> str:
    """What follows a label."""
    return "：" if lang == "zh" else ": "


def aside(text: str, note: str, lang: Lang) -> str:
    """``text`` with ``note`` in brackets after it."""
    return f"{text}（{note}）" if lang == "zh" else f"{text} ({note})"


def listed(items: Iterable[str], lang: Lang) -> str:
    """Items of a list in running text."""
    return ("、" if lang == "zh" else ", ").join(items)


def either(items: Iterable[str], lang: Lang, *, english: str = " / ") -> str:
    """Alternatives (did you mean a or b): Chinese lists them with 、 and puts 或 before the last.

    >>> either(["“a”", "“b”", "“c”"], "zh"), either(["a.x", "b.x"], "zh"), either(["'a'", "'b'"], "en")
    ('“a”、“b”或“c”', 'a.x 或 b.x', "'a' / 'b'")
    """
    return _last_joined(list(items), "或") if lang == "zh" else english.join(items)


def both(items: Iterable[str], lang: Lang, *, english: str = " / ") -> str:
    """Things named together (a and b are two names of one option): Chinese puts 和 before the last.

    >>> both(["“a”", "“b”"], "zh")
    '“a”和“b”'
    """
    return _last_joined(list(items), "和") if lang == "zh" else english.join(items)


def _last_joined(items: list[str], word: str) -> str:
    """Items joined with 、 and ``word`` before the last, spaced from a code name as Chinese text spaces English
    (``a.b 或 c.d``) but not from a Chinese quotation mark (``“a”或“b”``)."""
    if len(items) < 2:
        return "".join(items)
    head, last = "、".join(items[:-1]), items[-1]
    before = " " if head[-1:].isascii() else ""
    after = " " if last[:1].isascii() else ""
    return f"{head}{before}{word}{after}{last}"


def separated(items: Iterable[str], lang: Lang) -> str:
    """Items that are clauses of their own (each with its note)."""
    return ("；" if lang == "zh" else "; ").join(items)


_WIDE = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_FULL_PUNCT = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
_SPACE = re.compile(r"\s+")


def _gap(match: re.Match[str]) -> str:
    text, start, end = match.string, match.start(), match.end()
    before, after = text[start - 1 : start], text[end : end + 1]
    if re.match(f"[{_FULL_PUNCT}]", before) or re.match(f"[{_FULL_PUNCT}]", after):
        return ""
    return "" if re.match(f"[{_WIDE}]", before) and re.match(f"[{_WIDE}]", after) else " "


def collapsed(text: str) -> str:
    """Text with its line breaks and runs of spaces made one space, or none where Chinese is written without one
    (between two Chinese characters, beside full-width punctuation).

    >>> collapsed("第一段。\\n\\n第二段 uses\\n  DeepSpeed"), collapsed("one\\n\\ntwo")
    ('第一段。第二段 uses DeepSpeed', 'one two')
    """
    return _SPACE.sub(_gap, text.strip())


def ranged(text: str, lang: Lang) -> str:
    """A range of numbers written ``1-3`` as the language writes ranges (Chinese: ``1～3``, GB/T 15834).

    >>> ranged("1-3", "zh"), ranged("1-3", "en"), ranged("2", "zh")
    ('1～3', '1-3', '2')
    """
    return re.sub(r"(?<=\d)-(?=\d)", "～", text) if lang == "zh" else text


def quoted(text: str, lang: Lang) -> str:
    """A word or key quoted in running text: ``'x'`` in English, ``“x”`` in Chinese (JSON keeps its own quotes).

    >>> quoted("bf16", "zh"), quoted("bf16", "en")
    ('“bf16”', "'bf16'")
    """
    return f"“{text}”" if lang == "zh" else f"'{text}'"
