"""Byte figures in the site's one convention, and the build check that names a figure written in another.

The convention is the estimator's (:func:`dsref.estimate.quantities.format_bytes`, :data:`GIB`) and the glossary's
"sizes in bytes" row: a byte figure is a number, a space and ``KB``, ``MB`` or ``GB``, and these are binary
(2^10, 2^20, 2^30 bytes: DeepSpeed prints GB so, and an "80 GB" GPU holds 80 × 2^30 bytes); the number has a
decimal point, at most one decimal (the estimator's one; a size as sold or as set has none) and commas only to
group thousands in threes. :func:`problems` names, with the line, every figure of a page written otherwise:

* **another name for the same unit**: ``KiB``, ``MiB``, ``GiB``: a page that writes 64 MiB beside 0.9 GB makes
  the reader wonder whether the two differ; write ``64 MB``;
* **a unit the site does not use**: ``TB``, ``TiB``, ``PB``: the estimator states every size in GB (1,024 GB), so
  that any two figures compare at a glance;
* **the wrong letters**: ``kB``, ``Mb``, ``Gb``, ``gb``, ``mb`` (``Gb`` is a gigabit);
* **no space**: ``16GB`` in prose (``--gpu-memory 16GB`` is a command, and commands are code);
* **another decimal convention**: ``0,9 GB`` (a decimal comma), ``0.93 GB`` or ``1.000 GB`` (more than one
  decimal: either false precision or thousands grouped with a point), ``1,00 GB``;
* **a decimal meaning**: a unit equated with a figure that is not its binary size, ``1 GB = 10^9 bytes``,
  ``1 GB = 1000 MB``, ``1 MB is 1e6 bytes`` (``1 GB = 2^30 bytes`` and ``1 GB = 1024 MB`` are the convention);
* **an element count read as decimal bytes**: a figure whose number, read in powers of ten, is a count the same
  line states: ``5e8 elements … 500 MB``, ``5 亿个元素 … 500 MB`` (5e8 16-bit elements are 0.9 GB).

What is not checked: code (fenced blocks and code spans: commands, JSON, messages quoted as printed), HTML comments,
link targets, and quoted text ("500 MB", “500 MB”): a figure a page quotes to correct it is not one it states.
The same rules apply to every message of the catalogs (``tests/unit/site/test_units.py``).

>>> for problem in problems("Needs 14.6 GB; a 64 MiB buffer.\\nA bucket of 5e8 elements is 500 MB, not “500 MB”."):
...     print(problem)
line 1: 64 MiB: write the size as MB (2^20 bytes), the unit the site uses for it
line 2: 500 MB reads the count 5e8 as decimal bytes: it is a number of elements, not of bytes
>>> problems("1 GB = 2^30 bytes = 1024 MB; `--cpu-memory 512GB`; 1,303.9 GB")
[]
"""

from __future__ import annotations

import re
from fractions import Fraction

from .markdown import outside_fences

__all__ = ["BINARY", "problems"]

BINARY = {"KB": 2**10, "MB": 2**20, "GB": 2**30}
"""The units a byte figure is written in, and the bytes each stands for."""

_IEC = {"KiB": "KB", "MiB": "MB", "GiB": "GB"}
_LARGER = frozenset({"TB", "TiB", "PB", "PiB", "Tb", "tb"})
_NUMBER = r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:(?P<sep>[.,])(?P<frac>\d+))?"
_FIGURE = re.compile(rf"(?<![\w.,\-/]){_NUMBER}(?P<space>\s?)(?P<unit>[kKmMgGtTpP]i?[bB])(?![\w])")
_POWER = r"(?:2\s?\^\s?\d+|10\s?\^\s?\d+|10[⁰¹²³⁴⁵⁶⁷⁸⁹]+|2[⁰¹²³⁴⁵⁶⁷⁸⁹]+|\d+(?:\.\d+)?e\d+|\d{1,3}(?:,\d{3})+|\d+)"
_DEFINITION = re.compile(
    rf"(?<![\w.])(?:1\s?)?(?P<unit>[KMG]B)\s*(?:=|is|means|equals|是|等于|即|为)\s*(?P<value>{_POWER})"
    r"\s?(?P<of>bytes?|字节|B|KB|MB)?(?![\w^])"
)
_COUNT = re.compile(
    r"(?<![\w.])(?P<n>\d+(?:\.\d+)?)(?:e(?P<exp>\d+)(?!\w)|\s?(?P<word>thousand|million|billion|万|亿))"
)
_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "万": 10**4, "亿": 10**8}
_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")

