"""What an earlier DeepSpeed release does differently with a config, read from the data recorded from the releases.

The schema describes DeepSpeed 0.19.8; ``dsref/generated/releases/<release>.json`` records, for each other release
of the table, how that release's config layer differs (``scripts/releases.py`` writes it from the release itself),
and ``behaviour.json`` what each release did with each option of the one-option battery (reads it, its default,
its verdict on each value), which wins where it tells. :func:`release_facts` hands both out as a frozen
:class:`ReleaseFacts`; :data:`PUBLISHED` lists the releases published from 0.10.0, :data:`COVERED` those recorded.

>>> release_facts("0.19.8") is None
True
>>> facts = release_facts("0.10.3")
>>> facts.exists("fp16.enabled"), facts.exists("zero_optimization.zenflow")
(True, False)
>>> facts.reads_leniently("fp16"), facts.default("gradient_clipping", 1.0)
(True, 0.0)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import field, replace
from functools import cache
from types import MappingProxyType
from typing import Any

from ..records import record
from .versions import DEEPSPEED_VERSION, parse_version, run_at

RELEASES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generated", "releases")


PUBLISHED: tuple[str, ...] = (
    "0.10.0",
    "0.10.1",
    "0.10.2",
    "0.10.3",
    "0.11.0",
    "0.11.1",
    "0.11.2",
    "0.12.0",
    "0.12.1",
    "0.12.2",
    "0.12.3",
    "0.12.4",
    "0.12.5",
    "0.12.6",
    "0.13.0",
    "0.13.1",
    "0.13.2",
    "0.13.3",
    "0.13.4",
    "0.13.5",
    "0.14.0",
    "0.14.1",
    "0.14.2",
    "0.14.3",
    "0.14.4",
    "0.14.5",
    "0.15.0",
    "0.15.1",
    "0.15.2",
    "0.15.3",
    "0.15.4",
    "0.16.0",
    "0.16.1",
    "0.16.2",
    "0.16.3",
    "0.16.4",
    "0.16.5",
    "0.16.6",
    "0.16.7",
    "0.16.8",
    "0.16.9",
    "0.17.0",
    "0.17.1",
    "0.17.2",
    "0.17.3",
    "0.17.4",
    "0.17.5",
    "0.17.6",
    "0.18.0",
    "0.18.1",
    "0.18.2",
    "0.18.3",
    "0.18.4",
    "0.18.5",
    "0.18.6",
    "0.18.7",
    "0.18.8",
    "0.18.9",
    "0.19.0",
    "0.19.1",
    "0.19.2",
    "0.19.3",
    "0.19.4",
    "0.19.5",
    "0.19.6",
    "0.19.7",
    "0.19.8",
)
"""Every DeepSpeed release published from 0.10.0 to the one the schema describes (the last), as the package index
lists them: the releases ``--deepspeed-version`` takes. Each is recorded from the release itself (:data:`COVERED`
says which are so far); a number between two of them was never published."""


def _covered() -> tuple[str, ...]:
    names = [name.removesuffix(".json") for name in os.listdir(RELEASES_DIR) if name.endswith(".json")]
    found = [name for name in names if _is_release(name)]
    return tuple(sorted({*found, DEEPSPEED_VERSION}, key=parse_version))


def _is_release(name: str) -> bool:
    try:
        parse_version(name)
    except ValueError:
        return False
    return True


COVERED: tuple[str, ...] = _covered()
"""The releases whose differences are recorded, oldest first, ending with the schema's own."""

OLDEST_COVERED: str = COVERED[0]
"""The oldest release ``--deepspeed-version`` takes: the oldest recorded (what came before it was never compared)."""

_NONE = "<none>"  # a key looked up with [] or `in`: no default passed


