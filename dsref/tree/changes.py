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
import json
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from ..records import record
from ..schema import UNSET
from .index import OptionIndex
from .record import OptionRecord
from .releases import COVERED, ReleaseFacts, battery_value, behaviour, release_facts
from .rule_releases import Proof, engine_rules, holds_at, probed_rules, proven_by
from .versions import parse_version

__all__ = ["Change", "What", "changes", "changes_between", "history", "probed", "shown_probe"]


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
    type_checked = "type_checked"
    """A value of the wrong type, taken by the release before, is refused (the option is validated)."""
    type_unchecked = "type_unchecked"
    """A value of the wrong type, refused by the release before, is taken."""
    rule_made = "rule_made"
    """A cross-field check (``path``: its rule's code) the release makes while it reads the config; the one before
    did not."""
    rule_dropped = "rule_dropped"
    """A cross-field check the release before made and this one no longer makes."""
    engine_made = "engine_made"
    """A cross-field check the release makes when its engine starts (``path``: its rule's code); the one before did
    not."""
    engine_dropped = "engine_dropped"
    """A check the engine of the release before made when it started, and this one's no longer makes."""


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


def changes_between(start: str, end: str) -> tuple[Change, ...]:
    """The changes made after the recorded release ``start`` up to ``end`` included (what a config written for
    ``start`` meets on ``end``), oldest first; each at the first release that made it.

    >>> [c.what.value for c in changes_between("0.19.2", "0.19.3") if c.path == "gradient_clipping"]
    ['default']
    """
    low, high = parse_version(start), parse_version(end)
    return tuple(c for c in changes() if low < parse_version(c.release) <= high)


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
    labels = _probes(before) | _probes(after)
    for label in sorted(labels):
        was_ok, now_ok = _accepts(before, label), _accepts(after, label)
        if was_ok is not None and now_ok is not None and was_ok != now_ok:
            yield change(What.accepted if now_ok else What.refused, label)
    for option in records:
        yield from _battery_changes(previous, release, option.path, labels, change)
    for code in sorted({*probed_rules(), *engine_rules()}):  # a rule in both records: proven by one (proven_by)
        had_it, has_it = holds_at(code, previous), holds_at(code, release)
        if had_it is not None and has_it is not None and had_it != has_it:
            engine = proven_by(code) is Proof.engine
            made, dropped = (What.engine_made, What.engine_dropped) if engine else (What.rule_made, What.rule_dropped)
            yield change(made if has_it else dropped, code)


def _battery_changes(
    previous: str, release: str, path: str, labels: set[str], change: Callable[[What, str], Change]
) -> Iterator[Change]:
    """What the one-option battery saw change between two releases that both read the option: a value of the wrong
    type taken or refused, an out-of-range value (``path=<JSON>``, unless a probe already says it) accepted or
    refused."""
    was, now = behaviour(previous, path), behaviour(release, path)
    if was is None or now is None or not (was.reads and now.reads):
        return
    for variant in ("wrong_type", "out_of_range"):
        if variant not in was.verdicts or variant not in now.verdicts:
            continue
        was_ok, now_ok = was.verdicts[variant] is None, now.verdicts[variant] is None
        if was_ok == now_ok:
            continue
        if variant == "wrong_type":
            yield change(What.type_unchecked if now_ok else What.type_checked, path)
            continue
        value = battery_value(path, variant)
        label = f"{path}={value if isinstance(value, str) else json.dumps(value)}"
        if label not in labels:
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
