"""Which lines of a ```json example are the key it documents, highlighted where the reader's eye goes first.

The reference writes its own examples with the option's line highlighted (:func:`dsref.site.reference.key_line`).
Every other example of the site (the guides, the rule pages, the home page) says which key it is about in one of two
ways the pages already have, and :func:`documented_lines` reads them, in this order:

1. **a deliberately wrong example** (``<!-- dsref-check: expect DS510 -->``) is about the keys its expected codes
   are reported at: their lines are the ones dsref check points to (the findings' locations, as the checker
   locates them in the block's own text), so a rule page's example shows the key the rule names;
2. **the repair of a wrong example** (a block after one with ``expect``, with no heading between them, itself
   expecting nothing) is about the lines it writes that the wrong one does not: what the repair changed
   (``"gradient_clipping": 1.0`` where the wrong one had ``max_grad_norm`` under the optimizer);
3. **the option the section's heading names** (``## `overlap_comm`: reduce while the backward pass runs``): a heading
   whose code span is an option's key or dotted path makes the lines of the block that write that key the
   documented ones; a heading that names no option (``## `"auto"` without Hugging Face``, a command) none.

A block that writes the key on more than :data:`MOST` lines documents more than one place, and none is
highlighted; a block whose fence already says ``hl_lines`` (the reference's) keeps what it says. On a phone,
``overrides/assets/javascripts/dsref.js`` scrolls a block to the documented key wherever it sits on the
highlighted line (the key the heading above names, else the line's last key).

>>> page = "## `overlap_comm`: early\\n\\n```json\\n{\\n  \\"zero_optimization\\": {\\"overlap_comm\\": 1}\\n}\\n```"
>>> from dsref.site.doccheck import blocks
>>> heading_lines(page, blocks(page)[0])
(2,)
>>> with_highlight('  ```json', (2, 5))
'  ```json hl_lines="2 5"'
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .doccheck import Block, BlockCheck

__all__ = [
    "MOST",
    "documented_lines",
    "expected_lines",
    "heading_lines",
    "option_names",
    "repaired_lines",
    "with_highlight",
]

MOST = 3
"""The most lines one documented key may take in a block (its key under two or three sections, say ``device``)."""

_HEADING = re.compile(r"^ {0,3}#{1,6}\s+(?P<text>.*)$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")


@cache
def option_names() -> frozenset[str]:
    """Every option's dotted path, key and the dotted tails between (``offload_param.pin_memory``): a heading names
    an option by any of them."""
    from ..tree.options import option_tree

    names: set[str] = set()
    for option in option_tree():
        keys = option.path.split(".")
        names.update(".".join(keys[start:]) for start in range(len(keys)))
    return frozenset(name for name in names if "<" not in name and "[" not in name)


def expected_lines(checked: BlockCheck) -> tuple[int, ...]:
    """The lines (1-based, in the block) where dsref reports the codes a wrong example expects."""
    report, expect = checked.report, checked.block.marker.expect
    if report is None or report.loaded is None or not expect:
        return ()
    found = set()
    for finding in report.findings:
        if finding.code in expect and finding.location:
            found.add(report.loaded.locate(finding.location).line)
    return tuple(sorted(found)) if len(found) <= MOST else ()


def _heading_above(markdown: str, line: int) -> str | None:
    """The text of the last heading before ``line`` (1-based) outside fenced code, or None."""
    heading = None
    fenced = False
    for text in markdown.split("\n")[: line - 1]:
        if _FENCE.match(text):
            fenced = not fenced
        elif not fenced:
            found = _HEADING.match(text)
            if found:
                heading = found["text"]
    return heading


def heading_lines(markdown: str, block: Block) -> tuple[int, ...]:
    """The lines (1-based, in the block) that write the option the heading above ``block`` names."""
    heading = _heading_above(markdown, block.line)
    if heading is None:
        return ()
    names = [name for name in _CODE_SPAN.findall(heading) if name in option_names()]
    lines = block.text.split("\n")
    for name in names:
        keys = name.split(".")
        found = _path_lines(lines, keys)
        if 0 < len(found) <= MOST:
            return found
    return ()


def _path_lines(lines: list[str], keys: list[str]) -> tuple[int, ...]:
    """The lines that write the last of ``keys``, each after the ones before it in the text (a dotted path)."""
    text = "\n".join(lines)
    start = 0
    for key in keys[:-1]:
        start = text.find(f'"{key}"', start)
        if start < 0:
            return ()
    last = re.compile(rf'"{re.escape(keys[-1])}"\s*:')
    return tuple(sorted({text.count("\n", 0, m.start()) + 1 for m in last.finditer(text, start)}))


def _bare(line: str) -> str:
    return line.strip().rstrip(",").strip()


def repaired_lines(markdown: str, block: Block, wrong: Block | None) -> tuple[int, ...]:
    """The lines (1-based, in ``block``) that the repair of the wrong example ``wrong`` (the block before it, when
    it expects codes and no heading stands between the two) writes and the wrong one does not."""
    if wrong is None or not wrong.marker.expect or block.marker.expect:
        return ()
    if _heading_above(markdown, block.line) != _heading_above(markdown, wrong.line):
        return ()
    before = {_bare(line) for line in wrong.text.split("\n")}
    found = tuple(
        number
        for number, line in enumerate(block.text.split("\n"), 1)
        if _bare(line) not in before and _bare(line) not in ("", "{", "}", "[", "]")
    )
    return found if len(found) <= MOST else ()


def documented_lines(
    markdown: str, block: Block, expected: tuple[int, ...], previous: Block | None = None
) -> tuple[int, ...]:
    """The lines of ``block`` to highlight: ``expected`` (:func:`expected_lines` of its check), else those its repair
    of the wrong block before it (``previous``) changed, else those of its heading's option."""
    return expected or repaired_lines(markdown, block, previous) or heading_lines(markdown, block)


def with_highlight(fence: str, lines: tuple[int, ...]) -> str:
    """The opening fence ``fence`` with ``hl_lines`` for ``lines`` (the fence as it is when it already has some)."""
    if not lines or "hl_lines" in fence:
        return fence
    return f'{fence.rstrip()} hl_lines="{" ".join(str(n) for n in lines)}"'
