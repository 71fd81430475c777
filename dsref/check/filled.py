"""Findings on values Trainer fills from the launch: each ``"auto"`` the launch decides is a value the launch holds,
so a finding on it is placed at the launch's flag or key (``--per_device_train_batch_size 0``), with the ``"auto"``
beside it; where TrainingArguments' defaults decide it, the finding stays at the ``"auto"`` and says so."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from ..launch.model import Launch
from ..launch.trainer import Fill, Filling
from .findings import Filled, Finding, LaunchPlace

__all__ = ["filled_of", "with_fills"]


def with_fills(findings: Iterable[Finding], filling: Filling, launch: Launch) -> list[Finding]:
    """``findings``, each one on a value ``filling`` filled from ``launch`` told so (:attr:`Finding.filled`)."""
    fills = {fill.path: fill for fill in filling.filled}
    out = []
    for finding in findings:
        fill = fills.get(".".join(map(str, finding.location))) if finding.location else None
        filled = None if fill is None else filled_of(fill, launch)
        out.append(finding if filled is None else replace(finding, filled=filled))
    return out


def filled_of(fill: Fill, launch: Launch) -> Filled | None:
    """Where ``launch`` gives the value of ``fill``: the first of its sources the launch writes, and the arguments
    whose default it used; None for a value no launch gives (a constant Trainer writes)."""
    if not fill.sources:
        return None
    defaults = tuple(s.name for s in fill.sources if s.given is None and s.name != "world_size")
    written = next((s.given for s in fill.sources if s.given is not None), None)
    at = None
    if written is not None:
        line, col, end = written.span()
        text = launch.line_text(line, written.file)
        if text is not None:
            at = LaunchPlace(written.file or launch.path, line, col, end, text, text[col - 1 : end - 1])
    return Filled(fill.value, at, defaults)
