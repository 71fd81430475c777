"""What an earlier DeepSpeed release does with one option, for ``dsref explain PATH --deepspeed-version X``.

The page itself describes DeepSpeed 0.19.8 (the schema); this line says whether release X reads the option at all,
and its default there, as recorded from that release (:mod:`dsref.tree.releases`).
"""

from __future__ import annotations

from typing import Any

from ..records import record
from ..text.facts import json_text
from ..text.i18n import Lang, messages
from ..tree.releases import ReleaseFacts, in_release, missing_in, release_facts
from ..tree.versions import DEEPSPEED_VERSION, parse_version

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tree.record import OptionRecord

M = messages(
    "explain.release",
    absent="DeepSpeed {release} does not read this option; it appears in DeepSpeed {since}",
    removed="DeepSpeed {release} reads this option, which DeepSpeed {removed_in} removed",
    other_default="DeepSpeed {release} reads this option with the default {default} (DeepSpeed {described}: {current})",
    same="DeepSpeed {release} reads this option, with the same default as DeepSpeed {described}",
    lenient="Its section is read there key by key: a wrong value or an unknown key beside it passes unnoticed.",
)


def release_note(record: OptionRecord, release: str, lang: Lang) -> str | None:
    """One line about ``record`` in ``release``; None for the schema's own release."""
    if parse_version(release) == parse_version(DEEPSPEED_VERSION):
        return None
    facts = release_facts(release)
    compared = record.validated_by_deepspeed or record.unknown_keys == "reject"
    since = missing_in(release, record.path, record.since, compared=compared)
    if since is not None:
        return M.text("absent", lang, release=release, since=since)
    if record.removed_in and parse_version(release) < parse_version(record.removed_in):
        return M.text("removed", lang, release=release, removed_in=record.removed_in)
    current = None if record.default is None or record.default == "<unset>" else record.default
    default = current if facts is None else facts.default(record.path, current)
    if default != current:
        line = M.text(
            "other_default",
            lang,
            release=release,
            default=json_text(default),
            described=DEEPSPEED_VERSION,
            current=json_text(current),
        )
        return _with_leniency(line, record.path, facts, lang)
    line = M.text("same", lang, release=release, described=DEEPSPEED_VERSION)
    return _with_leniency(line, record.path, facts, lang)


def _with_leniency(line: str, path: str, facts: ReleaseFacts | None, lang: Lang) -> str:
    parts = path.split(".")
    lenient = facts is not None and any(facts.reads_leniently(".".join(parts[:n])) for n in range(1, len(parts)))
    return f"{line}\n{M.text('lenient', lang)}" if lenient else line


@record
class ReleaseDefault:
    """The default of an option at another release than the schema's, where that release uses another."""

    value: Any


def release_default(record: OptionRecord, release: str | None, described: str) -> ReleaseDefault | None:
    """``record``'s default at ``release``, as recorded from it (:func:`dsref.tree.releases.in_release`), where the
    release reads the option with a default other than the one of ``described`` (the schema's release); None
    otherwise (or without a release)."""
    if release is None or release == described:
        return None

    compared = record.validated_by_deepspeed or record.unknown_keys == "reject"
    default = record.default if record.has_default else None
    found = in_release(release, record.path, record.since, record.removed_in, default, compared=compared)
    there = found["default"]
    if not found["reads"] or (there == default and isinstance(there, bool) == isinstance(default, bool)):
        return None
    return ReleaseDefault(found["default"])
