"""Numbers in and out: what people write (``7B``, ``1.5e9``, ``350M``; ``80GB``, ``1.5TB``) and how a count or a size
is printed in each language, with the limits of what an estimate accepts.

>>> parse_count("1.5e9", "--params"), parse_count("350M", "--params"), parse_bytes("80GB", "--gpu-memory") // GIB
(1500000000, 350000000, 80)
>>> format_bytes(29_750_000_000, "en")
'27.7 GB'
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import TYPE_CHECKING

from .messages import M

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = ["GIB", "EstimateError", "format_bytes", "format_count", "format_number", "parse_bytes", "parse_count"]

GIB = 2**30
"""What a "GB" is here: 2**30 bytes, as DeepSpeed's estimators print it and as GPU memory is sold (80 GB = 80 GiB)."""


MAX_PARAMS = 10**15


MAX_GPUS_PER_NODE = 4096


MAX_NODES = 1_000_000


MAX_BYTES = 2**60


MAX_HIDDEN = 10**6


MAX_LAYERS = 100_000


MAX_SEQ_LEN = 100_000_000


MAX_MICRO_BATCH = 1_000_000


MAX_VOCAB = 100_000_000


MAX_BUFFER_FACTOR = 100.0


class EstimateError(ValueError):
    """Bad input for an estimate: a message key of :data:`M` and its arguments, rendered in the user's language."""

    def __init__(self, key: str, **details: object) -> None:
        super().__init__(M.text(key, "en", **details))
        self.key = key
        self.details = details

    def message(self, lang: Lang) -> str:
        return M.text(self.key, lang, **self.details)


def format_number(value: float, decimals: int, lang: Lang) -> str:
    """The one place a number becomes text: fixed ``decimals``, digits grouped.

    Kept in one function so that it can be routed through Babel's locale-aware formatting.

    >>> format_number(1303.94, 1, "en"), format_number(7, 0, "zh")
    ('1,303.9', '7')
    """
    return f"{value:,.{decimals}f}"


def format_bytes(n: int, lang: Lang) -> str:
    """Bytes as GB (2**30) with one decimal; a figure that would round to 0.0 but is not zero shows as ``< 0.1 GB``.

    >>> format_bytes(29_750_000_000, "en"), format_bytes(1, "en"), format_bytes(0, "en")
    ('27.7 GB', '< 0.1 GB', '0.0 GB')
    """
    gb = n / GIB
    if 0 < gb < 0.05:
        return M.text("bytes_below", lang, n=format_number(0.1, 1, lang))
    return M.text("bytes_gb", lang, n=format_number(gb, 1, lang))


_COUNT_SCALES: tuple[tuple[int, str], ...] = (
    (10**12, "count_T"),
    (10**9, "count_B"),
    (10**6, "count_M"),
    (10**3, "count_K"),
)


def format_count(n: int, lang: Lang) -> str:
    """A parameter count in short form, one decimal at most.

    >>> [format_count(n, "en") for n in (7_000_000_000, 1_500_000_000, 350_000_000, 6_738_415_616, 999)]
    ['7B', '1.5B', '350M', '6.7B', '999']
    """
    for scale, key in _COUNT_SCALES:
        if n >= scale * 0.9995:
            value = n / scale
            decimals = 0 if round(value, 1) == round(value) else 1
            return M.text(key, lang, n=format_number(value, decimals, lang))
    return M.text("count_plain", lang, n=format_number(n, 0, lang))


_NUMBER = re.compile(r"[+-]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?", re.ASCII)


_SPLIT = re.compile(r"\s*(.*?)\s*([A-Za-z]*)\s*", re.ASCII | re.DOTALL)


_COUNT_UNITS = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}


_BYTE_UNITS = {
    "": GIB,
    "B": 1,
    **{f"{p}{suffix}": 1024**i for i, p in enumerate("KMGTP", start=1) for suffix in ("", "B", "IB")},
}


def _decimal(text: str, option: str, bad: str) -> tuple[Decimal, str]:
    match = _SPLIT.fullmatch(text)
    number, unit = (match.group(1), match.group(2)) if match else (text, "")
    if not _NUMBER.fullmatch(number):
        raise EstimateError(bad, option=option, value=text.strip())
    try:
        value = Decimal(number)
    except InvalidOperation:
        raise EstimateError(bad, option=option, value=text.strip()) from None
    return value, unit.upper()


def limit_text(maximum: float) -> str:
    """An upper bound as shown in an error: powers of ten as ``1e15``, others in full.

    >>> limit_text(10**15), limit_text(4096), limit_text(100.0)
    ('1e15', '4,096', '100')
    """
    exponent = math.log10(maximum) if maximum > 0 else 0.5
    if maximum >= 10**6 and exponent == int(exponent):
        return f"1e{int(exponent)}"
    return f"{maximum:,g}" if isinstance(maximum, float) else f"{maximum:,}"


def _checked_int(value: Decimal, option: str, text: str, minimum: int, maximum: int, whole: bool) -> int:
    shown = text.strip()
    if value > maximum:
        raise EstimateError("too_large", option=option, value=shown, maximum=limit_text(maximum))
    rounded = value.to_integral_value(rounding=ROUND_HALF_EVEN)
    if whole and rounded != value:
        raise EstimateError("not_whole", option=option, value=shown)
    if rounded < minimum:
        raise EstimateError("too_small", option=option, value=shown, minimum=minimum)
    return int(rounded)


def parse_count(text: str, option: str, *, minimum: int = 1, maximum: int = MAX_PARAMS, whole: bool = False) -> int:
    """A count as people write it: ``7B``, ``1.5e9``, ``350M``, ``2T``, ``8`` (K, M, B, T: powers of 1000).

    ``whole=True`` refuses fractions (GPU counts); otherwise the value is rounded. Raises :class:`EstimateError`
    for anything that is not a number in ``[minimum, maximum]``.

    >>> parse_count("7b", "--params"), parse_count("1_000", "--params")
    (7000000000, 1000)
    >>> parse_count("7X", "--params")
    Traceback (most recent call last):
    ...
    dsref.estimate.quantities.EstimateError: --params: unknown unit 'X' in '7X'; use one of K, M, B, T
    """
    value, unit = _decimal(text, option, "bad_number")
    scale = _COUNT_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="K, M, B, T")
    if value > Decimal(maximum) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum=limit_text(maximum))
    return _checked_int(value * scale, option, text, minimum, maximum, whole)


def parse_bytes(text: str, option: str) -> int:
    """A memory size: ``80GB``, ``80GiB``, ``512G``, ``1.5TB``; a bare number is GB. Units are powers of 1024.

    >>> parse_bytes("1.5TB", "--cpu-memory") == int(1.5 * 2**40), parse_bytes("80", "--gpu-memory") == 80 * 2**30
    (True, True)
    """
    value, unit = _decimal(text, option, "bad_size")
    scale = _BYTE_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="KB, MB, GB, TB, PB")
    if value > Decimal(MAX_BYTES) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum="1 EiB")
    return _checked_int(value * scale, option, text, 1, MAX_BYTES, whole=False)


def check_int(value: int, option: str, minimum: int, maximum: int) -> int:
    """Library-side check of an already-parsed integer (so that a bad argument never yields a negative figure)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EstimateError("not_whole", option=option, value=value)
    if value < minimum:
        raise EstimateError("too_small", option=option, value=value, minimum=minimum)
    if value > maximum:
        raise EstimateError("too_large", option=option, value=value, maximum=limit_text(maximum))
    return value
