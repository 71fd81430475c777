"""dsref.check.positions: LSP positions (0-based lines, UTF-16 columns) against a count made another way.

The language server's diagnostics, hovers and quick fixes all go through :meth:`LineIndex.utf16` and
:meth:`LineIndex.position`; an off-by-one there moves every marker in the editor. The count here is independent of
the index's shortcuts: it splits the text at its line ends and encodes the part before the place as UTF-16.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.check.positions import LineIndex, Span
from tests import needs

# characters that change the count: a CJK character (one unit), emoji (two), line ends of every kind, a tab, and
# characters at which str.splitlines ends a line while LSP does not
_CHARS = st.sampled_from(["a", " ", "\t", "中", "😀", "𝄞", "\n", "\r", "\r\n", "\u2028", "\x85", "\x0c", '"', "{"])
TEXTS = st.tuples(st.booleans(), st.lists(_CHARS, max_size=40)).map(
    lambda t: ("\ufeff" if t[0] else "") + "".join(t[1])
)


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _lines(text: str) -> list[str]:
    """The text's lines without their ends; ``\\r\\n``, ``\\r`` and ``\\n`` end a line, nothing else does."""
    return re.split(r"\r\n|\r|\n", text)


def _expected_utf16(text: str, line: int, col: int) -> tuple[int, int]:
    lines = _lines(text)
    if line > len(lines):  # beyond the text: its end
        return len(lines) - 1, _units(lines[-1])
    line = max(line, 1)
    # a byte-order mark takes no column: it stands at column 0 of line 1, column 1 is just after it
    chars = max(0, col - 1 + (1 if line == 1 and text.startswith("\ufeff") else 0))
    return line - 1, _units(lines[line - 1][:chars])


def _expected_position(text: str, offset: int) -> tuple[int, int]:
    offset = min(max(offset, 0), len(text))
    before = _lines(text[:offset])
    if text[:offset].endswith("\r") and text[offset : offset + 1] == "\n":
        before = [*before[:-2], before[-2] + "\r"]  # between \r and \n: still on the line the pair ends
    return len(before) - 1, _units(before[-1])


@settings(max_examples=needs.examples(150), deadline=None)
@given(text=TEXTS, line=st.integers(0, 12), col=st.integers(0, 45))
def test_utf16_counts_code_units_of_the_line_up_to_the_column(text: str, line: int, col: int) -> None:
    assert LineIndex(text).utf16(line, col) == _expected_utf16(text, line, col)


@settings(max_examples=needs.examples(150), deadline=None)
@given(text=TEXTS, offset=st.integers(-2, 45))
def test_position_of_an_offset_counts_code_units_from_its_line_start(text: str, offset: int) -> None:
    assert LineIndex(text).position(offset) == _expected_position(text, offset)


@settings(max_examples=needs.examples(100), deadline=None)
@given(text=TEXTS.map(lambda t: re.sub(r"\r\n?", "\n", t)), data=st.data())
def test_a_line_and_column_and_its_offset_are_one_lsp_position(text: str, data: st.DataObject) -> None:
    """In a text as a reader parsed it (``\\n`` line ends), the offset dsref found and the line and column it prints
    are one place in the editor, and the line and column lead back to the offset."""
    index = LineIndex(text)
    first = 1 if text.startswith("\ufeff") else 0  # the byte-order mark has no column of its own
    offset = data.draw(st.integers(first, len(text)), label="offset")
    line, col = index.point(offset)
    assert index.utf16(line, col) == index.position(offset)
    assert index.offset(line, col) == offset


def test_emoji_and_a_byte_order_mark_by_hand() -> None:
    index = LineIndex('\ufeff{"😀": 1,\r\n "b": "中😀"}')
    assert index.utf16(1, 1) == (0, 1)  # after the mark
    assert index.utf16(1, 4) == (0, 5)  # after the emoji: two units
    assert index.utf16(2, 9) == (1, 8)  # before the second emoji, after a CJK character (one unit)
    assert index.utf16(2, 10) == (1, 10)
    assert index.utf16(3, 1) == (1, 12)  # no third line: the end of the last
    assert index.position(len(index.text)) == (1, 12)


def test_the_byte_order_mark_is_column_0_and_the_edit_that_removes_it_is_not_empty() -> None:
    """The JSON report's fix of a BOM is an edit from line 1 column 0 to column 1: the mark and nothing else, in
    dsref's columns (where the mark takes none), in offsets and in LSP positions."""
    import json

    from dsref.check.pipeline import check_text
    from dsref.check.settings import CheckSettings

    text = '\ufeff{"train_batch_size": 8}\n'
    index = LineIndex(text)
    assert index.edit_span(0, 1) == Span(1, 0, 1, 1)
    assert index.span(0, 1) == Span(1, 1, 1, 1)  # a finding is never shown at column 0
    assert index.span(1, 2) == index.edit_span(1, 2) == Span(1, 1, 1, 2)  # the "{", as every finding counts it
    assert (index.offset(1, 0), index.offset(1, 1)) == (0, 1)
    assert (index.utf16(1, 0), index.utf16(1, 1)) == ((0, 0), (0, 1))
    report = check_text(text, "ds.json", CheckSettings("hf"))
    fixes = [f.fix.to_json("en") for f in report.findings if f.fix is not None]
    edits = [e for fix in fixes for e in fix["edits"]]
    bom = [e for e in edits if e["replacement"] == "" and e["line"] == e["end_line"] == 1]
    assert bom == [{"line": 1, "column": 0, "end_line": 1, "end_column": 1, "replacement": ""}], fixes
    applied = text[: index.offset(1, 0)] + text[index.offset(1, 1) :]
    assert json.loads(applied) == {"train_batch_size": 8}
