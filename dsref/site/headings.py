"""Heading anchors that survive the language switch: a Chinese heading takes the id of its English twin.

MkDocs makes a heading's id from its text, so 每卡显存取决于卡数 became ``_1`` while its English twin is
``memory-per-gpu-depends-on-the-gpu-count``, and the language switcher (which keeps the address's ``#fragment``)
landed at the top of the page. The twin pages have the same headings in the same order (the translation follows the
English page section by section), so the Chinese page's n-th heading takes the English page's n-th id: nothing is
written twice. The site build records each English page's ids (:func:`dsref.site.hooks.on_page_content`), writes
them into the Chinese headings as attr_list ``{#id}`` (:func:`with_ids`) before Markdown runs, and fails with the
page and line where the two pages' ids differ (:func:`differences`).

An option heading (class ``option``) keeps the id :mod:`dsref.site.anchors` gives it, its dotted path, in both.

>>> text = "# 标题\\n\\n```bash\\n# 注释\\n```\\n\\n## 每卡显存 { .x }\\n\\n## `a.b` { .option }\\n"
>>> print(with_ids(text, ["title", "memory-per-gpu", "a.b"]))
# 标题 {#title}
<BLANKLINE>
```bash
# 注释
```
<BLANKLINE>
## 每卡显存 { #memory-per-gpu .x }
<BLANKLINE>
## `a.b` { .option }
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..records import record

__all__ = ["TOC_DEPTH", "Heading", "differences", "headings", "with_ids"]

TOC_DEPTH = 4
"""The deepest heading MkDocs lists in a page's table of contents (``toc_depth`` in ``mkdocs.yml``); only those are
recorded and matched."""

_HEADING = re.compile(r"^(?P<marks>#{1,6})[ \t]+(?P<text>.*?)(?:[ \t]*\{(?P<attrs>[^}]*)\})?[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")


@record
class Heading:
    """A heading of a page's Markdown source: its line (1-based), level and attr_list attributes (if any)."""

    line: int
    level: int
    attrs: str | None

    @property
    def is_option(self) -> bool:
        return self.attrs is not None and "option" in re.findall(r"\.([\w-]+)", self.attrs)


def headings(markdown: str) -> list[Heading]:
    """The ATX headings of a page down to :data:`TOC_DEPTH`, outside fenced code blocks, in order."""
    found: list[Heading] = []
    fence: str | None = None
    for number, line in enumerate(markdown.splitlines(), 1):
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened["fence"][0] == fence[0] and len(opened["fence"]) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened["fence"]
            continue
        match = _HEADING.match(line)
        if match and len(match["marks"]) <= TOC_DEPTH:
            found.append(Heading(number, len(match["marks"]), match["attrs"]))
    return found


def with_ids(markdown: str, ids: Sequence[str]) -> str:
    """The page with its n-th heading given the n-th of ``ids``, when it has as many headings as there are ids;
    else unchanged (:func:`differences` says where they part). Option headings keep their own id."""
    found = headings(markdown)
    if len(found) != len(ids):
        return markdown
    lines = markdown.split("\n")
    for heading, anchor in zip(found, ids, strict=True):
        if heading.is_option or not anchor:
            continue
        line = lines[heading.line - 1]
        if heading.attrs is None:
            lines[heading.line - 1] = f"{line.rstrip()} {{#{anchor}}}"
        elif not re.search(r"(^|\s)#", heading.attrs):
            start = line.rindex("{") + 1
            lines[heading.line - 1] = f"{line[:start]} #{anchor}{line[start:]}".replace("{  #", "{ #")
    return "\n".join(lines)


def differences(markdown: str, mine: Sequence[str], twin: Sequence[str], twin_page: str) -> list[str]:
    """``line N: …`` for each heading of this page whose id its twin page lacks, and each id of the twin that this
    page lacks (said at its first heading)."""
    found = headings(markdown)
    problems = []
    theirs = set(twin)
    for n, anchor in enumerate(mine):
        if anchor not in theirs:
            line = found[n].line if n < len(found) else (found[-1].line if found else 1)
            problems.append(f"line {line}: heading #{anchor} has no twin in {twin_page} (write the same headings)")
    missing = [anchor for anchor in twin if anchor not in set(mine)]
    if missing:
        line = found[0].line if found else 1
        problems.append(
            f"line {line}: {twin_page} has headings this page lacks: " + ", ".join(f"#{a}" for a in missing)
        )
    return problems