@record
class ReleaseFacts:
    """One release's config layer, as differences from 0.19.8's (paths are the schema's canonical ones)."""

    release: str
    model_absent: frozenset[str]
    """Sections 0.19.8 validates with a pydantic model that this release has no model for."""
    absent: frozenset[str]
    """Options of 0.19.8's models and keys it reads with ``dict.get`` that this release does not read."""
    dict_only_here: Mapping[str, Any]
    """Keys this release reads with ``dict.get`` that 0.19.8 does not (a model reads them there, or nothing does),
    with the default it passes."""
    defaults: Mapping[str, Any]
    """Options whose default differs here: model fields, ``dict.get`` defaults, scheduler constructor defaults."""
    unknown_keys: Mapping[str, str]
    """Sections that treat unknown keys otherwise than 0.19.8: ``forbid``, ``ignore`` or ``allow``."""
    model_only_here: frozenset[str] = frozenset()
    """Fields of this release's pydantic models that 0.19.8's models no longer have."""
    probes: Mapping[str, str | None] = field(default_factory=dict)
    """The release's verdict on a probe config where it differs from 0.19.8's (None: accepted)."""
    reads: Mapping[str, bool] = field(default_factory=dict)
    """Whether the release reads each option of the one-option battery, as the battery run on the release
    (``behaviour.json``) found from what a written value does to the built config: true wherever it saw the option
    read, false where the release does not read an option 0.19.8 reads."""
    behaviour_defaults: Mapping[str, Any] = field(default_factory=dict)
    """The default the battery found for an option where it differs from the one found on 0.19.8."""
    wrong_values: Mapping[str, bool] = field(default_factory=dict)
    """``path variant`` (``wrong_type``, ``out_of_range``) → whether the release refuses such a value there, where
    the battery run on it found it refused, or accepted where 0.19.8 refuses it."""
    battery: Mapping[str, bool] = field(default_factory=dict)
    """``path=<JSON value>`` → whether the release accepts that value, for each value of the battery that the
    release judges otherwise than 0.19.8."""
    optimizers_absent: frozenset[str] = frozenset()
    """The names of 0.19.8's own optimizers (lowercase, as DeepSpeed matches them) this release does not have: for
    such a type it looks for a ``torch.optim`` class of that exact name instead."""
    schedulers_absent: frozenset[str] = frozenset()
    """The names of 0.19.8's own schedulers this release does not have (``torch.optim.lr_scheduler`` is looked at
    instead)."""

    def reads_leniently(self, section: str) -> bool:
        """The release reads ``section`` with ``dict.get`` where 0.19.8 has a model: unknown keys and wrong types
        there pass unnoticed."""
        if section in self.model_absent:
            return self.probes.get(f"unknown:{section}", "") is None or any(
                path.startswith(f"{section}.") for path in self.dict_only_here
            )
        return self.unknown_keys.get(section) in ("ignore", "allow")

    def refuses_unknown(self, section: str | None) -> bool | None:
        """Whether an unknown key in ``section`` is refused by this release; None where it reads it as 0.19.8."""
        if section is None:
            return None
        if self.reads_leniently(section):
            return False
        if self.unknown_keys.get(section) == "forbid":
            return True
        return None

    def exists(self, path: str) -> bool:
        """Whether this release reads the option at ``path`` at all: as the battery run on it found, where it did;
        else from its recorded models and ``dict.get`` lookups."""
        if path in self.reads:
            return self.reads[path]
        parts = path.split(".")
        for depth in range(1, len(parts) + 1):
            prefix = ".".join(parts[:depth])
            if prefix in self.absent:
                return False
            if prefix in self.model_absent and depth < len(parts):
                # read with dict.get here: only the keys it looks up exist
                return path in self.dict_only_here or any(p.startswith(f"{path}.") for p in self.dict_only_here)
        return True

    def default(self, path: str, schema_default: Any) -> Any:
        """The default this release uses for ``path`` (``schema_default``: 0.19.8's)."""
        if path in self.behaviour_defaults:
            return self.behaviour_defaults[path]
        if path in self.defaults:
            return self.defaults[path]
        value = self.dict_only_here.get(path, _NONE)
        return schema_default if value == _NONE else value

    def refuses_wrong(self, path: str, variant: str) -> bool | None:
        """Whether the release refuses a value of the wrong type (``variant="wrong_type"``) or out of range
        (``"out_of_range"``) at ``path``, as the battery run on it found; None where it did not tell."""
        return self.wrong_values.get(f"{path} {variant}")

    def accepts_value(self, path: str, value: Any) -> bool | None:
        """Whether the release accepts ``value`` at ``path`` where it judges it otherwise than 0.19.8 (a value
        probed: ``communication_data_type`` ``"bfp16"`` up to 0.13, WarmupLR's ``warmup_num_steps`` 0 up to 0.19.2);
        None where it agrees."""
        label = battery_label(path, value)
        if label in self.battery:
            return self.battery[label]
        if isinstance(value, str):
            return self.accepts_probe(f"{path}={value}")
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return self.accepts_probe(f"{path}={json.dumps(value)}")
        return None

    def spellings(self, path: str, schema_allowed: tuple[Any, ...]) -> list[Any]:
        """The values of ``path`` the release accepts: 0.19.8's (``schema_allowed``) less those it refuses, plus
        those only it accepts."""
        only_here = [
            label.split("=", 1)[1]
            for label, error in self.probes.items()
            if label.startswith(f"{path}=") and error is None
        ]
        kept = [value for value in schema_allowed if self.accepts_value(path, value) is not False]
        return kept + [value for value in only_here if value not in kept]

    def accepts_probe(self, label: str) -> bool | None:
        """Whether the release accepts the probe config ``label``; None when it judges it as 0.19.8 does."""
        if label not in self.probes:
            return None
        return self.probes[label] is None


