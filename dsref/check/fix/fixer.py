"""Apply fixes: ``dsref check --fix``, ``--unsafe-fixes`` and ``--diff``.

:func:`fix_text` checks a text, applies the fixes its findings carry (safe ones, and unsafe ones when asked) that do
not overlap, and repeats on the result until nothing changes (a bounded number of passes). Each result is checked
again and judged by :func:`dsref.check.fix.proof.judge` (it parses, no finding got more severe, no new error and, for
safe fixes, DeepSpeed builds the same config); a pass that fails is tried again fix by fix, and a fix that fails on
its own is not applied: :attr:`FixResult.refused` says which and why, for the user to review. Edits are made on
the text as written: its line ends (``\\r\\n`` stays ``\\r\\n``), its byte-order mark, comments and layout stay
as they are except where an edit goes.

:func:`read_original` reads a file with the :class:`~dsref.check.fix.writer.Snapshot` that
:func:`~dsref.check.fix.writer.write_fixed` compares before it writes the result back.

>>> result = fix_text('{\\n  "bfloat16": {"enabled": "true"}, // mixed precision\\n}\\n', "ds.json")
>>> print(result.text, end="")
{
  "bf16": {"enabled": true}, // mixed precision
}
>>> [f.code for f in result.fixed], [f.code for f in result.after.findings]
(['DS301', 'DS202'], ['DS501', 'DS004'])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import field, replace
from typing import TYPE_CHECKING

from ...records import record
from ...text.escape import visible
from ...text.i18n import Lang, messages
from ..edits import Edit, Fix
from ..findings import Finding
from ..pipeline import FileReport, check_text, refused_text
from ..positions import LineIndex, Location
from ..settings import DEFAULT_SETTINGS, CheckSettings
from .offered import offered
from .proof import Refusal, judge
from .writer import Snapshot

if TYPE_CHECKING:
    from ...tree.profiles import Profile

__all__ = [
    "MAX_PASSES",
    "TEXTS",
    "FixResult",
    "Original",
    "Refused",
    "apply_edits",
    "fix_text",
    "more_fixes_follow",
    "read_original",
    "read_text",
    "refusal_text",
    "unified_diff",
]

TEXTS = messages(
    "fixer",
    fixed="fixed {findings} in {files}",
    would_fix="would fix {findings} in {files}",
    findings="{n} findings",
    findings_one="1 finding",
    files="{n} files",
    files_one="1 file",
    not_written="cannot write {path}: {reason}; the file is unchanged",
    changed="{path} changed after dsref read it, so the fixes were not written; the file is left as it is now: "
    "run dsref check --fix again",
    stdin_many="'-' (standard input) cannot be fixed together with other files",
    refused="{where}: {code}: the fix was not applied ({title}): {why}; make the change by hand if it is what you "
    "meant",
    why_unreadable="the file would no longer parse",
    why_severity="a finding would become more severe, or a new error would appear",
    why_duplicate="a key would be written twice",
    why_meaning="DeepSpeed would build a different config from the file",
    stale_removed="removed {n} temporary files that an interrupted dsref check --fix had left in {folder}",
    stale_removed_one="removed 1 temporary file that an interrupted dsref check --fix had left in {folder}",
)
"""What ``check --fix`` and ``--diff`` say besides the report (the ``fixer.*`` messages)."""


def refusal_text(refused: Refused, path: str, lang: Lang) -> str:
    """``PATH:LINE:COL: CODE fix "TITLE" not applied: WHY; …`` in ``lang``."""
    fix = _fix(refused.finding)
    span = fix.edits[0].span if fix.edits else None
    where = f"{path}:{span.line}:{span.col}" if span is not None else path
    why = TEXTS.text(f"why_{refused.reason}", lang)
    return TEXTS.text("refused", lang, where=where, code=refused.finding.code, title=fix.title_text(lang), why=why)


def counted(key: str, n: int, lang: Lang) -> str:
    """``3 findings`` / ``1 file`` in ``lang``."""
    return TEXTS.text(f"{key}_one" if n == 1 else key, lang, n=n)


def unified_diff(before: str, after: str, path: str, *, patch: bool = False) -> str:
    r"""The change as a unified diff (``a/path`` → ``b/path``).

    ``patch``: the diff as ``git apply`` and ``patch`` take it, for a pipe or a file: each line of the file as it is
    written, the CR of a CRLF line end and any control character included, and a name that holds a control
    character, a quotation mark or a backslash quoted as git quotes it (``"a/tab\there.json"``). Otherwise, for a
    person to read in a terminal, the file's name and text are shown :func:`visible`: a control character in them, a
    CR at the end of a line of a CRLF file included, is written as an escape (``\r``) rather than obeyed; tabs stay,
    as the file's layout. The lines are those of the file at its line feeds, as dsref numbers them and as patch tools
    split them, whatever else the text holds (U+2028, form feeds), so every line of the diff is one of the file.

    >>> print(unified_diff('{"a": 1}\r\n', '{"b": 1}\r\n', "ds.json"), end="")
    --- a/ds.json
    +++ b/ds.json
    @@ -1 +1 @@
    -{"a": 1}\r
    +{"b": 1}\r
    >>> unified_diff('{"a": 1}\r\n', '{"b": 1}\r\n', "ds.json", patch=True).splitlines(keepends=True)[3:]
    ['-{"a": 1}\r\n', '+{"b": 1}\r\n']
    """
    import difflib

    name = _quoted(path) if patch else visible(path, name=True)
    if os.path.isabs(path) or path.startswith("<"):
        old = new = name
    elif name.startswith('"'):
        old, new = f'"a/{name[1:]}', f'"b/{name[1:]}'
    else:
        old, new = f"a/{name}", f"b/{name}"
    diff = difflib.unified_diff(_lines(before), _lines(after), old, new)
    if patch:
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in diff)
    return "".join(
        visible(line[:-1], lines=True) + "\n"
        if line.endswith("\n")
        else visible(line, lines=True) + "\n\\ No newline at end of file\n"
        for line in diff
    )


_GIT_QUOTED = {
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    '"': '\\"',
    "\\": "\\\\",
}
"""The characters git writes by name in a quoted path; any other control character is an octal escape."""


def _quoted(path: str) -> str:
    r"""``path`` as git writes it in a diff: as it is, or, when it holds a control character, a quotation mark or a
    backslash, between quotation marks with those characters escaped (bytes that are not UTF-8 as octal, as on disk).

    >>> _quoted("ds.json"), _quoted("零.json"), _quoted('a\tb"c.json'), _quoted("x\udcff.json")
    ('ds.json', '零.json', '"a\\tb\\"c.json"', '"x\\377.json"')
    """
    if not any(ord(c) < 0x20 or c in '"\\\x7f' or 0xDC80 <= ord(c) <= 0xDCFF for c in path):
        return path
    out = []
    for char in path:
        if char in _GIT_QUOTED:
            out.append(_GIT_QUOTED[char])
        elif ord(char) < 0x20 or char == "\x7f":
            out.append(f"\\{ord(char):03o}")
        elif 0xDC80 <= ord(char) <= 0xDCFF:  # a byte that is not UTF-8, as Python's surrogateescape keeps it
            out.append(f"\\{ord(char) - 0xDC00:03o}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _lines(text: str) -> list[str]:
    """The lines of ``text`` split at line feeds, each with its line feed (the last one may have none)."""
    *lines, last = text.split("\n")
    return [line + "\n" for line in lines] + ([last] if last else [])


MAX_PASSES = 10
"""Passes at most: each applies every fix that does not overlap another; a fix may uncover the next."""


@record
class Refused:
    """A fix that was asked for and not applied, because the text it made failed
    :func:`~dsref.check.fix.proof.judge`."""

    finding: Finding
    reason: Refusal


@record(frozen=False)
class FixResult:
    """The text after fixing, the findings fixed, the fixes refused, and the report of what remains."""

    before: FileReport
    after: FileReport
    text: str
    original: str
    fixed: list[Finding] = field(default_factory=list)
    refused: list[Refused] = field(default_factory=list)
    """Fixes of findings still in :attr:`after` that were not applied: each needs a look by hand."""

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def more_with_unsafe(self) -> int:
        """Findings still there that ``--unsafe-fixes`` would fix."""
        return sum(1 for f in self.after.findings if f.fix is not None and not f.fix.safe)


def fix_text(text: str, path: str, settings: CheckSettings = DEFAULT_SETTINGS, *, unsafe: bool = False) -> FixResult:
    """Fix ``text`` (read from ``path``) as ``check --fix`` does; the text is unchanged when nothing applies.
    ``settings.profile`` None: the reader the original text is written for, kept for every fixed text (a fix that
    removes the last ``"auto"`` does not change who reads the file)."""
    check = _checker(path, settings)
    before = check(text, settings.profile)
    reading = _reading(before, settings.profile)
    current, report = text, before
    fixed: list[Finding] = []
    refused: dict[tuple[str, str, str], Refusal] = {}
    for made in _passes(text, before, check, settings.read_as(reading), unsafe, refused):
        current, report, chosen = made
        fixed.extend(chosen)
    still = [
        Refused(f, refused[_identity(f)]) for f in report.findings if f.fix is not None and _identity(f) in refused
    ]
    if still:  # what remains no longer offers a fix that --fix has just refused
        report = replace(
            report,
            findings=[
                replace(f, fix=None) if f.fix is not None and _identity(f) in refused else f for f in report.findings
            ],
        )
    report = offered(report, settings.read_as(reading))  # what remains offers only fixes --fix would apply
    return FixResult(before, report, current, text, fixed, still)


def more_fixes_follow(report: FileReport, settings: CheckSettings = DEFAULT_SETTINGS) -> bool:
    """Whether ``check --fix --unsafe-fixes``, making the fixes ``report`` lists (a report of :func:`offered`),
    goes on to fix a finding it does not list: a fix that becomes possible only once another is made (a file
    rewritten as strict JSON once the first of two keys written alike is gone). Found by running the passes on the
    text, up to the first such fix; a report that lists no fix has none to follow."""
    listed = {_listed(f) for f in report.findings if f.fix is not None}
    if not listed:
        return False
    text = report.loaded.text if report.loaded is not None else None
    if report.error is not None:
        text = refused_text(report.error)
    if text is None:
        return False
    check = _checker(report.path, settings)
    reading = _reading(report, settings.profile)
    passes = _passes(text, report, check, settings.read_as(reading), True, {})
    return any(_listed(f) not in listed for _, _, chosen in passes for f in chosen)


def _checker(path: str, settings: CheckSettings) -> Callable[[str, Profile | None], FileReport]:
    """A text checked as from ``path`` for ``settings``, read by the reader given."""

    def check(candidate: str, reader: Profile | None) -> FileReport:
        return check_text(
            candidate, path, settings if reader == settings.profile else replace(settings, profile=reader)
        )

    return check


def _reading(before: FileReport, profile: Profile | None) -> Profile:
    """The reader the file is written for, also when it cannot read it (a Hugging Face file with comments: once
    rewritten as strict JSON, its "auto" values are still Hugging Face's to fill)."""
    if before.loaded is not None:
        return before.loaded.profile
    return (before.error.profile if before.error is not None else None) or profile or "deepspeed"


def _passes(
    text: str,
    before: FileReport,
    check: Callable[[str, Profile | None], FileReport],
    settings: CheckSettings,
    unsafe: bool,
    refused: dict[tuple[str, str, str], Refusal],
) -> Iterator[tuple[str, FileReport, list[Finding]]]:
    """The passes of ``--fix`` over ``text`` (whose report is ``before``; ``settings``: the reader decided), each as
    the text it leaves, its report and the findings it fixed; ``refused`` gathers the fixes that failed on their
    own, and why."""
    reading = settings.profile

    def verdict(previous: FileReport, result: FileReport, findings: list[Finding]) -> Refusal | None:
        safe = all(_fix(f).safe for f in findings)
        other = all(f.seen_by is not None for f in findings)  # made while the reader refuses the file
        return judge(previous, result, settings, safe=safe, other_reading=other)

    current, report = text, before
    for _ in range(MAX_PASSES):
        wanted = [
            f for f in report.findings if f.fix is not None and (unsafe or f.fix.safe) and _identity(f) not in refused
        ]
        if not wanted:
            return
        chosen = _without_overlaps(wanted)
        candidate = apply_edits(current, [e for f in chosen for e in _fix(f).edits])
        checked = check(candidate, reading)
        if verdict(report, checked, chosen) is not None:
            # the fixes together fail: try them one at a time, keeping the first that passes on its own
            progressed = False
            for finding in chosen:
                one = apply_edits(current, list(_fix(finding).edits))
                one_checked = check(one, reading)
                reason = verdict(report, one_checked, [finding])
                if reason is None and one != current:
                    candidate, checked, chosen, progressed = one, one_checked, [finding], True
                    break
                refused[_identity(finding)] = reason or "unreadable"
            if not progressed:
                continue
        if candidate == current:
            return
        current, report = candidate, checked
        yield current, report, chosen


def _fix(finding: Finding) -> Fix:
    assert finding.fix is not None
    return finding.fix


def _identity(finding: Finding) -> tuple[str, str, str]:
    return finding.code, finding.where, _fix(finding).title


def _listed(finding: Finding) -> tuple[str, Location, str]:
    """A fix as a report lists it: the same in a later pass when an overlapping fix made it wait."""
    return finding.code, finding.location, _fix(finding).title


def _without_overlaps(findings: list[Finding]) -> list[Finding]:
    """Safe fixes first, then in file order; a fix whose edits touch those of one already taken waits for the next
    pass (by then the text has changed under it, and the check finds it anew if it still applies)."""
    ordered = sorted(findings, key=lambda f: (not _fix(f).safe, min(e.start for e in _fix(f).edits)))
    taken: list[Finding] = []
    ranges: list[tuple[int, int]] = []
    for finding in ordered:
        edits = _fix(finding).edits
        if any(_touch(e, r) for e in edits for r in ranges):
            continue
        taken.append(finding)
        ranges.extend((e.start, e.end) for e in edits)
    return taken


def _touch(edit: Edit, taken: tuple[int, int]) -> bool:
    """Overlapping, or inserting at the same place (two insertions at one offset would order arbitrarily)."""
    start, end = taken
    return (edit.start < end and start < edit.end) or edit.start == start or edit.end == end


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` (as written: any line ends) with ``edits`` made; the edits' offsets and line ends are those of the
    text as the reader parsed it (``\\n`` only), and are mapped onto the text as written (its own line end)."""
    index = LineIndex(text)
    newline = index.newline
    out = text
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        start, end = index.written(edit.start), index.written(edit.end)
        replacement = edit.replacement.replace("\n", newline) if newline != "\n" else edit.replacement
        out = out[:start] + replacement + out[end:]
    return out


@record
class Original:
    """A file's text as read for fixing, and the snapshot a fix is written against."""

    text: str
    snapshot: Snapshot


def read_original(path: str) -> Original | FileReport:
    """The text of the file at ``path`` with its :class:`~dsref.check.fix.writer.Snapshot`, or the report of why it
    cannot be read (the same findings ``check`` gives)."""
    from ..pipeline import load_error_finding
    from ..read.loader import LoadError, read_file

    read = read_file(path)
    if isinstance(read, LoadError):
        return FileReport(path, None, read, [load_error_finding(read)])
    text = read_text(path, read.data)
    return text if isinstance(text, FileReport) else Original(text, Snapshot.of(path, read.data, read.status))


def read_text(path: str, data: bytes) -> str | FileReport:
    """The text of ``data`` (read from ``path``) exactly as written (line ends and byte-order mark kept), or the
    report of why it cannot be read (the same findings ``check`` gives)."""
    from ..pipeline import check_loaded, load_error_finding
    from ..read.loader import MAX_BYTES, LoadError, load_bytes

    if len(data) <= MAX_BYTES:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    loaded = load_bytes(data, path=path)
    if isinstance(loaded, LoadError):
        return FileReport(path, None, loaded, [load_error_finding(loaded)])
    return check_loaded(loaded, path)  # pragma: no cover - bytes that do not decode do not load either
