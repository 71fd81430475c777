"""The repairs of the schema's findings, decided from the config's values where :mod:`dsref.check.validate.validation`
finds
them: a string DeepSpeed converts, a string of the wrong type, a deprecated key or form, an unknown key with one
right spelling or one right place, ``"auto"`` where DeepSpeed cannot use it, a removed key.

Each function gets what the check knows (the option, the value, where it is, the whole config) and returns a
:class:`~dsref.check.repairs.Repair`, or None when no repair can be told from the values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ...records import record
from ...schema import UNSET
from ...tree.options import Option
from ..edits import Applicability
from ..positions import Location
from ..repairs import (
    MergeInto,
    MoveMember,
    RemoveMember,
    RenameKey,
    Repair,
    ReplaceMember,
    ReplaceValue,
)

__all__ = [
    "PythonLiteral",
    "auto_dropped",
    "auto_unfilled",
    "coerced",
    "deprecated",
    "python_literal",
    "removed",
    "retyped",
    "unknown_key",
]

_PYTHON_ONLY = {"True": True, "False": False, "None": None}
_PYTHON_LITERALS = {**_PYTHON_ONLY, "true": True, "false": False, "null": None}


def literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def coerced(location: Location, converted: Any) -> Repair:
    """DS202: a string DeepSpeed converts; writing what it converts it to builds the same config (safe)."""
    new = literal(converted)
    return ReplaceValue(
        location=location, applicability=Applicability.safe, title="literal", literal=new, args={"new": new}
    )


@record
class PythonLiteral:
    """A Python literal written where JSON has its own (``True``), as Hjson reads one without quotes: a string, and
    with the comma that ends its line when one follows (``True,`` is the string ``"True,"``)."""

    word: str
    """``True``, ``False`` or ``None``."""
    json: str
    """How JSON writes it: ``true``, ``false``, ``null``."""
    comma: bool
    """Whether the string holds the comma after it."""


def python_literal(value: Any) -> PythonLiteral | None:
    """The Python literal ``value`` is as written, or None.

    >>> python_literal("True,"), python_literal("true") is None
    (PythonLiteral(word='True', json='true', comma=True), True)
    """
    if not isinstance(value, str):
        return None
    text = value.strip()
    comma = text.endswith(",")
    word = text[:-1].rstrip() if comma else text
    if word not in _PYTHON_ONLY:
        return None
    return PythonLiteral(word, literal(_PYTHON_ONLY[word]), comma)


def retyped(opt: Option, location: Location, value: Any, *, refused: bool = False) -> Repair | None:
    """DS201: a value written as a string that reads as the type expected (``"1e-4"``, ``True``): DeepSpeed would
    have used the string, so writing the number or the boolean changes what it does (unsafe). A Python literal
    with the comma Hjson read into it (``True,``) where DeepSpeed refuses the string (``refused``) could only mean
    the literal: written in JSON, with its comma, it is what DeepSpeed converts ``True`` to (safe)."""
    from .values import accepts

    python = python_literal(value)
    if python is not None and python.comma:
        if not accepts(opt, _PYTHON_ONLY[python.word], scalar=True):
            return None
        new = python.json + ","
        applicability = Applicability.safe if refused else Applicability.unsafe
        args = {"new": python.json, "old": python.word}  # the title names the value, not the comma kept after it
        return ReplaceValue(
            location=location, applicability=applicability, title="literal", literal=new, args=args,
            written_as=value,  # without quotes only: in quotes, the comma is the string's and another one follows
        )  # fmt: skip
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text in _PYTHON_LITERALS:
        candidate: Any = _PYTHON_LITERALS[text]
    else:
        try:
            candidate = json.loads(text)
        except (ValueError, RecursionError):
            return None
    if isinstance(candidate, (dict, list)) or not accepts(opt, candidate, scalar=True):
        return None
    keep = text in ("true", "false", "null") or not isinstance(candidate, (bool, type(None)))
    new = text if keep else literal(candidate)  # a number keeps its spelling: "1e-4" becomes 1e-4
    return ReplaceValue(
        location=location, applicability=Applicability.unsafe, title="literal", literal=new, args={"new": new}
    )


def deprecated(
    opt: Option, location: Location, replacement: str | None, use_instead: str | None, config: Mapping[Any, Any]
) -> Repair | None:
    """DS301: the old name renamed, or the old member replaced by what DeepSpeed maps it to (the same config).

    ``replacement`` is the schema's successor of the value as written (JSON text, ``""``: nothing) when it has one;
    ``use_instead`` the dotted path of the option's successor."""
    key = str(location[-1]) if location else ""
    parent = tuple(location[:-1])
    siblings = _keys_at(config, parent)
    if replacement is not None:
        if replacement == "":
            return RemoveMember(
                location=location, applicability=Applicability.safe, title="remove_deprecated", args={"key": key}
            )
        document = json.loads(replacement)
        if not isinstance(document, dict) or len(document) != 1:
            return None
        [(new_key, new_value)] = document.items()
        if location == ("zero_optimization",) and new_value == {"stage": 1} and "allgather_size" in config:
            # DeepSpeed's read_zero_config_deprecated takes the top-level allgather_size as the bucket size of the
            # boolean form (deepspeed/runtime/zero/config.py:60-68): the object form must say so to build the same
            new_value = {"stage": 1, "allgather_bucket_size": config["allgather_size"]}
        if parent and isinstance(new_value, dict) and new_key == parent[-1]:
            return None  # the whole section written as true/false: its value becomes the object
        if new_key in siblings and new_key != key:
            return _merged(location, new_key, new_value, config)
        return ReplaceMember(
            location=location, applicability=Applicability.safe, title="replace_deprecated", new_key=new_key,
            value=new_value, args={"old": key},
        )  # fmt: skip
    if not use_instead or any(isinstance(step, int) for step in location) or opt.meta.replacement:
        return None  # no successor; or one of another shape, which no form of this value matches: not a rename
    head, _, new_key = use_instead.rpartition(".")
    if head != ".".join(str(step) for step in parent):
        return None  # the successor lives elsewhere: moving it is not a rename
    return _rename(location, new_key, siblings, Applicability.safe)


