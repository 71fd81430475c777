"""A Markdown extension: an option heading's anchor is exactly its dotted path, map keys (``<name>``) included.

Generated reference pages write each option as a heading holding its path in a code span, marked with the
class ``option``::

    ## `zero_optimization.stage` { .option }

and this extension sets the heading's ``id`` to the path, before the ``toc`` extension reads ids. attr_list's own
``{#id}`` cannot carry ``<`` and ``>`` (Markdown stashes them as inline HTML), which map keys need.

>>> import markdown
>>> page = markdown.markdown("### `a.<metric>.b` { .option }", extensions=["attr_list", "toc", OptionAnchors()])
>>> page
'<h3 class="option" id="a.&lt;metric&gt;.b"><code>a.&lt;metric&gt;.b</code></h3>'
>>> md = markdown.Markdown(extensions=["attr_list", "toc", "pymdownx.inlinehilite", OptionAnchors()])
>>> _ = md.convert("## `zero_optimization.stage` { .option }")
>>> md.toc_tokens[0]["id"]
'zero_optimization.stage'
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import TYPE_CHECKING, Any
from xml.etree.ElementTree import Element

if TYPE_CHECKING:
    from markdown import Extension, Markdown

__all__ = ["OptionAnchors", "makeExtension"]

_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


_PLACEHOLDER = re.compile(r"^\x02wzxhzdk:(\d+)\x03$")
_TAG = re.compile(r"<[^>]+>")


class _SetIds:
    """What the tree processor does; :func:`_extension` makes it a Markdown ``Treeprocessor`` (which gives it
    ``md``) when the extension is first used, so that importing this module does not import Markdown."""

    md: Markdown

    def run(self, root: Element) -> None:
        for element in root.iter():
            if element.tag not in _HEADINGS or "option" not in (element.get("class") or "").split():
                continue
            span = element.find("code")
            if span is not None and span.text:
                element.set("id", self._text(str(span.text)))

    def _text(self, text: str) -> str:
        """The plain text of a code span: unstashed (extensions such as inlinehilite stash it) and unescaped."""
        stashed = _PLACEHOLDER.match(text)
        if stashed:
            text = _TAG.sub("", str(self.md.htmlStash.rawHtmlBlocks[int(stashed.group(1))]))
        return html.unescape(text)


@cache
def _extension() -> type[Extension]:
    from markdown import Extension
    from markdown.treeprocessors import Treeprocessor

    class SetIds(_SetIds, Treeprocessor):
        pass

    class OptionAnchors(Extension):
        """Register the tree processor between attr_list (priority 8) and toc (priority 5)."""

        def extendMarkdown(self, md: Markdown) -> None:
            md.treeprocessors.register(SetIds(md), "dsref_option_anchors", 6)

    return OptionAnchors


def OptionAnchors(**kwargs: Any) -> Extension:
    """The extension, for ``markdown.Markdown(extensions=[OptionAnchors()])``, named as Markdown names its
    extension classes (Markdown is imported here, not before)."""
    return _extension()(**kwargs)


def makeExtension(**kwargs: Any) -> Extension:
    return OptionAnchors(**kwargs)
