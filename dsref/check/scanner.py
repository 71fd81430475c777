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
from collections.abc import Generator, Iterator, Mapping
from dataclasses import field
from typing import Any

from ..records import record
from .positions import Extent, Location, Written

__all__ = [
    "COST_BUDGET",
    "MAX_DEPTH",
    "DuplicateKey",
    "Entries",
    "Scan",
    "ScanError",
    "scan_hjson",
    "scan_json",
    "scan_valid_json",
]

MAX_DEPTH = 2000
"""Deepest nesting the scanners follow. hjson and json recurse and give up near 1000 levels (Python's recursion
limit), so every text a reader accepts stays within it; the cap bounds the memory of the location tuples."""

COST_BUDGET = 250_000_000
"""Work hjson may do in its quadratic steps before a text counts as too costly, in nanoseconds of a 2024 laptop
(about 0.25 s): copying a character costs 1/4, re-matching one as part of a number 3, and one step of
mlscanstring's Python loop 100 (measured with hjson 3.1.0 on CPython 3.11)."""

_Offsets = tuple[str, int, int, int, int]
"""Inside a scan only: ``(form, key_start, key_end, value_start, value_end)``, ``-1`` for no key; a scan hands out
each as a :class:`~dsref.check.positions.Written`."""


def _written(form: str, ks: int, ke: int, vs: int, ve: int) -> Written:
    return Written(form, None if ks < 0 else Extent(ks, ke), Extent(vs, ve))


class Entries(Mapping[Location, Written]):
    """Location → how it is written. A scan of a large config meets thousands of entries and a check looks up a
    few of them, so they are kept as offsets and each becomes a :class:`~dsref.check.positions.Written` when looked
    up (a quarter of the time of a 250 KB check went into building records nobody read)."""

    __slots__ = ("_offsets",)

    def __init__(self, offsets: dict[Location, _Offsets] | None = None) -> None:
        self._offsets = {} if offsets is None else offsets

    def __getitem__(self, location: Location) -> Written:
        return _written(*self._offsets[location])

    def written(self, location: Location) -> Written | None:
        """How ``location`` is written; None when it is not (``Mapping.get`` without its ``KeyError``)."""
        offsets = self._offsets.get(location)
        return None if offsets is None else _written(*offsets)

    def __iter__(self) -> Iterator[Location]:
        return iter(self._offsets)

    def __len__(self) -> int:
        return len(self._offsets)

    def __repr__(self) -> str:
        return f"Entries({len(self)} locations)"


@record
class DuplicateKey:
    """A key written a second time in one object: where the first and the later key stand."""

    location: Location
    first: Extent
    later: Extent


class ScanError(Exception):
    """Why a scan stopped, and where (an offset into the text).

    ``reason`` is ``decode`` for the reader's own syntax errors (``detail`` is its message), or one of
    ``unterminated_comment``, ``unterminated_multiline``, ``multiline_one_line``, ``number_overflow`` and
    ``too_many_digits`` (where hjson crashes with an exception other than its decode error), ``too_deep`` and
    ``too_costly``.
    """

    def __init__(self, reason: str, pos: int, detail: str = "") -> None:
        super().__init__(reason, pos, detail)
        self.reason = reason
        self.pos = pos
        self.detail = detail


@record(frozen=False)
class Scan:
    """What a scanner found: how each location is written, duplicate keys, nesting, or the error that stopped it."""

    entries: Entries = field(default_factory=Entries)
    duplicates: list[DuplicateKey] = field(default_factory=list)
    """In text order."""
    max_depth: int = 0
    deepest: int = 0
    """Offset of the bracket that opened the deepest container."""
    error: ScanError | None = None
    suspect: tuple[int, int] | None = None
    """The last quoteless string value that swallowed a ``,``, ``}`` or ``]`` (hjson reads it to the end of line)."""
    json_reads: bool = False
    """Whether ``json.loads`` is known to read the text: a scan of :func:`scan_valid_json`, which is given only such
    texts."""


class _Node:
    __slots__ = ("children", "form", "ke", "key", "ks", "parent", "ve", "vs")

    def __init__(self, form: str, vs: int, ve: int = -1) -> None:
        self.form = form
        self.vs = vs
        self.ve = ve
        self.ks = -1
        self.ke = -1
        self.key: str | int | None = None
        self.parent: _Node | None = None
        self.children: dict[str | int, _Node] | None = None


_Step = tuple[_Node, int] | Generator[Any, Any, tuple[_Node, int]]


class _Walker:
    """Shared state of one scan: the text, nesting depth, duplicate keys, and the cost of hjson's slow paths."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.depth = 0
        self.max_depth = 0
        self.deepest = 0
        self.cost = 0
        self.duplicates: list[tuple[_Node, str, tuple[int, int], tuple[int, int]]] = []
        self.suspect: tuple[int, int] | None = None

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > self.max_depth:
            self.max_depth, self.deepest = self.depth, pos
        if self.depth > MAX_DEPTH:
            raise ScanError("too_deep", pos)

    def charge(self, cost: int, pos: int) -> None:
        self.cost += cost
        if self.cost > COST_BUDGET:
            raise ScanError("too_costly", pos)

    def add_member(self, parent: _Node, key: str, child: _Node) -> None:
        children = parent.children
        assert children is not None
        earlier = children.get(key)
        if earlier is not None:
            self.duplicates.append((parent, key, (earlier.ks, earlier.ke), (child.ks, child.ke)))
        child.parent, child.key = parent, key
        children[key] = child

    def result(self, root: _Node) -> Scan:
        return Scan(
            entries=_flatten(root),
            duplicates=[
                DuplicateKey((*_location(p), k), Extent(*first), Extent(*later))
                for p, k, first, later in self.duplicates
            ],
            max_depth=self.max_depth,
            deepest=self.deepest,
            suspect=self.suspect,
        )


def _drive(step: _Step) -> tuple[_Node, int]:
    """Run nested container generators with an explicit stack, so depth costs heap, not Python frames."""
    if not isinstance(step, Generator):
        return step
    stack = [step]
    sent: Any = None
    while True:
        try:
            request = stack[-1].send(sent)
        except StopIteration as stop:
            stack.pop()
            if not stack:
                return stop.value
            sent = stop.value
            continue
        stack.append(request)
        sent = None


def _child(step: _Step) -> Generator[Any, Any, tuple[_Node, int]]:
    """A value inside a container: scalars at once, containers through the driver's stack."""
    if isinstance(step, Generator):
        return (yield step)
    return step


