"""One open document checked as ``dsref check`` checks a file: its findings as LSP diagnostics, its fixes as edits.

Positions: dsref counts lines and columns from 1 in characters; LSP from 0 in UTF-16 code units (a Chinese
character is one, an emoji two). :func:`lsp_position` converts with the document's
:class:`~dsref.check.positions.LineIndex`, built once per version of the text.

>>> a = analyse("file:///w/ds_config.json", '{"train_batch_size": 8, "bfloat16": {"enabled": true}}', Settings(), "en")
>>> [(d.code, d.range.start.character, d.range.end.character) for d in a.diagnostics]
[('DS301', 24, 34)]
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import field, replace
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as lsp

from ..check.edits import Fix
from ..check.findings import Finding, Severity
from ..check.fix.offered import offered
from ..check.pipeline import FileReport, check_built, check_file, check_text
from ..check.positions import LineIndex
from ..check.read import config_file
from ..check.read.loader import MAX_BYTES
from ..check.report.draw import Rendered, rendered
from ..check.report.draw import S as REPORT_TEXTS
from ..check.settings import CheckSettings
from ..launch.model import Launch
from ..launch.opened import Opened, Said, open_launch
from ..records import record
from ..text.escape import visible
from ..text.i18n import Lang
from ..tree.links import page_url
from ..tree.profiles import NEWEST, HfReleases, Profile
from ..tree.versions import DEEPSPEED_VERSION
from .settings import Settings

__all__ = ["Analysis", "analyse", "analyse_launch", "document_path", "looks_like_config", "lsp_position"]

_SEVERITY = {
    Severity.error: lsp.DiagnosticSeverity.Error,
    Severity.warning: lsp.DiagnosticSeverity.Warning,
    Severity.info: lsp.DiagnosticSeverity.Information,
}


@record(frozen=False)
class Analysis:
    """What the server knows of a document after checking it."""

    uri: str
    text: str
    lang: Lang
    profile: Profile
    report: FileReport
    lines: LineIndex
    diagnostics: list[lsp.Diagnostic] = field(default_factory=list)
    fixes: list[tuple[lsp.Diagnostic, Rendered, Fix]] = field(default_factory=list)
    """Each diagnostic that has a fix, with the fix."""
    launch: str | None = None
    """For a ds_config: the launch file it was checked with (one in the workspace that names it); for a launch
    file: the ds_config it names."""

    def edits(self, fix: Fix) -> list[lsp.TextEdit]:
        """The fix's edits in LSP terms, for this document as written: from the offsets the fix was made at (a
        byte-order mark is one of them, which a line and column do not count), with the document's own line end
        where an edit adds a line (the fix writes ``\\n``, as the reader parsed the text)."""
        newline = self.lines.newline
        out = []
        for edit in fix.edits:
            start = lsp.Position(*self.lines.position(self.lines.written(edit.start)))
            end = lsp.Position(*self.lines.position(self.lines.written(edit.end)))
            replacement = edit.replacement.replace("\n", newline) if newline != "\n" else edit.replacement
            out.append(lsp.TextEdit(lsp.Range(start, end), replacement))
        return out


def looks_like_config(uri: str, text: str) -> bool:
    """A ``*.json`` document whose name or content says it is a DeepSpeed config, by the rule ``dsref check DIR``
    follows (:func:`dsref.check.read.config_file.looks_like_config`)."""
    return config_file.looks_like_config(unquote(urlparse(uri).path), text)


def document_path(uri: str) -> str:
    """The file a document's URI names (the URI itself for one that names no file)."""
    return unquote(urlparse(uri).path) or uri


def lsp_position(lines: LineIndex, line: int, col: int) -> lsp.Position:
    """dsref's 1-based line and character column → LSP's 0-based line and UTF-16 column (a byte-order mark, which
    dsref does not count, is one unit on the first line)."""
    return lsp.Position(*lines.utf16(line, col))


