"""Positions in Hjson, as hjson 3.1.0's ``HjsonDecoder`` reads it: :func:`scan` drives hjson's own lexical
functions (``getNext``, ``scanKeyName``, ``scanstring``, ``mlscanstring``, ``scantfnns``) in the order and with the
branches of ``HjsonDecoder.decode`` (:mod:`dsref.check.read.scanner` says why and how). A module of its own so that
hjson is imported only for files that are not strict JSON; :func:`dsref.check.read.scanner.scan_hjson` calls it.

These functions are hjson's internals, not its documented API, so ``pyproject.toml`` admits only the releases they
are tested with (``hjson>=3.1,<3.2``; 3.1.0 is hjson's newest release): a new one is taken on by raising the cap
once ``tests/unit/check/test_loader_fast.py`` and ``tests/unit/check/test_loader.py`` pass with it."""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import Any

from hjson.decoder import HjsonDecoder, getNext, mlscanstring, scanKeyName, scanstring, scantfnns
from hjson.scanner import HjsonDecodeError

from .walker import Node, Scan, ScanError, Step, Walker, contained, drive, stopped

__all__ = ["scan"]


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


_BLANK = re.compile(r"[ \t\n\r]*")
"""hjson's ``WHITESPACE``: what ``getNext`` steps over one character at a time."""
_PLAIN_STRING = {'"': re.compile(r'"([^"\\\x00-\x1f]*)"'), "'": re.compile(r"'([^'\\\x00-\x1f]*)'")}
"""A quoted string without escapes or control characters: what ``scanstring`` reads in one chunk."""


def _string(s: str, idx: int) -> tuple[str, int]:
    """``scanstring`` of the string whose quote is at ``idx``: its value and the index after it. One without escapes
    or control characters (nearly every key and value) is matched at once; any other is read by hjson's own."""
    plain = _PLAIN_STRING[s[idx]].match(s, idx)
    if plain is not None:
        return plain.group(1), plain.end()
    result: tuple[str, int] = scanstring(s, idx + 1, "utf-8", True)
    return result


class _Hjson(Walker):
    def next(self, pos: int) -> tuple[str, int]:
        """``getNext``: the next character that is neither blank nor in a comment, and where it is. Blanks are
        skipped with one match (hjson tests them one by one in Python, most of the time a scan took); from a
        comment on, hjson's own function goes on (``tests/unit/check/test_loader_fast.py`` compares the two)."""
        s = self.s
        if pos < len(s):
            end = _BLANK.match(s, pos).end()  # type: ignore[union-attr]  # matches the empty string anywhere
            ch = s[end : end + 1]
            if ch != "#" and ch != "/":
                return ch, end
        try:
            return getNext(s, pos)
        except IndexError:
            raise ScanError("unterminated_comment", _comment_start(s, pos)) from None

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
            root, end = Node("object", 0, 0), 0
            root.children = {}
        elif ch in ("{", "["):
            root, end = drive(self.value(idx))
        else:
            try:
                root, end = drive(self.object(idx, idx, braceless=True))
            except HjsonDecodeError as first:
                self.depth, self.duplicates = 0, []
                try:
                    root, end = drive(self.value(idx))
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

    def value(self, idx: int) -> Step:
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
                return Node("multiline_string", idx, end), end
            _, end = _string(s, idx)
            return Node("string", idx, end), end
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
        return Node(form, start, stop), end

    def object(self, start: int, end: int, braceless: bool) -> Generator[Any, Any, tuple[Node, int]]:
        """``JSONObject``: keys quoted or not, commas optional, a trailing comma allowed."""
        s = self.s
        self.enter(start)
        node = Node("object", start)
        node.children = {}
        ch, end = self.next(end)
        if not braceless and ch == "}":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        while True:
            # hjson calls getNext here and at the end of the loop again, at a place getNext has just returned,
            # where it would stop at once: the scan skips the repeats (the same answers, a third of the calls)
            key_start = end
            key, end = _string(s, end) if ch in ("'", '"') else scanKeyName(s, end, "utf-8", True)
            key_end = end if s[key_start] in ("'", '"') else key_start + len(key)
            ch, end = self.next(end)
            if ch != ":":
                raise HjsonDecodeError("Expecting ':' delimiter", s, end)
            ch, end = self.next(end + 1)
            child, end = yield from contained(self.value(end))
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
        self.depth -= 1
        return node, end

    def array(self, start: int) -> Generator[Any, Any, tuple[Node, int]]:
        """``JSONArray``: commas optional, a trailing comma allowed."""
        self.enter(start)
        node = Node("array", start)
        items: dict[str | int, Node] = {}
        node.children = items
        ch, end = self.next(start + 1)
        if ch == "]":
            node.ve = end + 1
            self.depth -= 1
            return node, end + 1
        if ch == "":
            raise HjsonDecodeError("End of input while parsing an array (did you forget a closing ']'?)", self.s, end)
        while True:
            child, end = yield from contained(self.value(end))
            child.parent, child.key = node, len(items)
            items[len(items)] = child
            ch, end = self.next(end)
            if ch == ",":
                ch, end = self.next(end + 1)
            if ch == "]":
                end += 1
                break
        node.ve = end
        self.depth -= 1
        return node, end


def scan(text: str) -> Scan:
    """Positions of every key and value as ``hjson.loads(text)`` reads them, or why and where it stops.

    >>> scan("a: 1\\nb: [\\n  x\\n  'y'\\n]").entries[("b", 0)]
    Written(form='quoteless_string', key=None, value=Extent(start=12, end=13))

    A quoteless value runs to the end of the line, so ``[x, y]`` is the string ``"x, y]"`` and the array never
    closes; ``suspect`` points at such a value:

    >>> found = scan("a: 1\\nb: [x, y]\\n")
    >>> found.error.reason, found.suspect
    ('decode', (9, 14))
    """
    walker = _Hjson(text)
    try:
        return walker.document()
    except Exception as exc:
        if isinstance(exc, HjsonDecodeError):
            exc = ScanError("decode", exc.pos, exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1])))
        return stopped(walker, exc)