BEHAVIOUR_FILE = os.path.join(RELEASES_DIR, "behaviour.json")
UNKNOWN_DEFAULT = "<unknown>"


def battery_label(path: str, value: Any) -> str:
    """How the battery names ``value`` written at ``path``: ``path=<canonical JSON>``."""
    return f"{path}={json.dumps(value, sort_keys=True, separators=(',', ':'))}"


@record
class Behaviour:
    """One release's behaviour with one option, as the battery run on it recorded (``behaviour.json``)."""

    reads: bool | None
    """Whether the release reads it; None where the probe could not tell."""
    default: Any
    """Its default there (``"<unknown>"`` where the probe could not find it); None when not read."""
    verdicts: Mapping[str, str | None]
    """Each variant of the battery → the release's error, None when it accepts it."""


@cache
def _behaviour_data() -> dict[str, Any]:
    try:
        with open(BEHAVIOUR_FILE, encoding="utf-8") as handle:
            data: dict[str, Any] = json.load(handle)
    except FileNotFoundError:
        return {"releases": [], "errors": [], "configs": {}, "options": {}}
    return data


def battery_value(path: str, variant: str) -> Any:
    """The value the battery wrote for ``variant`` at ``path`` (``"<unknown>"`` where none was recorded)."""
    return _battery_values_recorded().get(path, {}).get(variant, UNKNOWN_DEFAULT)


def battery_config_sha(path: str, variant: str) -> str | None:
    """The first digits of the sha256 of the battery config the releases were probed with (``path``, ``variant``)."""
    found: str | None = _behaviour_data()["configs"].get(path, {}).get(variant)
    return found


def probed_releases() -> tuple[str, ...]:
    """The releases the battery was run on, oldest first."""
    return tuple(_behaviour_data()["releases"])


def behaviour(release: str, path: str) -> Behaviour | None:
    """What ``release`` does with the option at ``path``, as the battery run on it recorded; None when the
    release was not probed or the option is not in the battery."""
    data = _behaviour_data()
    if release not in data["releases"] or path not in data["options"]:
        return None
    found = run_at(data["options"][path], release)
    if found is None:
        return None
    errors = data["errors"]
    verdicts = {variant: None if n is None else errors[n] for variant, n in found[3].items()}
    return Behaviour(found[1], found[2], MappingProxyType(verdicts))


def _from_behaviour(release: str) -> tuple[dict[str, bool], dict[str, Any], dict[str, bool], dict[str, bool]]:
    """The reads, defaults, battery verdicts and wrong-value verdicts of ``release`` where they differ from
    0.19.8's run (:class:`ReleaseFacts` says which)."""
    data = _behaviour_data()
    reads: dict[str, bool] = {}
    defaults: dict[str, Any] = {}
    verdicts: dict[str, bool] = {}
    wrong: dict[str, bool] = {}
    if release not in data["releases"] or DEEPSPEED_VERSION not in data["releases"]:
        return reads, defaults, verdicts, wrong
    values = _battery_values_recorded()
    for path in data["options"]:
        here, base = behaviour(release, path), behaviour(DEEPSPEED_VERSION, path)
        if here is None or base is None:
            continue
        if here.reads is True or (here.reads is False and base.reads is True):
            reads[path] = here.reads  # read there, whatever 0.19.8 does; or no longer read where 0.19.8 reads it
        if (
            here.reads
            and base.reads
            and UNKNOWN_DEFAULT not in (here.default, base.default)
            and here.default != base.default
        ):
            defaults[path] = here.default
        for variant, error in here.verdicts.items():
            if variant in values.get(path, {}) and (error is None) != (base.verdicts.get(variant) is None):
                verdicts[battery_label(path, values[path][variant])] = error is None
            if variant in ("wrong_type", "out_of_range") and variant in base.verdicts:
                if error is not None:
                    wrong[f"{path} {variant}"] = True
                elif base.verdicts[variant] is not None:
                    wrong[f"{path} {variant}"] = False
    return reads, defaults, verdicts, wrong