def analyse(
    uri: str,
    text: str,
    settings: Settings,
    editor_lang: Lang,
    target: str = DEEPSPEED_VERSION,
    hugging_face: HfReleases = NEWEST,
    launch: Opened | None = None,
) -> Analysis:
    """Check ``text`` as ``dsref check`` would with these settings, for the DeepSpeed release ``target`` (and the
    ``hugging_face`` releases, for a file read as theirs); the diagnostics are its findings. Without a ``profile``
    setting the file is read as it is written for, by the rule ``dsref check`` follows (:mod:`dsref.tree.profiles`).
    With the ``launch`` that runs the file, as ``dsref check LAUNCH`` checks it (:meth:`CheckSettings.launched_by`)."""
    lang = settings.language or editor_lang
    path = document_path(uri)
    checked_for = CheckSettings(settings.profile, settings.world_size, target, hugging_face)
    if launch is not None and launch.launch is not None:
        checked_for = checked_for.launched_by(launch.launch)
    report = offered(check_text(text, path, checked_for), checked_for)  # only fixes that --fix applies
    profile: Profile = report.loaded.profile if report.loaded is not None else settings.profile or "deepspeed"
    if report.error is not None:
        profile = report.error.profile
    # a file too large to read is refused at its start: indexing its lines would cost 140 MB for 4 MB of line ends
    lines = LineIndex(text if len(text) <= MAX_BYTES else text[: MAX_BYTES + 1])
    analysis = Analysis(uri, text, lang, profile, report, lines, launch=launch.path if launch is not None else None)
    for finding, shown in zip(report.findings, rendered(report, lang, target), strict=True):
        diagnostic = _diagnostic(finding, shown, lines, report, uri, lang)
        analysis.diagnostics.append(diagnostic)
        if shown.fix is not None:
            analysis.fixes.append((diagnostic, shown, shown.fix))
    return analysis


_SAID = {
    "error": lsp.DiagnosticSeverity.Error,
    "warning": lsp.DiagnosticSeverity.Warning,
    "info": lsp.DiagnosticSeverity.Information,
}


def analyse_launch(
    uri: str,
    text: str,
    settings: Settings,
    editor_lang: Lang,
    target: str = DEEPSPEED_VERSION,
    hugging_face: HfReleases = NEWEST,
    open_texts: Mapping[str, str] | None = None,
) -> Analysis | None:
    """Check a launch file as ``dsref check LAUNCH`` does (:func:`dsref.launch.opened.open_launch`): what it says of
    the launch file, at its lines; the ds_config the file builds, on its lines; the findings of the ds_config it
    names, each at the line that names it, with the place in the ds_config beside it. None for a file that is no
    DeepSpeed launch (another YAML, a script that starts no training): the editor shows nothing for it. The
    ds_config is read from the editor where it is open (``open_texts``, by real path), else from the disk."""
    lang = settings.language or editor_lang
    path = document_path(uri)
    shown = text if len(text) <= MAX_BYTES else text[:MAX_BYTES]
    opened = open_launch(path, shown, hugging_face.accelerate)
    if not opened.is_launch:
        return None
    lines = LineIndex(shown)
    report = FileReport(path, None, None)
    analysis = Analysis(uri, text, lang, "hf", report, lines, launch=opened.named)
    named = opened.launch.accelerate_config if opened.launch is not None else None
    for said in opened.said:
        if said.file and named is not None:  # said of the Accelerate config the command names: at its name
            said = replace(said, line=named.line, col=named.key_col or named.col)
        analysis.diagnostics.append(_said(said, lines, lang))
    if opened.launch is None:
        return analysis
    checked_for = CheckSettings(settings.profile, settings.world_size, target, hugging_face)
    checked_for = checked_for.launched_by(opened.launch)
    built = opened.built
    if built is not None and built.path and os.path.abspath(built.path) != os.path.abspath(path):
        # the ds_config the Accelerate config named by the command builds: its findings at that name
        analysis.report = check_built(built.text, built.path, built, checked_for)
        analysis.diagnostics.extend(_named_diagnostics(analysis.report, opened.launch, lines, lang, target, built.path))
    elif opened.built is not None:
        analysis.report = check_built(shown, path, opened.built, checked_for)
        for finding, drawn in zip(analysis.report.findings, rendered(analysis.report, lang, target), strict=True):
            analysis.diagnostics.append(_diagnostic(finding, drawn, lines, analysis.report, uri, lang))
    elif opened.named is not None and opened.launch.ds_config is not None:
        analysis.report = _named_report(opened.named, checked_for, open_texts or {})
        analysis.diagnostics.extend(
            _named_diagnostics(analysis.report, opened.launch, lines, lang, target, opened.named)
        )
    return analysis


def _named_report(config: str, settings: CheckSettings, open_texts: Mapping[str, str]) -> FileReport:
    """The report of the ds_config a launch names: of its text in the editor where it is open, else on the disk."""
    text = open_texts.get(os.path.realpath(config))
    return check_text(text, config, settings) if text is not None else check_file(config, settings)


