"""Numbers in and out: what people write (``7B``, ``1.5e9``, ``350M``; ``80GB``, ``1.5TB``) and how a count or a size
is printed in each language, with the limits of what an estimate accepts.

>>> parse_count("1.5e9", Param.params), parse_count("350M", Param.params), parse_bytes("80GB", Param.gpu_memory) // GIB
(1500000000, 350000000, 80)
>>> format_bytes(29_750_000_000, "en")
'27.7 GB'
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from enum import Enum
from typing import TYPE_CHECKING, Literal

from ..records import record
from ..text.numbers import human_count
from .messages import M

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = [
    "GIB",
    "EstimateError",
    "MixedPrecision",
    "OffloadDevice",
    "Param",
    "Phrase",
    "Precision",
    "describe",
    "format_bytes",
    "format_count",
    "format_number",
    "number_text",
    "parse_bytes",
    "parse_count",
]

OffloadDevice = Literal["none", "cpu", "nvme"]
"""Where ZeRO keeps what it offloads (``offload_optimizer.device``, ``offload_param.device``): nowhere, CPU memory or
NVMe. The one name for it in the estimator, the site's figures and the fit tables."""

Precision = Literal["bf16", "fp16", "fp32"]
"""What a run trains in: bf16 or fp16 mixed precision (16-bit weights and gradients, fp32 master copy and optimizer
states), or fp32 throughout."""

MixedPrecision = Literal["bf16", "fp16"]
"""The precisions with a 16-bit copy of the model: what DeepSpeed's estimators and the suggested configs assume."""

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


class Param(str, Enum):
    """An input of the estimate's functions, by its parameter name: what an :class:`EstimateError` is about.

    The library names a parameter as Python callers write it (``seq_len``); a face that takes the value under
    another name says that name instead (the command line's ``--seq-len``, see :meth:`EstimateError.message`).
    """

    params = "params"
    largest_layer = "largest_layer"
    hidden_size = "hidden_size"
    vocab_size = "vocab_size"
    layers = "layers"
    heads = "heads"
    seq_len = "seq_len"
    micro_batch = "micro_batch"
    gradient_accumulation = "gradient_accumulation"
    gpus_per_node = "gpus_per_node"
    nodes = "nodes"
    buffer_factor = "buffer_factor"
    gpu_memory = "gpu_memory"
    cpu_memory = "cpu_memory"
    reserve_percent = "reserve_percent"
    attention = "attention"
    reduce_bucket_size = "reduce_bucket_size"
    allgather_bucket_size = "allgather_bucket_size"
    prefetch_bucket_size = "prefetch_bucket_size"
    sub_group_size = "sub_group_size"


@record
class Phrase:
    """Part of a message that is itself a message of :data:`M` (``the text "4096"``), said in the message's
    language."""

    key: str
    args: Mapping[str, object] = field(default_factory=dict)

    def text(self, lang: Lang) -> str:
        return M.text(self.key, lang, **self.args)


class EstimateError(ValueError):
    """Bad input for an estimate: a message key of :data:`M` and its arguments, rendered in the user's language.

    An argument that is a :class:`Param` is the name of an input, said as the caller names it (see :meth:`message`);
    ``parameter`` is the first of them, the input at fault. ``field`` is where in the file the value at fault is
    written, as keys from its top (``("text_config", "hidden_size")``), when it comes from a Hugging Face model
    config or a DeepSpeed config rather than an argument.

    >>> error = EstimateError("too_small", option=Param.seq_len, value=0, minimum=1)
    >>> error.parameter, str(error), error.message("en", {"seq_len": "--seq-len"})
    (<Param.seq_len: 'seq_len'>, 'seq_len must be at least 1, got 0', '--seq-len must be at least 1, got 0')
    """

    def __init__(self, key: str, *, field: tuple[str, ...] | None = None, **details: object) -> None:
        self.key = key
        self.details = details
        self.field = field
        self.parameter = next((value for value in details.values() if isinstance(value, Param)), None)
        super().__init__(self.message("en"))

    def message(self, lang: Lang, names: Mapping[str, str] | None = None) -> str:
        """The message in ``lang``, each :class:`Param` said as ``names`` has it, by its value (its parameter name
        otherwise)."""
        args = {}
        for name, value in self.details.items():
            if isinstance(value, Param):
                value = (names or {}).get(value.value, value.value)
            elif isinstance(value, Phrase):
                value = value.text(lang)
            args[name] = value
        return M.text(self.key, lang, **args)


_LONG = 30
"""Digits beyond which an integer is described by its length: no input has so many, and Python refuses to write one
of more than 4,300 digits as text."""


