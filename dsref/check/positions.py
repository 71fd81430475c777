"""Where things are in a config's text: offsets, lines and columns, and the one index that converts between them.

Three ways of saying "where" meet in dsref, and this module is the only place that converts between them:

* an **offset** into the text as its reader parsed it (every line end read as ``\\n``; a byte-order mark, if any, is
  offset 0), which the scanners find and the fixes edit: :class:`Extent` (a stretch), :class:`Written` (a key and
  its value as written);
* a **line and column**, counted from 1 in code points (a tab is one column; a byte-order mark takes none: only an
  edit that removes it starts at column 0, :meth:`LineIndex.edit_span`), which dsref prints (``file:line:col``):
  :class:`Span`;
* an **LSP position**, counted from 0 in UTF-16 code units (an emoji is two, a byte-order mark one), which editors
  speak: :meth:`LineIndex.utf16`, or :meth:`LineIndex.position` of an offset into the text as written (its own line
  ends, which :meth:`LineIndex.written` maps a parsed offset onto).

:class:`LineIndex` is built once per text, in one pass over it, and answers each question in logarithmic time (the
line of an offset) or in the length of one line (UTF-16 units, only on lines that hold a character outside the BMP).

>>> index = LineIndex('\\ufeff{\\n  "a": "😀x"\\n}')
>>> index.span(10, 13)
Span(line=2, col=8, end_line=2, end_col=11)
>>> index.offset(2, 8), index.utf16(2, 10), index.utf16(1, 1)
(10, (1, 10), (0, 1))
>>> crlf = LineIndex('\\ufeff{\\r\\n  "a": 1\\r\\n}')
>>> crlf.newline, crlf.written(0), crlf.written(3), crlf.position(crlf.written(3)), crlf.position(1)
('\\r\\n', 0, 4, (1, 0), (0, 1))
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from itertools import accumulate

from ..records import record

__all__ = ["Extent", "LineIndex", "Location", "Span", "Written", "line_starts"]

Location = tuple[str | int, ...]
"""Where in the config's data: its keys (and list indices) from the top down, as written."""

_LINE_END = re.compile(r"\r\n|\r|\n")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SPLITLINES_ALSO = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
"""The characters other than ``\\n`` at which ``str.splitlines`` ends a line."""


def line_starts(text: str) -> list[int]:
    """The offset at which each line of ``text`` starts, a line ending at ``\\r\\n``, ``\\r`` or ``\\n``.

    A text with no line end but ``\\n`` (every text a reader parsed) is split by ``str.splitlines`` and its lines'
    lengths added up, in C; a regular expression that tries the three line ends at each character costs a hundred
    instructions a character, more than parsing the text (``tests/unit/check/test_loader.py`` compares the two).

    >>> line_starts("a\\nbc\\n"), line_starts("a\\r\\nb"), line_starts("")
    ([0, 2, 5], [0, 3], [0])
    """
    if any(end in text for end in _SPLITLINES_ALSO):
        return [0, *map(re.Match.end, _LINE_END.finditer(text))]
    starts = [0, *accumulate(map(len, text.splitlines(keepends=True)))]
    if text and text[-1] != "\n":
        starts.pop()  # the offset after the last line, which has no line end: no line starts there
    return starts


@record(order=True, slots=True)
class Span:
    """A stretch of the text: the 1-based line and column of its first character and of the character after its
    last. Columns count code points (a tab is one); a byte-order mark takes no column."""

    line: int
    col: int
    end_line: int
    end_col: int


@record(slots=True)
class Extent:
    """``text[start:end]``: offsets into the text as its reader parsed it (``end`` exclusive)."""

    start: int
    end: int


@record(slots=True)
class Written:
    """How one entry of a config is written: its key (None for the root and for list items), its value, and the
    value's form: ``object``, ``array``, ``string`` (quoted), ``multiline_string`` (Hjson's ``'''``),
    ``quoteless_string`` (Hjson, no quotes: ``True`` or ``1e-3x`` are strings), ``number``, ``boolean`` or
    ``null``."""

    form: str
    key: Extent | None
    value: Extent


