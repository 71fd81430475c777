"""Text from a config file made safe to print: control characters shown, not obeyed; nothing that cannot be encoded.

A config's keys, values and file names reach the terminal inside dsref's messages. Printed raw, an ESC sequence
in a key could set the terminal's title or colours, a CR or LF could forge a ``file:line:col:`` line, and a right-to-
left override could reorder what the reader sees. :func:`visible` writes such characters as escapes instead.
Python reads invalid UTF-8 in file names, and ``"\\ud800"`` in JSON, as lone surrogates, which no encoder accepts:
:func:`visible` shows them too, and :func:`json_surrogates_escaped` turns them into JSON escapes.
"""

from __future__ import annotations

import re

__all__ = ["json_surrogates_escaped", "visible"]

_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""Controls (tab and line feed aside, see :func:`visible`), the bidirectional marks and overrides, lone surrogates."""

_NAMED = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def _escape_name(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte that is not UTF-8, as Python's surrogateescape keeps it
        return f"\\x{code - 0xDC00:02x}"
    return _escape(match)


def visible(text: str, *, lines: bool = False, name: bool = False) -> str:
    r"""``text`` with every character that would act on the terminal instead of showing written as an escape.

    Line feeds and tabs are escaped too unless ``lines`` is true (a message of several lines that dsref itself
    wrote). With ``name`` (a file name), the bytes that are not UTF-8 appear as ``\xNN``.

    >>> visible("stage\x1b]0;pwned\x07")
    'stage\\x1b]0;pwned\\x07'
    >>> visible("a\nb:1:1: error"), visible("a\nb", lines=True)
    ('a\\nb:1:1: error', 'a\nb')
    >>> visible("ds_config\udcff.json", name=True), visible("\udcff"), visible("零冗余 \u202eevil")
    ('ds_config\\xff.json', '\\udcff', '零冗余 \\u202eevil')
    """
    escape = _escape_name if name else _escape
    if lines:
        return "\n".join(_HIDDEN.sub(escape, part) for part in text.split("\n"))
    if "\t" in text or "\n" in text:
        text = text.replace("\t", "\\t").replace("\n", "\\n")
    return _HIDDEN.sub(escape, text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def json_surrogates_escaped(text: str) -> str:
    r"""JSON text from ``json.dumps(..., ensure_ascii=False)`` with each lone surrogate written as a ``\uXXXX``
    escape, so that it can be encoded as UTF-8 (``json.dumps`` only escapes them with ``ensure_ascii``). A lone
    surrogate can only stand inside a JSON string, where the escape means the same.

    >>> import json
    >>> out = json_surrogates_escaped(json.dumps({"k\ud800": "零"}, ensure_ascii=False))
    >>> out, json.loads(out) == {"k\ud800": "零"}
    ('{"k\\ud800": "零"}', True)
    """
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
