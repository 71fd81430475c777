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
from dataclasses import dataclass, field
from typing import Any

from hjson.decoder import HjsonDecoder, getNext, mlscanstring, scanKeyName, scanstring, scantfnns
from hjson.scanner import HjsonDecodeError

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

    def __iter__(self) -> Iterator[Location]:
        return iter(self._offsets)

    def __len__(self) -> int:
        return len(self._offsets)

    def __repr__(self) -> str:
        return f"Entries({len(self)} locations)"


@dataclass(frozen=True)
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


@dataclass
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


# --- Hjson, as hjson 3.1.0's HjsonDecoder reads it -------------------------------------------------------------

_HJSON = HjsonDecoder()  # parse_int/parse_float for scantfnns, as hjson.loads configures them
_PUNCTUATION = re.compile(r"[,}\]#]|/[/*]")  # where scantfnns stops to test for a number or keyword
_NUMBER = re.compile(r"[\t ]*(-?(?:0|[1-9]\d*))(\.\d+)?([eE][-+]?\d+)?[\t ]*")  # hjson.decoder.NUMBER_RE
_KEYWORDS = {"n": "null", "t": "true", "f": "false"}


_LINE_END = re.compile(r"[\r\n]")


def _eol(s: str, pos: int) -> int:
    match = _LINE_END.search(s, pos)
    return len(s) if match is None else match.start()


def _stops_at(s: str, pos: int) -> bool:
    """Whether scantfnns, testing the text before ``pos``, would be at a punctuator or the end of the line."""
    return pos >= len(s) or s[pos] in "\r\n" or _PUNCTUATION.match(s, pos) is not None


def _quoteless_cost(s: str, begin: int) -> int:
    """Work scantfnns does on a quoteless value starting at ``begin`` (in :data:`COST_BUDGET` units).

    At each punctuator before the end of line it slices ``s[begin:here]`` (values starting with n, t, f) or
    re-matches the number pattern from ``begin`` (values starting with a digit or ``-``); it stops early only
    when the text so far is exactly a keyword or number. Any other value costs one step per character.
    """
    chf = s[begin]
    keyword = _KEYWORDS.get(chf)
    if keyword is not None:
        if s.startswith(keyword, begin):
            stop = begin + len(keyword)
            while stop < len(s) and s[stop] not in "\r\n" and s[stop].isspace():
                stop += 1
            if _stops_at(s, stop):
                return 0
        return sum(m.start() - begin for m in _PUNCTUATION.finditer(s, begin, _eol(s, begin))) // 4
    if not (chf == "-" or "0" <= chf <= "9"):
        return 0
    match = _NUMBER.match(s, begin)
    if match is None:
        return 0
    if _stops_at(s, match.end()):
        return 0
    return 3 * (match.end() - begin) * sum(1 for _ in _PUNCTUATION.finditer(s, begin, _eol(s, begin)))


def _multiline_cost(s: str, begin: int) -> int:
    """Work mlscanstring does looking back, one character per step, for the indentation of a triple quote.

    Without a line break before it, it wraps round to the end of the text and goes on back from there.
    """
    newline = s.rfind("\n", 0, begin)
    if newline >= 0:
        return 100 * (begin - newline)
    last = s.rfind("\n")
    return 100 * (begin + (len(s) - last if last >= 0 else len(s)))


def _comment_start(s: str, pos: int) -> int:
    """Where the unterminated ``/*`` is that made getNext fail, skipping what getNext skipped before it."""
    while pos < len(s):
        ch = s[pos]
        if ch in " \t\n\r":
            pos += 1
        elif ch == "#" or s.startswith("//", pos):
            pos = _eol(s, pos)
        elif s.startswith("/*", pos):
            close = s.find("*/", pos + 2)
            if close < 0:
                return pos
            pos = close + 2
        else:
            break
    return pos