class LineIndex:
    """Offsets of one text ↔ lines and columns (dsref's) ↔ LSP positions. Any of ``\\r\\n``, ``\\r`` and ``\\n``
    ends a line, as for ``open()`` in text mode and for LSP."""

    __slots__ = ("_astral", "_crlf", "bom", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        """The offset at which each line starts; ``starts[0]`` is line 1."""
        self.bom = text.startswith("\ufeff")
        # (an ASCII text, most configs, is known to hold none without a search that tries every character)
        self._astral: dict[int, bool] | None = {} if not text.isascii() and _ASTRAL.search(text) else None
        self._crlf: list[int] | None = None

    @property
    def lines(self) -> int:
        return len(self.starts)

    def line_of(self, offset: int) -> int:
        """The 1-based line ``offset`` is on (an offset at a line end is on that line)."""
        return bisect_right(self.starts, offset)

    def point(self, offset: int) -> tuple[int, int]:
        """The 1-based line and column of ``offset``."""
        line = bisect_right(self.starts, offset)
        col = offset - self.starts[line - 1] + 1
        if line == 1 and self.bom:
            col = max(1, col - 1)
        return line, col

    def span(self, start: int, end: int) -> Span:
        """The lines and columns of ``text[start:end]``."""
        return Span(*self.point(start), *self.point(end))

    def edit_span(self, start: int, end: int) -> Span:
        """The lines and columns of an edit of ``text[start:end]``: as :meth:`span`, but for the byte-order mark,
        which takes no column: an edit that starts (or ends) at it starts (or ends) at column 0 of line 1, so that
        the edit that removes it runs from column 0 to column 1, which :meth:`offset` maps back to offsets 0 and 1.

        >>> LineIndex("\ufeff{}").edit_span(0, 1), LineIndex("\ufeff{}").span(0, 1)
        (Span(line=1, col=0, end_line=1, end_col=1), Span(line=1, col=1, end_line=1, end_col=1))
        """
        span = self.span(start, end)
        if self.bom and (start == 0 or end == 0):
            span = Span(span.line, 0 if start == 0 else span.col, span.end_line, 0 if end == 0 else span.end_col)
        return span

    def offset(self, line: int, col: int) -> int:
        """The offset of a 1-based line and column (the inverse of :meth:`point`)."""
        line = min(max(line, 1), len(self.starts))
        return self.starts[line - 1] + col - 1 + (1 if line == 1 and self.bom else 0)

    def line_start(self, offset: int) -> int:
        """The offset at which the line holding ``offset`` starts."""
        return self.starts[bisect_right(self.starts, offset) - 1]

    def line_end(self, offset: int) -> int:
        """The offset of the line end after ``offset`` (the text's length on the last line)."""
        found = _LINE_END.search(self.text, offset)
        return len(self.text) if found is None else found.start()

    def line_text(self, line: int) -> str:
        """Line ``line`` (1-based) without its line end."""
        start = self.starts[line - 1]
        return self.text[start : self.line_end(start)]

    def utf16(self, line: int, col: int) -> tuple[int, int]:
        """dsref's 1-based line and column → LSP's 0-based line and UTF-16 column (a byte-order mark, which dsref
        does not count, is one unit on the first line); a place beyond the text is its end."""
        if line > len(self.starts):
            last = len(self.starts)
            return last - 1, self._units(last, len(self.line_text(last)))
        line = max(line, 1)
        chars = max(0, col - 1 + (1 if line == 1 and self.bom else 0))
        return line - 1, self._units(line, min(chars, len(self.line_text(line))))

    @property
    def newline(self) -> str:
        """The text's own line end, what an edit that adds lines writes: ``\\r\\n`` if it has one, else ``\\r``
        if it has one, else ``\\n``."""
        return "\r\n" if "\r\n" in self.text else ("\r" if "\r" in self.text else "\n")

    def written(self, offset: int) -> int:
        """An offset into the text as its reader parsed it (each ``\\r\\n`` read as one ``\\n``; a lone ``\\r``
        is one character either way) → the same place in this text, as written."""
        if self._crlf is None:
            found, shift, i = [], 0, self.text.find("\r\n")
            while i >= 0:
                found.append(i - shift)  # where this line end's ``\n`` is in the parsed text
                shift += 1
                i = self.text.find("\r\n", i + 2)
            self._crlf = found
        return offset + bisect_left(self._crlf, offset)

    def position(self, offset: int) -> tuple[int, int]:
        """An offset into this text → LSP's 0-based line and UTF-16 column (a byte-order mark is one unit: offset 1
        is just after it)."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.starts, offset)
        return line - 1, self._units(line, offset - self.starts[line - 1])

    def _units(self, line: int, chars: int) -> int:
        """UTF-16 code units in the first ``chars`` code points of ``line``."""
        if self._astral is None:  # nothing outside the BMP anywhere: one unit per code point
            return chars
        has = self._astral.get(line)
        if has is None:
            has = self._astral[line] = bool(_ASTRAL.search(self.line_text(line)))
        if not has:
            return chars
        start = self.starts[line - 1]
        return chars + len(_ASTRAL.findall(self.text, start, start + chars))
