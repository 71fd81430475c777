"""What a JSON or Hjson parser's own message means, said in the user's language.

``json.load`` and hjson stop with terse English ("Expecting value", "Extra data", "Bad key name (eof)"). Each is
matched here to a message of dsref's catalog, so a Chinese user reads Chinese; the parser's words stay in the
JSON output (``detail``) for whoever wants them. A message no pattern knows is shown as the parser wrote it.

>>> said("Expecting ',' delimiter", "en")
'a comma is missing between two items'
>>> said("Bad key name (eof)", "zh")
'文件在应该出现键名的地方结束了，可能少了一个右花括号'
>>> said("Unexpected UTF-8 BOM (decode using utf-8-sig)", "en")
'the file starts with a byte-order mark (BOM)'
>>> said("Something new", "zh") is None
True

Every message ``json`` and ``hjson`` raise has a meaning here (``tests/unit/check/test_parser_messages.py`` makes each
of them
happen and fails on one that has none).
"""

from __future__ import annotations

import re

from ...text.i18n import Lang, messages

PARSER = messages(
    "parser",
    expecting_value="a value is missing here (a number, a string, true, false, null, an object or an array)",
    expecting_comma="a comma is missing between two items",
    expecting_colon="a colon is missing after the key",
    expecting_key="a key in double quotes is expected here (JSON allows no comma before a closing brace)",
    extra_data="there is more text after the end of the top-level object",
    unterminated_string="a string is not closed: its closing quote is missing",
    control_character="a string holds a control character (a tab or a line break); write it as \\t or \\n",
    bad_escape="a string holds an invalid backslash escape",
    bad_unicode_escape="a \\u escape in a string must be followed by four hexadecimal digits",
    bom="the file starts with a byte-order mark (BOM)",
    trailing_comma="a comma stands before a closing bracket or brace, which JSON does not allow",
    eof_in_key="the file ends where a key name should be; a closing brace may be missing",
    eof_in_array="the file ends inside an array; a closing bracket may be missing",
    eof_in_object="the file ends inside an object; a closing brace may be missing",
    bad_key="a key name is expected here; put a key that holds punctuation in quotes",
    key_with_space="a key name contains a space; put it in quotes",
    empty_key="there is a colon without a key name before it",
    punctuator="a value starts with a punctuation character; put the value in quotes",
    bad_multiline="a ''' multi-line string is not written correctly",
)
"""The parsers' messages, by meaning."""

_MEANINGS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), name)
    for pattern, name in (
        (r"^Expecting value", "expecting_value"),
        (r"^Expecting ',' delimiter", "expecting_comma"),
        (r"^Expecting ':' delimiter", "expecting_colon"),
        (r"^Expecting property name", "expecting_key"),
        (r"^Extra data", "extra_data"),
        (r"^Unterminated string", "unterminated_string"),
        (r"^Invalid control character", "control_character"),
        (r"^Invalid \\uXXXX escape", "bad_unicode_escape"),  # json, and hjson's "… escape sequence"
        (r"^Invalid \\(?:X )?escape", "bad_escape"),  # json's "Invalid \\escape: …", hjson's "Invalid \\X escape …"
        (r"^Unexpected UTF-8 BOM", "bom"),  # json.loads on text that starts with U+FEFF (the Hugging Face reading)
        (r"^Illegal trailing comma", "trailing_comma"),
        (r"^Bad key name \(eof\)", "eof_in_key"),
        (r"^End of input while parsing an array", "eof_in_array"),
        (r"^End of input while parsing an object", "eof_in_object"),
        (r"^Found '.' where a key name was expected", "bad_key"),
        (r"^Found whitespace in your key name", "key_with_space"),
        (r"^Found ':' but no key name", "empty_key"),
        (r"^Found a punctuator character", "punctuator"),
        (r"^Bad multiline string", "bad_multiline"),
    )
)


def meaning(raw: str) -> str | None:
    """The name of the message that says what ``raw`` (a parser's message) means; None when it is not known."""
    return next((name for pattern, name in _MEANINGS if pattern.match(raw)), None)


def said(raw: str, lang: Lang) -> str | None:
    """``raw`` said in ``lang``; None when its meaning is not known."""
    name = meaning(raw)
    return None if name is None else PARSER.text(name, lang)