class _Hjson(_Walker):
    def next(self, pos: int) -> tuple[str, int]:
        try:
            return getNext(self.s, pos)
        except IndexError:
            raise ScanError("unterminated_comment", _comment_start(self.s, pos)) from None

    def document(self) -> Scan:
        """``HjsonDecoder.decode``: a BOM, an empty text, a root in braces, or members without braces."""
        s = self.s
        idx = 0
        if s[:1] == "\ufeff":
            idx = 1
        elif s[:3] == "\xef\xbb\xbf":
            idx = 3
        start_index = idx
        ch, idx = self.next(idx)
        if start_index == 0 and ch == "":
            root, end = _Node("object", 0, 0), 0
            root.children = {}
        elif ch in ("{", "["):
            root, end = _drive(self.value(idx))
        else:
            try:
                root, end = _drive(self.object(idx, idx, braceless=True))
            except HjsonDecodeError as first:
                self.depth, self.duplicates = 0, []
                try:
                    root, end = _drive(self.value(idx))
                except ScanError as exc:
                    if exc.reason == "too_costly":
                        raise
                    raise first from None
                except Exception:
                    raise first from None
        ch, end = self.next(end)
        if end != len(s):
            raise HjsonDecodeError("Extra data", s, end, len(s))
        return self.result(root)

    def value(self, idx: int) -> _Step:
        """``_scan_once``: a quoted or ``'''`` string, an object, an array, or a quoteless value."""
        s = self.s
        if idx >= len(s):
            raise HjsonDecodeError("Expecting value", s, idx)
        ch = s[idx]
        if ch in ("'", '"'):
            if s.startswith("'''", idx):
                self.charge(_multiline_cost(s, idx), idx)
                try:
                    _, end = mlscanstring(s, idx)
                except IndexError:  # nothing after the quotes, or no line break anywhere to measure indentation by
                    raise ScanError("unterminated_multiline" if "\n" in s else "multiline_one_line", idx) from None
                return _Node("multiline_string", idx, end), end
            _, end = scanstring(s, idx + 1, "utf-8", True)
            return _Node("string", idx, end), end
        if ch == "{":
            return self.object(idx, idx + 1, braceless=False)
        if ch == "[":
            return self.array(idx)
        cost = _quoteless_cost(s, idx)
        if cost:
            self.charge(cost, idx)
        try:
            value, end = scantfnns(_HJSON, s, idx)
        except HjsonDecodeError:
            raise
        except OverflowError as exc:
            raise ScanError("number_overflow", idx, str(exc)) from None
        except ValueError as exc:
            raise ScanError("too_many_digits", idx, str(exc)) from None
        start, stop = idx, end  # the span of the text hjson keeps, without the whitespace around it
        while stop > start and s[stop - 1].isspace():
            stop -= 1
        while start < stop and s[start].isspace():
            start += 1
        if start == stop:
            start, stop = idx, end
        if isinstance(value, str):
            form = "quoteless_string"
            if any(c in value for c in ",}]"):
                self.suspect = (start, stop)
        elif isinstance(value, bool):
            form = "boolean"
        elif value is None:
            form = "null"
        else:
            form = "number"
        return _Node(form, start, stop), end

    def object(self, start: int, end: int, braceless: bool) -> Generator[Any, Any, tuple[_Node, int]]:
        """``JSONObject``: keys quoted or not, commas optional, a trailing comma allowed."""
        s = self.s
        self.enter(start)
        node = _Node("object", start)
        node.children = {}
        ch, end = self.next(end)
        if not braceless and ch == "}":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        while True:
            _, key_start = self.next(end)
            key, end = scanKeyName(s, key_start, "utf-8", True)
            key_end = end if s[key_start] in ("'", '"') else key_start + len(key)
            ch, end = self.next(end)
            if ch != ":":
                raise HjsonDecodeError("Expecting ':' delimiter", s, end)
            ch, end = self.next(end + 1)
            child, end = yield from _child(self.value(end))
            child.ks, child.ke = key_start, key_end
            self.add_member(node, key, child)
            node.ve = child.ve
            ch, end = self.next(end)
            if ch == ",":
                ch, end = self.next(end + 1)
            if braceless:
                if ch == "":
                    break
            elif ch == "}":
                end += 1
                node.ve = end
                break
            ch, end = self.next(end)
        self.depth -= 1
        return node, end

    def array(self, start: int) -> Generator[Any, Any, tuple[_Node, int]]:
        """``JSONArray``: commas optional, a trailing comma allowed."""
        self.enter(start)
        node = _Node("array", start)
        items: dict[str | int, _Node] = {}
        node.children = items
        ch, end = self.next(start + 1)
        if ch == "]":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        if ch == "":
            raise HjsonDecodeError("End of input while parsing an array (did you forget a closing ']'?)", self.s, end)
        while True:
            child, end = yield from _child(self.value(end))
            child.parent, child.key = node, len(items)
            items[len(items)] = child
            ch, end = self.next(end)
            if ch == ",":
                ch, end = self.next(end + 1)
            if ch == "]":
                end += 1
                break
            ch, end = self.next(end)
        node.ve = end
        self.depth -= 1
        return node, end


def _stop(walker: _Walker, exc: BaseException) -> Scan:
    if isinstance(exc, ScanError):
        error = exc
    elif isinstance(exc, (HjsonDecodeError, json.JSONDecodeError)):
        error = ScanError("decode", exc.pos, exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1])))
    else:  # pragma: no cover - a scanner bug; the loader still answers
        error = ScanError("internal", 0, f"{type(exc).__name__}: {exc}")
    return Scan(max_depth=walker.max_depth, deepest=walker.deepest, error=error, suspect=walker.suspect)


