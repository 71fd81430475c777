"""Which language the user wants: ``--lang``, or the locale of the environment.

Kept apart from :mod:`dsref.text.i18n` (the texts) so that a command can choose its
language without loading anything else.

>>> resolve_language(None, {"LANG": "zh_CN.UTF-8"})
'zh'
>>> resolve_language(None, {"LC_ALL": "de_DE.UTF-8", "LANG": "zh_CN.UTF-8"})
'en'
>>> resolve_language(None, {"LANG": "zh_Hans_SG"})
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


def _locale_parts(name: str) -> tuple[str, str | None, str | None] | None:
    """(language, territory, script) of a locale name shaped ``ll[_Ssss][_TT][_variant][.encoding][@modifier]``
    (``zh_CN.UTF-8``, ``zh_Hans_SG``, ``C.UTF-8``); None for a name that is not one.

    Read as Babel's ``parse_locale`` reads it (``tests/unit/text/test_i18n.py`` checks that both agree), without
    importing Babel: choosing the language is all ``dsref check`` or ``explain`` asks of a locale.

    >>> _locale_parts("zh_hans_sg.UTF-8@x"), _locale_parts("es_419"), _locale_parts("zh_CN_x")
    (('zh', 'SG', 'Hans'), ('es', '419', None), None)
    """
    base = name.split("@", 1)[0].split(".", 1)[0]
    language, *rest = base.split("_")
    if not language.isalpha():
        return None
    script = territory = None
    if rest and len(rest[0]) == 4 and rest[0].isalpha():
        script = rest.pop(0).title()
    if rest and ((len(rest[0]) == 2 and rest[0].isalpha()) or (len(rest[0]) == 3 and rest[0].isdigit())):
        territory = rest.pop(0).upper()
    if len(rest) == 1 and _is_variant(rest[0]):
        rest.clear()
    return None if rest else (language.lower(), territory, script)


def _is_variant(part: str) -> bool:
    """A locale variant: four characters from a digit on, or five and more from a letter on (``1901``, ``posix``)."""
    return (len(part) == 4 and part[0].isdigit()) or (len(part) >= 5 and part[0].isalpha())


def _from_locale_name(value: str) -> Lang | None:
    """The language a POSIX or BCP 47 locale name asks for; None when unparsable."""
    name = value.strip().replace("-", "_")
    parts = _locale_parts(name) if name else None
    if parts is None:
        return None
    language, territory, script = parts
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
