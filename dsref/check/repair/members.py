"""Edit a config's text member by member, touching only the characters that must change: the toolkit of
:mod:`dsref.check.repair.repairing`. A member is removed with its comma and, when it stands on a line of its own, that
line;
one is inserted as the last of its object, indented as its siblings are; keys keep their quoting. Offsets are into
the text as the reader parsed it (:attr:`~dsref.check.read.loader.LoadedConfig.text`).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from ..edits import Edit
from ..positions import Extent, Location, Written
from ..read.loader import LoadedConfig

__all__ = [
    "Members",
    "NoFix",
    "blank_or_comment",
    "comma_in",
    "indent_unit",
    "insert_member",
    "keep_comment_column",
    "literal",
    "member_text",
    "quoted_like",
    "remove_member",
]


class NoFix(Exception):
    """This finding has no fix in this file (the place is not written, the new key exists already, …)."""


# -- the text and its members -----------------------------------------------------------------------------------


class Members:
    """The parsed text with what fixes need: where each member is, its siblings, the line it stands on."""

    def __init__(self, loaded: LoadedConfig) -> None:
        self.loaded = loaded
        self.lines = loaded.positions.index
        self.text = loaded.text
        self.data = loaded.data
        self._children: dict[Location, list[Location]] | None = None

    def written(self, location: Location) -> Written:
        """How ``location`` is written; no fix when it is not."""
        found = self.loaded.positions.written(tuple(location))
        if found is None:
            raise NoFix
        return found

    def key(self, location: Location) -> Extent:
        """Where the key of ``location`` is written; no fix for the root or a list item, which have none."""
        key = self.written(location).key
        if key is None:
            raise NoFix
        return key

    def value(self, location: Location) -> Extent:
        return self.written(location).value

    def key_text(self, location: Location) -> str:
        key = self.key(location)
        return self.text[key.start : key.end]

    def children(self, location: Location) -> list[Location]:
        """The members and items written in the object or array at ``location``, in file order."""
        if self._children is None:
            found: dict[Location, list[Location]] = {}
            for loc in self.loaded.positions:
                if loc:
                    found.setdefault(loc[:-1], []).append(loc)
            for members in found.values():
                members.sort(key=lambda loc: self.value(loc).start)
            self._children = found
        return [loc for loc in self._children.get(tuple(location), []) if isinstance(loc[-1], str)]

    def items(self, location: Location) -> list[Location]:
        self.children(location)
        assert self._children is not None
        return self._children.get(tuple(location), [])

    def line_start(self, pos: int) -> int:
        return self.lines.line_start(pos)

    def line_end(self, pos: int) -> int:
        return self.lines.line_end(pos)

    def indent_of(self, pos: int) -> str:
        start = self.line_start(pos)
        line = self.text[start:pos]
        return line if not line.strip() else line[: len(line) - len(line.lstrip())]


def comma_in(text: str, start: int, end: int) -> int | None:
    """The offset of the separating comma between ``start`` and ``end`` (whitespace and comments only), if any."""
    i = start
    while i < end:
        ch = text[i]
        if ch == ",":
            return i
        if ch == "#" or text.startswith("//", i):
            i = text.find("\n", i, end)
            if i < 0:
                return None
            continue
        if text.startswith("/*", i):
            close = text.find("*/", i + 2, end)
            if close < 0:
                return None
            i = close + 2
            continue
        if not ch.isspace():
            return None  # a value or a key: the comma, if any, is not this member's
        i += 1
    return None


def blank_or_comment(fragment: str) -> bool:
    stripped = fragment.strip()
    return not stripped or stripped.startswith(("//", "#")) or (stripped.startswith("/*") and stripped.endswith("*/"))


def remove_member(src: Members, location: Location) -> list[Edit]:
    """Edits that delete the member at ``location`` with the comma that separated it, and its line when it has one
    of its own (a comment after it on that line goes with it)."""
    ks, ve = src.key(location).start, src.value(location).end
    parent = tuple(location[:-1])
    container = src.value(parent)
    siblings = src.children(parent)
    i = siblings.index(tuple(location))
    prev_end = src.value(siblings[i - 1]).end if i > 0 else container.start + 1
    next_start = src.key(siblings[i + 1]).start if i + 1 < len(siblings) else container.end - 1
    text = src.text
    comma_after = comma_in(text, ve, next_start)
    comma_before = comma_in(text, prev_end, ks) if i > 0 else None
    own_line = not text[src.line_start(ks) : ks].strip()
    start, end = ks, ve
    if comma_after is not None:
        end = comma_after + 1
    elif comma_before is not None:
        start = comma_before
    eol = src.line_end(end)
    rest_alone = blank_or_comment(text[end:eol]) and next_start > eol
    if own_line and rest_alone:
        if start == ks:  # the member and its comma fill their lines: remove them whole
            start, end = src.line_start(ks), min(eol + 1, len(text))
        else:  # the last member: its comma was the one before it; the line end stays for the closing brace
            end = eol
    elif start == ks and comma_after is not None:
        while end < len(text) and text[end] in " \t":
            end += 1
    return [Edit(start, end, "")]


def insert_member(src: Members, target: Location, member: str) -> list[Edit]:
    """Edits that add ``member`` (``"key": value`` as it should read, its later lines indented as at the top level)
    as the last member of the object at ``target``."""
    container = src.value(target)
    vs, ve = container.start, container.end
    text = src.text
    if not (0 <= vs < ve <= len(text) and text[vs] == "{" and text[ve - 1] == "}"):
        raise NoFix  # a root without braces (Hjson allows it): leave it to the user
    children = src.children(target)
    close = ve - 1
    if not children:
        inner = text[vs + 1 : close]
        if "\n" in inner or "\n" in member:
            outer = src.indent_of(vs)
            indent = outer + indent_unit(src)
            return [Edit(vs + 1, close, "\n" + indent + _reindent(member, indent) + "\n" + outer)]
        return [Edit(vs + 1, close, member)]
    last_end = src.value(children[-1]).end
    last_start = src.key(children[-1]).start
    comma = comma_in(text, last_end, close)
    after = comma + 1 if comma is not None else last_end
    sep = "" if comma is not None else ","
    if "\n" in text[vs:close] and not text[src.line_start(last_start) : last_start].strip():
        indent = src.indent_of(last_start)
        return [Edit(after, after, sep + "\n" + indent + _reindent(member, indent))]
    return [Edit(after, after, sep + " " + member)]


def indent_unit(src: Members) -> str:
    """The file's indentation step (two spaces when it has none to go by)."""
    for line in src.text.split("\n"):
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def _reindent(member: str, indent: str) -> str:
    """``member`` (later lines relative to its first) with its later lines placed under ``indent``."""
    first, *rest = member.split("\n")
    return "\n".join([first, *(indent + line if line.strip() else line for line in rest)])


