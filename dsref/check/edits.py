"""Fixes as ruff shapes them: an :class:`Edit` of the text, a :class:`Fix` (a title, an :class:`Applicability` and
edits), and the titles of fixes in both languages. Plain data that knows nothing of findings or of what found them
(an import-linter contract in ``pyproject.toml`` keeps it so); :mod:`dsref.check.repair.repairing` makes fixes from the
:mod:`~dsref.check.repairs` the checks decide, and :mod:`dsref.check.fix.fixer` applies them.

*safe* fixes leave DeepSpeed building the same training from the file (:mod:`dsref.check.fix.proof` proves it for each
file before one is applied), or correct a file DeepSpeed refuses that could only have meant one thing; *unsafe* ones
change what DeepSpeed does, or pick one of several meanings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from enum import Enum
from typing import Any

from ..records import record
from ..text.i18n import Lang, messages
from .positions import Span

__all__ = ["TITLES", "Applicability", "Edit", "Fix"]

TITLES = messages(
    "fix",
    literal="write {new} instead of {old}",
    rename='rename "{old}" to "{new}"',
    replace_deprecated='replace "{old}" with {new}',
    remove_deprecated='remove "{key}" (its value is the default)',
    move='move "{key}" into {target}',
    move_top='move "{key}" out of {section} to the top level',
    remove_duplicate='remove the first "{key}" (line {line}) and keep the later one (line {later}), the value '
    "json.load keeps",
    remove_auto='remove "{key}": DeepSpeed drops "auto" here and uses the default',
    replace_auto='write the default {new} instead of "auto"',
    remove_ignored='remove "{key}": DeepSpeed ignores it at ZeRO stage {stage}',
    remove_removed='remove "{key}", which DeepSpeed {release} refuses',
    train_batch_size="set train_batch_size to {new} (= {micro} × {gas} × {world} GPUs)",
    strip_bom="remove the byte-order mark that json.load refuses",
    trailing_commas="remove the trailing commas that json.load refuses",
    strict_json="rewrite the file as strict JSON for Hugging Face (its comments are dropped)",
)
"""The title of each kind of fix (``fix.<kind>`` in the catalog)."""


class Applicability(str, Enum):
    """Whether ``--fix`` applies a fix by itself (``safe``) or only with ``--unsafe-fixes``."""

    safe = "safe"
    unsafe = "unsafe"


@record
class Edit:
    """Replace ``text[start:end]`` with ``replacement`` (offsets into the text as the reader parsed it)."""

    start: int
    end: int
    replacement: str
    span: Span | None = field(default=None, compare=False)
    """The same stretch as 1-based lines and columns (filled in by :func:`with_fixes`)."""


@record
class Fix:
    """A repair of one finding: what it is called, whether it is safe, and the edits that make it."""

    title: str
    """A key of :data:`TITLES`."""
    applicability: Applicability
    edits: tuple[Edit, ...]
    args: Mapping[str, Any] = field(default_factory=dict)

    def title_text(self, lang: Lang) -> str:
        return TITLES.text(self.title, lang, **self.args)

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.safe

    def to_json(self, lang: Lang) -> dict[str, Any]:
        """The documented form (``check --format json``): title, applicability, and edits with the 1-based line and
        column of their start and end (columns count characters; a line end is one character)."""
        edits = []
        for edit in self.edits:
            span = edit.span or Span(0, 0, 0, 0)
            edits.append(
                {
                    "line": span.line,
                    "column": span.col,
                    "end_line": span.end_line,
                    "end_column": span.end_col,
                    "replacement": edit.replacement,
                }
            )
        return {"title": self.title_text(lang), "applicability": self.applicability.value, "edits": edits}
