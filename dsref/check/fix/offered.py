"""The fixes a report offers are the fixes ``check --fix`` applies: one answer about each fix.

A check finds a repair for a finding from the values alone; whether the text it makes passes
:func:`~dsref.check.fix.proof.judge` (it parses, no finding gets more severe, no key is written twice, and a safe
fix leaves DeepSpeed building the same) is known only by checking that text. ``--fix`` does so before it writes;
:func:`offered` does the same before a fix is listed (``check`` as text or JSON, the language server's code
actions, the playground), so that a fix that would raise a finding is never offered, and one listed is one ``--fix``
(with ``--unsafe-fixes`` for an unsafe one) applies.

As ``--fix`` does, the safe fixes are judged together, and one by one only when they fail together; the unsafe ones
together with the safe ones that passed, as ``--fix --unsafe-fixes`` applies them, then one by one. A file whose
fixes all pass costs one check more for its safe fixes and one for its unsafe ones.

Renaming ``zero_optimisation`` is what the file means, but a key in it ``zero_optimization`` refuses would turn an
ignored section into a refused file: the rename is found, and not offered.

>>> from dsref.check.pipeline import check_text
>>> report = check_text('{"train_batch_size": 8, "zero_optimisation": {"stage": 3, "colour": 1}}', "x")
>>> [(f.code, f.fix.title_text("en")) for f in report.findings if f.fix is not None]
[('DS101', 'rename "zero_optimisation" to "zero_optimization"')]
>>> [f.code for f in offered(report).findings if f.fix is not None]
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..edits import Edit
from ..findings import Finding
from ..pipeline import FileReport, check_text, refused_text
from ..settings import DEFAULT_SETTINGS, CheckSettings
from .proof import judge

__all__ = ["offered"]


def offered(report: FileReport, settings: CheckSettings = DEFAULT_SETTINGS) -> FileReport:
    """``report`` (of a file checked for ``settings``) with a fix only on the findings whose fix ``--fix`` applies;
    the same report when every fix passes (or there is none)."""
    with_fix = [f for f in report.findings if f.fix is not None]
    if not with_fix:
        return report
    text = report.loaded.text if report.loaded is not None else None
    if report.error is not None:
        text = refused_text(report.error)
    if report.loaded is not None:
        reading = report.loaded.profile
    else:
        reading = (report.error.profile if report.error is not None else None) or settings.profile or "deepspeed"
    checked_for = settings.read_as(reading)

    def passes(chosen: Sequence[Finding], safe: bool) -> bool:
        assert text is not None
        candidate = _applied(text, [edit for f in chosen for edit in _edits(f)])
        if candidate == text:
            return False
        after = check_text(candidate, report.path, checked_for)
        other = all(f.seen_by is not None for f in chosen)  # made while the reader refuses the file
        return judge(report, after, checked_for, safe=safe, other_reading=other) is None

    kept: set[int] = set()
    if text is not None:
        safe = [f for f in with_fix if _safe(f)]
        kept |= _passing(safe, lambda chosen: passes(chosen, True))
        unsafe = [f for f in with_fix if not _safe(f)]
        if unsafe:
            along = [f for f in safe if id(f) in kept]  # --unsafe-fixes applies them in the same pass
            if not _overlap([*along, *unsafe]) and passes([*along, *unsafe], False):
                kept |= {id(f) for f in unsafe}
            else:
                kept |= {id(f) for f in unsafe if passes([f], False)}
    if len(kept) == len(with_fix):
        return report
    findings = [f if f.fix is None or id(f) in kept else replace(f, fix=None) for f in report.findings]
    return replace(report, findings=findings)


def _passing(findings: list[Finding], passes: Callable[[Sequence[Finding]], bool]) -> set[int]:
    """The findings whose fixes pass: all of them when they pass together, else each that passes alone."""
    if not findings:
        return set()
    if not _overlap(findings) and passes(findings):
        return {id(f) for f in findings}
    return {id(f) for f in findings if passes([f])}


def _overlap(findings: Sequence[Finding]) -> bool:
    """Whether two of the fixes touch the same stretch of text (or insert at one place): they cannot be made in
    one pass, so each is judged alone."""
    reached = -1
    for start, end in sorted((e.start, e.end) for f in findings for e in _edits(f)):
        if start <= reached:
            return True
        reached = max(reached, end)
    return False


def _edits(finding: Finding) -> tuple[Edit, ...]:
    assert finding.fix is not None
    return finding.fix.edits


def _safe(finding: Finding) -> bool:
    return finding.fix is not None and finding.fix.safe


def _applied(text: str, edits: list[Edit]) -> str:
    """``text`` as the reader parsed it (its line ends ``\\n``, where the edits' offsets point) with ``edits`` made."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: edit.start] + edit.replacement + text[edit.end :]
    return text
