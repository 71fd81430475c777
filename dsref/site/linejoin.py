"""A Markdown extension: a hard-wrapped line of Chinese prose joins the next without a space.

Markdown keeps the line breaks of a paragraph, and a browser shows each as a space: right between two English
words, wrong between two Chinese characters ("只保存 这些") or after a full-width stop ("。 没有"). This extension
removes the line break (and the indentation around it) wherever :func:`dsref.site.cjk.joins` says so, in the text
of paragraphs, list items and the like, after Markdown has parsed the inline markup, so the characters on either
side are the ones a reader sees: ``**强调**`` and a link's text count as Chinese, a code span as what it holds.

It never touches code (code spans, fenced and indented code blocks), tables, raw HTML blocks (stashed whole by
Markdown) or a break beside an inline HTML element other than a plain inline tag (an image, ``<br>``, a comment): the
build check (:func:`dsref.site.cjk.stray_joins`, run by :mod:`dsref.site.hooks`) names any such break that still
shows as a space, with its page and line, for the source to be rewrapped by hand.

>>> import markdown
>>> markdown.markdown("每张卡只保存\\n这些状态。\\n没有 `a\\nb` 的\\nDeepSpeed\\n文档", extensions=[LineJoins()])
'<p>每张卡只保存这些状态。没有 <code>a\\nb</code> 的\\nDeepSpeed\\n文档</p>'
>>> markdown.markdown("Words\\nstay\\napart.", extensions=[LineJoins()])
'<p>Words\\nstay\\napart.</p>'
"""

from __future__ import annotations

import html
import re
from functools import cache
from itertools import accumulate
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import Element

from ..records import record
from .cjk import BREAK, INLINE, OPAQUE, joins

if TYPE_CHECKING:
    from markdown import Extension, Markdown

__all__ = ["LineJoins", "makeExtension"]

PROSE = frozenset({"p", "li", "dd", "dt", "figcaption", "summary"})
"""The elements whose inline text is joined: paragraphs and list items (a tight list keeps its text in ``li``)."""

_STASHED = re.compile(r"\x02wzxhzdk:(\d+)\x03")
_ESCAPED = re.compile(r"\x02(\d+)\x03")
_ENTITY = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|\w+);")
_INLINE_TAG = re.compile(r"</?(\w+)\b[^>]*>")
_OBJECT = "\ufffc"
"""What stands for something that is not text (an image, a comment, a stashed block): no side of a join."""
_AROUND = 40


@record(frozen=False)
class _Slot:
    """One piece of a paragraph's text: an element's ``text`` or ``tail``; only prose (not code) is edited."""

    element: Element
    attribute: str
    editable: bool

    @property
    def value(self) -> str:
        return getattr(self.element, self.attribute) or ""


class _JoinLines:
    """What the tree processor does; :func:`_extension` makes it a Markdown ``Treeprocessor`` (which gives it
    ``md``) when the extension is first used, so that importing this module does not import Markdown."""

    md: Markdown

    def run(self, root: Element) -> None:
        for element in root.iter():
            if element.tag in PROSE:
                for run in self._runs(element):
                    self._join(run)

    def _runs(self, container: Element) -> list[list[_Slot]]:
        """The container's inline text in reading order, cut where a block (a nested list, a code block) stands."""
        runs: list[list[_Slot]] = [[_Slot(container, "text", True)]]

        def walk(element: Element) -> None:
            for child in element:
                if child.tag in OPAQUE:
                    runs[-1].append(_Slot(child, "text", False))
                elif child.tag in INLINE:
                    runs[-1].append(_Slot(child, "text", True))
                    walk(child)
                else:
                    runs.append([])
                runs[-1].append(_Slot(child, "tail", True))

        walk(container)
        return runs

    def _visible(self, text: str) -> str:
        """Text as a reader sees it: escaped characters as themselves, stashed entities decoded, stashed inline tags
        as nothing, anything else stashed as an object no break joins to."""

        def unstash(match: re.Match[str]) -> str:
            raw = str(self.md.htmlStash.rawHtmlBlocks[int(match[1])])
            if _ENTITY.fullmatch(raw):
                return html.unescape(raw)
            tag = _INLINE_TAG.fullmatch(raw)
            return "" if tag and tag[1].lower() in INLINE else _OBJECT

        return _STASHED.sub(unstash, _ESCAPED.sub(lambda m: chr(int(m[1])), text))

    def _join(self, run: list[_Slot]) -> None:
        values = [slot.value for slot in run]
        starts = [0, *accumulate(len(value) for value in values)]
        flat = "".join(values)
        for slot, value, start in zip(run, values, starts[:-1], strict=True):
            if not slot.editable or "\n" not in value:
                continue
            kept: list[str] = []
            last = 0
            for match in BREAK.finditer(value):
                at, end = start + match.start(), start + match.end()
                before = self._visible(flat[max(0, at - _AROUND) : at]).rstrip(" \t")
                after = self._visible(flat[end : end + _AROUND])
                if joins(before, after):
                    kept += [value[last : match.start()]]
                    last = match.end()
            if last:
                setattr(slot.element, slot.attribute, "".join(kept) + value[last:])


@cache
def _extension() -> type[Extension]:
    from markdown import Extension
    from markdown.treeprocessors import Treeprocessor

    class JoinLines(_JoinLines, Treeprocessor):
        pass

    class LineJoins(Extension):
        """Register the tree processor after the inline patterns (priority 20), before attr_list (8) and toc (5)."""

        def extendMarkdown(self, md: Markdown) -> None:
            md.treeprocessors.register(JoinLines(md), "dsref_line_joins", 15)

    return LineJoins


def LineJoins(**kwargs: Any) -> Extension:
    """The extension, for ``markdown.Markdown(extensions=[LineJoins()])``, named as Markdown names its extension
    classes (Markdown is imported here, not before)."""
    return _extension()(**kwargs)


def makeExtension(**kwargs: Any) -> Extension:
    return LineJoins(**kwargs)
