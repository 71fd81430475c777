"""The first wrong character of a config that neither reader accepts, and what it most likely is.

The readers' own errors often land far from the mistake: Hjson reads an unquoted word to the end of its line, so
``"enabled": True}}`` swallows the closing braces and the error sits at the end of the file ("Bad key name (eof)").
:func:`first_mistake` walks the text token by token, as a reader of JSON-with-comments would, and stops at the first
token that no config means: a Python literal (``True``, ``False``, ``None``), a template placeholder left unfilled
(``$LR``, ``${LR}``, ``{{ lr }}``, ``<LR>``, ``%LR%``), a missing comma between two members of one line, or, where
strict JSON is wanted, a single-quoted string, a bare word or a trailing comma. Only called once a reader has failed.
"""

from __future__ import annotations

import json
import re

from ...records import record
from ..positions import LineIndex

__all__ = ["Mistake", "first_mistake"]


@record
class Mistake:
    """``reason`` names the loader's message; ``pos`` and ``end`` delimit the token in the text."""

    reason: str
    pos: int
    end: int
    word: str
    fix: str = ""
    """What to write instead, when there is one right answer (``true`` for ``True``)."""


_PYTHON = {"True": "true", "False": "false", "None": "null"}
_PLACEHOLDER = re.compile(r"\$\{?\w+\}?|<[A-Za-z_][\w.-]*>|%[A-Za-z_]\w*%|@[A-Za-z_]\w*@|__[A-Z][A-Z0-9_]*__")
_WORD = re.compile(r"[^\s,:\[\]{}\"'/#]+")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_SPACE = re.compile(r"(?:\s+|//[^\n]*|#[^\n]*|/\*.*?\*/)+", re.S)
_STRING = {'"': re.compile(r'"(?:[^"\\\n]|\\.)*"'), "'": re.compile(r"'(?:[^'\\\n]|\\.)*'")}
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)


