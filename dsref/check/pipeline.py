"""Check config files: load them as their reader does, validate against the schema, run the cross-field rules.

The steps stay apart and each is a plain function over plain data: :mod:`dsref.check.read.loader` (text → positioned
tree), :func:`dsref.check.validate.validation.validate` (schema findings), :func:`dsref.check.rules.run_rules`
(cross-field
findings); :func:`check_file` puts them together and :mod:`dsref.check.report.draw` draws the result.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import field, replace
from functools import partial
from pathlib import Path
from typing import Any

from ..launch.model import Built
from ..records import record
from .edits import Applicability
from .findings import Finding, Kind, Location, Severity
from .read.config_file import SNIFF_CHARS, looks_like_config
from .read.loader import LoadedConfig, LoadError, LoadErrorKind, load, load_bytes, load_text
from .repair.repairing import located, strict_json_fix, with_fixes
from .repairs import RemoveDuplicate, StrictJson
from .rules import RuleFailure, get_rule, run_rules
from .settings import DEFAULT_SETTINGS, CheckSettings
from .validate.validation import validate

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..launch.trainer import Filling
    from ..tree.profiles import Profile

__all__ = [
    "STDIN",
    "STDIN_SHOWN",
    "Expanded",
    "FileReport",
    "check_built",
    "check_bytes",
    "check_file",
    "check_loaded",
    "check_text",
    "display_path",
    "expand",
    "expand_paths",
    "launch_filling",
    "launched",
    "load_error_finding",
    "refused_text",
]


@record(frozen=False)
class FileReport:
    """Everything found in one file."""

    path: str
    loaded: LoadedConfig | None
    error: LoadError | None
    findings: list[Finding] = field(default_factory=list)
    rule_failures: tuple[RuleFailure, ...] = ()
    """Rules that stopped with an exception on this file: their findings are missing (the summary says so)."""
    other_reading: LoadedConfig | None = None
    """For a file its reader refuses (:attr:`error`) and the other reader reads: that reading, which the findings
    after the load error's are about (each with its :attr:`~dsref.check.findings.Finding.seen_by`)."""

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    def counts(self) -> tuple[int, int, int]:
        """Errors, warnings and notes, counted in one pass."""
        tally = {Severity.error: 0, Severity.warning: 0, Severity.info: 0}
        for finding in self.findings:
            tally[finding.severity] += 1
        return tally[Severity.error], tally[Severity.warning], tally[Severity.info]

    @property
    def ok(self) -> bool:
        return self.error is None and self.count(Severity.error) == 0


@record
class Expanded:
    """The files to check, and those found in a directory that were left out as no DeepSpeed config."""

    files: tuple[str, ...]
    skipped: tuple[str, ...] = ()


