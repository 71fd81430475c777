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


def separated(items: Iterable[str], lang: Lang) -> str:
    """Items that are clauses of their own (each with its note)."""
    return ("；" if lang == "zh" else "; ").join(items)
