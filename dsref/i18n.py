"""Languages: which one the user wants, and the text of every message in it.

English is the source text everywhere. Chinese comes from the gettext catalog
``dsref/locales/zh_CN/LC_MESSAGES/dsref.mo`` (compiled from the ``.po`` next to
it), read with the standard library so that start-up stays cheap.

Two kinds of text go through the catalog:

* option texts (descriptions, notes, enum meanings): the English text is the
  msgid and the option's dotted path is the msgctxt (``path#note`` for notes);
* interface messages (labels, finding messages): each module declares its own
  table with :func:`messages`; the msgctxt is ``namespace.key``.

>>> demo = messages("demo", greeting="Hello, {name}!")
>>> demo.text("greeting", "en", name="ZeRO")
'Hello, ZeRO!'
>>> resolve_language(None, {"LANG": "zh_CN.UTF-8"})
'zh'
>>> resolve_language(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "zh_CN.UTF-8"})
'en'
"""

from __future__ import annotations

import gettext
import os
import struct
import sys
from collections.abc import Mapping
from functools import cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Literal

    Lang = Literal["en", "zh"]
else:
    Lang = str

__all__ = [
    "LANGUAGES",
    "Lang",
    "Messages",
    "UnknownLanguage",
    "catalog_path",
    "messages",
    "option_text",
    "registered_messages",
    "resolve_language",
]

LANGUAGES: tuple[Lang, ...] = ("en", "zh")
LOCALE_DIRS: dict[Lang, str] = {"zh": "zh_CN"}
DOMAIN = "dsref"
LOCALES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locales")


class UnknownLanguage(ValueError):
    """``--lang`` named a language dsref does not have."""


def _from_locale_name(value: str) -> Lang | None:
    """The language a POSIX or BCP 47 locale name asks for, via Babel's parser; None when unparsable."""
    from babel.core import parse_locale

    name = value.strip().replace("-", "_")
    if not name:
        return None
    try:
        parts = parse_locale(name)
    except ValueError:
        return None
    language, territory, script = parts[0], parts[1], parts[2]
    if language == "zh" and script in (None, "Hans") and territory in (None, "CN", "SG", "MY"):
        return "zh"
    if language == "zh" and script == "Hans":
        return "zh"
    return "en"


def resolve_language(explicit: str | None, environ: Mapping[str, str] | None = None) -> Lang:
    """The language to use: ``--lang`` if given, else the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set.

    ``explicit`` must be ``en`` or ``zh`` (locale names such as ``zh_CN`` are accepted too), otherwise
    :class:`UnknownLanguage`. From the environment, anything unknown means English, silently.
    """
    if explicit is not None:
        if explicit in LANGUAGES:
            return explicit  # type: ignore[return-value,unused-ignore]
        lang = _from_locale_name(explicit) if "_" in explicit or "-" in explicit else None
        if lang is None or (lang == "en" and not explicit.lower().startswith("en")):
            raise UnknownLanguage(explicit)
        return lang
    env = os.environ if environ is None else environ
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(variable)
        if value:
            return _from_locale_name(value) or "en"
    return "en"


def catalog_path(lang: Lang, suffix: str = ".mo") -> str:
    return os.path.join(LOCALES, LOCALE_DIRS[lang], "LC_MESSAGES", f"{DOMAIN}{suffix}")


_warned: set[str] = set()


@cache
def _translations(lang: Lang) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    path = catalog_path(lang)
    try:
        with open(path, "rb") as handle:
            return gettext.GNUTranslations(handle)
    except (OSError, ValueError, IndexError, UnicodeDecodeError, struct.error) as exc:
        if str(path) not in _warned:
            _warned.add(str(path))
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            print(f"dsref: cannot read the catalog {path} ({reason}); showing English", file=sys.stderr)
        return gettext.NullTranslations()


def translate(context: str, english: str, lang: Lang) -> str:
    """The text of ``english`` (in ``context``) in ``lang``; English where there is no translation."""
    if lang == "en" or not english:
        return english
    return _translations(lang).pgettext(context, english)


def option_text(path: str, english: str | None, lang: Lang, note: str | None = None) -> str | None:
    """An option's text: its description (``note=None``) or a note such as ``removal_note`` or ``enum:3``."""
    if english is None:
        return None
    context = path if note is None else f"{path}#{note}"
    return translate(context, english, lang)


class Messages:
    """A table of interface messages belonging to one module (``namespace``)."""

    def __init__(self, namespace: str, table: Mapping[str, str]) -> None:
        self.namespace = namespace
        self.table = dict(table)

    def text(self, key: str, lang: Lang, /, **args: object) -> str:
        english = self.table[key]
        template = translate(f"{self.namespace}.{key}", english, lang)
        return template.format(**args) if args else template

    def items(self) -> list[tuple[str, str]]:
        """(msgctxt, English msgid) pairs, for catalog extraction."""
        return [(f"{self.namespace}.{key}", text) for key, text in self.table.items()]


_REGISTRY: dict[str, Messages] = {}


def messages(namespace: str, /, **table: str) -> Messages:
    """Declare a module's interface messages: ``M = messages("check", summary="{n} files checked")``."""
    existing = _REGISTRY.get(namespace)
    if existing is not None and existing.table != table:
        raise ValueError(f"message namespace {namespace!r} declared twice with different texts")
    table_obj = Messages(namespace, table)
    _REGISTRY[namespace] = table_obj
    return table_obj


def registered_messages() -> dict[str, Messages]:
    """Every message table declared so far (import the modules first; see ``scripts/catalog.py``)."""
    return dict(_REGISTRY)
