"""Repairs: what would set a finding right, as the check that found it decides from the config's values.

A repair says what changes in the config (write this value here, remove this member, rename this key, move it
there), typed, with the title of the fix and whether it is safe; it says nothing of where the text has it.
:mod:`dsref.check.repair.repairing` turns a repair into a :class:`~dsref.check.edits.Fix` over the text as written, or
into
nothing when the text does not allow it (the key is not written there, a root without braces). The schema's checks
(:mod:`dsref.check.validate.validation`, :mod:`dsref.check.pipeline`) and each cross-field rule build the repairs of
their
own findings, next to the code that finds them; nothing reads a repair out of a message's placeholders.

Like the edits, repairs know nothing of findings (``pyproject.toml``'s import-linter contract).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from ..records import record
from .edits import Applicability
from .positions import Location

__all__ = [
    "MergeInto",
    "MoveMember",
    "RemoveDuplicate",
    "RemoveMember",
    "RenameKey",
    "Repair",
    "ReplaceMember",
    "ReplaceValue",
    "StrictJson",
]


@record(kw_only=True)
class Repair:
    """A change to the member at ``location``; ``title`` is a key of :data:`~dsref.check.edits.TITLES` and ``args``
    fill it (an ``old`` argument, the text as written, is added when the text is known)."""

    location: Location
    applicability: Applicability
    title: str
    args: Mapping[str, Any] = field(default_factory=dict)


@record(kw_only=True)
class ReplaceValue(Repair):
    """Write ``literal`` (JSON text, spelled as it should read: ``1e-4`` stays ``1e-4``) where the value is."""

    literal: str
    written_as: str | None = None
    """The value's text as the repair was decided for (a Python literal Hjson read without quotes, its comma
    included: ``True,``); the text written otherwise (the same string in quotes) gets no fix. None: any."""


@record(kw_only=True)
class RemoveMember(Repair):
    """Remove the member, with its comma and, when it has a line of its own, that line."""


@record(kw_only=True)
class RenameKey(Repair):
    """Give the member the key ``new_key``, quoted as the old one was."""

    new_key: str


@record(kw_only=True)
class ReplaceMember(Repair):
    """Write ``"new_key": value`` in place of the member (a deprecated form and what DeepSpeed maps it to)."""

    new_key: str
    value: Any


@record(kw_only=True)
class MergeInto(Repair):
    """Remove the member and add ``"key": value`` to the object at ``target``, which is written already."""

    target: Location
    key: str
    value: Any


@record(kw_only=True)
class MoveMember(Repair):
    """Move the member, as written, into the object at ``target`` (``()``: the top level), which is written."""

    target: Location


@record(kw_only=True)
class RemoveDuplicate(Repair):
    """Remove the first of two members written with the same key at ``location`` (the later one stays)."""


@record(kw_only=True)
class StrictJson(Repair):
    """Make the Hjson text strict JSON: drop a byte-order mark and trailing commas when that is enough, else (with
    ``rewrite``) write the data anew as JSON (comments are lost)."""

    rewrite: bool
