"""Text from a config file or the command line made safe to print: control characters shown, not obeyed.

A config's keys and values, file names and the arguments a user typed reach the terminal inside dsref's messages,
its report and its ``--diff``. Printed raw, an ESC sequence could set the terminal's title or colours, a CR or LF
could forge a ``file:line:col:`` line, a right-to-left override could reorder what the reader sees, and U+2028/U+2029
break a line in some terminals and editors. :func:`visible` writes such characters as escapes instead, for every
face of dsref: the one place that says what a terminal may be given. :func:`json_visible` does the same for JSON
text, with JSON's own escapes. Python reads invalid UTF-8 in file names and arguments, and ``"\\ud800"`` in JSON, as
lone surrogates, which no encoder accepts: both show them too.
"""

from __future__ import annotations

import re

__all__ = ["json_visible", "visible"]

_HIDDEN = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls (tab and line feed aside, see visible()), DEL, C1 controls
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidirectional marks, embeddings, overrides and isolates
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff]"  # lone surrogates
)
"""Every character that would act on the terminal, or break a line, instead of showing: the one list."""

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

    The escapes are the ones Python, C and JSON write, and bash reads back in ``$'…'``: ``\r``, ``\n`` and ``\t`` by
    name, ``\xNN`` up to U+00FF (ESC is ``\x1b``, the C1 CSI ``\x9b``), ``\uXXXX`` above (``\u202e``, ``\u2028``).
    The report of ``dsref check`` has always written them so; a user who sees one can type it back. A backslash
    already in the text stays as it is: a Windows path stays readable, and nothing it spells can act on a terminal.

    Line feeds and tabs are escaped too unless ``lines`` is true (a message of several lines that dsref itself
    wrote, or a line of a diff, whose tabs are part of the file's layout). With ``name`` (a file name, or an
    argument from the command line), the bytes that are not UTF-8 appear as ``\xNN``, as they are on disk.

    >>> visible("stage\x1b]0;pwned\x07")
    'stage\\x1b]0;pwned\\x07'
    >>> visible("a\nb:1:1: error"), visible("a\nb\tc\r", lines=True)
    ('a\\nb:1:1: error', 'a\nb\tc\\r')
    >>> visible("ds_config\udcff.json", name=True), visible("\udcff"), visible("零冗余 \u202eevil\u2028\x9b")
    ('ds_config\\xff.json', '\\udcff', '零冗余 \\u202eevil\\u2028\\x9b')
    """
    if not lines and ("\t" in text or "\n" in text):
        text = text.replace("\t", "\\t").replace("\n", "\\n")
    return _HIDDEN.sub(_escape_name if name else _escape, text)


def json_visible(text: str) -> str:
    r"""JSON text from ``json.dumps(..., ensure_ascii=False)`` with each character :func:`visible` would escape
    written as a ``\uXXXX`` escape: ``json.dumps`` leaves DEL, the C1 controls, the bidirectional controls,
    U+2028/U+2029 and lone surrogates raw (and a lone surrogate cannot even be encoded as UTF-8). Outside its strings
    ``json.dumps`` writes only ASCII punctuation, digits, letters and the line feeds and spaces of its indentation, so
    each such character stands inside a string, where the escape reads back as the same text.

    >>> import json
    >>> out = json_visible(json.dumps({"k\ud800": "零\u2028\u202e\x9b"}, ensure_ascii=False))
    >>> out, json.loads(out) == {"k\ud800": "零\u2028\u202e\x9b"}
    ('{"k\\ud800": "零\\u2028\\u202e\\u009b"}', True)
    """
    return _HIDDEN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
