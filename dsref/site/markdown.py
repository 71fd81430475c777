"""Small Markdown helpers shared by the page generators: code spans, table cells, paragraphs, links.

>>> code("bool | null")
'`bool | null`'
>>> code("a`b")
'`` a`b ``'
>>> cell("0 | 1 and `a | b`")
'0 \\\\| 1 and `a | b`'
>>> paragraph("ZeRO 在数据并行的\\n各 GPU 之间切分。It is\\nfast.")
'ZeRO 在数据并行的各 GPU 之间切分。It is fast.'
>>> option_link("zero_optimization.stage", "reference/")
'[`zero_optimization.stage`](reference/zero_optimization.md#zero_optimization.stage)'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from ..tree.links import reference_page
from .cjk import joins

__all__ = ["anchor", "cell", "code", "json_value", "option_link", "outside_fences", "paragraph", "table"]

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)


def code(text: str) -> str:
    """``text`` as an inline code span, whatever backticks it holds."""
    if "`" not in text:
        return f"`{text}`"
    ticks = "`" * (max(len(run) for run in re.findall(r"`+", text)) + 1)
    return f"{ticks} {text} {ticks}"


def json_value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def cell(text: str) -> str:
    """Text made safe for one table cell: pipes outside code spans escaped, on one line."""
    out: list[str] = []
    last = 0
    flat = paragraph(text)
    for match in _CODE_SPAN.finditer(flat):
        out.append(flat[last : match.start()].replace("|", "\\|"))
        out.append(match.group(0))
        last = match.end()
    out.append(flat[last:].replace("|", "\\|"))
    return "".join(out)


def paragraph(text: str) -> str:
    """A wrapped text as one line: lines joined with a space, or with nothing where Chinese needs none
    (:func:`dsref.site.cjk.joins`)."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return ""
    out = lines[0]
    for line in lines[1:]:
        out += line if joins(out, line) else " " + line
    return out


def option_link(path: str, prefix: str) -> str:
    """A link to an option's reference entry; ``prefix`` is the relative way from the page to ``reference/``."""
    return f"[{code(path)}]({prefix}{reference_page(path)}.md#{anchor(path)})"


def anchor(path: str) -> str:
    """An option's anchor as written in a link target: the dotted path itself, ``<name>`` of map keys included
    (MkDocs checks anchors as written, and Markdown escapes ``<`` in the ``href`` it writes).

    >>> anchor("compression_training.row_pruning.different_groups.<group>.params")
    'compression_training.row_pruning.different_groups.<group>.params'
    """
    return path


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    """A Markdown table (cells already made safe with :func:`cell`)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return lines


_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def outside_fences(markdown: str) -> Iterator[tuple[int, str]]:
    """Each line of ``markdown`` outside fenced code blocks (```` ``` ```` or ``~~~``, closed by a fence of the same
    character at least as long), with its 1-based number."""
    fence: str | None = None
    for number, line in enumerate(markdown.split("\n"), 1):
        opening = _FENCE.match(line)
        if opening:
            mark = opening[1]
            if fence is None:
                fence = mark
            elif mark[0] == fence[0] and len(mark) >= len(fence):
                fence = None
            continue
        if fence is None:
            yield number, line
