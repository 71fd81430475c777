"""Where the cursor is in a config that may be half-typed: the keys of the objects around it, and whether it is on a
key or on a value.

Completion and hover cannot wait for the text to parse: while a key is typed the file is usually broken. This scanner
reads the text up to the cursor the forgiving way (Hjson comments, quoteless keys and values, missing commas) and
keeps a stack of the objects it is in.

>>> at = cursor_context('{"zero_optimization": {"stage": 3, "off', 39)
>>> at.path, at.role, at.token
(('zero_optimization',), 'key', 'off')
>>> at = cursor_context('{"zero_optimization": {"stage": ', 32)
>>> at.path, at.role, at.key
(('zero_optimization',), 'value', 'stage')
>>> cursor_context('{"fp16": {"enabled": true}}', 12).key
'enabled'
"""

from __future__ import annotations

from ..records import record

__all__ = ["CursorContext", "cursor_context"]


@record
class CursorContext:
    """What surrounds an offset of the text."""

    path: tuple[str, ...]
    """The keys of the objects the cursor is in, outermost first (arrays end the path: None is returned inside one)."""
    role: str
    """``key``: on a key or where one goes; ``value``: after a key's colon."""
    key: str | None
    """The key under the cursor (role ``key``) or whose value the cursor is in (role ``value``)."""
    token: str
    """The part of the key or value under the cursor that is written before it (what completion filters on)."""
    start: int
    """Where that token starts (its opening quote excluded)."""
    end: int
    """Where the token under the cursor ends (its closing quote excluded)."""
    quoted: bool
    """The token is inside quotes."""


class _Frame:
    __slots__ = ("after_colon", "array", "key", "pending")

    def __init__(self, key: str | None, array: bool) -> None:
        self.key = key
        self.array = array
        self.pending: str | None = None
        self.after_colon = False


def cursor_context(text: str, offset: int) -> CursorContext | None:
    """The context of ``offset`` in ``text``; None outside any object, inside an array or a comment."""
    stack: list[_Frame] = []
    i, n = 0, len(text)
    limit = min(offset, n)
    while i < limit:
        ch = text[i]
        if ch in "\"'":
            end = _string_end(text, i)
            if end >= offset:  # the cursor is inside this string
                return _in_token(stack, text, i + 1, offset, _string_end(text, i) - 1, quoted=True)
            _token(stack, _unquote(text[i + 1 : end - 1]))
            i = end
            continue
        if ch == "#" or text.startswith("//", i):
            end = text.find("\n", i)
            if end < 0 or end >= offset:
                return None
            i = end + 1
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0 or end + 2 > offset:
                return None
            i = end + 2
            continue
        if ch in "{[":
            parent = stack[-1] if stack else None
            key = parent.pending if parent is not None and parent.after_colon else None
            if parent is not None:
                parent.pending, parent.after_colon = None, False
            stack.append(_Frame(key, ch == "["))
        elif ch in "}]":
            if stack:
                stack.pop()
        elif ch == ":":
            if stack:
                stack[-1].after_colon = True
        elif ch == ",":
            if stack:
                stack[-1].pending, stack[-1].after_colon = None, False
        elif not ch.isspace():
            end = _word_end(text, i, stack)
            if end >= offset:
                return _in_token(stack, text, i, offset, end, quoted=False)
            _token(stack, text[i:end].strip())
            i = end
            continue
        i += 1
    return _in_token(
        stack, text, offset, offset, _word_end(text, offset, stack) if offset < n else offset, quoted=False
    )


def _string_end(text: str, start: int) -> int:
    """The offset after the closing quote of the string opening at ``start`` (the end of the text if unclosed)."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == quote or ch == "\n":
            return i + 1
        i += 1
    return len(text) + 1


def _word_end(text: str, start: int, stack: list[_Frame]) -> int:
    """The end of a bare word: a key ends at ``:`` or space, a value (Hjson reads quoteless values to the line end)
    at a comma or a closing bracket as well, which is what a half-typed JSON value means."""
    i = start
    stops = ":,{}[]\n\r\"'" if not (stack and stack[-1].after_colon) else ",{}[]\n\r"
    while i < len(text) and text[i] not in stops and not (not (stack and stack[-1].after_colon) and text[i].isspace()):
        i += 1
    return i


def _unquote(text: str) -> str:
    if "\\" not in text:
        return text
    import json

    try:
        value = json.loads(f'"{text}"')
    except ValueError:
        return text
    return value if isinstance(value, str) else text


def _token(stack: list[_Frame], value: str) -> None:
    """A string or word read in full: a key, or a value that completes the pending member."""
    if not stack or stack[-1].array:
        return
    frame = stack[-1]
    if frame.after_colon:
        frame.after_colon = False
        frame.pending = None
    else:
        frame.pending = value


def _in_token(
    stack: list[_Frame], text: str, start: int, offset: int, end: int, *, quoted: bool
) -> CursorContext | None:
    if not stack or any(frame.array for frame in stack):
        return None
    frame = stack[-1]
    path = tuple(f.key or "" for f in stack[1:])
    if any(not step for step in path):
        return None
    token = text[start:offset]
    end = max(end, offset)
    if frame.after_colon:
        return CursorContext(path, "value", frame.pending, token, start, end, quoted)
    whole = _unquote(text[start:end]) if quoted else text[start:end].strip()
    return CursorContext(path, "key", whole or None, token, start, end, quoted)
