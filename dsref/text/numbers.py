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
    >>> human_forms(1_048_576, "bytes")
    {'en': '1 MB', 'zh': '1 MB'}
    """
    if unit not in HUMAN_UNITS or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if abs(value) < 10_000:
        return None
    if unit == "bytes":
        size = byte_size(value)
        return {lang: size for lang in LANGUAGES}
    return {lang: human_count(value, lang) for lang in LANGUAGES}


_BYTE_UNITS = ((2**30, "GB"), (2**20, "MB"), (2**10, "KB"))


def byte_size(value: int | float) -> str:
    """A byte count as a size, 1 GB being 2^30 bytes as DeepSpeed prints it: the same in both languages (``16 GB``,
    never 1677万 bytes), one decimal at most.

    >>> byte_size(1_048_576), byte_size(67_108_864), byte_size(1.5 * 2**30), byte_size(65_536)
    ('1 MB', '64 MB', '1.5 GB', '64 KB')
    """
    divisor, name = next(((d, n) for d, n in _BYTE_UNITS if abs(value) >= d), (1, "B"))
    size = round(value / divisor, 1)
    return f"{size:g} {name}"