def _named_diagnostics(
    report: FileReport, launch: Launch, lines: LineIndex, lang: Lang, target: str, config: str
) -> list[lsp.Diagnostic]:
    """The findings of the ds_config the launch names, at the launch's line that names it: each says where in the
    ds_config it is, and points there (``relatedInformation``)."""
    assert launch.ds_config is not None
    written = str(launch.ds_config.value)
    line, col = launch.ds_config.line, launch.ds_config.col
    where = lsp.Range(lsp_position(lines, line, col), lsp_position(lines, line, col + len(written)))
    config_lines = LineIndex(_config_text(report))
    config_uri = Path(config).as_uri()
    out: list[lsp.Diagnostic] = []
    for shown in rendered(report, lang, target):
        here = where
        if shown.elsewhere and shown.own is not None:
            at = report.findings[len(out)].filled
            if at is not None and at.at is not None and os.path.abspath(at.at.path) == os.path.abspath(launch.path):
                # a value this launch gives: at its flag or key, the ds_config's "auto" beside it
                here = lsp.Range(
                    lsp_position(lines, shown.line, shown.column),
                    lsp_position(lines, shown.end_line, shown.end_column),
                )
            shown.line, shown.column, shown.end_line, shown.end_column = shown.own
        place = lsp.Range(
            lsp_position(config_lines, shown.line, shown.column),
            lsp_position(config_lines, shown.end_line, shown.end_column),
        )
        message = visible(
            f"{written}:{shown.line}:{shown.column}: " + "\n".join([shown.message, *shown.help]), lines=True
        )
        out.append(
            lsp.Diagnostic(
                range=here,
                message=message,
                severity=_SEVERITY[shown.severity],
                code=shown.code,
                code_description=lsp.CodeDescription(href=page_url(f"rules/{shown.code}/", lang)),
                source="dsref",
                related_information=[lsp.DiagnosticRelatedInformation(lsp.Location(config_uri, place), shown.code)],
                data={"code": shown.code, "where": shown.where},
            )
        )
    return out


def _config_text(report: FileReport) -> str:
    """The ds_config's text as read (for the places in it); empty when it could not be read."""
    if report.loaded is not None:
        return report.loaded.text
    if report.error is not None and report.error.source_lines:
        return "\n".join(report.error.source_lines)
    return ""


def _said(said: Said, lines: LineIndex, lang: Lang) -> lsp.Diagnostic:
    """What dsref says of a launch file, at its line (the whole first line for the file as a whole)."""
    line = said.line or 1
    start = lsp_position(lines, line, said.col or 1)
    end = lsp_position(lines, line, 1 << 30)  # to the end of the line
    return lsp.Diagnostic(
        range=lsp.Range(start, end),
        message=visible(said.text(lang), lines=True),
        severity=_SAID[said.severity],
        code=said.reason,
        source="dsref",
    )


def _diagnostic(
    finding: Finding, shown: Rendered, lines: LineIndex, report: FileReport, uri: str, lang: Lang
) -> lsp.Diagnostic:
    related = _related(finding, lines, report, uri)
    span = (shown.line, shown.column, shown.end_line, shown.end_column)
    if shown.elsewhere and shown.own is not None:
        # a value the launch gives, shown in the ds_config at its "auto", the launch's flag or key beside it
        span = shown.own
        related.insert(0, _launch_related(finding, shown, lang))
    start = lsp_position(lines, span[0], span[1])
    end = lsp_position(lines, span[2], span[3])
    message = visible("\n".join([shown.message, *shown.help]), lines=True)  # a key or value of the file, shown
    return lsp.Diagnostic(
        range=lsp.Range(start, end),
        message=message,
        severity=_SEVERITY[shown.severity],
        code=shown.code,
        code_description=lsp.CodeDescription(href=page_url(f"rules/{shown.code}/", lang)),
        source="dsref",
        related_information=related or None,
        data={"code": shown.code, "where": shown.where},
    )


def _launch_related(finding: Finding, shown: Rendered, lang: Lang) -> lsp.DiagnosticRelatedInformation:
    """Where the launch gives a value Trainer fills into the ``"auto"`` a finding is about."""
    assert finding.filled is not None and finding.filled.at is not None
    at = finding.filled.at
    line = LineIndex(at.source)  # the launch's line: its columns as the editor counts them
    start, end = lsp_position(line, 1, at.col).character, lsp_position(line, 1, at.end_col).character
    place = lsp.Range(lsp.Position(at.line - 1, start), lsp.Position(at.line - 1, end))
    message = visible(REPORT_TEXTS.text("filled_there", lang, written=at.written))
    return lsp.DiagnosticRelatedInformation(lsp.Location(_uri_of(at.path), place), message)


def _uri_of(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()


def _related(
    finding: Finding, lines: LineIndex, report: FileReport, uri: str
) -> list[lsp.DiagnosticRelatedInformation]:
    """The other places a finding is about: the first of two duplicate keys, the other key of a conflict."""
    loaded = report.loaded
    if loaded is None:
        return []
    spans = []
    if finding.code == "DS003":
        spans += [d.first for d in loaded.duplicates if d.location == finding.location]
    spans += [loaded.locate(location) for location in finding.related]
    out = []
    for span in spans:
        where = lsp.Range(lsp_position(lines, span.line, span.col), lsp_position(lines, span.end_line, span.end_col))
        out.append(lsp.DiagnosticRelatedInformation(lsp.Location(uri, where), finding.code))
    return out
