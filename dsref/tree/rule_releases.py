"""What each DeepSpeed release did with each cross-field rule's configs, as recorded from the releases themselves.

Two records, both written by ``python scripts/releases.py`` (:mod:`dsref.generator.release_rules`):

* ``dsref/generated/releases/rules.json`` (step ``rules``): for each rule whose example is a config DeepSpeed reads,
  each release's verdict on the rule's example config and on its repaired config, built with that release's
  ``DeepSpeedConfig``: the checks made while the config is read. :func:`rule_verdicts` hands them out.
* ``dsref/generated/releases/engine.json`` (step ``engine``): the same configs started as an engine
  (``deepspeed.initialize`` of a one-layer model on the CPU): the error and where in DeepSpeed it was raised, or the
  optimizer and scheduler built. :func:`engine_outcomes` hands them out.

:func:`proven_by` says which record proves a rule (0.19.8 does what the rule says there), :func:`holds_at` decides
from it whether a rule holds at a release (``dsref check --deepspeed-version`` applies it only there), and
:func:`rule_releases` lists where.

>>> rule_verdicts("DS510", "0.19.8")["example"] is not None  # fp16 and bf16 both on: refused
True
>>> rule_verdicts("DS510", "0.9.0") is None  # not a release that was probed
True
>>> proven_by("DS510"), proven_by("DS540")  # refused while the config is read; refused when the engine starts
(<Proof.read: 'read'>, <Proof.engine: 'engine'>)
"""

from __future__ import annotations

import enum
import json
import os
from collections.abc import Mapping
from functools import cache
from types import MappingProxyType
from typing import Any

from ..records import record
from .releases import RELEASES_DIR, release_facts
from .versions import DEEPSPEED_VERSION, run_at

RULES_FILE = os.path.join(RELEASES_DIR, "rules.json")
ENGINE_FILE = os.path.join(RELEASES_DIR, "engine.json")


