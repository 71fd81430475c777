"""The server's settings: ``initializationOptions`` and ``workspace/didChangeConfiguration`` (section ``dsref``).

A value of the wrong kind is named in a message in the user's language, and its default is used.

>>> settings, problems = read_settings({"language": "zh", "worldSize": 8, "profile": "megatron"})
>>> settings.language, settings.world_size, settings.profile, [p.key for p in problems]
('zh', 8, None, ['profile'])
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..check.report.target import covered
from ..records import record
from ..text.i18n import Lang
from ..text.language import UnknownLanguage, resolve_language
from ..tree.profiles import PROFILES, Profile
from ..tree.releases import OLDEST_COVERED
from ..tree.versions import DEEPSPEED_VERSION
from .texts import TEXTS

__all__ = ["Problem", "Settings", "read_settings"]


@record
class Settings:
    """What the editor asked for; None means: decide from the editor and the file."""

    language: Lang | None = None
    profile: Profile | None = None
    world_size: int | None = None
    deepspeed_version: str | None = None
    python: str | None = None
    """The workspace's Python interpreter, whose installed DeepSpeed the check is for (None: the server's own)."""


@record
class Problem:
    """A setting with a value of the wrong kind."""

    key: str
    value: Any
    expected: str

    def message(self, lang: Lang) -> str:
        import json

        try:
            shown = json.dumps(self.value, ensure_ascii=False)
        except (TypeError, ValueError):
            shown = repr(self.value)
        expected = TEXTS.text(f"expected_{self.expected}", lang, oldest=OLDEST_COVERED, newest=DEEPSPEED_VERSION)
        return TEXTS.text("bad_setting", lang, key=self.key, value=shown[:80], expected=expected)


def read_settings(raw: Any) -> tuple[Settings, list[Problem]]:
    """The settings in ``raw`` (the ``dsref`` object, or an object holding it under ``dsref``), and the problems."""
    if isinstance(raw, Mapping) and isinstance(raw.get("dsref"), Mapping):
        raw = raw["dsref"]
    if not isinstance(raw, Mapping):
        return Settings(), []
    problems: list[Problem] = []
    language: Lang | None = None
    value = raw.get("language")
    if value is not None:
        try:
            language = resolve_language(str(value)) if isinstance(value, str) else None
        except UnknownLanguage:
            language = None
        if language is None:
            problems.append(Problem("language", value, "language"))
    profile: Profile | None = None
    value = raw.get("profile")
    if value is not None:
        if value in PROFILES:
            profile = value
        else:
            problems.append(Problem("profile", value, "profile"))
    world_size: int | None = None
    value = raw.get("worldSize")
    if value is not None:
        if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 10**7:
            world_size = value
        else:
            problems.append(Problem("worldSize", value, "world_size"))
    version: str | None = None
    value = raw.get("deepspeedVersion")
    if value is not None:
        version = value if isinstance(value, str) and covered(value) else None
        if version is None:
            problems.append(Problem("deepspeedVersion", value, "version"))
    python: str | None = None
    value = raw.get("python")
    if value is not None:
        python = value if isinstance(value, str) and value.strip() and "\x00" not in value else None
        if python is None:
            problems.append(Problem("python", value, "python"))
    return Settings(language, profile, world_size, version, python), problems