def _merged(location: Location, new_key: str, new_value: Any, config: Mapping[Any, Any]) -> Repair | None:
    """The replacement's section is written already: add its one setting there (unless set) and drop the old key."""
    if not isinstance(new_value, dict) or len(new_value) != 1:
        return None
    target = (*location[:-1], new_key)
    [(inner_key, inner_value)] = new_value.items()
    existing = _value_at(config, target)
    if not isinstance(existing, dict) or inner_key in existing:
        return None  # set there already: which one wins is the user's call (DS305)
    return MergeInto(
        location=location, applicability=Applicability.safe, title="replace_deprecated", target=target,
        key=inner_key, value=inner_value, args={"old": str(location[-1]), "new": literal({new_key: new_value})},
    )  # fmt: skip


def _rename(location: Location, new_key: str, siblings: set[str], applicability: Applicability) -> Repair | None:
    if new_key in siblings:
        return None  # both names written (DS305): which value wins is the user's call
    return RenameKey(
        location=location, applicability=applicability, title="rename", new_key=new_key,
        args={"old": str(location[-1]), "new": new_key},
    )  # fmt: skip


def unknown_key(
    location: Location, refused: bool, suggestions: list[str], elsewhere: list[str], config: Mapping[Any, Any]
) -> Repair | None:
    """DS101: one close spelling → rename it (unsafe: dsref guesses); one right place elsewhere → move it there
    (safe where DeepSpeed refuses the key, since the file could only mean that; unsafe where it ignores it)."""
    if not location or isinstance(location[-1], int):
        return None
    key = str(location[-1])
    if len(suggestions) == 1 and not elsewhere:
        return _rename(location, suggestions[0], _keys_at(config, tuple(location[:-1])), Applicability.unsafe)
    if len(elsewhere) != 1 or suggestions:
        return None
    target_path = elsewhere[0]
    if "<" in target_path or "[" in target_path:
        return None
    steps = target_path.split(".")
    target = tuple(steps[:-1])
    if steps[-1] != key:
        return None
    for depth in range(len(target)):
        if not isinstance(_value_at(config, target[: depth + 1]), dict):
            return None  # the section it belongs in is not written: creating it is the user's decision
    if _value_at(config, (*target, key)) is not UNSET:
        return None
    applicability = Applicability.safe if refused else Applicability.unsafe
    if target:
        return MoveMember(
            location=location, applicability=applicability, title="move", target=target,
            args={"key": key, "target": ".".join(target)},
        )  # fmt: skip
    section = ".".join(str(step) for step in location[:-1])
    return MoveMember(
        location=location,
        applicability=applicability,
        title="move_top",
        target=(),
        args={"key": key, "section": section},
    )


def auto_dropped(location: Location) -> Repair | None:
    """DS401: DeepSpeed drops "auto" and uses the default; removing the key says so (unsafe: Hugging Face fills it)."""
    if not location:
        return None
    return RemoveMember(
        location=location, applicability=Applicability.unsafe, title="remove_auto", args={"key": str(location[-1])}
    )


def auto_unfilled(opt: Option, location: Location) -> Repair | None:
    """DS402: "auto" where DeepSpeed expects a value: the default DeepSpeed uses when the key is absent (unsafe)."""
    default = opt.default
    if default is UNSET or default is None or isinstance(default, dict):
        return None
    new = literal(default)
    return ReplaceValue(
        location=location, applicability=Applicability.unsafe, title="replace_auto", literal=new, args={"new": new}
    )


def removed(location: Location, release: str, *, safe: bool = False) -> Repair | None:
    """DS302: a section or option the release removed (unsafe: what replaces it, if anything, is the user's call;
    ``safe`` where the value did nothing on the releases that read it, a section switched off, a default)."""
    if not location:
        return None
    return RemoveMember(
        location=location, applicability=Applicability.safe if safe else Applicability.unsafe, title="remove_removed",
        args={"key": str(location[-1]), "release": release},
    )  # fmt: skip


def _keys_at(config: Any, location: Location) -> set[str]:
    node = _value_at(config, location)
    return {str(key) for key in node} if isinstance(node, Mapping) else set()


def _value_at(data: Any, location: Location) -> Any:
    """The value written at ``location``, or UNSET when it is not written."""
    for step in location:
        if isinstance(data, Mapping):
            if step not in data:
                return UNSET
            data = data[step]
        elif isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data):
            data = data[step]
        else:
            return UNSET
    return data