def member_text(src: Members, location: Location) -> str:
    """The member at ``location`` as written (``"key": value``), its later lines relative to its own indentation."""
    ks, ve = src.key(location).start, src.value(location).end
    own = src.indent_of(ks)
    lines = src.text[ks:ve].split("\n")
    return "\n".join([lines[0], *(line[len(own) :] if line.startswith(own) else line for line in lines[1:])])


def quoted_like(written_key: str, name: str) -> str:
    """``name`` as a key, quoted the way ``written_key`` was."""
    if written_key[:1] in ('"', "'"):
        return written_key[0] + name + written_key[0]
    return name


def literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


_ALIGNED_COMMENT = re.compile(r"(,?)( {2,})(?=#|//|/\*)")
"""What follows a value whose comment is aligned with spaces: ``,    # the learning rate``."""


def keep_comment_column(edit: Edit, text: str) -> Edit:
    """``edit`` widened over the spaces before a comment aligned after it, so that the comment stays in its column
    when the value grows or shrinks (``"auto"`` → ``0.001``); the edit itself when there is no such comment.

    >>> text = '"lr": "auto",   # rate'
    >>> e = keep_comment_column(Edit(6, 12, "0.001"), text)
    >>> text[: e.start] + e.replacement + text[e.end :]
    '"lr": 0.001,    # rate'
    """
    if "\n" in edit.replacement or "\n" in text[edit.start : edit.end]:
        return edit
    change = len(edit.replacement) - (edit.end - edit.start)
    after = _ALIGNED_COMMENT.match(text, edit.end) if change else None
    if after is None:
        return edit
    spaces = " " * max(1, len(after.group(2)) - change)
    return replace(edit, end=after.end(), replacement=edit.replacement + after.group(1) + spaces)