def first_mistake(text: str, *, strict: bool, lines: LineIndex | None = None) -> Mistake | None:
    """The first token no config means, or None when nothing stands out (the reader's own error then stands).

    ``strict``: the text is meant as JSON (Hugging Face's ``json.load``), so single quotes and bare words are
    mistakes too; otherwise Hjson's quoteless values are allowed where they end their line. ``lines``: the text's
    line index when the caller has one (else one is built); a token's line is looked up in it where two tokens
    might share one, so the walk stays linear in the length of the text.

    >>> first_mistake('{"fp16": {"enabled": True}}', strict=False)
    Mistake(reason='python_literal', pos=21, end=25, word='True', fix='true')
    >>> first_mistake('{"lr": $LR, "wd": 0}', strict=False).word, first_mistake('{"lr": {{ lr }} }', strict=True).word
    ('$LR', '{{ lr }}')
    >>> first_mistake('{"a": 1 "b": 2}', strict=False)
    Mistake(reason='missing_comma', pos=8, end=11, word='"b"', fix='')
    >>> first_mistake("{'a': 1}", strict=True).reason, first_mistake("{'a': 1}", strict=False)
    ('single_quotes', None)
    >>> first_mistake('{"a": [1, 2,], "b": 1}', strict=True).pos, first_mistake('{"a": [1, 2,]}', strict=False)
    (11, None)
    """
    line_of = (lines if lines is not None and lines.text is text else LineIndex(text)).line_of
    stack: list[str] = []  # "{" or "["
    expect = "value"  # value | key | colon | after (a comma or a closing bracket)
    last = -1  # where the last value or closing bracket began (its line is looked up only when needed)
    comma = -1  # where the last comma stood, while nothing has followed it
    pos = 0
    n = len(text)
    budget = 4 * n  # text the JSON reader may go through in all (see _read_as_json)
    if text.startswith("\ufeff"):
        pos = 1
    while True:
        space = _SPACE.match(text, pos)
        if space:
            pos = space.end()
        if pos >= n:
            return None
        char = text[pos]
        if expect == "after":
            if char == ",":
                expect = "key" if stack and stack[-1] == "{" else "value"
                comma = pos
                pos += 1
                continue
            if char in "}]":
                stack.pop() if stack else None
                expect, last = "after", pos
                pos += 1
                continue
            if stack and last >= 0 and line_of(pos) == line_of(last):  # two members on one line, nothing between
                token = _token(text, pos)
                return Mistake("missing_comma", pos, pos + len(token), token)
            if strict:
                return None  # the reader's own error says it ("Expecting ',' delimiter")
            expect = "key" if stack and stack[-1] == "{" else "value"  # Hjson: a line break separates members
            continue
        if expect == "colon":
            if char != ":":
                return None
            expect = "value"
            pos += 1
            continue
        if char in "}]" and comma >= 0 and strict:
            return Mistake("trailing_comma", comma, comma + 1, ",")
        comma = -1
        closing = {"key": "}", "value": "]"}[expect]  # an empty object or array, or one after a trailing comma
        if char == closing and stack and stack[-1] == {"}": "{", "]": "["}[closing]:
            stack.pop()
            expect, last = "after", pos
            pos += 1
            continue
        if expect == "key":
            if char in "\"'":
                end = _string_end(text, pos)
                if end is None or (char == "'" and strict):
                    return _quoted(text, pos, end)
                pos, expect = end, "colon"
                continue
            word = _WORD.match(text, pos)
            if word is None:
                return None
            if strict:
                return Mistake("bare_word", pos, word.end(), word.group())
            pos, expect = word.end(), "colon"
            continue
        # a value
        template = _TEMPLATE.match(text, pos)
        if template:
            return Mistake("placeholder", pos, template.end(), template.group())
        if char in "{[":
            whole, reached = _read_as_json(text, pos) if budget > 0 else (False, pos)
            budget -= reached - pos
            if whole:  # a whole JSON object or array: no mistake in it, and on after its closing bracket
                pos, expect, last = reached, "after", reached - 1
                continue
            stack.append(char)
            pos += 1
            expect = "key" if char == "{" else "value"
            continue
        if char in "\"'":
            end = _string_end(text, pos)
            if end is None or (char == "'" and strict):
                return _quoted(text, pos, end)
            pos, expect, last = end, "after", pos
            continue
        number = _NUMBER.match(text, pos)
        word = _WORD.match(text, pos)
        if number and (word is None or word.end() == number.end()):
            pos, expect, last = number.end(), "after", pos
            continue
        placeholder = _PLACEHOLDER.match(text, pos)
        if placeholder:
            return Mistake("placeholder", pos, placeholder.end(), placeholder.group())
        if word is None:
            return None
        if word.group() in _PYTHON:
            return Mistake("python_literal", pos, word.end(), word.group(), _PYTHON[word.group()])
        if word.group() in ("true", "false", "null"):
            pos, expect, last = word.end(), "after", pos
            continue
        if strict:
            return Mistake("bare_word", pos, word.end(), word.group())
        # Hjson reads a quoteless value to the end of its line: well-formed only when that line holds nothing else.
        end_of_line = text.find("\n", pos)
        end_of_line = n if end_of_line < 0 else end_of_line
        if any(c in text[word.end() : end_of_line] for c in ",}]"):
            return Mistake("quoteless", pos, word.end(), word.group())
        pos, expect, last = end_of_line, "after", pos


def _refuse_constant(name: str) -> None:
    raise ValueError(f"{name} is no JSON")


_JSON = json.JSONDecoder(parse_constant=_refuse_constant)
"""Strict JSON, without the ``NaN`` and ``Infinity`` Python's reader takes: text it reads whole holds none of the
mistakes above."""


def _read_as_json(text: str, pos: int) -> tuple[bool, int]:
    """Whether ``json``'s C reader reads the object or array at ``pos`` whole, and where it stopped: after the value,
    or where it refused it. A config's big sections are mostly well formed, and walking them token by token was
    most of the time. A value the reader refuses is walked afterwards, so the walk gives the reader a budget of text
    (four times the text's length), which bounds the work a mistake deep in many nested values costs."""
    try:
        _, end = _JSON.raw_decode(text, pos)
    except json.JSONDecodeError as exc:
        return False, max(exc.pos, pos + 1)
    except (ValueError, RecursionError):  # a constant refused, or nesting deeper than Python's limit: no use
        return False, pos + 4 * len(text)  # asking again, so the whole budget is spent
    return True, int(end)


def _quoted(text: str, pos: int, end: int | None) -> Mistake | None:
    """The mistake a string at ``pos`` is where strict JSON is wanted (single quotes); None for one never closed,
    which the reader's own error says best."""
    return None if end is None else Mistake("single_quotes", pos, end, text[pos:end])


def _string_end(text: str, pos: int) -> int | None:
    if text.startswith("'''", pos):
        end = text.find("'''", pos + 3)
        return None if end < 0 else end + 3
    match = _STRING[text[pos]].match(text, pos)
    return match.end() if match else None


def _token(text: str, pos: int) -> str:
    if text[pos] in "\"'":
        end = _string_end(text, pos)
        if end is not None:
            return text[pos:end]
    word = _WORD.match(text, pos)
    return word.group() if word else text[pos]