def _load(path: str, listed: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as handle:
            data: dict[str, Any] = json.load(handle)
    except FileNotFoundError:
        return {"releases": [], listed: [], "configs": {}, "rules": {}}
    return data


@cache
def _data() -> dict[str, Any]:
    return _load(RULES_FILE, "errors")


@cache
def _engine_data() -> dict[str, Any]:
    return _load(ENGINE_FILE, "outcomes")


def rule_probed_releases() -> tuple[str, ...]:
    """The releases the rules' configs were built with, oldest first."""
    return tuple(_data()["releases"])


def probed_rules() -> tuple[str, ...]:
    """The codes of the rules whose configs were built with the releases (``DeepSpeedConfig``)."""
    return tuple(_data()["rules"])


@record
class EngineOutcome:
    """What one release did when it started an engine with one config."""

    error: str | None
    """The exception's type and first line; None where the engine started."""
    raised_at: str | None = None
    """Where in DeepSpeed it was raised, ``path/in/deepspeed.py:function``."""
    optimizer: str | None = None
    """The class of the optimizer it built (None: none); for an engine that started."""
    scheduler: str | None = None

    @property
    def error_type(self) -> str | None:
        return None if self.error is None else self.error.split(":", 1)[0]

    def same_refusal(self, other: EngineOutcome) -> bool:
        """Whether both are the same exception raised at the same place of DeepSpeed's code."""
        return self.error is not None and (self.error_type, self.raised_at) == (other.error_type, other.raised_at)


def engine_probed_releases() -> tuple[str, ...]:
    """The releases that started an engine with the rules' configs, oldest first."""
    return tuple(_engine_data()["releases"])


def engine_outcomes(code: str, release: str) -> Mapping[str, EngineOutcome] | None:
    """What ``release`` did when it started an engine with each config of the rule ``code`` (``example``,
    ``repaired``); None when the release or the rule was not probed so."""
    data = _engine_data()
    if release not in data["releases"] or code not in data["rules"]:
        return None
    found = run_at(data["rules"][code], release)
    if found is None:
        return None
    outcomes = data["outcomes"]
    return MappingProxyType({variant: EngineOutcome(**outcomes[n]) for variant, n in found[1].items()})


class Proof(enum.Enum):
    """Which record proves that DeepSpeed 0.19.8 does what a rule says."""

    read = "read"
    """0.19.8 refuses the rule's example while it reads the config, and takes the repair."""
    engine = "engine"
    """0.19.8 refuses the example when the engine starts and takes the repair, or (a warning) starts with both but
    builds otherwise with each (DS548: no optimizer from ``params`` without a ``type``)."""


@cache
def proven_by(code: str) -> Proof | None:
    """Which record proves the rule ``code`` at 0.19.8; None where neither does (its example needs more than one
    process, or the engine refuses the repair as well, or the rule is not about what an engine does)."""
    base = rule_verdicts(code, DEEPSPEED_VERSION)
    if code in retired_rules() or (base is not None and base["example"] is not None):
        return Proof.read
    started = engine_outcomes(code, DEEPSPEED_VERSION)
    if started is None or "repaired" not in started:
        return None
    return Proof.engine if engine_proves(started["example"], started["repaired"]) else None


def engine_proves(example: EngineOutcome, repaired: EngineOutcome) -> bool:
    """Whether an engine started with a rule's example and its repair shows what the rule says: the repair starts,
    and the example does not, or builds otherwise."""
    return repaired.error is None and (example.error is not None or example != repaired)


def engine_rules() -> tuple[str, ...]:
    """The codes of the rules 0.19.8's engine proves (:data:`Proof.engine`), by code."""
    return tuple(code for code in _engine_data()["rules"] if proven_by(code) is Proof.engine)


def rule_verdicts(code: str, release: str) -> Mapping[str, str | None] | None:
    """``release``'s verdict on each config of the rule ``code`` (``example``, ``repaired``): its error, or None
    where it accepted it; None when the release or the rule was not probed."""
    data = _data()
    if release not in data["releases"] or code not in data["rules"]:
        return None
    found = run_at(data["rules"][code], release)
    if found is None:
        return None
    errors = data["errors"]
    return MappingProxyType({variant: None if n is None else errors[n] for variant, n in found[1].items()})


def retired_rules() -> tuple[str, ...]:
    """The codes of the rules about a check only older releases make while they read the config (declared with
    ``retired=True``): 0.19.8 does not make the check (it refuses the whole section, repair and all), and each
    applies only where the record shows the check made."""
    return tuple(_data().get("retired", ()))


def rule_about(code: str) -> tuple[str, ...]:
    """The options the repair of the rule's example changes: what the rule is about (empty without a repair)."""
    return tuple(_data().get("about", {}).get(code, ()))


@cache
def holds_at(code: str, release: str) -> bool | None:
    """Whether the rule ``code`` holds at ``release``, as the release's own verdicts on the rule's configs say
    (:func:`proven_by`: from the record that proves the rule at 0.19.8):

    * None where they cannot tell: neither record proves the rule (a check the probes cannot make, advice), the
      rule or the release was not probed, the release refuses the repaired config as well (which 0.19.8 takes), or
      its engine refuses the example for another reason (another exception, raised elsewhere);
    * False where the release takes the example (and the repair), or, for a rule proven while the config is read,
      does not read an option the rule is about (:func:`rule_about`): it does not make the check;
    * True where it refuses the example as 0.19.8 does and takes the repair, or (a rule about what the engine
      builds) builds with each config what 0.19.8 builds.

    A retired rule (:func:`retired_rules`: a check 0.19.8 no longer makes) holds exactly where the release refuses
    its example, takes its repair and reads the options it is about, and is False everywhere else.
    """
    if code in retired_rules():
        here = rule_verdicts(code, release)
        return None if here is None else _retired_holds(code, release, here)
    proof = proven_by(code)
    if proof is Proof.engine:
        return _engine_holds_at(code, release)
    if proof is not Proof.read:
        return None
    base = rule_verdicts(code, DEEPSPEED_VERSION)
    here = rule_verdicts(code, release)
    if base is None or here is None:
        return None
    if here["example"] is None:
        return False
    facts = release_facts(release)
    if facts is not None and not all(facts.exists(path) for path in rule_about(code)):
        return False
    if "repaired" in base and base["repaired"] is None and here.get("repaired") is not None:
        return None
    return True


def _retired_holds(code: str, release: str, here: Mapping[str, str | None]) -> bool:
    """A retired rule holds exactly where the release refuses its example, takes its repair and reads the options
    it is about; nowhere else (0.19.8 included), not even where the verdicts cannot tell."""
    if here["example"] is None or here.get("repaired") is not None:
        return False
    facts = release_facts(release)
    return facts is None or all(facts.exists(path) for path in rule_about(code))


def _engine_holds_at(code: str, release: str) -> bool | None:
    base = engine_outcomes(code, DEEPSPEED_VERSION)
    here = engine_outcomes(code, release)
    if base is None or here is None or "repaired" not in here:
        return None
    example, repaired = here["example"], here["repaired"]
    if repaired.error is not None:
        return None  # no engine starts with the repair either: nothing to compare
    if base["example"].error is None:  # a rule about what the engine builds
        if example == base["example"] and repaired == base["repaired"]:
            return True
        return False if example == repaired else None
    if example.error is None:
        return False
    return True if example.same_refusal(base["example"]) else None


@record
class RuleReleases:
    """The releases where one rule holds, as :func:`holds_at` decides for each recorded release."""

    code: str
    proof: Proof
    """The record that proves it: the config read, or the engine started."""
    holds: tuple[str, ...]
    """The recorded releases where DeepSpeed makes the rule's check (or behaves as it says)."""
    lacks: tuple[str, ...]
    """The recorded releases that do not make it."""
    untold: tuple[str, ...]
    """The recorded releases where the verdicts could not tell (checked as 0.19.8 checks)."""


@cache
def rule_releases(code: str) -> RuleReleases | None:
    """Where the rule ``code`` holds among the releases probed; None for a rule neither record proves
    (:func:`proven_by`), which holds wherever the options it names exist."""
    proof = proven_by(code)
    if proof is None:
        return None
    found: dict[bool | None, list[str]] = {True: [], False: [], None: []}
    probed = rule_probed_releases() if proof is Proof.read else engine_probed_releases()
    for release in probed:
        found[holds_at(code, release)].append(release)
    return RuleReleases(code, proof, tuple(found[True]), tuple(found[False]), tuple(found[None]))