@cache
def _battery_values_recorded() -> dict[str, dict[str, Any]]:
    """The values of the recorded battery: ``behaviour.json`` keeps them under ``values``."""
    return dict(_behaviour_data().get("values", {}))


def _facts(data: Mapping[str, Any]) -> ReleaseFacts:
    defaults: dict[str, Any] = {}
    for path, changed in data.get("changed", {}).items():
        if "default" in changed:
            defaults[path] = changed["default"]
    defaults.update({path: value for path, value in data.get("dict_default", {}).items() if value != _NONE})
    for params in (data.get("schedulers") or {}).values():
        for param, value in (params or {}).items():
            defaults.setdefault(f"scheduler.params.{param}", value)  # the schema keeps one set of params for all
    return ReleaseFacts(
        release=data["release"],
        model_absent=frozenset(data.get("model_absent", ())),
        absent=frozenset(data.get("absent", ())) | frozenset(data.get("dict_absent", ())),
        dict_only_here=MappingProxyType(dict(data.get("dict_removed_later", {}))),
        model_only_here=frozenset(data.get("removed_later", ())),
        optimizers_absent=frozenset(data.get("optimizers_absent", ())),
        schedulers_absent=frozenset(name for name, params in (data.get("schedulers") or {}).items() if params is None),
        defaults=MappingProxyType(defaults),
        unknown_keys=MappingProxyType(dict(data.get("unknown_keys", {}))),
        probes=MappingProxyType(dict(data.get("probes", {}))),
    )


def published(release: str) -> bool:
    """Whether ``release`` names a DeepSpeed release published from 0.10.0 to 0.19.8 (one of :data:`PUBLISHED`).

    >>> published("0.15.4"), published("0.15.99"), published("abc")
    (True, False, False)
    """
    try:
        number = parse_version(release)
    except ValueError:
        return False
    return any(parse_version(r) == number for r in PUBLISHED)


def recorded_release(release: str) -> str:
    """The recorded release whose facts stand for ``release``: itself when recorded. Every published release is
    meant to be recorded (:data:`PUBLISHED`); until the build has reached one, the next recorded after it stands
    for it, and the newest after them all. A number never published is for the caller to refuse (:func:`published`).

    >>> recorded_release("0.15.4"), recorded_release("0.20.0")
    ('0.15.4', '0.19.8')
    """
    version = parse_version(release)
    return next((r for r in COVERED if parse_version(r) >= version), DEEPSPEED_VERSION)


@cache
def release_facts(release: str) -> ReleaseFacts | None:
    """The recorded differences of ``release`` (one of :data:`COVERED`); None for the schema's own release.

    A release outside the table is read as :func:`recorded_release` says."""
    layer = release_layer(release)
    if layer is None:
        return None
    reads, behaviour_defaults, battery, wrong_values = _from_behaviour(layer.release)
    return replace(
        layer,
        reads=MappingProxyType(reads),
        behaviour_defaults=MappingProxyType(behaviour_defaults),
        battery=MappingProxyType(battery),
        wrong_values=MappingProxyType(wrong_values),
    )


@cache
def release_layer(release: str) -> ReleaseFacts | None:
    """:func:`release_facts` less what the battery found (``reads``, ``behaviour_defaults``, ``battery`` and
    ``wrong_values`` left empty): the release's models, ``dict.get`` lookups and probes, read from its own record
    alone. What asks only how a release reads a section (:func:`ignored_until`, for each release before the one
    checked) costs a file a release, not the battery's whole record."""
    nearest = recorded_release(release)
    if nearest == DEEPSPEED_VERSION:
        return None
    with open(os.path.join(RELEASES_DIR, f"{nearest}.json"), encoding="utf-8") as handle:
        return _facts(json.load(handle))


