"""Findings: what dsref found in a config, as plain data. Text is rendered later.

A :class:`Finding` carries a stable code, a severity, where it is (the path of
keys in the input as written) and which option it concerns, plus the arguments
its message needs. Rendering to English or Chinese happens at the edge.

Severity means one thing everywhere: ``error`` — DeepSpeed 0.19.8 refuses the
config (when loading it or when the engine starts); ``warning`` — DeepSpeed runs,
but not as the file says; ``info`` — advice.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import field
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..records import record
from .positions import Location

if TYPE_CHECKING:
    from ..tree.profiles import Profile
    from .edits import Fix
    from .repairs import Repair

__all__ = ["Example", "Filled", "Finding", "Kind", "LaunchPlace", "Location", "Severity", "format_location"]


@record
class Example:
    """A whole config that sets off one finding code, as a user would write it; the code's page on the site shows
    it, what ``dsref check`` prints for it and how it is repaired, and the build checks all three.

    ``repaired`` is the config corrected by hand, for a code ``dsref check --fix`` cannot repair; for one it can,
    the page shows the fix instead.
    """

    config: str
    """The config's text (JSON, or Hjson for a code about Hjson), indented freely: it is dedented when shown."""
    repaired: str | None = None
    world_size: int | None = None
    hf: bool = False
    """Read as Hugging Face reads it (``--profile hf``)."""
    deepspeed_version: str | None = None
    """Checked for that DeepSpeed release (``--deepspeed-version``), for a code about releases."""
    also: tuple[str, ...] = ()
    """Other codes the config cannot help setting off (a deprecated key that a rule is about is also DS301)."""

    @property
    def text(self) -> str:
        """The config as a file holds it."""
        return textwrap.dedent(self.config).strip("\n") + "\n"

    @property
    def repaired_text(self) -> str | None:
        return None if self.repaired is None else textwrap.dedent(self.repaired).strip("\n") + "\n"


class Severity(str, Enum):
    error = "error"
    warning = "warning"
    info = "info"


class Kind(str, Enum):
    """What a finding is about; each kind has one stable code."""

    unreadable = "DS000"
    not_a_mapping = "DS001"
    key_not_string = "DS002"
    duplicate_key = "DS003"
    not_strict_json = "DS004"
    rule_failed = "DS009"
    unknown_key = "DS101"
    wrong_type = "DS201"
    coerced = "DS202"
    out_of_range = "DS203"
    not_allowed = "DS204"
    deprecated = "DS301"
    removed = "DS302"
    docs_only = "DS303"
    too_new = "DS304"
    alias_conflict = "DS305"
    auto_dropped = "DS401"
    auto_unfilled = "DS402"

    @property
    def code(self) -> str:
        return self.value

    @property
    def severity(self) -> Severity | None:
        """The severity every finding of this kind has, or None where it depends on the key (strict sections
        refuse, others ignore) or on the reader (``--profile``: :attr:`severity_by_profile`)."""
        return _FIXED_SEVERITY.get(self)

    @property
    def severity_by_profile(self) -> Mapping[str, Severity] | None:
        """For a kind whose severity depends only on who reads the file, the severity under each ``--profile``
        (``deepspeed``, ``hf``); None for any other kind.

        >>> {profile: severity.value for profile, severity in Kind.duplicate_key.severity_by_profile.items()}
        {'deepspeed': 'error', 'hf': 'warning'}
        """
        return _PROFILE_SEVERITY.get(self)


_FIXED_SEVERITY = {
    Kind.unreadable: Severity.error,
    Kind.not_a_mapping: Severity.error,
    Kind.key_not_string: Severity.error,
    Kind.not_strict_json: Severity.info,
    Kind.rule_failed: Severity.info,
    Kind.deprecated: Severity.warning,
    Kind.auto_dropped: Severity.warning,
    Kind.auto_unfilled: Severity.error,
}

_PROFILE_SEVERITY: dict[Kind, Mapping[str, Severity]] = {
    # The launcher's loader raises on a key written twice; Hugging Face's json.load keeps the later value.
    Kind.duplicate_key: {"deepspeed": Severity.error, "hf": Severity.warning},
}


@record
class LaunchPlace:
    """Where a launch file writes a value (1-based line, columns; ``end_col`` after its end), with that line and the
    flag or key as written there (``--per_device_train_batch_size 0``)."""

    path: str
    line: int
    col: int
    end_col: int
    source: str
    written: str


@record
class Filled:
    """A finding about a value the file leaves ``"auto"`` and Trainer fills from the launch: the value, where the
    launch gives it (None: nowhere, TrainingArguments' defaults give it), and the arguments whose default it used."""

    value: Any
    at: LaunchPlace | None = None
    defaults: tuple[str, ...] = ()


@record
class Finding:
    """One thing wrong with, or worth saying about, a config."""

    kind: Kind | None
    """The schema finding's kind; None for a cross-field rule (see ``rule``)."""
    severity: Severity
    location: Location
    option: str | None = None
    """Canonical dotted path of the option concerned, when there is one."""
    args: Mapping[str, Any] = field(default_factory=dict)
    rule: str | None = None
    """Code of the cross-field rule that found this (``DS5…``/``DS6…``), for rule findings."""
    rule_name: str | None = None
    related: tuple[Location, ...] = ()
    """Other places in the input the finding is about (e.g. the other of two conflicting keys)."""
    repair: Repair | None = field(default=None, compare=False)
    """What would repair it, as the check that found it decided from the config's values: a typed change (rename
    this key, write this value, remove this member), not yet edits of the text."""
    fix: Fix | None = field(default=None, compare=False)
    """The repair as edits of this file's text (set by :func:`dsref.check.repair.repairing.with_fixes`), when the text
    allows it."""
    seen_by: Profile | None = None
    """For a file the chosen reader refuses: the other reader, whose reading of the file this finding is about
    (``"deepspeed"``: Hjson; ``"hf"``: ``json.load``); None for a finding of the file as its own reader reads it."""
    filled: Filled | None = None
    """For a finding on an ``"auto"`` Trainer fills from the launch (``dsref check LAUNCH``): with what, and where
    the launch gives it. Shown at the launch's line, the ``"auto"`` beside it."""

    @property
    def code(self) -> str:
        if self.rule is not None:
            return self.rule
        assert self.kind is not None
        return _CODES[self.kind]

    @property
    def name(self) -> str:
        if self.kind is not None:
            return _NAMES[self.kind]
        return self.rule_name or self.code

    @property
    def where(self) -> str:
        return format_location(self.location)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.value,
            "location": list(self.location),
            "where": self.where,
            "option": self.option,
            "args": dict(self.args),
            "related": [list(r) for r in self.related],
            **({"seen_by": self.seen_by} if self.seen_by is not None else {}),
        }


# An enum member's ``name`` and ``value`` are looked up through a descriptor written in Python (up to 3.11): a
# report asks for every finding's code and name, so they are read once here.
_CODES = {kind: kind.value for kind in Kind}
_NAMES = {kind: kind.name.replace("_", "-") for kind in Kind}


def format_location(location: Location) -> str:
    """``("zero_optimization", "stage")`` → ``zero_optimization.stage``; list indices as ``[3]``.

    >>> format_location(("tensor_parallel", "partition_config", "layer_specs", 0, "patterns"))
    'tensor_parallel.partition_config.layer_specs[0].patterns'
    >>> format_location(())
    '<root>'
    """
    out = ""
    for step in location:
        if isinstance(step, int):
            out += f"[{step}]"
        else:
            out += ("." if out else "") + step
    return out or "<root>"