def scan_hjson(text: str) -> Scan:
    """Positions of every key and value as ``hjson.loads(text)`` reads them, or why and where it stops.

    >>> scan_hjson("a: 1\\nb: [\\n  x\\n  'y'\\n]").entries[("b", 0)]
    Written(form='quoteless_string', key=None, value=Extent(start=12, end=13))

    A quoteless value runs to the end of the line, so ``[x, y]`` is the string ``"x, y]"`` and the array never
    closes; ``suspect`` points at such a value:

    >>> scan = scan_hjson("a: 1\\nb: [x, y]\\n")
    >>> scan.error.reason, scan.suspect
    ('decode', (9, 14))
    """
    walker = _Hjson(text)
    try:
        return walker.document()
    except Exception as exc:
        return _stop(walker, exc)


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

_TOKEN = re.compile(r'[ \t\n\r]*(?:("(?:[^"\\]|\\.)*")|([{}\[\],:])|([^ \t\n\r{}\[\],:"]+))')
_BARE_FORMS = {"true": "boolean", "false": "boolean", "null": "null"}


class _Frame:
    __slots__ = ("count", "duplicate", "is_object", "key", "kspan", "loc", "seen")

    def __init__(self, loc: Location, is_object: bool, duplicate: tuple[Any, ...] | None) -> None:
        self.loc = loc
        self.is_object = is_object
        self.duplicate = duplicate
        """The duplicate-key record of this container's own key, reported when it closes (as the walkers do)."""
        self.count = 0
        self.key: str | None = None
        self.kspan = (-1, -1)
        self.seen: dict[str, tuple[int, int]] = {}


def scan_valid_json(text: str) -> Scan:
    """What :func:`scan_json` finds, for a text ``json.loads`` has already accepted, in one pass of a tokenizer.

    Only for such texts: it trusts the grammar instead of checking it (``tests/test_loader_fast.py`` compares it
    with the hjson scanner).

    >>> scan_valid_json('{"a": [1, "x"], "a": null}').entries[("a",)]
    Written(form='null', key=Extent(start=16, end=19), value=Extent(start=21, end=25))
    """
    entries: dict[Location, _Offsets] = {}
    duplicates: list[tuple[Location, tuple[int, int], tuple[int, int]]] = []
    stack: list[_Frame] = []
    max_depth = deepest = 0
    for match in _TOKEN.finditer(text):
        string, punct, bare = match.groups()
        top = stack[-1] if stack else None
        if string is not None and top is not None and top.is_object and top.key is None:
            top.key = json.loads(string) if "\\" in string else string[1:-1]
            top.kspan = (match.start(1), match.end(1))
            continue
        if punct == ":" or punct == ",":
            continue
        if punct == "}" or punct == "]":
            assert top is not None
            stack.pop()
            form, ks, ke, vs, _ = entries[top.loc]
            entries[top.loc] = (form, ks, ke, vs, match.end(2))
            if top.duplicate is not None:
                duplicates.append(top.duplicate)
            if stack:
                stack[-1].key = None
            continue
        # a value starts: where it sits, and whether its key was written before in the same object
        ks, ke, duplicate = -1, -1, None
        if top is None:
            loc: Location = ()
        elif top.is_object:
            assert top.key is not None
            loc = (*top.loc, top.key)
            ks, ke = top.kspan
            earlier = top.seen.get(top.key)
            if earlier is not None:  # the later value replaces the earlier one, and all below it
                duplicate = (loc, earlier, top.kspan)
                for old in [k for k in entries if k[: len(loc)] == loc]:
                    del entries[old]
            top.seen[top.key] = top.kspan
        else:
            loc = (*top.loc, top.count)
            top.count += 1
        if punct is not None:  # an object or an array opens
            start = match.start(2)
            entries[loc] = ("object" if punct == "{" else "array", ks, ke, start, -1)
            stack.append(_Frame(loc, punct == "{", duplicate))
            if len(stack) > max_depth:
                max_depth, deepest = len(stack), start
            continue
        if string is not None:
            entries[loc] = ("string", ks, ke, match.start(1), match.end(1))
        else:
            entries[loc] = (_BARE_FORMS.get(bare, "number"), ks, ke, match.start(3), match.end(3))
        if duplicate is not None:
            duplicates.append(duplicate)
        if top is not None and top.is_object:
            top.key = None
    return Scan(
        entries=Entries(entries),
        duplicates=[DuplicateKey(loc, Extent(*first), Extent(*later)) for loc, first, later in duplicates],
        max_depth=max_depth,
        deepest=deepest,
    )
