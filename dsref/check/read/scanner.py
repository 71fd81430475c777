"""Where each key and value of a config text sits: position scanners that walk the text as its reader does.

The loader takes the *values* from the reader itself (``hjson`` for DeepSpeed, ``json`` for Hugging Face); this
module only finds offsets. :func:`scan_hjson` drives hjson 3.1's own lexical functions (``getNext``,
``scanKeyName``, ``scanstring``, ``mlscanstring``, ``scantfnns``) in the order and with the branches of
``HjsonDecoder.decode``, so that it accepts what hjson accepts and meets the same keys, but with an explicit stack
instead of hjson's recursion: nesting is limited by :data:`MAX_DEPTH`, not by Python's stack. It also prices the
hjson steps whose cost grows with the square of a line's length (a quoteless value re-checked at every ``,`` of a
long line; a ``'''`` string looking back for its indentation), so that the loader can refuse such a text before
hjson spends minutes on it. :func:`scan_json` does the same for strict JSON with ``json``'s own string scanner and
number pattern.

Offsets are indices into the text; the loader turns them into lines and columns.

>>> scan = scan_hjson('{\\n  stage: 3 // comment\\n}')
>>> scan.entries[("stage",)]
Written(form='number', key=Extent(start=4, end=9), value=Extent(start=11, end=12))
>>> scan_json('{"a": [1, "x"]}').entries[("a", 1)]
Written(form='string', key=None, value=Extent(start=10, end=13))
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from collections.abc import Generator
from typing import Any

from ..positions import Extent, Location
from .walker import (
    DuplicateKey,
    Entries,
    Node,
    Offsets,
    Scan,
    ScanError,
    Step,
    Walker,
    contained,
    drive,
    stopped,
)

__all__ = ["scan_hjson", "scan_json", "scan_valid_json"]


def scan_hjson(text: str) -> Scan:
    """Positions of every key and value as ``hjson.loads(text)`` reads them, or why and where it stops
    (:mod:`dsref.check.read.hjson_scanner`, imported on first use: most files are strict JSON, read without hjson).

    >>> scan_hjson("a: 1\\nb: [\\n  x\\n  'y'\\n]").entries[("b", 0)]
    Written(form='quoteless_string', key=None, value=Extent(start=12, end=13))
    """
    from .hjson_scanner import scan

    return scan(text)


# --- strict JSON, as json.loads reads it -------------------------------------------------------------------------

_WHITESPACE = re.compile(r"[ \t\n\r]*")  # json.decoder.WHITESPACE


def _ws(s: str, pos: int) -> int:
    """Offset after the JSON whitespace at ``pos``."""
    match = _WHITESPACE.match(s, pos)
    return pos if match is None else match.end()


_JSON_NUMBER = json.scanner.NUMBER_RE
_json_string = json.decoder.scanstring  # type: ignore[attr-defined]
_CONSTANTS = {"null": "null", "true": "boolean", "false": "boolean", "NaN": "number", "Infinity": "number"}


class _Json(Walker):
    def document(self) -> Scan:
        s = self.s
        root, end = drive(self.value(_ws(s, 0)))
        end = _ws(s, end)
        if end != len(s):
            raise json.JSONDecodeError("Extra data", s, end)
        return self.result(root)

    def value(self, idx: int) -> Step:
        s = self.s
        ch = s[idx : idx + 1]
        if ch == '"':
            _, end = _json_string(s, idx + 1, True)
            return Node("string", idx, end), end
        if ch == "{":
            return self.object(idx)
        if ch == "[":
            return self.array(idx)
        for word, form in _CONSTANTS.items():
            if s.startswith(word, idx):
                return Node(form, idx, idx + len(word)), idx + len(word)
        match = _JSON_NUMBER.match(s, idx)
        if match is not None:
            integer, frac, exp = match.groups()
            if not (frac or exp):
                try:
                    int(integer)
                except ValueError as exc:
                    raise ScanError("too_many_digits", idx, str(exc)) from None
            return Node("number", idx, match.end()), match.end()
        if s.startswith("-Infinity", idx):
            return Node("number", idx, idx + 9), idx + 9
        raise json.JSONDecodeError("Expecting value", s, idx)

    def object(self, start: int) -> Generator[Any, Any, tuple[Node, int]]:
        s = self.s
        self.enter(start)
        node = Node("object", start)
        node.children = {}
        end = _ws(s, start + 1)
        if s[end : end + 1] == "}":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        while True:
            if s[end : end + 1] != '"':
                raise json.JSONDecodeError("Expecting property name enclosed in double quotes", s, end)
            key_start = end
            key, end = _json_string(s, end + 1, True)
            key_end = end
            end = _ws(s, end)
            if s[end : end + 1] != ":":
                raise json.JSONDecodeError("Expecting ':' delimiter", s, end)
            child, end = yield from contained(self.value(_ws(s, end + 1)))
            child.ks, child.ke = key_start, key_end
            self.add_member(node, key, child)
            closed, end = _after_member(s, end, "}")
            if closed:
                break
        node.ve = end
        self.depth -= 1
        return node, end

    def array(self, start: int) -> Generator[Any, Any, tuple[Node, int]]:
        s = self.s
        self.enter(start)
        node = Node("array", start)
        items: dict[str | int, Node] = {}
        node.children = items
        end = _ws(s, start + 1)
        if s[end : end + 1] == "]":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        while True:
            child, end = yield from contained(self.value(end))
            child.parent, child.key = node, len(items)
            items[len(items)] = child
            closed, end = _after_member(s, end, "]")
            if closed:
                break
        node.ve = end
        self.depth -= 1
        return node, end


def _after_member(s: str, end: int, close: str) -> tuple[bool, int]:
    """After a JSON member or item: (True, past the closing bracket) or (False, at the next one), as json does."""
    end = _ws(s, end)
    ch = s[end : end + 1]
    end += 1
    if ch == close:
        return True, end
    if ch != ",":
        raise json.JSONDecodeError("Expecting ',' delimiter", s, end - 1)
    return False, _ws(s, end)


def scan_json(text: str) -> Scan:
    """Positions of every key and value as ``json.loads(text)`` reads them, or why and where it stops.

    >>> scan_json('{"a": 1, "a": 2}').duplicates  # doctest: +NORMALIZE_WHITESPACE
    [DuplicateKey(location=('a',), first=Extent(start=1, end=4), later=Extent(start=9, end=12),
                  first_value=Extent(start=6, end=7))]
    """
    walker = _Json(text)
    try:
        return walker.document()
    except Exception as exc:
        return stopped(walker, exc)


# --- text json has already read ------------------------------------------------------------------------------------

_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # a JSON string: no quote inside but an escaped one
_TOKEN = re.compile(
    rf"[ \t\n\r,]*(?:({_STRING})[ \t\n\r]*:[ \t\n\r]*)?"
    rf'(?:({_STRING})|(\{{)|(\[)|([}}\]])|(true|false)|(null)|([^ \t\n\r{{}}\[\],:"]+))'
)
"""One value of a text ``json.loads`` has accepted, with the separators before it and, in an object, its key and
colon: a string followed by ``:`` can only be a key. Group 1 is the key (none for the root and list items); the
group that closed last (``lastindex``) says what the value is: one of :data:`_FORMS`, or :data:`_CLOSING` where a
container ends. A key and its value are one match, and each form has its group, so the Python loop below turns once
per value and asks the match little: the regular expression reads the text in C, and each question the loop asks a
match costs as much as a few characters of matching."""
_KEY, _OBJECT, _ARRAY, _CLOSING = 1, 3, 4, 5
_FORMS = {2: "string", _OBJECT: "object", _ARRAY: "array", 6: "boolean", 7: "null", 8: "number"}
"""The form of a value by its group; any other bare word json.loads reads is a number (``NaN``, ``-Infinity``)."""


def scan_valid_json(text: str) -> Scan:
    """What :func:`scan_json` finds, for a text ``json.loads`` has already accepted, in one pass of a tokenizer.

    Only for such texts: it trusts the grammar instead of checking it (``tests/unit/check/test_loader_fast.py``
    compares it
    with the hjson scanner and with :func:`scan_json`).

    >>> scan_valid_json('{"a": [1, "x"], "a": null}').entries[("a",)]
    Written(form='null', key=Extent(start=16, end=19), value=Extent(start=21, end=25))
    """
    entries: dict[Location, Offsets] = {}
    duplicates: list[tuple[Location, tuple[int, int], tuple[int, int], tuple[int, int]]] = []
    # The open containers, innermost last, each as (its location, items counted so far if an array, its entry
    # without the end, the duplicate-key record of its own key, reported when it closes as the walkers do).
    stack: list[tuple[Location, int, tuple[str, int, int, int], Any]] = []
    top: Location | None = None  # the innermost open container's location; None outside the root
    count = 0
    opened: tuple[str, int, int, int] = ("", -1, -1, -1)
    pending: Any = None
    max_depth = deepest = 0
    for match in _TOKEN.finditer(text):
        kind = match.lastindex
        if kind == _CLOSING:
            entries[top] = (*opened, match.end())  # type: ignore[index]
            if pending is not None:
                duplicates.append(pending)
            top, count, opened, pending = stack.pop()
            continue
        # a value starts: where it sits, and whether its key was written before in the same object
        ks, ke = match.span(_KEY)  # (-1, -1) where there is no key
        duplicate = None
        if ks >= 0:
            key = text[ks + 1 : ke - 1]
            if "\\" in key:
                key = json.loads(text[ks:ke])
            loc: Location = (*top, key)  # type: ignore[misc]
            earlier = entries.get(loc)
            if earlier is not None:  # the later value replaces the earlier one, and all below it
                duplicate = (loc, (earlier[1], earlier[2]), (ks, ke), (earlier[3], earlier[4]))
                for old in [k for k in entries if k[: len(loc)] == loc]:
                    del entries[old]
        elif top is None:
            loc = ()
        else:
            loc = (*top, count)
            count += 1
        vs, ve = match.span(kind)  # type: ignore[arg-type]
        form = _FORMS.get(kind, "number")  # type: ignore[arg-type]
        if kind in (_OBJECT, _ARRAY):  # a container opens
            entries[loc] = (form, ks, ke, vs, -1)
            stack.append((top, count, opened, pending))  # type: ignore[arg-type]
            top, count, opened, pending = loc, 0, (form, ks, ke, vs), duplicate
            if len(stack) > max_depth:
                max_depth, deepest = len(stack), vs
            continue
        entries[loc] = (form, ks, ke, vs, ve)
        if duplicate is not None:
            duplicates.append(duplicate)
    return Scan(
        entries=Entries(entries),
        duplicates=[
            DuplicateKey(loc, Extent(*first), Extent(*later), Extent(*value)) for loc, first, later, value in duplicates
        ],
        max_depth=max_depth,
        deepest=deepest,
        json_reads=True,
    )
