"""The walk both position scanners share: nodes, the explicit stack that drives nested containers, and the bounds.

:mod:`.scanner` (strict JSON) and :mod:`.hjson_scanner` (Hjson) each read a text as their reader does; what they
find is collected here, in one shape: a :class:`Scan` of where every key and value is written (its
:class:`Entries`), the duplicate keys met on the way, how deep the text nests, or the :class:`ScanError` that stopped
the walk. Nested objects and arrays are generators run by :func:`drive` on a list rather than on Python's stack, so
depth is bounded by :data:`MAX_DEPTH` alone.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterator, Mapping
from dataclasses import field
from typing import Any

from ...records import record
from ..positions import Extent, Location, Written

__all__ = [
    "COST_BUDGET",
    "MAX_DEPTH",
    "DuplicateKey",
    "Entries",
    "Node",
    "Scan",
    "ScanError",
    "Step",
    "Walker",
    "contained",
    "drive",
    "stopped",
]

MAX_DEPTH = 2000
"""Deepest nesting the scanners follow. hjson and json recurse and give up near 1000 levels (Python's recursion
limit), so every text a reader accepts stays within it; the cap bounds the memory of the location tuples."""

COST_BUDGET = 250_000_000
"""Work hjson may do in its quadratic steps before a text counts as too costly, in nanoseconds of a 2024 laptop
(about 0.25 s): copying a character costs 1/4, re-matching one as part of a number 3, and one step of
mlscanstring's Python loop 100 (measured with hjson 3.1.0 on CPython 3.11)."""

Offsets = tuple[str, int, int, int, int]
"""Inside a scan only: ``(form, key_start, key_end, value_start, value_end)``, ``-1`` for no key; a scan hands out
each as a :class:`~dsref.check.positions.Written`."""


def written(form: str, ks: int, ke: int, vs: int, ve: int) -> Written:
    return Written(form, None if ks < 0 else Extent(ks, ke), Extent(vs, ve))


class Entries(Mapping[Location, Written]):
    """Location → how it is written. A scan of a large config meets thousands of entries and a check looks up a
    few of them, so they are kept as offsets and each becomes a :class:`~dsref.check.positions.Written` when looked
    up (a quarter of the time of a 250 KB check went into building records nobody read)."""

    __slots__ = ("_offsets",)

    def __init__(self, offsets: dict[Location, Offsets] | None = None) -> None:
        self._offsets = {} if offsets is None else offsets

    def __getitem__(self, location: Location) -> Written:
        return written(*self._offsets[location])

    def written(self, location: Location) -> Written | None:
        """How ``location`` is written; None when it is not (``Mapping.get`` without its ``KeyError``)."""
        offsets = self._offsets.get(location)
        return None if offsets is None else written(*offsets)

    def __iter__(self) -> Iterator[Location]:
        return iter(self._offsets)

    def __len__(self) -> int:
        return len(self._offsets)

    def __repr__(self) -> str:
        return f"Entries({len(self)} locations)"


@record
class DuplicateKey:
    """A key written a second time in one object: where the first and the later key stand, and the first value
    (the reader keeps only the later member: what removing the first takes away)."""

    location: Location
    first: Extent
    later: Extent
    first_value: Extent


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


class Node:
    __slots__ = ("children", "form", "ke", "key", "ks", "parent", "ve", "vs")

    def __init__(self, form: str, vs: int, ve: int = -1) -> None:
        self.form = form
        self.vs = vs
        self.ve = ve
        self.ks = -1
        self.ke = -1
        self.key: str | int | None = None
        self.parent: Node | None = None
        self.children: dict[str | int, Node] | None = None


Step = tuple[Node, int] | Generator[Any, Any, tuple[Node, int]]


class Walker:
    """Shared state of one scan: the text, nesting depth, duplicate keys, and the cost of hjson's slow paths."""

    def __init__(self, s: str) -> None:
        self.s = s
        self.depth = 0
        self.max_depth = 0
        self.deepest = 0
        self.cost = 0
        self.duplicates: list[tuple[Node, str, tuple[int, int], tuple[int, int], tuple[int, int]]] = []
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

    def add_member(self, parent: Node, key: str, child: Node) -> None:
        children = parent.children
        assert children is not None
        earlier = children.get(key)
        if earlier is not None:
            self.duplicates.append(
                (parent, key, (earlier.ks, earlier.ke), (child.ks, child.ke), (earlier.vs, earlier.ve))
            )
        child.parent, child.key = parent, key
        children[key] = child

    def result(self, root: Node) -> Scan:
        return Scan(
            entries=flatten(root),
            duplicates=[
                DuplicateKey((*location_of(p), k), Extent(*first), Extent(*later), Extent(*value))
                for p, k, first, later, value in self.duplicates
            ],
            max_depth=self.max_depth,
            deepest=self.deepest,
            suspect=self.suspect,
        )


def drive(step: Step) -> tuple[Node, int]:
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


def contained(step: Step) -> Generator[Any, Any, tuple[Node, int]]:
    """A value inside a container: scalars at once, containers through the driver's stack."""
    if isinstance(step, Generator):
        return (yield step)
    return step


def flatten(root: Node) -> Entries:
    out: dict[Location, Offsets] = {}
    stack: list[tuple[Location, Node]] = [((), root)]
    while stack:
        loc, node = stack.pop()
        out[loc] = (node.form, node.ks, node.ke, node.vs, node.ve)
        if node.children:
            stack.extend(((*loc, k), c) for k, c in reversed(node.children.items()))
    return Entries(out)


def location_of(node: Node) -> Location:
    steps: list[str | int] = []
    while node.parent is not None:
        assert node.key is not None
        steps.append(node.key)
        node = node.parent
    return tuple(reversed(steps))


def stopped(walker: Walker, exc: BaseException) -> Scan:
    if isinstance(exc, ScanError):
        error = exc
    elif isinstance(exc, json.JSONDecodeError):
        error = ScanError("decode", exc.pos, exc.msg.replace("%r", repr(exc.doc[exc.pos : exc.pos + 1])))
    else:  # pragma: no cover - a scanner bug; the loader still answers
        error = ScanError("internal", 0, f"{type(exc).__name__}: {exc}")
    return Scan(max_depth=walker.max_depth, deepest=walker.deepest, error=error, suspect=walker.suspect)
