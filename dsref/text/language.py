"""Which language the user wants: ``--lang``, or the locale of the environment.

Kept apart from :mod:`dsref.text.i18n` (the texts) so that a command can choose its
language without loading anything else.

>>> resolve_language(None, {"LANG": "zh_CN.UTF-8"})
'zh'
>>> resolve_language(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "zh_CN.UTF-8"})
'en'
>>> resolve_language(None, {"LANG": "zh_Hans_SG"})  # not a plain name: Babel parses it
'zh'
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Literal

    Lang = Literal["en", "zh"]
else:
    Lang = str

__all__ = ["LANGUAGES", "LOCALE_DIRS", "Lang", "UnknownLanguage", "resolve_language"]

LANGUAGES: tuple[Lang, ...] = ("en", "zh")
LOCALE_DIRS: dict[Lang, str] = {"zh": "zh_CN"}


class UnknownLanguage(ValueError):
    """``--lang`` named a language dsref does not have."""


def _plain_locale(name: str) -> tuple[str, str | None] | None:
    """(language, territory) of a name shaped ``ll[_TT][.encoding][@modifier]`` (``C.UTF-8`` too), the shape
    nearly every environment uses; None for anything else, which goes to Babel's full parser. Importing Babel
    costs about 20 ms, more than the rest of ``dsref explain`` together."""
    base = name.split("@", 1)[0].split(".", 1)[0]
    language, _, territory = base.partition("_")
    if not (language.isascii() and language.isalpha()):
        return None
    if not territory:
        return None if "_" in base else (language.lower(), None)
    if territory.isascii() and (
        (len(territory) == 2 and territory.isalpha()) or (len(territory) == 3 and territory.isdigit())
    ):
        return language.lower(), territory.upper()
    return None


def _from_locale_name(value: str) -> Lang | None:
    """The language a POSIX or BCP 47 locale name asks for; None when unparsable.

    Babel's ``parse_locale`` decides, except for plain names (``zh_CN.UTF-8``), whose parts are read directly;
    ``tests/test_i18n.py`` checks that both ways agree.
    """
    name = value.strip().replace("-", "_")
    if not name:
        return None
    plain = _plain_locale(name)
    if plain is not None:
        language, territory, script = plain[0], plain[1], None
    else:
        from babel.core import parse_locale

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