def expand(paths: Iterable[str]) -> Expanded:
    """The files to check: each path given, and every ``*.json`` below a directory (sorted, hidden ones skipped)
    that looks like a DeepSpeed config by the language server's rule (:func:`~.read.config_file.looks_like_config`:
    a model's ``config.json`` or a ``package.json`` beside the configs is left out, and counted in ``skipped``).

    A directory that cannot be listed, or a file in it that cannot be read, is given as it is, among the files, so
    that checking it says why.
    """
    files: list[str] = []
    skipped: list[str] = []
    for path in paths:
        if not os.path.isdir(path):
            files.append(path)
            continue
        found: list[str] = []
        unlisted: list[str] = []
        for root, dirs, names in os.walk(path, onerror=partial(_unlisted, unlisted)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found.extend(os.path.join(root, f) for f in names if f.endswith(".json") and not f.startswith("."))
        for file in sorted([*found, *unlisted]):
            (files if file in unlisted or _looks_like_config(file) else skipped).append(file)
    return Expanded(tuple(files), tuple(skipped))


def expand_paths(paths: Iterable[str]) -> Iterator[str]:
    """The files of :func:`expand`."""
    yield from expand(paths).files


def _unlisted(found: list[str], exc: OSError) -> None:
    if exc.filename is not None:
        found.append(os.fsdecode(exc.filename))


def _looks_like_config(path: str) -> bool:
    """Whether the file at ``path`` looks like a DeepSpeed config; True when it cannot be read (checking it says
    why)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return True  # a pipe or a device: never opened here (it may block), the loader says what it is
        with open(path, "rb") as file:
            start = file.read(SNIFF_CHARS)
    except OSError:
        return True
    return looks_like_config(path.replace(os.sep, "/"), start.decode("utf-8", "replace"))


def check_file(path: str, settings: CheckSettings = DEFAULT_SETTINGS) -> FileReport:
    """Findings for the file at ``path``, read as ``settings.profile`` says (None: as the file shows its reader)."""
    return _report(load(path, settings.profile), path, settings)


STDIN = "-"
"""The file name that stands for standard input."""
STDIN_SHOWN = "<stdin>"
"""How standard input is named in reports."""


def check_bytes(data: bytes, path: str, settings: CheckSettings = DEFAULT_SETTINGS) -> FileReport:
    """Findings for a file's bytes, read already (standard input): decoded and parsed as :func:`check_file` would."""
    return _report(load_bytes(data, settings.profile, path=path), path, settings)


def check_text(text: str, path: str, settings: CheckSettings = DEFAULT_SETTINGS) -> FileReport:
    """Findings for ``text`` read as if from the file ``path`` (stdin, an editor's buffer, a file being fixed)."""
    return _report(load_text(text, settings.profile, path=path), path, settings)


def _report(loaded: LoadedConfig | LoadError, path: str, settings: CheckSettings) -> FileReport:
    """The findings of a file as read: its load error alone, or everything check finds in it."""
    if isinstance(loaded, LoadError):
        return _refused(loaded, path, settings)
    return check_loaded(loaded, path, settings)


def _refused(error: LoadError, path: str, settings: CheckSettings) -> FileReport:
    """The report of a file its reader refuses: the load error first, then, when the other reader reads the text,
    what the file holds as that reader reads it, judged as the refusing reader would once it could read it (the
    rest of the file is not hidden behind its first syntax error). Those findings carry no fix, none can be proven
    while the reader refuses the file, but for a key written twice: removing the first is what the load error's own
    fix (the file rewritten as strict JSON, which would drop it silently) waits for, and it is proven on the other
    reader's reading (:func:`~dsref.check.fix.proof.judge`). What a launch must give (DS612) is not said of a file no
    launch can start with."""
    report = FileReport(path, None, error, [load_error_finding(error)])
    text = refused_text(error)
    if text is None or error.kind is not LoadErrorKind.syntax:
        return report
    other: Profile = "deepspeed" if error.profile == "hf" else "hf"
    read = load_text(text, other, path=path)
    if not isinstance(read, LoadedConfig):
        return report
    # the data as the other reader has it, judged for the reader the file is for
    seen = check_loaded(replace(read, profile=error.profile), path, settings.read_as(error.profile))
    report.findings.extend(
        replace(f, seen_by=other) if f.kind is Kind.duplicate_key else replace(f, repair=None, fix=None, seen_by=other)
        for f in seen.findings
        if not _about_launch(f)
    )
    report.other_reading = read
    report.rule_failures = seen.rule_failures
    return report


_DUPLICATE_SEVERITY = Kind.duplicate_key.severity_by_profile or {}


def check_loaded(loaded: LoadedConfig, path: str, settings: CheckSettings = DEFAULT_SETTINGS) -> FileReport:
    """Findings for a config already loaded (also used for text given on stdin or in tests). The file is judged as
    its reader reads it (``loaded.profile``), whatever ``settings.profile`` asked for."""
    settings = settings.read_as(loaded.profile)
    findings: list[Finding] = []
    for duplicate in loaded.duplicates:
        # keep the later value, as json.load does; DeepSpeed refuses the file, so which was meant is a guess (unsafe)
        repair = RemoveDuplicate(
            location=duplicate.location,
            applicability=Applicability.unsafe,
            title="remove_duplicate",
            args={"key": str(duplicate.location[-1]), "line": duplicate.first.line, "later": duplicate.later.line},
        )
        findings.append(
            Finding(
                Kind.duplicate_key,
                _DUPLICATE_SEVERITY[loaded.profile],
                duplicate.location,
                None,
                {"profile": loaded.profile, "other_line": duplicate.first.line},
                repair=repair,
            )
        )
    if loaded.profile == "deepspeed":
        where = _not_json_at(loaded)
        if where is not None:
            line, col = where
            args = {
                "detail": f"{line}:{col}",
                "line": line,
                "col": col,
                "bom": where == (1, 1) and loaded.positions.bom,
            }
            # a byte-order mark or trailing commas, when nothing else keeps json.load from reading the file, go
            # (safe: DeepSpeed reads the same); anything more Hjson (comments, unquoted keys) is --profile hf's
            strict = StrictJson(location=(), applicability=Applicability.safe, title="trailing_commas", rewrite=False)
            findings.append(Finding(Kind.not_strict_json, Severity.info, (), None, args, repair=strict))
    filling = launch_filling(loaded, settings)
    data = loaded.data if filling is None else filling.config
    findings.extend(validate(data, settings))
    failures: tuple[RuleFailure, ...] = ()
    if isinstance(data, dict):
        result = run_rules(data, settings)
        ruled, failures = result.findings, result.failures
        if not loaded.accepted_by_reader:  # DeepSpeed refuses a key written twice: no launch starts with the file
            ruled = [f for f in ruled if not _about_launch(f)]
        # A rule that says what DeepSpeed does with a key it passes on unchecked replaces the schema's note on it.
        said = {f.location for f in ruled if f.severity is not Severity.info}
        findings = [
            f
            for f in findings
            if not (f.kind is Kind.unknown_key and f.severity is Severity.info and f.location in said)
        ]
        findings.extend(ruled)
        if settings.debug:
            findings.extend(
                Finding(Kind.rule_failed, Severity.info, (), None, {"rule": f.code, "name": f.name, "error": f.error})
                for f in failures
            )
    if filling is not None and filling.filled and settings.launch is not None:
        from .filled import with_fills

        findings = with_fills(findings, filling, settings.launch)
    # File-level notes share line 0: the rules (e.g. "this looks like a Hugging Face config") come first.
    findings.sort(key=lambda f: (_line(loaded, f), _order(f.severity), f.rule is None))
    return FileReport(path, loaded, None, with_fixes(findings, loaded), failures)


def _about_launch(finding: Finding) -> bool:
    """Whether ``finding`` says what the launch must give or leaves open (:attr:`~dsref.check.rules.Rule.about_launch`):
    nothing to say of a file its reader refuses."""
    found = get_rule(finding.rule) if finding.rule is not None else None
    return found is not None and found.about_launch


def launched(loaded: LoadedConfig, settings: CheckSettings) -> Any:
    """The config as the run will see it: with the launch given (``dsref check LAUNCH``), a file read as Hugging
    Face's has each ``"auto"`` Trainer fills filled from the launch, as the installed transformers fills it; else the
    file as read. The keys stay where the file writes them, so findings point at its lines."""
    filling = launch_filling(loaded, settings)
    return loaded.data if filling is None else filling.config


def launch_filling(loaded: LoadedConfig, settings: CheckSettings) -> Filling | None:
    """How Trainer fills the file under the launch given (:func:`launched`); None without a launch that gives
    training arguments, or for a file not read as Hugging Face's."""
    launch = settings.launch
    if launch is None or loaded.profile != "hf" or launch.form == "accelerate":
        return None  # an Accelerate config alone does not say what the script fills: its "auto" stay
    from ..launch.trainer import trainer_fill
    from .validate.checktree import check_tree

    data = loaded.data
    if launch.built is not None and launch.built.config is None:
        # the file an Accelerate config names, as its DeepSpeedPlugin hands it to Trainer
        from ..launch.accelerate import as_the_plugin_reads

        data = as_the_plugin_reads(data, launch.built.mixed_precision, launch.built.plugin_values)
    return trainer_fill(data, launch, settings.world_size, check_tree(), settings.hugging_face.transformers)


def check_built(text: str, path: str, built: Built, settings: CheckSettings) -> FileReport:
    """A ds_config a launch file builds (an Accelerate config's ``deepspeed_config``: ``text`` is the launch file's),
    checked as Hugging Face reads it, each finding at the launch file's entry that gives the value. No fix is
    offered: the edits of a fix are edits of JSON."""
    from .positions import LineIndex
    from .read.loader import Positions
    from .read.walker import Entries

    offsets: dict[Location, tuple[str, int, int, int, int]] = {
        loc: (p.form, p.key_start, p.key_end, p.value_start, p.value_end) for loc, p in built.places.items()
    }
    positions = Positions(Entries(offsets), LineIndex(text))
    lines = tuple(text.splitlines())
    loaded = LoadedConfig(built.config, positions, (), "hf", Path(path), lines, json_reads=True)
    report = check_loaded(loaded, path, settings.read_as("hf"))
    # What the tool writes itself, the launch file cannot change: only a refusal of it is worth saying
    report.findings = [
        replace(f, repair=None, fix=None)
        for f in report.findings
        if f.severity is Severity.error or tuple(f.location) in built.places or f.filled is not None
    ]
    return report


def refused_text(error: LoadError) -> str | None:
    """The text a reader refused, as it parsed it (line ends as ``\\n``, a byte-order mark kept): what the fix of
    the load error edits; None when the error kept no text (the file could not be read or decoded)."""
    if not error.source_lines:
        return None
    return ("\ufeff" if error.hint == "hint_bom" else "") + "\n".join(error.source_lines)


def load_error_finding(error: LoadError) -> Finding:
    finding = Finding(Kind.unreadable, Severity.error, (), None, {"detail": error.message})
    text = refused_text(error)
    if error.profile == "hf" and error.hint in ("hint_hjson_only", "hint_bom") and text is not None:
        # json.load refuses what DeepSpeed's Hjson reads: the fix writes the file as strict JSON
        hjson = load_text(text)
        if isinstance(hjson, LoadedConfig):
            fix = strict_json_fix(hjson, rewrite=True)
            if fix is not None and fix.title == "strict_json" and hjson.duplicates:
                # written anew from the data, the file would keep only the later of two members with one key, and
                # no finding would say so: the duplicate is a finding of its own (DS003, both lines), settled first
                fix = None
            if fix is not None:
                return replace(finding, fix=located(fix, hjson))
    return finding


def _not_json_at(loaded: LoadedConfig) -> tuple[int, int] | None:
    """Where strict JSON (Hugging Face's json.load) first fails on the text; None when it reads it."""
    if loaded.json_reads:  # the loader read it with json already (most configs): not parsed a second time
        return None
    text = loaded.text  # with its byte-order mark, if any: json.load refuses one
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return exc.lineno, exc.colno
    except (ValueError, RecursionError):
        return 1, 1
    return None


def _line(loaded: LoadedConfig, finding: Finding) -> int:
    return loaded.locate(finding.location).line if finding.location else 0


_ORDER = {Severity.error: 0, Severity.warning: 1, Severity.info: 2}


def _order(severity: Severity) -> int:
    return _ORDER[severity]


def display_path(path: str) -> str:
    """How a report names the file at ``path``: relative to the working directory when it lies below it, else as
    given (normalized); standard input by its own name."""
    if path == STDIN:
        return STDIN_SHOWN
    if os.sep == "/" and path:
        # os.path.relpath, cut short for the case that matters: a file below the working directory is the rest of
        # its absolute path after the directory's, and any other starts with "..". relpath works that out by
        # splitting both paths into their parts and asks the system for the working directory twice, which cost
        # as much as a fifth of reading a file (tests/unit/check/test_check.py compares the two on many paths).
        cwd = os.getcwd()
        absolute = os.path.normpath(os.path.join(cwd, path))  # os.path.abspath, with the directory asked once
        if not absolute.startswith("//"):  # POSIX keeps a leading "//", which relpath drops
            below = cwd.rstrip("/") + "/"
            relative = "." if absolute == cwd else absolute[len(below) :] if absolute.startswith(below) else ".."
            return relative if not relative.startswith("..") else str(Path(path))
    return _relative_or_given(path)


def _relative_or_given(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return relative if not relative.startswith("..") else str(Path(path))
