"""Draw check results: compiler-style text, JSON, or GitHub workflow annotations, in English or Chinese.

Every finding becomes a :class:`Rendered` record first (file, line, column, code, severity, message, help);
the three formats are three ways of printing those records.
"""

from __future__ import annotations

import json
from dataclasses import field, replace
from typing import Any, TextIO

from ...records import record
from ...text.escape import json_visible, visible
from ...text.i18n import Lang, messages, option_text
from ...text.punctuation import either, listed, quoted
from ...tree.profiles import HF_FILLERS, NEWEST, HfReleases, Profile
from ..edits import Fix
from ..findings import Filled, Finding, Kind, Severity
from ..pipeline import FileReport
from ..positions import Span
from ..rules import get_rule
from .messages import help_lines, message
from .target import Release, statement

__all__ = [
    "Piece",
    "Related",
    "Rendered",
    "Tally",
    "Writer",
    "assemble",
    "draw",
    "render",
    "render_github",
    "render_json",
    "render_text",
    "summary",
]

S = messages(
    "report",
    summary="{files} checked: {errors}, {warnings}, {infos}",
    files="{n} files",
    files_one="1 file",
    errors="{n} errors",
    errors_one="1 error",
    warnings="{n} warnings",
    warnings_one="1 warning",
    infos="{n} notes",
    infos_one="1 note",
    error="error",
    warning="warning",
    info="note",
    help="help",
    note="note",
    clean="no problems found",
    fix="fix",
    fix_safe="{title} (dsref check --fix)",
    fix_unsafe="{title} (unsafe: dsref check --fix --unsafe-fixes)",
    fixable="{n} fixable with --fix",
    fixable_one="1 fixable with --fix",
    fixable_unsafe="{n} more with --unsafe-fixes",
    fixable_unsafe_one="1 more with --unsafe-fixes",
    fixable_only_unsafe="{n} fixable with --fix --unsafe-fixes",
    fixable_only_unsafe_one="1 fixable with --fix --unsafe-fixes",
    more_fixes="more fixes may follow once these are applied",
    seen_by_deepspeed="as Hjson (the deepspeed launcher's reader) reads the file: {message}",
    seen_by_hf="as json.load (Hugging Face's reader) reads the file: {message}",
    rules_failed="{n} rules stopped with an exception, so their findings are missing: {codes} (dsref check --debug "
    "shows the exception; please report it)",
    rules_failed_one="1 rule stopped with an exception, so its findings are missing: {codes} (dsref check --debug "
    "shows the exception; please report it)",
    filled_from='the launch gives this value: Trainer fills the "auto" at {place} with {value}',
    filled_from_defaults='the launch gives this value: Trainer fills the "auto" at {place} with {value}, with the '
    "default of {names}",
    filled_default='Trainer fills this "auto" with {value} from the default of {names}: the launch does not give it',
    filled_unwritten="the launch gives this value: Trainer fills {option} with {value}",
    filled_unwritten_defaults="the launch gives this value: Trainer fills {option} with {value}, with the default "
    "of {names}",
    filled_here='Trainer fills this "auto" from the launch',
    filled_there="the launch gives the value here: {written}",
)


@record(frozen=False)
class Rendered:
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    name: str
    severity: Severity
    message: str
    help: list[str] = field(default_factory=list)
    option: str | None = None
    where: str = ""
    source: str | None = None
    fix: Fix | None = None
    lang: Lang = "en"
    detail: str | None = None
    """The reader's own words for a file it could not read (``json.load``'s "Expecting value"), in JSON output only."""
    seen_by: Profile | None = None
    """The other reader, for a finding about what it reads in a file the chosen reader refuses."""
    related: list[Related] = field(default_factory=list)
    """Other places the finding is about, in this file or another (the ``"auto"`` a launch's value fills)."""
    elsewhere: bool = False
    """The finding is placed in another file than the report's (the launch that gives the value): JSON names it."""
    own: tuple[int, int, int, int] | None = None
    """For a finding placed :attr:`elsewhere`: its line, column, end line and end column in the report's file."""

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "name": self.name,
            "severity": _SEVERITY_NAMES[self.severity],
            "path": self.where,
            "option": self.option,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "message": self.message,
            "help": self.help,
            "fix": None if self.fix is None else self.fix.to_json(self.lang),
            **({"detail": self.detail} if self.detail is not None else {}),
            **({"seen_by": self.seen_by} if self.seen_by is not None else {}),
            **({"file": self.path} if self.elsewhere else {}),
            **({"related": [r.to_json() for r in self.related]} if self.related else {}),
        }