def _flatten(root: _Node) -> Entries:
    out: dict[Location, _Offsets] = {}
    stack: list[tuple[Location, _Node]] = [((), root)]
    while stack:
        loc, node = stack.pop()
        out[loc] = (node.form, node.ks, node.ke, node.vs, node.ve)
        if node.children:
            stack.extend(((*loc, k), c) for k, c in reversed(node.children.items()))
    return Entries(out)


def _location(node: _Node) -> Location:
    steps: list[str | int] = []
    while node.parent is not None:
        assert node.key is not None
        steps.append(node.key)
        node = node.parent
    return tuple(reversed(steps))


def _stop(walker: _Walker, exc: BaseException) -> Scan:
    if isinstance(exc, ScanError):
        error = exc
    elif isinstance(exc, json.JSONDecodeError):
        error = ScanError("decode", exc.pos, exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1])))
    else:  # pragma: no cover - a scanner bug; the loader still answers
        error = ScanError("internal", 0, f"{type(exc).__name__}: {exc}")
    return Scan(max_depth=walker.max_depth, deepest=walker.deepest, error=error, suspect=walker.suspect)


def scan_hjson(text: str) -> Scan:
    """Positions of every key and value as ``hjson.loads(text)`` reads them, or why and where it stops
    (:mod:`dsref.check.hjson_scanner`, imported on first use: most files are strict JSON, read without hjson).

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


class _Json(_Walker):
    def document(self) -> Scan:
        s = self.s
        root, end = _drive(self.value(_ws(s, 0)))
        end = _ws(s, end)
        if end != len(s):
            raise json.JSONDecodeError("Extra data", s, end)
        return self.result(root)

    def value(self, idx: int) -> _Step:
        s = self.s
        ch = s[idx : idx + 1]
        if ch == '"':
            _, end = _json_string(s, idx + 1, True)
            return _Node("string", idx, end), end
        if ch == "{":
            return self.object(idx)
        if ch == "[":
            return self.array(idx)
        for word, form in _CONSTANTS.items():
            if s.startswith(word, idx):
                return _Node(form, idx, idx + len(word)), idx + len(word)
        match = _JSON_NUMBER.match(s, idx)
        if match is not None:
            integer, frac, exp = match.groups()
            if not (frac or exp):
                try:
                    int(integer)
                except ValueError as exc:
                    raise ScanError("too_many_digits", idx, str(exc)) from None
            return _Node("number", idx, match.end()), match.end()
        if s.startswith("-Infinity", idx):
            return _Node("number", idx, idx + 9), idx + 9
        raise json.JSONDecodeError("Expecting value", s, idx)

    def object(self, start: int) -> Generator[Any, Any, tuple[_Node, int]]:
        s = self.s
        self.enter(start)
        node = _Node("object", start)
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
            child, end = yield from _child(self.value(_ws(s, end + 1)))
            child.ks, child.ke = key_start, key_end
            self.add_member(node, key, child)
            closed, end = _after_member(s, end, "}")
            if closed:
                break
        node.ve = end
        self.depth -= 1
        return node, end

    def array(self, start: int) -> Generator[Any, Any, tuple[_Node, int]]:
        s = self.s
        self.enter(start)
        node = _Node("array", start)
        items: dict[str | int, _Node] = {}
        node.children = items
        end = _ws(s, start + 1)
        if s[end : end + 1] == "]":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        while True:
            child, end = yield from _child(self.value(end))
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

    >>> scan_json('{"a": 1, "a": 2}').duplicates
    [DuplicateKey(location=('a',), first=Extent(start=1, end=4), later=Extent(start=9, end=12))]
    """
    walker = _Json(text)
    try:
        return walker.document()
    except Exception as exc:
        return _stop(walker, exc)


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

    Only for such texts: it trusts the grammar instead of checking it (``tests/test_loader_fast.py`` compares it
    with the hjson scanner and with :func:`scan_json`).

    >>> scan_valid_json('{"a": [1, "x"], "a": null}').entries[("a",)]
    Written(form='null', key=Extent(start=16, end=19), value=Extent(start=21, end=25))
    """
    entries: dict[Location, _Offsets] = {}
    duplicates: list[tuple[Location, tuple[int, int], tuple[int, int]]] = []
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
                duplicate = (loc, (earlier[1], earlier[2]), (ks, ke))
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
        duplicates=[DuplicateKey(loc, Extent(*first), Extent(*later)) for loc, first, later in duplicates],
        max_depth=max_depth,
        deepest=deepest,
        json_reads=True,
    )