def number_text(value: int) -> str | Phrase:
    """An integer as a message shows it; one too long to read (or to convert) as the number of its digits.

    >>> number_text(4096), number_text(10**5000).args
    ('4096', {'digits': '5,001'})
    """
    size = abs(value)
    if size < 10**_LONG:
        return str(value)
    digits = int(math.log10(size)) + 1  # log10 of an int of any length, no conversion to text
    digits += (size >= 10**digits) - (size < 10 ** (digits - 1))  # the float may round across a power of ten
    return Phrase("value_digits", {"digits": f"{digits:,}"})


def describe(value: object) -> Phrase:
    """A JSON value as a message shows it, saying its type where the type may be what is wrong.

    >>> [describe(v).text("en") for v in ("4096", 4096.5, 4096, None, [1])]
    ['the text "4096"', 'the number 4096.5', '4096', 'null', 'an array']
    >>> [describe(v).text("zh") for v in ("4096", True)]
    ['字符串 "4096"', '布尔值 true']
    """
    if value is None:
        return Phrase("value_null")
    if isinstance(value, bool):
        return Phrase("value_bool", {"text": json.dumps(value)})
    if isinstance(value, int):
        shown = number_text(value)
        return shown if isinstance(shown, Phrase) else Phrase("value_integer", {"text": shown})
    if isinstance(value, float):
        return Phrase("value_number", {"text": json.dumps(value)})
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:39] + "…"
        return Phrase("value_string", {"text": json.dumps(shown, ensure_ascii=False)})
    if isinstance(value, Mapping):
        return Phrase("value_object")
    if isinstance(value, (list, tuple)):
        return Phrase("value_array")
    return Phrase("value_other", {"kind": type(value).__name__})


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

    Chinese counts in 万 and 亿, as every Chinese text of dsref does (``docs/zh/glossary.md``):

    >>> [format_count(n, "zh") for n in (7_000_000_000, 6_738_415_616, 38_600_000, 999)]
    ['70亿', '67.4亿', '3860万', '999']
    """
    if lang == "zh" and n >= 10_000:
        return human_count(n, lang)
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


def _decimal(text: str, option: Param, bad: str) -> tuple[Decimal, str]:
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


def _checked_int(value: Decimal, option: Param, text: str, minimum: int, maximum: int, whole: bool) -> int:
    shown = text.strip()
    if value > maximum:
        raise EstimateError("too_large", option=option, value=shown, maximum=limit_text(maximum))
    rounded = value.to_integral_value(rounding=ROUND_HALF_EVEN)
    if whole and rounded != value:
        raise EstimateError("not_whole", option=option, value=shown)
    if rounded < minimum:
        raise EstimateError("too_small", option=option, value=shown, minimum=minimum)
    return int(rounded)


def parse_count(text: str, option: Param, *, minimum: int = 1, maximum: int = MAX_PARAMS, whole: bool = False) -> int:
    """A count as people write it: ``7B``, ``1.5e9``, ``350M``, ``2T``, ``8`` (K, M, B, T: powers of 1000).

    ``whole=True`` refuses fractions (GPU counts); otherwise the value is rounded. Raises :class:`EstimateError`
    for anything that is not a number in ``[minimum, maximum]``.

    >>> parse_count("7b", Param.params), parse_count("1_000", Param.params)
    (7000000000, 1000)
    >>> parse_count("7X", Param.params)
    Traceback (most recent call last):
    ...
    dsref.estimate.quantities.EstimateError: params: unknown unit 'X' in '7X'; use one of K, M, B, T
    """
    value, unit = _decimal(text, option, "bad_number")
    scale = _COUNT_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="K, M, B, T")
    if value > Decimal(maximum) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum=limit_text(maximum))
    return _checked_int(value * scale, option, text, minimum, maximum, whole)


def parse_bytes(text: str, option: Param) -> int:
    """A memory size: ``80GB``, ``80GiB``, ``512G``, ``1.5TB``; a bare number is GB. Units are powers of 1024.

    >>> parse_bytes("1.5TB", Param.cpu_memory) == int(1.5 * 2**40), parse_bytes("80", Param.gpu_memory) == 80 * 2**30
    (True, True)
    """
    value, unit = _decimal(text, option, "bad_size")
    scale = _BYTE_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="KB, MB, GB, TB, PB")
    if value > Decimal(MAX_BYTES) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum="1 EiB")
    return _checked_int(value * scale, option, text, 1, MAX_BYTES, whole=False)


def check_int(value: int, option: Param, minimum: int, maximum: int) -> int:
    """Library-side check of an already-parsed integer (so that a bad argument never yields a negative figure)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EstimateError("not_whole", option=option, value=describe(value))
    if value < minimum:
        raise EstimateError("too_small", option=option, value=number_text(value), minimum=minimum)
    if value > maximum:
        raise EstimateError("too_large", option=option, value=number_text(value), maximum=limit_text(maximum))
    return value
