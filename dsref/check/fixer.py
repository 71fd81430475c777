"""Apply fixes: ``dsref check --fix``, ``--unsafe-fixes`` and ``--diff``.

:func:`fix_text` checks a text, applies the fixes its findings carry (safe ones, and unsafe ones when asked) that do
not overlap, and repeats on the result until nothing changes (a bounded number of passes). A pass whose result does
not parse, or has more findings than the text it started from, is tried again fix by fix, and a fix that makes
things worse is dropped. Edits are made on the text as written: its line ends (``\\r\\n`` stays ``\\r\\n``), its
byte-order mark, comments and layout stay as they are except where an edit goes.

:func:`write_atomically` writes the result beside the file and renames it over, keeping the file's permissions: a
file is either wholly old or wholly new.

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
import tempfile
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..text.escape import visible
from ..text.i18n import Lang, messages
from ..tree.versions import DEEPSPEED_VERSION
from .findings import Finding
from .fixes import Edit, Fix
from .pipeline import FileReport, check_text

if TYPE_CHECKING:
    from ..tree.profiles import Profile

__all__ = [
    "MAX_PASSES",
    "TEXTS",
    "FixResult",
    "apply_edits",
    "fix_text",
    "read_text",
    "unified_diff",
    "write_atomically",
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
    stdin_many="'-' (standard input) cannot be fixed together with other files",
)
"""What ``check --fix`` and ``--diff`` say besides the report (the ``fixer.*`` messages)."""


def counted(key: str, n: int, lang: Lang) -> str:
    """``3 findings`` / ``1 file`` in ``lang``."""
    return TEXTS.text(f"{key}_one" if n == 1 else key, lang, n=n)


def unified_diff(before: str, after: str, path: str) -> str:
    r"""The change as a unified diff (``a/path`` → ``b/path``), for a person to read in a terminal.

    The file's name and text are shown :func:`visible`: a control character in them, a CR at the end of a line of a
    CRLF file included, is written as an escape (``\r``) rather than obeyed; tabs stay, as the file's layout. The
    lines are those of the file at its line feeds, as dsref numbers them, whatever else the text holds (U+2028,
    form feeds), so every line of the diff is one of the file.

    >>> print(unified_diff('{"a": 1}\r\n', '{"b": 1}\r\n', "ds.json"), end="")
    --- a/ds.json
    +++ b/ds.json
    @@ -1 +1 @@
    -{"a": 1}\r
    +{"b": 1}\r
    """
    import difflib

    name = visible(path, name=True)
    old, new = (name, name) if os.path.isabs(path) or path.startswith("<") else (f"a/{name}", f"b/{name}")
    diff = difflib.unified_diff(_lines(before), _lines(after), old, new)
    return "".join(
        visible(line[:-1], lines=True) + "\n"
        if line.endswith("\n")
        else visible(line, lines=True) + "\n\\ No newline at end of file\n"
        for line in diff
    )


def _lines(text: str) -> list[str]:
    """The lines of ``text`` split at line feeds, each with its line feed (the last one may have none)."""
    *lines, last = text.split("\n")
    return [line + "\n" for line in lines] + ([last] if last else [])


MAX_PASSES = 10
"""Passes at most: each applies every fix that does not overlap another; a fix may uncover the next."""


@dataclass
class FixResult:
    """The text after fixing, the findings fixed, and the report of what remains."""

    before: FileReport
    after: FileReport
    text: str
    original: str
    fixed: list[Finding] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original

    def more_with_unsafe(self) -> int:
        """Findings still there that ``--unsafe-fixes`` would fix."""
        return sum(1 for f in self.after.findings if f.fix is not None and not f.fix.safe)


def fix_text(
    text: str,
    path: str,
    *,
    unsafe: bool = False,
    profile: Profile = "deepspeed",
    world_size: int | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
) -> FixResult:
    """Fix ``text`` (read from ``path``) as ``check --fix`` does; the text is unchanged when nothing applies."""

    def check(candidate: str) -> FileReport:
        return check_text(candidate, path, profile=profile, world_size=world_size, deepspeed_version=deepspeed_version)

    before = check(text)
    current, report = text, before
    fixed: list[Finding] = []
    refused: set[tuple[str, str, str]] = set()
    for _ in range(MAX_PASSES):
        wanted = [
            f for f in report.findings if f.fix is not None and (unsafe or f.fix.safe) and _identity(f) not in refused
        ]
        if not wanted:
            break
        chosen = _without_overlaps(wanted)
        candidate = apply_edits(current, [e for f in chosen for e in _fix(f).edits])
        checked = check(candidate)
        if not _no_worse(checked, report):
            # try the fixes one at a time, keeping those that do not make things worse
            progressed = False
            for finding in chosen:
                one = apply_edits(current, list(_fix(finding).edits))
                one_checked = check(one)
                if _no_worse(one_checked, report) and one != current:
                    candidate, checked, chosen, progressed = one, one_checked, [finding], True
                    break
                refused.add(_identity(finding))
            if not progressed:
                continue
        if candidate == current:
            break
        fixed.extend(chosen)
        current, report = candidate, checked
    return FixResult(before, report, current, text, fixed)


def _fix(finding: Finding) -> Fix:
    assert finding.fix is not None
    return finding.fix


def _identity(finding: Finding) -> tuple[str, str, str]:
    return finding.code, finding.where, _fix(finding).title


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


def _no_worse(after: FileReport, before: FileReport) -> bool:
    """The fixed text parses, has no more findings than before, and no key written twice that was not before."""
    if after.error is not None:
        return False
    duplicates = {f.location for f in after.findings if f.code == "DS003"}
    return len(after.findings) <= len(before.findings) and duplicates <= {
        f.location for f in before.findings if f.code == "DS003"
    }


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` (as written: any line ends) with ``edits`` made; the edits' offsets and line ends are those of the
    text as the reader parsed it (``\\n`` only), and are mapped onto the text as written."""
    newline = "\r\n" if "\r\n" in text else ("\r" if "\r" in text else "\n")
    shifts = _crlf_positions(text) if newline == "\r\n" else []
    out = text
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        start, end = _raw(edit.start, shifts), _raw(edit.end, shifts)
        replacement = edit.replacement.replace("\n", newline) if newline != "\n" else edit.replacement
        out = out[:start] + replacement + out[end:]
    return out


