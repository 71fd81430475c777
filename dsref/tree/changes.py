"""What changed in the config from one DeepSpeed release to the next, derived from the facts recorded from each
release (:mod:`dsref.tree.releases`) and the schema (0.19.8): an option that appeared or stopped being read, a
default that changed, a section that DeepSpeed started to validate, a value it started or stopped accepting. The
site's page "What changed in the config, release by release" and each option's history on the reference pages
are drawn from :func:`changes`.

>>> found = [c for c in changes() if c.path == "gradient_clipping" and c.what is What.default]
>>> [(c.release, c.before, c.after) for c in found]
[('0.19.3', 0.0, 1.0)]
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Iterator
from functools import cache
from typing import Any

from ..records import record
from ..schema import UNSET
from .index import OptionIndex
from .record import OptionRecord
from .releases import COVERED, ReleaseFacts, release_facts
from .versions import parse_version

__all__ = ["Change", "What", "changes", "history", "probed", "shown_probe"]


class What(enum.Enum):
    """The kinds of change a release makes to what a config means."""

    appeared = "appeared"
    """The release reads the option; the one before did not."""
    gone = "gone"
    """The release no longer reads the option (a key the one before read)."""
    default = "default"
    """The default the release applies changed."""
    validated = "validated"
    """The release validates the section with a model: unknown keys and wrong types, ignored before, are refused."""
    accepted = "accepted"
    """A value (a probe config) the release before refused is accepted."""
    refused = "refused"
    """A value (a probe config) the release before accepted is refused."""


@record
class Change:
    """One change, made by ``release`` (compared with ``previous``, the covered release before it)."""

    release: str
    previous: str
    what: What
    path: str
    """The option's canonical path, the section, or the probe (``path=value``)."""
    before: Any = None
    after: Any = None


def history(path: str) -> list[Change]:
    """The changes of the option (or section) at ``path``, oldest first."""
    return [change for change in changes() if change.path == path]


def probed(path: str) -> list[Change]:
    """The values of the option at ``path`` that a release started or stopped accepting, oldest first."""
    return [change for change in changes() if change.path.split("=", 1)[0] == path and "=" in change.path]


def shown_probe(value: str) -> str:
    """A probed value as JSON: a number as a number (the probes write numbers as JSON and strings as they are).

    >>> shown_probe("0"), shown_probe("bf16")
    ('0', '"bf16"')
    """
    import json

    try:
        number = json.loads(value)
    except ValueError:
        return json.dumps(value, ensure_ascii=False)
    if isinstance(number, (int, float)) and not isinstance(number, bool):
        return value
    return json.dumps(value, ensure_ascii=False)


@cache
def changes() -> tuple[Change, ...]:
    """Every change between consecutive covered releases, oldest first; within a release, by kind then path."""
    index = OptionIndex.load()
    records = [record for record in index if "<" not in record.path]
    found: list[Change] = []
    for previous, release in itertools.pairwise(COVERED):
        before, after = release_facts(previous), release_facts(release)
        step = list(_between(previous, release, before, after, records))
        found.extend(sorted(step, key=lambda c: (list(What).index(c.what), c.path)))
    return tuple(found)


def _between(
    previous: str,
    release: str,
    before: ReleaseFacts | None,
    after: ReleaseFacts | None,
    records: list[OptionRecord],
) -> Iterator[Change]:
    def change(what: What, path: str, was: Any = None, now: Any = None) -> Change:
        return Change(release, previous, what, path, was, now)

    for option in records:
        had, has = _reads(before, previous, option), _reads(after, release, option)
        if had != has:
            yield change(What.appeared if has else What.gone, option.path)
            continue
        if not has or option.kind != "leaf":
            continue
        schema_default = None if option.default is UNSET else option.default
        was, now = _default(before, option, schema_default), _default(after, option, schema_default)
        if was != now or isinstance(was, bool) != isinstance(now, bool) or (was is None) != (now is None):
            yield change(What.default, option.path, was, now)
    old_only = set(before.dict_only_here) if before is not None else set()
    new_only = set(after.dict_only_here) if after is not None else set()
    known = {option.path for option in records}
    for path in sorted(old_only - new_only - known):
        yield change(What.gone, path)
    for path in sorted(new_only - old_only - known):
        yield change(What.appeared, path)
    lenient_before = _lenient(before)
    for section in sorted(lenient_before - _lenient(after)):
        yield change(What.validated, section)
    for label in sorted(_probes(before) | _probes(after)):
        was_ok, now_ok = _accepts(before, label), _accepts(after, label)
        if was_ok is not None and now_ok is not None and was_ok != now_ok:
            yield change(What.accepted if now_ok else What.refused, label)


def _reads(facts: ReleaseFacts | None, release: str, record: OptionRecord) -> bool:
    if facts is not None:
        return facts.exists(record.path)
    return record.removed_in is None or parse_version(record.removed_in) > parse_version(release)


def _default(facts: ReleaseFacts | None, record: OptionRecord, schema_default: Any) -> Any:
    return schema_default if facts is None else facts.default(record.path, schema_default)


def _lenient(facts: ReleaseFacts | None) -> set[str]:
    if facts is None:
        return set()
    return {section for section in facts.model_absent if "." not in section and facts.reads_leniently(section)}


def _probes(facts: ReleaseFacts | None) -> set[str]:
    if facts is None:
        return set()
    return {label for label in facts.probes if "=" in label and not label.startswith("unknown:") and "," not in label}


def _accepts(facts: ReleaseFacts | None, label: str) -> bool | None:
    """Whether the release accepts the probe ``label``: as recorded, or as 0.19.8 does where nothing is recorded
    (0.19.8's own verdict is the recorded releases' reference: a probe is recorded where a release differs)."""
    if facts is None:
        return _accepted_by_latest(label)
    found = facts.accepts_probe(label)
    return _accepted_by_latest(label) if found is None else found


@cache
def _accepted_by_latest(label: str) -> bool | None:
    """0.19.8's verdict on a probe: the opposite of any release that differs from it."""
    for release in COVERED:
        facts = release_facts(release)
        if facts is not None and label in facts.probes:
            return facts.probes[label] is not None
    return None
