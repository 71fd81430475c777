"""What each DeepSpeed release did with each cross-field rule's configs, as recorded from the releases themselves.

``dsref/generated/releases/rules.json`` (written by ``python scripts/releases.py rules``,
:mod:`dsref.generator.release_rules`) holds, for each rule whose example is a config DeepSpeed reads, each
release's verdict on the rule's example config and on its repaired config, built with that release's
``DeepSpeedConfig``. :func:`rule_verdicts` hands them out; :func:`holds_at` decides from them whether a rule
holds at a release (``dsref check --deepspeed-version`` applies it only there), :func:`rule_releases` lists where.

>>> rule_verdicts("DS510", "0.19.8")["example"] is not None  # fp16 and bf16 both on: refused
True
>>> rule_verdicts("DS510", "0.9.0") is None  # not a release that was probed
True
"""

from __future__ import annotations

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


@cache
def _data() -> dict[str, Any]:
    try:
        with open(RULES_FILE, encoding="utf-8") as handle:
            data: dict[str, Any] = json.load(handle)
    except FileNotFoundError:
        return {"releases": [], "errors": [], "configs": {}, "rules": {}}
    return data


def rule_probed_releases() -> tuple[str, ...]:
    """The releases the rules' configs were built with, oldest first."""
    return tuple(_data()["releases"])


def probed_rules() -> tuple[str, ...]:
    """The codes of the rules whose configs were built with the releases."""
    return tuple(_data()["rules"])


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
    """Whether the rule ``code`` holds at ``release``, as the release's own verdicts on the rule's configs say:

    * None where they cannot tell: the rule is not one DeepSpeed 0.19.8 enforces while it reads the config (it
      accepts the rule's example: a check of the engine, a warning, advice), the rule or the release was not
      probed, or the release refuses the repaired config as well (which 0.19.8 takes);
    * False where the release takes the example, or does not read an option the rule is about
      (:func:`rule_about`): it does not make the check;
    * True where it refuses the example, reads the options and takes the repair.

    A retired rule (:func:`retired_rules`: a check 0.19.8 no longer makes) holds only where that last is so, and
    is False everywhere else.
    """
    base = rule_verdicts(code, DEEPSPEED_VERSION)
    here = rule_verdicts(code, release)
    if code in retired_rules():
        return None if here is None else _retired_holds(code, release, here)
    if base is None or here is None or base["example"] is None:
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


@record
class RuleReleases:
    """The releases where one rule holds, as :func:`holds_at` decides for each recorded release."""

    code: str
    holds: tuple[str, ...]
    """The recorded releases where DeepSpeed makes the rule's check while it reads the config."""
    lacks: tuple[str, ...]
    """The recorded releases that do not make it."""
    untold: tuple[str, ...]
    """The recorded releases where the verdicts could not tell (checked as 0.19.8 checks)."""


@cache
def rule_releases(code: str) -> RuleReleases | None:
    """Where the rule ``code`` holds among the releases probed; None for a rule the probes cannot prove (one
    DeepSpeed 0.19.8 does not enforce while it reads the config), which holds wherever the options it names
    exist."""
    base = rule_verdicts(code, DEEPSPEED_VERSION)
    if base is None or (base["example"] is None and code not in retired_rules()):
        return None
    found: dict[bool | None, list[str]] = {True: [], False: [], None: []}
    for release in rule_probed_releases():
        found[holds_at(code, release)].append(release)
    return RuleReleases(code, tuple(found[True]), tuple(found[False]), tuple(found[None]))