_UNIT = re.compile(r"[kKmMgGtTpP]i?[bB](?!\w)")
"""What every figure and definition holds: a line without it is passed over at once."""
_HIDDEN = re.compile(r"`[^`\n]*`|<!--.*?-->|\]\([^)\s]*\)|\"[^\"\n]*\"|“[^”\n]*”|「[^」\n]*」")
"""Code spans, comments, link targets and quotations: text a page shows as written, not figures it states."""


def _lines(markdown: str) -> list[tuple[int, str, str]]:
    """Each line outside fenced code: its number, its text and its text with code, comments, links and
    quotations blanked."""
    return [(number, line, _HIDDEN.sub(lambda m: " " * len(m[0]), line)) for number, line in outside_fences(markdown)]


def _value(text: str) -> Fraction:
    """A number as the pages write it: ``2^30``, ``10⁹``, ``1e9``, ``1,000,000`` or ``1024``."""
    text = text.replace(" ", "")
    raised = re.fullmatch(r"(\d+)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)", text)
    if raised:
        return Fraction(int(raised[1]) ** int(raised[2].translate(_SUPERSCRIPT)))
    if "^" in text:
        base, exponent = text.split("^")
        return Fraction(int(base) ** int(exponent))
    if "e" in text:
        mantissa, exponent = text.split("e")
        return Fraction(mantissa) * 10 ** int(exponent)
    return Fraction(text.replace(",", ""))


def _power(unit: str) -> int:
    return BINARY[unit].bit_length() - 1


def _counts(line: str) -> dict[Fraction, str]:
    """The counts a line states (``5e8``, ``500 million``, ``5 亿``), by value, each as written."""
    found = {}
    for match in _COUNT.finditer(line):
        n = Fraction(match["n"])
        value = n * 10 ** int(match["exp"]) if match["exp"] else n * _WORDS[match["word"]]
        found[value] = match[0]
    return found


def _figure_problem(match: re.Match[str], counts: dict[Fraction, str]) -> str | None:
    figure, unit = match[0].strip(), match["unit"]
    if unit in _IEC:
        unit = _IEC[unit]
        return f"{figure}: write the size as {unit} (2^{_power(unit)} bytes), the unit the site uses for it"
    if unit in _LARGER:
        return f"{figure}: write the size in GB (2^30 bytes), as the estimator states every size"
    if unit not in BINARY:
        return f"{figure}: write the unit as KB, MB or GB ({unit} is another unit or a misspelling)"
    if not match["space"]:
        return f"{figure}: put a space between the number and {unit}"
    if match["sep"] == "," or (match["frac"] is not None and len(match["frac"]) > 1):
        return (
            f"{figure}: write the number with a decimal point and at most one decimal, commas only grouping thousands"
        )
    number = Fraction(match["int"].replace(",", "")) + (Fraction(f"0.{match['frac']}") if match["frac"] else 0)
    decimal = number * {"KB": 10**3, "MB": 10**6, "GB": 10**9}[unit]
    if decimal in counts:
        return f"{figure} reads the count {counts[decimal]} as decimal bytes: it is a number of elements, not of bytes"
    return None


def _definition_problem(match: re.Match[str]) -> str | None:
    of = {"KB": 2**10, "MB": 2**20}.get(match["of"] or "", 1)
    if _value(match["value"]) * of == BINARY[match["unit"]]:
        return None
    unit = match["unit"]
    return f"{match[0].strip()}: a {unit} here is 2^{_power(unit)} bytes (as the estimator counts)"


def problems(markdown: str) -> list[str]:
    """Every byte figure of a page (or a message) written outside the site's convention, as ``line N: …``, in the
    order of the page (the module's docstring says what counts)."""
    found = []
    for number, line, shown in _lines(markdown):
        if not _UNIT.search(shown):
            continue
        counts = _counts(line)
        defined = []
        for match in _DEFINITION.finditer(shown):
            defined.append(match.span())
            problem = _definition_problem(match)
            if problem:
                found.append(f"line {number}: {problem}")
        for match in _FIGURE.finditer(shown):
            if any(start <= match.start() < end for start, end in defined):
                continue
            problem = _figure_problem(match, counts)
            if problem:
                found.append(f"line {number}: {problem}")
    return found
