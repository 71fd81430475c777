"""Where a line break in Chinese prose shows as a space, and where it must not.

Markdown joins the lines of a hard-wrapped paragraph with a line break, which a browser shows as a space. Chinese
(and Japanese) is written without spaces between words, so a page whose source wraps between two Chinese characters
shows "只保存 这些" instead of "只保存这些". The rule (:func:`joins`), shared by the Markdown extension that applies
it (:mod:`dsref.site.linejoin`), the build check that proves it applied (:func:`stray_joins`, run by
:mod:`dsref.site.hooks`) and the generators' :func:`dsref.site.markdown.paragraph`:

* a break between two CJK characters (Han, kana, bopomofo, full-width letters and digits) joins without a space;
* a break before or after full-width punctuation (``。，、；：？！（）「」『』【】《》`` …) joins without a space:
  those marks carry their own spacing, whatever stands on the other side;
* a break between a CJK character and Latin text, a digit or a code span stays a space: Chinese typesetting puts a
  space between Chinese and Latin words or numbers (the pages are written "使用 DeepSpeed 的 ZeRO"), and Markdown's
  space is that space;
* quotation marks, dashes and ellipses that both languages use (“ ” ‘ ’ — … ·) take the width of what stands on the
  other side of the break: ``参见⏎“术语”`` joins, ``say⏎“hello”`` keeps its space (⏎ is the line break);
* English (and Korean, which separates words with spaces) keeps every space.

>>> joins("只保存", "这些")
True
>>> joins("的笔误。", "DeepSpeed")
True
>>> joins("已弃用的旧名称", "（`stage3`）")
True
>>> joins("的", "DeepSpeed")
False
>>> joins("DeepSpeed", "的")
False
>>> joins("words", "words")
False
>>> joins("省", "“4 倍”")
True
>>> joins("", "中")
False
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from itertools import pairwise

from ..records import record

__all__ = ["BREAK", "INLINE", "OPAQUE", "SKIPPED", "StrayJoin", "joins", "source_line", "stray_joins"]

_WIDE = (
    ("\u2e80", "\u2fff"),  # CJK and Kangxi radicals, ideographic description characters
    ("\u3000", "\u303f"),  # CJK symbols and punctuation
    ("\u3040", "\u312f"),  # hiragana, katakana, bopomofo
    ("\u3190", "\u31ff"),  # kanbun, bopomofo extended, CJK strokes, katakana extensions
    ("\u3200", "\u9fff"),  # enclosed CJK, CJK compatibility, CJK unified ideographs (extension A and the base block)
    ("\uf900", "\ufaff"),  # CJK compatibility ideographs
    ("\ufe10", "\ufe1f"),  # vertical forms
    ("\ufe30", "\ufe6f"),  # CJK compatibility forms, small form variants
    ("\uff00", "\uff9f"),  # full-width forms, half-width katakana (not half-width Hangul, which follows)
    ("\uffe0", "\uffe6"),  # full-width signs
    ("\U00020000", "\U0003ffff"),  # CJK unified ideographs, extensions B and later
)
_SHARED = "“”‘’—…·"
"""Punctuation both languages write: as wide as the text on the other side of the break."""


def _kind(ch: str) -> str:
    """``"punct"`` (full-width punctuation), ``"cjk"`` (a CJK letter or digit), ``"shared"`` or ``"other"``."""
    if ch in _SHARED:
        return "shared"
    if not any(low <= ch <= high for low, high in _WIDE):
        return "other"
    category = unicodedata.category(ch)
    if category[0] == "P" or category == "Zs" or (category[0] == "S" and ch >= "\uff00"):
        return "punct"
    return "cjk"


def joins(before: str, after: str) -> bool:
    """Whether a line break between text ending in ``before`` and text starting with ``after`` is shown as nothing
    (the rule of the module's docstring); an empty side (the start or end of a paragraph, an image, a ``<br>``)
    keeps the break."""
    if not before or not after:
        return False
    last, first = _kind(before[-1]), _kind(after[0])
    if "punct" in (last, first):
        return True
    if last == "shared" and first == "shared":
        return joins(before.rstrip(_SHARED), after.lstrip(_SHARED))
    if "shared" in (last, first):
        return "cjk" in (last, first)
    return last == first == "cjk"


INLINE = frozenset(
    {"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "i", "ins", "kbd", "mark", "q"}
    | {"s", "samp", "small", "span", "strong", "sub", "sup", "time", "u", "var", "wbr"}
)
"""Elements that stand inside a line of text; any other element starts or ends a paragraph's run of text."""
OPAQUE = frozenset({"code", "kbd", "samp", "var"})
"""Inline elements whose text is shown as it is written: it counts as what stands beside a break, but a line
break inside it is never touched."""
SKIPPED = frozenset({"pre", "script", "style", "textarea", "table", "svg", "math"})
"""Elements whose text is no prose to join: code blocks, tables (a Markdown table row is one line), scripts."""
BREAK = re.compile(r"[ \t]*\n[ \t\n]*")
"""A line break, with the spaces that end the line before it and indent the line after it."""
_AROUND = 12


@record
class StrayJoin:
    """A line break in a page's prose that shows as a space where :func:`joins` says it must not: the visible text
    just before and just after it (up to a dozen characters each)."""

    before: str
    after: str

    def __str__(self) -> str:
        return f"{self.before}⏎{self.after}"


class _Runs(HTMLParser):
    """The runs of visible text of an HTML page, each a paragraph's inline content, code spans' line breaks made
    spaces (they are never joined)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[str] = []
        self._run: list[str] = []
        self._skipped: list[str] = []
        self._opaque = 0

    def _flush(self) -> None:
        if self._run:
            self.runs.append("".join(self._run))
        self._run = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skipped:
            if tag == self._skipped[-1]:
                self._skipped.append(tag)
        elif tag in SKIPPED:
            self._flush()
            self._skipped.append(tag)
        elif tag in OPAQUE:
            self._opaque += 1
        elif tag not in INLINE:
            self._flush()

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self._skipped and tag not in INLINE:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if self._skipped:
            if tag == self._skipped[-1]:
                self._skipped.pop()
        elif tag in OPAQUE:
            self._opaque = max(0, self._opaque - 1)
        elif tag not in INLINE:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._skipped:
            self._run.append(data.replace("\n", " ") if self._opaque else data)

    def close(self) -> None:
        super().close()
        self._flush()


def stray_joins(html: str) -> list[StrayJoin]:
    """Every line break in the prose of ``html`` (a page's content as Markdown renders it) that a browser shows as a
    space where :func:`joins` says it must show as nothing; code, code blocks, tables and scripts are not prose.

    >>> stray_joins("<p>每张卡只保存\\n这些<em>状态</em>，\\n<code>a\\nb</code> 也是</p>\\n<p>DeepSpeed\\n的文档</p>")
    [StrayJoin(before='每张卡只保存', after='这些状态，'), StrayJoin(before='这些状态，', after='a b 也是')]
    >>> stray_joins("<p>使用\\n<strong>DeepSpeed</strong> 的\\n<code>stage</code></p><pre>中\\n文</pre>")
    []
    """
    parser = _Runs()
    parser.feed(html)
    parser.close()
    found = []
    for run in parser.runs:
        for match in BREAK.finditer(run):
            before, after = run[: match.start()], run[match.end() :]
            if joins(before, after):
                shown_before, shown_after = before.rsplit("\n", 1)[-1], after.split("\n", 1)[0]
                found.append(StrayJoin(shown_before[-_AROUND:].lstrip(), shown_after[:_AROUND].rstrip()))
    return found


_MARKUP = re.compile(r"\]\([^)]*\)|<[^>]*>|\{:?\s*[.#][^}]*\}")
_NOT_A_LETTER = re.compile(r"[\W_]")
_LINE_START = re.compile(r"^[ \t>]*(?:(?:[-*+]|\d+[.)])[ \t]+)?")
_FENCE = re.compile(r"^[ \t>]*(```|~~~)")


def _letters(text: str) -> str:
    return _NOT_A_LETTER.sub("", text)


def _source_letters(line: str) -> str:
    """The letters and digits of a line of Markdown as a reader sees them: no link targets, tags, attribute lists,
    list or quotation markers."""
    return _letters(_MARKUP.sub("", _LINE_START.sub("", line)))


def source_line(markdown: str, stray: StrayJoin) -> int | None:
    """The line (1-based) of ``markdown`` that ends where ``stray`` breaks: the first line outside code blocks whose
    letters end as the text before the break does and whose next line's letters start as the text after it;
    ``None`` when no line does.

    >>> source_line("# 标题\\n\\n- 每张卡只保存\\n  这些**状态**。\\n", StrayJoin("每张卡只保存", "这些状态。"))
    3
    >>> source_line("见 **文档**\\n中的说明\\n", StrayJoin("见 文档", "中的说明"))
    1
    """
    before, after = _letters(stray.before)[-4:], _letters(stray.after)[:4]
    lines = markdown.splitlines()
    fenced = False
    for number, (line, following) in enumerate(pairwise(lines), start=1):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or _FENCE.match(following):
            continue
        ends, starts = _source_letters(line)[-4:], _source_letters(following)[:4]
        # The text of a stray may reach into lines the extension joined: either side may be the longer.
        if (
            ends
            and starts
            and (before.endswith(ends) or ends.endswith(before))
            and (after.startswith(starts) or starts.startswith(after))
        ):
            return number
    return None