@record
class Related:
    """Another place a finding is about: a file, a span in it, and what is there."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "message": self.message,
        }


_SEVERITY_NAMES = {severity: severity.value for severity in Severity}
"""Each severity's name, read once (an enum member's ``value`` is a descriptor written in Python up to 3.11)."""


def rendered(report: FileReport, lang: Lang, target: str = "0.19.8") -> list[Rendered]:
    out: list[Rendered] = []
    for finding in report.findings:
        out.append(_one(report, finding, lang, target))
    return out


def _one(report: FileReport, finding: Finding, lang: Lang, target: str) -> Rendered:
    if finding.seen_by is not None and report.other_reading is not None:
        # what the other reader sees in a file the chosen one refuses: placed in its reading, and said to be so
        shown = _one(
            replace(report, loaded=report.other_reading, error=None), replace(finding, seen_by=None), lang, target
        )
        shown.message = S.text(f"seen_by_{finding.seen_by}", lang, message=shown.message)
        shown.seen_by = finding.seen_by
        return shown
    if report.error is not None:
        err = report.error
        line, col = err.line or 1, err.col or 1
        hint = err.hint_text(lang)
        source = err.source_lines[line - 1] if err.source_lines and 0 < line <= len(err.source_lines) else None
        return Rendered(
            report.path,
            line,
            col,
            line,
            col + 1,
            "DS000",
            "unreadable",
            Severity.error,
            err.text(lang),
            [hint] if hint else [],
            None,
            "",
            source,
            finding.fix,
            lang,
            err.parser_words,
        )
    loaded = report.loaded
    assert loaded is not None
    part = "value" if finding.kind in _VALUE_KINDS else "key"
    span = loaded.locate(finding.location, part) if finding.location else None
    if span is None and isinstance(finding.args.get("line"), int):
        from ..positions import Span

        at_line, at_col = finding.args["line"], finding.args.get("col", 1)
        span = Span(at_line, at_col, at_line, at_col + 1)
    if finding.rule is not None:
        rule = get_rule(finding.rule)
        text = rule.text("message", lang, **finding.args) if rule else finding.code
        helps: list[str] = []
        if finding.args.get("suggestions"):
            from .messages import MESSAGES

            names = either((quoted(x, lang) for x in finding.args["suggestions"]), lang)
            helps.append(MESSAGES.text("help_suggest", lang, suggestions=names))
    else:
        text = message(finding, lang, target=target)
        helps = help_lines(finding, lang)
        if finding.kind is Kind.removed and finding.option:
            from ...tree.index import OptionIndex

            record = OptionIndex.load().get(finding.option)
            note = option_text(record.path, record.removal_note, lang, "removal_note")
            if note:
                helps.insert(0, note)
    line = span.line if span else 1
    source = loaded.source_lines[line - 1] if span and 0 < line <= len(loaded.source_lines) else None
    shown = Rendered(
        report.path,
        line,
        span.col if span else 1,
        span.end_line if span else 1,
        span.end_col if span else 1,
        finding.code,
        finding.name,
        finding.severity,
        text,
        helps,
        finding.option,
        finding.where if finding.location else "",
        source if span else None,
        finding.fix,
        lang,
    )
    if finding.filled is not None:
        written = finding.location and loaded.positions.written(tuple(finding.location)) is not None
        auto = loaded.locate(finding.location, "value") if written else None  # none: the tool's own "auto"
        _at_the_launch(shown, finding.filled, lang, auto)
    return shown


def _at_the_launch(shown: Rendered, filled: Filled, lang: Lang, auto: Span | None) -> None:
    """A finding on an ``"auto"`` Trainer fills from the launch, moved to the launch's flag or key that gives the
    value, with the ``"auto"`` as its related place; where TrainingArguments' defaults give it, left at the
    ``"auto"`` with a line that says so."""
    from ..pipeline import display_path

    value = visible(repr(filled.value))
    names = listed(filled.defaults, lang)
    at = filled.at
    if at is None:
        if filled.defaults:
            shown.help.insert(0, S.text("filled_default", lang, value=value, names=names))
        return
    if auto is not None:
        place = f"{shown.path}:{auto.line}:{auto.col}"
        key = "filled_from_defaults" if filled.defaults else "filled_from"
        shown.help.insert(0, S.text(key, lang, place=visible(place), value=value, names=names))
        here = S.text("filled_here", lang)
        shown.related.append(Related(shown.path, auto.line, auto.col, auto.end_line, auto.end_col, here))
    else:  # an "auto" the tool writes itself (Accelerate's plugin): in no file
        key = "filled_unwritten_defaults" if filled.defaults else "filled_unwritten"
        shown.help.insert(0, S.text(key, lang, option=shown.where, value=value, names=names))
    shown.own = (shown.line, shown.column, shown.end_line, shown.end_column)
    shown.path, shown.line, shown.column = display_path(at.path), at.line, at.col
    shown.end_line, shown.end_column, shown.source = at.line, at.end_col, at.source
    shown.elsewhere = True


_VALUE_KINDS = frozenset(
    {Kind.wrong_type, Kind.coerced, Kind.out_of_range, Kind.not_allowed, Kind.auto_dropped, Kind.auto_unfilled}
)


def _colour(text: str, code: str, on: bool) -> str:
    return f"\033[{code}m{text}\033[0m" if on else text


_SEVERITY_COLOUR = {Severity.error: "1;31", Severity.warning: "1;33", Severity.info: "1;36"}


def render_text(
    reports: list[FileReport],
    lang: Lang,
    *,
    color: bool = False,
    target: str = "0.19.8",
    checked_for: CheckedFor | None = None,
) -> str:
    pieces = [draw(report, "text", lang, color=color, target=target) for report in reports]
    return assemble(pieces, "text", lang, target=target, checked_for=checked_for)


def _text_lines(report: FileReport, lang: Lang, color: bool, target: str) -> list[str]:
    lines: list[str] = []
    # Whatever came from the file or its name is passed through visible(): see dsref.text.escape.
    own = visible(report.path, name=True)
    for r in rendered(report, lang, target):
        path = visible(r.path, name=True) if r.elsewhere else own
        label = _colour(f"{S.text(r.severity.value, lang)}[{r.code}]", _SEVERITY_COLOUR[r.severity], color)
        lines.append(f"{_colour(f'{path}:{r.line}:{r.column}:', '1', color)} {label} {visible(r.message)}")
        if r.source is not None:
            number = str(r.line)
            width = max(1, (r.end_column - r.column) if r.end_line == r.line else len(r.source) - r.column + 1)
            shown, column, width = shown_source(r.source.rstrip(), r.column, width)
            lines.append(f" {number} | {shown}")
            caret = " " * (column - 1) + "^" * width
            lines.append(f" {' ' * len(number)} | {_colour(caret, _SEVERITY_COLOUR[r.severity], color)}")
        colon = "：" if lang == "zh" else ": "  # full width after Chinese words
        for hint in r.help:
            lines.append(f" {' ' * len(str(r.line))} = {S.text('help', lang)}{colon}{visible(hint)}")
        if r.fix is not None:
            how = S.text("fix_safe" if r.fix.safe else "fix_unsafe", lang, title=visible(r.fix.title_text(lang)))
            lines.append(f" {' ' * len(str(r.line))} = {S.text('fix', lang)}{colon}{how}")
    return lines


def _visible_source(source: str, column: int, width: int) -> tuple[str, int, int]:
    r"""A source line made :func:`visible`, with the column and width of the mark moved to match the escapes.

    >>> _visible_source('{"a\x1b": 1}', 2, 5)
    ('{"a\\x1b": 1}', 2, 8)
    """
    shown = visible(source.replace("\t", " "))
    if len(shown) == len(source):
        return shown, column, width
    start = len(visible(source[: column - 1].replace("\t", " "))) + 1
    end = len(visible(source[: column - 1 + width].replace("\t", " "))) + 1
    return shown, start, max(1, end - start)


SOURCE_WIDTH = 100
"""The longest source line shown whole under a finding; a longer one (minified JSON) is cut around the column."""


def shown_source(source: str, column: int, width: int) -> tuple[str, int, int]:
    r"""The part of a source line shown under a finding: made :func:`visible`, cut around the mark by
    :func:`source_window`, with the column and width of the mark in it.

    Only about :data:`SOURCE_WIDTH` characters are shown, so a long line (minified JSON holds a whole config in one)
    is cut to a little more than that around the mark before it is escaped; the result is the same as escaping the
    whole line and then cutting, at a cost that does not grow with the line (24,000 findings on one 250 KB line
    once took 20 s to print).

    >>> shown_source('{"a\x1b": 1}', 2, 5)
    ('{"a\\x1b": 1}', 2, 8)
    >>> text, column, width = shown_source("x" * 5000 + '"stgae"' + "\x1b" * 5000, 5001, 7)
    >>> text[column - 1 : column - 1 + width], text[0], text[-1]
    ('"stgae"', '…', '…')
    """
    if len(source) <= 4 * SOURCE_WIDTH:
        return source_window(*_visible_source(source, column, width))
    # Every character shows as one or more, so the window (SOURCE_WIDTH shown characters around the mark) lies
    # within SOURCE_WIDTH characters of the mark, or of the line's end when the mark is near it.
    start = max(0, column - 1 - SOURCE_WIDTH)
    end = min(len(source), column - 1 + min(width, SOURCE_WIDTH) + SOURCE_WIDTH)
    piece, at, wide = _visible_source(source[start:end], column - start, min(width, end - (column - 1)))
    return source_window(piece, at, wide, before=start > 0, after=end < len(source))


def source_window(
    line: str, column: int, width: int, *, before: bool = False, after: bool = False
) -> tuple[str, int, int]:
    """The part of a source ``line`` to show under a finding at ``column`` (1-based) marked ``width`` characters
    wide: the line itself when it is short, else about :data:`SOURCE_WIDTH` characters around the column with ``…``
    where it was cut; with the column and width of the mark in what is shown. ``before`` and ``after``: ``line`` is
    itself a piece of a longer line, cut there.

    >>> source_window('{"a": 1}', 2, 3)
    ('{"a": 1}', 2, 3)
    >>> text, column, width = source_window("x" * 500 + '"stgae": 2' + "y" * 500, 501, 7)
    >>> text[column - 1 : column - 1 + width], len(text) <= 102
    ('"stgae"', True)
    """
    if len(line) <= SOURCE_WIDTH and not (before or after):
        return line, column, max(1, width)
    start = max(0, min(column - 1 - SOURCE_WIDTH // 3, len(line) - SOURCE_WIDTH))
    end = start + SOURCE_WIDTH
    cut_before = bool(start) or before
    shown = ("…" if cut_before else "") + line[start:end] + ("…" if end < len(line) or after else "")
    column = column - start + (1 if cut_before else 0)
    width = max(1, min(width, SOURCE_WIDTH - (column - 1 - (1 if cut_before else 0))))
    return shown, column, width


def summary(reports: list[FileReport], lang: Lang) -> str:
    tally = Tally()
    for r in reports:
        failed = tuple(failure.code for failure in r.rule_failures)
        counts = r.count(Severity.error), r.count(Severity.warning), r.count(Severity.info)
        tally.add(Piece("", *counts, r.ok, False, failed_rules=failed))
    return _summary(tally, lang)


def _summary(tally: Tally, lang: Lang) -> str:
    counts = {"files": tally.files, "errors": tally.errors, "warnings": tally.warnings, "infos": tally.infos}
    parts = {name: S.text(f"{name}_one" if n == 1 else name, lang, n=n) for name, n in counts.items()}
    return S.text("summary", lang, **parts) + _fixable(tally, lang) + _more_fixes(tally, lang) + _failed(tally, lang)


def _more_fixes(tally: Tally, lang: Lang) -> str:
    """``; more fixes may follow once these are applied`` when making the fixes listed makes others possible."""
    if not tally.more_fixes:
        return ""
    return ("；" if lang == "zh" else "; ") + S.text("more_fixes", lang)


def _failed(tally: Tally, lang: Lang) -> str:
    """A line of its own after the summary naming the rules that stopped with an exception, when any did: their
    findings are missing, and the user must not read "no problems" as a clean bill."""
    codes = sorted(tally.failed_rules)
    if not codes:
        return ""
    return "\n" + S.text(
        "rules_failed_one" if len(codes) == 1 else "rules_failed", lang, n=len(codes), codes=listed(codes, lang)
    )


def _fixable(tally: Tally, lang: Lang) -> str:
    """``; 3 fixable with --fix (1 more with --unsafe-fixes)`` after the summary, when anything is."""
    safe, unsafe = tally.fixable, tally.fixable_unsafe
    if safe and unsafe:
        more = S.text("fixable_unsafe_one" if unsafe == 1 else "fixable_unsafe", lang, n=unsafe)
        said = S.text("fixable_one" if safe == 1 else "fixable", lang, n=safe) + (
            f"（{more}）" if lang == "zh" else f" ({more})"
        )
    elif safe:
        said = S.text("fixable_one" if safe == 1 else "fixable", lang, n=safe)
    elif unsafe:
        said = S.text("fixable_only_unsafe_one" if unsafe == 1 else "fixable_only_unsafe", lang, n=unsafe)
    else:
        return ""
    return ("；" if lang == "zh" else "; ") + said


def render_json(
    reports: list[FileReport], lang: Lang, *, target: str = "0.19.8", checked_for: CheckedFor | None = None
) -> str:
    pieces = [draw(report, "json", lang, target=target) for report in reports]
    return assemble(pieces, "json", lang, target=target, checked_for=checked_for)


def _json_file(
    report: FileReport, lang: Lang, target: str, counts: tuple[int, int, int], more_fixes: bool = False
) -> dict[str, Any]:
    """One file's object of the JSON report; ``counts``: its errors, warnings and notes (:meth:`FileReport.counts`);
    ``more_fixes``: making its fixes makes others possible (said only then: other files' objects stay as they were)."""
    errors, warnings, infos = counts
    more = {"more_fixes_follow": True} if more_fixes else {}
    return {
        "file": report.path,
        "profile": report.loaded.profile if report.loaded else (report.error.profile if report.error else None),
        "ok": report.error is None and errors == 0,
        "errors": errors,
        "warnings": warnings,
        "infos": infos,
        "findings": [r.to_json() for r in rendered(report, lang, target)],
        **more,
    }


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
"""``json.dumps(value, ensure_ascii=False)``, with one encoder for all calls (``json.dumps`` given any option builds
a new one each time)."""

_KEYS: dict[str, str] = {}
"""Object keys as JSON, encoded once (the same few keys recur in every file's object)."""


def json_lines(value: object, depth: int, indent: str = "") -> str:
    """JSON indented by two spaces down to ``depth`` levels of nesting, and each value below that on one line
    (here: one finding per line). Only ``json.dumps`` without ``indent`` runs at C speed; with ``indent``, writing
    the findings of a few hundred files took longer than checking them."""
    if depth == 0 or not isinstance(value, (dict, list)) or not value:
        return _scalar(value) if type(value) in _SCALARS else _ENCODE(value)
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{_key(key)}: {json_lines(item, depth - 1, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{indent}}}"
    return "[\n" + ",\n".join(inner + json_lines(item, depth - 1, inner) for item in value) + f"\n{indent}]"


_SCALARS = frozenset({int, bool, type(None), str})


def _scalar(value: object) -> str:
    """A number, boolean, null or string as ``json.dumps`` writes it, without the encoder object ``json.dumps``
    makes for each value that is not a string (a file's counts, its ``ok``)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    return _ENCODE(value)


def _json_visible(text: str) -> str:
    """:func:`~dsref.text.escape.json_visible` of JSON text ``json.dumps`` wrote, with no search where it would change
    nothing: ``json.dumps`` escapes the C0 controls itself, so in ASCII text the only character left to escape is
    DEL (the rest are not ASCII, as its docstring says). Most reports are ASCII; the search costs some sixty
    instructions a character (``tests/unit/check/test_check.py`` compares the two)."""
    return text if text.isascii() and "\x7f" not in text else json_visible(text)


def _key(key: object) -> str:
    text = str(key)
    encoded = _KEYS.get(text)
    if encoded is None:
        encoded = _ENCODE(text)
        if len(_KEYS) < 256:
            _KEYS[text] = encoded
    return encoded


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(reports: list[FileReport], lang: Lang, *, target: str = "0.19.8") -> str:
    """GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per finding."""
    pieces = [draw(report, "github", lang, target=target) for report in reports]
    return assemble(pieces, "github", lang, target=target)


_GITHUB_LEVEL = {Severity.error: "error", Severity.warning: "warning", Severity.info: "notice"}


def _github_lines(report: FileReport, lang: Lang, target: str) -> list[str]:
    lines = []
    for r in rendered(report, lang, target):
        props = (
            f"file={_escape_property(visible(r.path, name=True))},line={r.line},col={r.column},"
            f"endLine={r.end_line},endColumn={r.end_column},title={_escape_property(f'{r.code} {r.name}')}"
        )
        text = visible(r.message) + "".join(f"\n{visible(h)}" for h in r.help)
        lines.append(f"::{_GITHUB_LEVEL[r.severity]} {props}::{_escape_data(text)}")
    return lines


# -- one file's part of the output, and the whole ---------------------------------------------------------


@record
class Piece:
    """One file's part of the output, drawn, with its counts: small enough to send between processes."""

    text: str
    errors: int
    warnings: int
    infos: int
    ok: bool
    unreadable: bool
    fixable: int = 0
    """Findings ``--fix`` repairs."""
    fixable_unsafe: int = 0
    """Findings only ``--fix --unsafe-fixes`` repairs."""
    reading: Profile | None = None
    """The reader the file was read as (None: it could not be read)."""
    failed_rules: tuple[str, ...] = ()
    """The codes of the rules that stopped with an exception on the file (:attr:`FileReport.rule_failures`)."""
    more_fixes: bool = False
    """Making the fixes listed makes others possible (:func:`dsref.check.fix.fixer.more_fixes_follow`)."""


def draw(
    report: FileReport,
    fmt: str,
    lang: Lang,
    *,
    color: bool = False,
    target: str = "0.19.8",
    more_fixes: bool = False,
) -> Piece:
    """One file's findings in ``fmt``: its lines of text or GitHub commands, or its object of the JSON report.
    ``more_fixes``: making the fixes it lists makes others possible (the caller has run the passes to know)."""
    counts = report.counts()
    if fmt == "json":
        text = _json_visible(json_lines(_json_file(report, lang, target, counts, more_fixes), 2, _FILE_INDENT))
    elif fmt == "github":
        text = "".join(line + "\n" for line in _github_lines(report, lang, target))
    else:
        text = "".join(line + "\n" for line in _text_lines(report, lang, color, target))
    fixes = [f.fix for f in report.findings if f.fix is not None]
    safe = sum(1 for fix in fixes if fix.safe)
    reading = report.loaded.profile if report.loaded is not None else report.error.profile if report.error else None
    ok = report.error is None and counts[0] == 0  # FileReport.ok, without counting again
    failed = tuple(failure.code for failure in report.rule_failures)
    return Piece(text, *counts, ok, report.error is not None, safe, len(fixes) - safe, reading, failed, more_fixes)


_FILE_INDENT = "    "
"""Where a file's object sits in the JSON report: ``{"files": [...]}`` at the second level."""


@record
class CheckedFor:
    """What a whole check is for: the DeepSpeed release and how it was chosen, the reader the user asked for
    (None: each file is read as it is written), and how many files there are."""

    release: Release
    profile: Profile | None
    files: int
    hugging_face: HfReleases = NEWEST
    """The transformers and accelerate installed, stated for a file read as Hugging Face's."""

    def reading(self, first: Piece | None) -> Profile | None:
        """The reader to state: the one asked for, or the one file's; None for files each read as written."""
        if self.profile is not None:
            return self.profile
        return first.reading if first is not None and self.files == 1 else None

    def text(self, first: Piece | None, lang: Lang) -> str:
        return statement(
            self.release, self.reading(first), lang, detected=self.profile is None, hugging_face=self.hugging_face
        )

    def to_json(self, first: Piece | None) -> dict[str, Any]:
        reading = self.reading(first)
        return {
            **self.release.to_json(),
            "reading": reading or "each_as_written",
            "reading_chosen_by": "user" if self.profile is not None else "file",
            "hugging_face": {by: self.hugging_face.of(by) for by in HF_FILLERS} if reading == "hf" else None,
        }


@record(frozen=False)
class Tally:
    """What the summary needs of the pieces written so far: their counts, not their text."""

    files: int = 0
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    fixable: int = 0
    fixable_unsafe: int = 0
    unreadable: bool = False
    ok: bool = True
    failed_rules: set[str] = field(default_factory=set)
    """The codes of the rules that stopped with an exception on any file."""
    more_fixes: bool = False
    """Making the fixes listed in some file makes others possible there."""

    def add(self, piece: Piece) -> None:
        self.files += 1
        self.errors += piece.errors
        self.warnings += piece.warnings
        self.infos += piece.infos
        self.fixable += piece.fixable
        self.fixable_unsafe += piece.fixable_unsafe
        self.unreadable = self.unreadable or piece.unreadable
        self.ok = self.ok and piece.ok
        self.failed_rules.update(piece.failed_rules)
        self.more_fixes = self.more_fixes or piece.more_fixes


class Writer:
    """The whole output of a check written to ``out`` as the files' pieces come, in order, then the summary.

    Nothing is kept but the counts, so memory stays flat however many files there are; each piece is flushed as
    it is written (``flush``), so a long run shows its findings as it goes and an interrupted one keeps them.
    """

    def __init__(
        self,
        out: TextIO,
        fmt: str,
        lang: Lang,
        *,
        target: str = "0.19.8",
        flush: bool = True,
        checked_for: CheckedFor | None = None,
    ) -> None:
        self.out, self.fmt, self.lang, self.flush = out, fmt, lang, flush
        self.target, self.checked_for = target, checked_for
        self.tally = Tally()
        self._started = False

    def _start(self, first: Piece | None) -> None:
        """The head: what the check was for (the text's first line), as soon as the first file says how it was
        read (a single file read as it is written says which reader that was)."""
        self._started = True
        said = self.checked_for
        if self.fmt == "json":
            head: dict[str, Any] = {"deepspeed": self.target, "lang": self.lang}
            if said is not None:
                head["checked_for"] = said.to_json(first)
            text = json_visible(json_lines(head, 2 if said is not None else 1)[:-2])  # without the closing "\n}"
            self.out.write(f'{text},\n  "files": [')
        elif self.fmt == "text" and said is not None:
            self.out.write(visible(said.text(first, self.lang)) + "\n")

    def write(self, piece: Piece) -> None:
        if not self._started:
            self._start(piece)
        if self.fmt == "json":
            self.out.write(("\n" if not self.tally.files else ",\n") + _FILE_INDENT + piece.text)
        else:
            self.out.write(piece.text)
        self.tally.add(piece)
        if self.flush:
            self.out.flush()

    def close(self) -> Tally:
        """Write the summary (JSON: the end of the document); the counts of everything written."""
        if not self._started:
            self._start(None)
        tally = self.tally
        if self.fmt != "json":
            self.out.write(_summary(tally, self.lang) + "\n")
        else:
            totals: dict[str, Any] = {
                "files": tally.files,
                "error": tally.errors,
                "warning": tally.warnings,
                "info": tally.infos,
            }
            if tally.failed_rules:  # present only when a rule failed (a clean run's report stays as it was)
                totals["rules_failed"] = sorted(tally.failed_rules)
            if tally.more_fixes:  # present only when true, likewise
                totals["more_fixes_follow"] = True
            end = "\n  ]" if tally.files else "]"
            self.out.write(f'{end},\n  "summary": {json_lines(totals, 1, "  ")}\n}}\n')
        return tally


def assemble(
    pieces: list[Piece], fmt: str, lang: Lang, *, target: str = "0.19.8", checked_for: CheckedFor | None = None
) -> str:
    """The whole output from the files' pieces, in order, with the summary (and what the check was for, first,
    when ``checked_for`` says)."""
    import io

    out = io.StringIO()
    writer = Writer(out, fmt, lang, target=target, flush=False, checked_for=checked_for)
    for piece in pieces:
        writer.write(piece)
    writer.close()
    return out.getvalue()


def render(
    reports: list[FileReport],
    fmt: str,
    lang: Lang,
    *,
    color: bool = False,
    target: str = "0.19.8",
    checked_for: CheckedFor | None = None,
) -> str:
    if fmt == "json":
        return render_json(reports, lang, target=target, checked_for=checked_for)
    if fmt == "github":
        return render_github(reports, lang, target=target)
    return render_text(reports, lang, color=color, target=target, checked_for=checked_for)