def type_introduced_in(section: str, name: str) -> str | None:
    """The first covered release that has DeepSpeed's own ``section`` (``optimizer`` or ``scheduler``) type
    ``name``, as recorded; None when every one does."""
    for release in COVERED:
        facts = release_layer(release)
        if facts is None:
            return None if release == COVERED[0] else release
        absent = facts.optimizers_absent if section == "optimizer" else facts.schedulers_absent
        if (name.lower() if section == "optimizer" else name) not in absent:
            return None if release == COVERED[0] else release
    return None


def introduced_in(path: str) -> str | None:
    """The first covered release that reads the option at ``path``, as recorded; None when every one does."""
    for release in COVERED:
        facts = release_facts(release)
        if facts is None or facts.exists(path):
            return None if release == COVERED[0] else release
    return None


def missing_in(
    release: str, path: str, since: str | None, *, compared: bool, removed_in: str | None = None
) -> str | None:
    """The release the option at ``path`` appeared in, when ``release`` does not have it yet; None when it does.

    The facts recorded from ``release`` decide; the schema's ``since`` too, except for an option of a DeepSpeed
    model (``compared``), whose fields the recording compared one by one (``compile`` existed in 0.13 before it was
    dropped and came back in 0.16.6)."""
    version = parse_version(release)
    before_since = since is not None and version < parse_version(since)
    facts = release_facts(release)
    if facts is not None and facts.reads.get(path) is True:
        return None  # the battery run on the release saw it read the option
    if facts is not None and not facts.exists(path):
        appears = since if before_since else introduced_in(path) or DEEPSPEED_VERSION
        if removed_in is not None and parse_version(appears) >= parse_version(removed_in):
            return None  # gone by then: no later release reads it, so this one is not too old for it
        return appears
    recorded = facts is not None and version >= parse_version(COVERED[0])
    return since if before_since and not (recorded and compared) else None


def in_release(
    release: str, path: str, since: str | None, removed_in: str | None, default: Any, *, compared: bool
) -> dict[str, Any]:
    """How ``release`` reads the option at ``path`` (``since``, ``removed_in`` and ``default``: the schema's), for
    the option dump: ``{"reads": bool, "appears_in": …, "removed_in": …, "default": its default there}``."""
    appears = missing_in(release, path, since, compared=compared, removed_in=removed_in)
    gone = removed_in if removed_in and parse_version(release) >= parse_version(removed_in) else None
    facts = release_facts(release)
    there = default if facts is None else facts.default(path, default)
    reads = appears is None and gone is None
    return {"reads": reads, "appears_in": appears, "removed_in": gone, "default": there if reads else None}


def last_before(release: str) -> str | None:
    """The newest covered release before ``release`` (one that removed something: the last that still had it)."""
    earlier = [r for r in COVERED if parse_version(r) < parse_version(release)]
    return earlier[-1] if earlier else None


def last_reading(path: str) -> str | None:
    """The newest covered release that reads ``path``, a key 0.19.8 does not read (``seq_parallel_comm_data_type``,
    ``aio.thread_count``), as recorded; None when none does."""
    reading = [r for r in COVERED if (facts := release_facts(r)) is not None and path in facts.dict_only_here]
    return reading[-1] if reading else None


def ignored_until(section: str, path: str, release: str) -> str | None:
    """The newest covered release that read ``section`` key by key and so ignored ``path`` (an unknown key there),
    when every covered release before ``release`` either ignored it so or refused it: removing the key then keeps
    what the file did on each release that took it. None otherwise (``compile.enabled``: 0.13.5's model read it)."""
    version = parse_version(release)
    ignoring: list[str] = []
    for covered_release in COVERED:
        if parse_version(covered_release) >= version:
            break
        facts = release_layer(covered_release)
        if facts is None:
            return None
        if path in facts.model_only_here or path in facts.dict_only_here:
            return None  # that release read the key itself
        if facts.reads_leniently(section):
            ignoring.append(covered_release)
        elif facts.refuses_unknown(section) is False:
            return None  # it took the section's unknown keys some other way
    return ignoring[-1] if ignoring else None
