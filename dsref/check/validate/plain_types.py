"""Whether a value is plainly valid for an option, from facts the generator wrote into the check tree.

Most values a config writes are plainly valid: ``true`` for a bool, ``2`` for an int of at least 0, ``"cpu"`` for
one of a few words. The check tree (``dsref/generated/check_tree.py``) holds, for each option, its *plain facts*:
the JSON types it takes, their bounds and allowed values (written by :func:`dsref.generator.check_tree.plain_facts`
from the option's schema when the tree is generated). :func:`judge` reads them and says only this: whether the
value, as written, is of one of those types, within the bounds and among the allowed values. Such a value is
accepted by the option's validator as written, so ``dsref check`` need not build the validator, nor import
pydantic-core, for it.

Every other value (of another type, out of range, a word not allowed, a string DeepSpeed would read as a number)
goes to the installed pydantic-core, which decides both whether it is accepted as written and what DeepSpeed's lax
validation makes of it: nothing here converts a value or knows pydantic-core's errors.

The facts, as JSON data:

* ``{"type": T, ...}`` with ``T`` one of ``null``, ``boolean``, ``integer``, ``number``, ``string``, ``array``,
  ``object``, ``any``; bounds ``gt``, ``ge``, ``lt``, ``le`` (numbers), ``min_length``, ``max_length``
  (strings); ``enum``, the allowed values (strings or ints); ``items`` (an array of one fact), ``prefix_items``
  (an array of so many, one fact each), ``values`` (an object of string keys);
* ``{"any_of": [fact, ...]}``, a union;
* ``"nullable": true`` beside any of those: ``null`` is taken too;
* ``"converted": true``: the validator keeps another object than the value (a ``pathlib.Path`` of a string).

``tests/unit/check/test_plain_types.py`` holds every answer against pydantic-core's, for every option and values of
every
JSON type.
"""

from __future__ import annotations

import math
from typing import Any, Final

__all__ = ["AS_WRITTEN", "CONVERTED", "NOT_PLAIN", "judge"]

NOT_PLAIN: Final = 0
"""Not plainly valid (which says nothing of whether it is valid): the validator decides."""
AS_WRITTEN: Final = 1
"""Plainly valid, and the validator keeps the value as written (an enum member's value is the value)."""
CONVERTED: Final = 2
"""Plainly valid, but the validator keeps another object: a float of an int, a tuple of an array, a path of a
string. Valid as written all the same; what is kept is the validator's to say."""

_I64: Final = 2**63
"""Ints beyond a 64-bit int are left to the validator (pydantic-core releases hold them differently)."""
_SAFE_INT: Final = 2**53
"""An int beyond this is not exactly a float: left to the validator where a number is expected."""


def _clean_text(text: str) -> bool:
    """Whether a string can be written as JSON text: one with a lone surrogate cannot."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _within(fact: dict[str, Any], number: float) -> bool:
    gt, ge, lt, le = fact.get("gt"), fact.get("ge"), fact.get("lt"), fact.get("le")
    return (
        (gt is None or number > gt)
        and (ge is None or number >= ge)
        and (lt is None or number < lt)
        and (le is None or number <= le)
    )


def _all(verdicts: Any) -> int:
    """The verdict of a container from its members': not plain if one is not, converted if one is."""
    worst = AS_WRITTEN
    for verdict in verdicts:
        if verdict == NOT_PLAIN:
            return NOT_PLAIN
        if verdict == CONVERTED:
            worst = CONVERTED
    return worst


_DEEPEST: Final = 32
"""Values nested deeper are left to the validator (which says what it does with a value too deep for it)."""


def judge(fact: dict[str, Any] | None, value: Any, depth: int = 0) -> int:
    """:data:`AS_WRITTEN` or :data:`CONVERTED` where ``value`` is plainly valid by ``fact``, else
    :data:`NOT_PLAIN` (also for no fact at all: an option whose schema the generator could not state plainly)."""
    if fact is None or depth > _DEEPEST:
        return NOT_PLAIN
    if value is None and (fact.get("nullable") or fact.get("type") in ("null", "any")):
        return AS_WRITTEN
    choices = fact.get("any_of")
    if choices is not None:  # plainly valid for one choice; kept as written only if every such choice keeps it
        verdicts = [verdict for choice in choices if (verdict := judge(choice, value, depth)) != NOT_PLAIN]
        return (CONVERTED if CONVERTED in verdicts else AS_WRITTEN) if verdicts else NOT_PLAIN
    if value is None:
        return NOT_PLAIN
    verdict = _of_type(fact, value, depth)
    return CONVERTED if verdict == AS_WRITTEN and fact.get("converted") else verdict


def _of_type(fact: dict[str, Any], value: Any, depth: int) -> int:
    expected = fact.get("type")
    kind = type(value)
    if expected == "boolean":
        return AS_WRITTEN if kind is bool else NOT_PLAIN
    if expected == "integer":
        if kind is not int or not -_I64 < value < _I64 or not _within(fact, value):
            return NOT_PLAIN
        allowed = fact.get("enum")
        return AS_WRITTEN if allowed is None or value in allowed else NOT_PLAIN
    if expected == "number":
        if kind is float:
            return AS_WRITTEN if math.isfinite(value) and _within(fact, value) else NOT_PLAIN
        if kind is int and -_SAFE_INT <= value <= _SAFE_INT and _within(fact, value):
            return CONVERTED  # the validator keeps a float
        return NOT_PLAIN
    if expected == "string":
        if kind is not str or not _clean_text(value):
            return NOT_PLAIN
        allowed = fact.get("enum")
        if allowed is not None:
            return AS_WRITTEN if value in allowed else NOT_PLAIN
        shortest, longest = fact.get("min_length"), fact.get("max_length")
        if (shortest is not None and len(value) < shortest) or (longest is not None and len(value) > longest):
            return NOT_PLAIN
        return AS_WRITTEN
    if expected == "array":
        if kind is not list:
            return NOT_PLAIN
        fixed = fact.get("prefix_items")
        if fixed is not None:  # a tuple: kept as one
            if len(value) != len(fixed):
                return NOT_PLAIN
            verdicts = (judge(each, item, depth + 1) for each, item in zip(fixed, value, strict=True))
            return CONVERTED if _all(verdicts) != NOT_PLAIN else NOT_PLAIN
        items = fact.get("items")
        return _all(judge(items, item, depth + 1) for item in value)
    if expected == "object":
        if kind is not dict or not all(type(key) is str and _clean_text(key) for key in value):
            return NOT_PLAIN
        values = fact.get("values")
        return _all(judge(values, item, depth + 1) for item in value.values())
    if expected == "any":
        return AS_WRITTEN if _json_data(value, depth) else NOT_PLAIN
    return NOT_PLAIN


def _json_data(value: Any, depth: int) -> bool:
    """Whether ``value`` is JSON data any validator of JSON reads as written."""
    if depth > _DEEPEST:
        return False
    kind = type(value)
    if value is None or kind is bool:
        return True
    if kind is int:
        return -_I64 < value < _I64
    if kind is float:
        return math.isfinite(value)
    if kind is str:
        return _clean_text(value)
    if kind is list:
        return all(_json_data(item, depth + 1) for item in value)
    if kind is dict:
        return all(type(key) is str and _clean_text(key) and _json_data(item, depth + 1) for key, item in value.items())
    return False
