"""Numbers shown the way a reader of each language counts: 5e8 is 500M in English and 5亿 in Chinese.

Formatting goes through Babel's locale data (imported only when a number needs it).

>>> human_count(500_000_000, "en"), human_count(500_000_000, "zh")
('500M', '5亿')
>>> human_count(50_000_000, "zh")
'5000万'
"""

from __future__ import annotations

from .i18n import LANGUAGES, Lang

_LOCALES = {"en": "en", "zh": "zh_Hans_CN"}


def human_count(value: int | float, lang: Lang) -> str:
    """A large count in short form (``500M``, ``5亿``), one decimal at most."""
    from babel.numbers import format_compact_decimal

    return format_compact_decimal(value, format_type="short", locale=_LOCALES[lang], fraction_digits=1)


def grouped(value: int | float, lang: Lang) -> str:
    """A number with the locale's digit grouping (``500,000,000``)."""
    from babel.numbers import format_decimal

    return format_decimal(value, locale=_LOCALES[lang])


HUMAN_UNITS = ("elements", "bytes", "parameters")
"""Units whose large values are also shown in short form (``500M``, ``5亿``)."""


def human_forms(value: object, unit: str | None) -> dict[str, str] | None:
    """A large count of ``unit`` in each language's short form; None when it is not a large count.

    >>> human_forms(500_000_000, "elements")
    {'en': '500M', 'zh': '5亿'}
    >>> human_forms(8, "elements") is None, human_forms(5e8, "steps") is None
    (True, True)
    """
    if unit not in HUMAN_UNITS or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if abs(value) < 10_000:
        return None
    return {lang: human_count(value, lang) for lang in LANGUAGES}