def _crlf_positions(text: str) -> list[int]:
    """Where each ``\\r\\n`` reads as ``\\n`` in the parsed text (its offset there), in order."""
    found, k, i = [], 0, text.find("\r\n")
    while i >= 0:
        found.append(i - k)
        k += 1
        i = text.find("\r\n", i + 2)
    return found


def _raw(offset: int, shifts: list[int]) -> int:
    """An offset into the parsed text → the same place in the text as written (each earlier ``\\r\\n`` is one more)."""
    from bisect import bisect_left

    return offset + bisect_left(shifts, offset)


def write_atomically(path: str, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all: a temporary file in the same folder with the file's
    permissions, then a rename over it. Raises ``OSError`` (nothing written) when the file or its folder is not
    writable."""
    import stat

    mode = os.stat(path).st_mode & 0o7777
    # a file nobody may write is read-only to us too, even when running as root (which os.access lets through)
    if not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise PermissionError(13, "Permission denied", path)
    folder = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".dsref-fix")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_text(path: str, data: bytes | None = None) -> str | FileReport:
    """The text of the file at ``path`` (or of ``data``, read from it already) exactly as written (line ends and
    byte-order mark kept), or the report of why it cannot be read (the same findings ``check`` gives)."""
    from .loader import MAX_BYTES, LoadError, load_bytes, read_bytes
    from .pipeline import FileReport, _load_error_finding, check_loaded

    if data is None:
        read = read_bytes(path)
        if isinstance(read, LoadError):
            return FileReport(path, None, read, [_load_error_finding(read)])
        data = read
    if len(data) <= MAX_BYTES:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    loaded = load_bytes(data, path=path)
    if isinstance(loaded, LoadError):
        return FileReport(path, None, loaded, [_load_error_finding(loaded)])
    return check_loaded(loaded, path)  # pragma: no cover - bytes that do not decode do not load either
