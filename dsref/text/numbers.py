"""Numbers shown the way a reader of each language counts: 5e8 is 500M in English and 5亿 in Chinese.

Written as Babel's locale data writes them (English ``en``, Chinese ``zh_Hans_CN``; ``tests/unit/text/test_numbers.py``
compares the two over many values), without Babel: dsref's run-time needs are these few rules, not a locale database.

>>> human_count(500_000_000, "en"), human_count(500_000_000, "zh")
('500M', '5亿')
>>> human_count(50_000_000, "zh"), human_count(1_250_000, "en"), human_count(999_960, "en")
('5000万', '1.2M', '1M')
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext

from .i18n import LANGUAGES, Lang

_SHORT_STEPS: dict[Lang, tuple[tuple[int, str], ...]] = {
    "en": ((10**12, "T"), (10**9, "B"), (10**6, "M"), (10**3, "K")),
    "zh": ((10**12, "万亿"), (10**8, "亿"), (10**4, "万")),
}
"""Each language's short forms, largest first: English counts in thousands, Chinese in ten thousands."""

_TENTH = Decimal("0.1")
_THOUSANDTH = Decimal("0.001")


def _decimal(value: int | float) -> Decimal:
    """The number as a decimal, a float as Python prints it (``0.1`` is 0.1, not the binary fraction near it)."""
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)


def _plain(number: Decimal, grouping: str = "") -> str:
    """Positional notation (never an exponent), without trailing zeros after the point; ``grouping`` is ``","``
    for thousands separators."""
    text = format(number, grouping + "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def human_count(value: int | float, lang: Lang) -> str:
    """A large count in short form (``500M``, ``5亿``), one decimal at most, rounded half to even; a number below the
    first short form is written in full."""
    number = _decimal(value)
    size = abs(number)
    steps = _SHORT_STEPS[lang]
    with localcontext() as context:
        context.prec = max(28, len(str(int(size))) + 4)
        for index, (base, suffix) in enumerate(steps):
            if size < base:
                continue
            short = (size / base).quantize(_TENTH, ROUND_HALF_EVEN)
            if index and short * base >= steps[index - 1][0]:  # rounded up to the next step: 999.96K is 1M
                base, suffix = steps[index - 1]
                short = (size / base).quantize(_TENTH, ROUND_HALF_EVEN)
            return ("-" if number < 0 else "") + _plain(short) + suffix
    return _plain(number)


def grouped(value: int | float, lang: Lang) -> str:
    """A number with digit grouping (``500,000,000``; the same in both languages), three decimals at most."""
    number = _decimal(value)
    with localcontext() as context:
        context.prec = max(28, len(str(int(abs(number)))) + 4)
        return _plain(number.quantize(_THOUSANDTH, ROUND_HALF_EVEN), ",")


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
