"""``dsref check FILE...``: everything wrong with DeepSpeed config files, before the cluster launch.

Exit status: 0 no errors, 1 errors, 2 usage problem or a file that cannot be read (or, with ``--fix``, written, or
that changed while it was being fixed).
With ``--fix`` the status is that of what remains; with ``--diff``, 1 when there is something to fix.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import deque

from ..records import record
from ..tree.releases import OLDEST_COVERED
from ..tree.versions import DEEPSPEED_VERSION
from .lang import add_lang_option, language

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import BinaryIO

    from ..check.fix.writer import Started
    from ..check.pipeline import FileReport
    from ..check.read.loader import LoadError
    from ..check.report.target import Release
    from ..check.settings import CheckSettings
    from ..launch.model import Built
    from ..text.i18n import Lang


def split_launch_command(argv: list[str]) -> tuple[list[str], list[str] | None]:
    """``check CONFIG... -- LAUNCH COMMAND``: the arguments of dsref, and the launch command after ``--`` when one
    follows (a word that starts training: deepspeed, torchrun, accelerate launch, python); None otherwise, where a
    ``--`` only ends dsref's options (``dsref check -- -odd-name.json``)."""
    if "--" not in argv:
        return argv, None
    at = argv.index("--")
    before, after = argv[:at], argv[at + 1 :]
    from ..launch.shell import launcher

    named = [a for a in before[1:] if not a.startswith("-") or a == "-"]
    if not named or launcher(after) is None:
        return argv, None
    return before, after


def configure(parser: argparse.ArgumentParser) -> None:
    parser.usage = "%(prog)s [options] PATH [PATH ...] [-- LAUNCH COMMAND]"
    parser.add_argument("paths", nargs="+", metavar="PATH", help="config files, or directories to search for *.json")
    parser.add_argument(
        "--profile",
        choices=("deepspeed", "hf"),
        default=None,
        help="read the file as the deepspeed launcher does (Hjson) or as Hugging Face Trainer/Accelerate do (JSON, "
        '"auto" allowed where they fill it); default: Hugging Face\'s for a file that writes "auto" where they fill a '
        "value, the launcher's for any other",
    )
    parser.add_argument("--world-size", type=int, metavar="N", help="data-parallel GPUs, for the batch arithmetic")
    parser.add_argument(
        "--deepspeed-version",
        default=None,
        metavar="X.Y.Z",
        help=f"release to check for, {OLDEST_COVERED} to {DEEPSPEED_VERSION} (default: the installed one)",
    )
    parser.add_argument("--format", choices=("text", "json", "github"), default="text")
    parser.add_argument(
        "--show-effective",
        action="store_true",
        help="print the config as DeepSpeed will see it (with a launch: filled as Trainer fills it)",
    )
    parser.set_defaults(launch_command=None)
    parser.add_argument(
        "--jobs",
        "-j",
        type=int,
        metavar="N",
        help="processes for many files (default: one per CPU when there are enough files; 1: this process only)",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="report a cross-field rule that stops with an exception as a finding of its own (DS009), with the "
        "exception; without it the summary only counts such rules",
    )
    fixing = parser.add_argument_group("fixes")
    fixing.add_argument("--fix", action="store_true", help="repair what can be repaired safely, in place")
    fixing.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff: also the fixes that change what DeepSpeed does or guess what was meant",
    )
    fixing.add_argument("--diff", action="store_true", help="print the fixes as a unified diff; write nothing")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from .texts import CLI, say

    lang = language(args)
    if lang is None:
        return 2
    from ..check.report.target import UncoveredRelease, installed_deepspeed, installed_hugging_face, release_to_check

    try:
        release = release_to_check(args.deepspeed_version, installed_deepspeed())
    except UncoveredRelease as exc:
        say("dsref: " + exc.text(lang))
        return 2
    target = release.version
    hugging_face = installed_hugging_face()
    if args.world_size is not None and args.world_size < 1:
        say("dsref: " + CLI.text("at_least_one", lang, option="--world-size"))
        return 2
    if args.jobs is not None and args.jobs < 1:
        say("dsref: " + CLI.text("at_least_one", lang, option="--jobs"))
        return 2

    if "" in args.paths:
        say("dsref: " + CLI.text("empty_name", lang))
        return 2
    if args.paths.count("-") > 1:
        say("dsref: " + CLI.text("stdin_twice", lang))
        return 2
    from ..check.settings import CheckSettings

    settings = CheckSettings(args.profile, args.world_size, target, hugging_face, debug=args.debug)
    if args.fix or args.diff:
        return _fix(args, lang, release, settings)

    from ..check.read.loader import read_stdin

    paths = _expanded(args.paths, lang)
    if not paths:
        return 2
    stdin = read_stdin(_stdin()) if "-" in paths else None
    from ..launch.read import is_launch_file

    launches = [p for p in paths if p != "-" and is_launch_file(p)]
    configs = [p for p in paths if p not in launches]
    status = 0
    if args.launch_command is not None:
        with_command = _command_settings(args.launch_command, settings, lang)
        if with_command is None:
            return 2
        checked: list[tuple[list[str], CheckSettings]] = [(configs, with_command)] if configs else []
    else:
        checked = [(configs, settings)] if configs else []
    built: list[tuple[str, str, Built, CheckSettings]] = []
    for path in launches:
        with_launch = _launch_settings(path, settings, lang)
        if with_launch is None:
            status = 2
            continue
        if isinstance(with_launch, _Built):
            built.append((with_launch.built.path or path, with_launch.text, with_launch.built, with_launch.settings))
            continue
        if with_launch.refused:
            status = max(status, 1)
        checked.append((with_launch.files, with_launch.settings))
    if args.show_effective:
        shown = _show_effective(checked, stdin, built)
        return 2 if status == 2 else max(shown, status)
    from ..check.batch import check_and_draw
    from ..check.report.draw import CheckedFor, Writer
    from .explain import use_color

    color = use_color(sys.stdout) and args.format == "text"
    checked_for = CheckedFor(release, args.profile, len(paths), hugging_face)
    writer = Writer(sys.stdout, args.format, lang, target=target, checked_for=checked_for)
    for files, each in checked:
        jobs = args.jobs if each is settings else 1
        for piece in check_and_draw(files, args.format, lang, each, color=color, jobs=jobs, stdin=stdin):
            writer.write(piece)
    if built:
        from ..check.pipeline import check_built, display_path
        from ..check.report.draw import draw

        for path, text, config, each in built:
            report = check_built(text, path, config, each)
            report.path = display_path(path)
            writer.write(draw(report, args.format, lang, color=color, target=each.deepspeed_version))
    tally = writer.close()
    if tally.unreadable or status == 2:
        return 2
    return 0 if tally.ok and not status else 1


COMMAND_LINE = "<command>"
"""How a launch given after ``--`` is named in messages (its values are at line 1 of it)."""


def _command_settings(command: list[str], settings: CheckSettings, lang: Lang) -> CheckSettings | None:
    """The settings the configs before ``--`` are checked with: the launch command after it (its world size, its
    training arguments, Hugging Face's reading); None, said on standard error, when it is no launch."""
    import shlex

    from ..launch.model import LaunchError
    from ..launch.read import MESSAGES, with_files
    from ..launch.shell import read_shell
    from ..text.escape import visible
    from .texts import say

    try:
        launch = with_files(read_shell(shlex.join(command), COMMAND_LINE), settings.hugging_face.accelerate)
    except LaunchError as exc:
        args = {name: visible(str(value)) for name, value in exc.details.items()}
        say(f"dsref: {COMMAND_LINE}: " + MESSAGES.text(exc.reason, lang, **args))
        return None
    if launch.accelerate_default and launch.accelerate_config is not None:
        shown = visible(str(launch.accelerate_config.value), name=True)
        say(f"dsref: {COMMAND_LINE}: " + MESSAGES.text("accelerate_default_config", lang, path=shown))
    if launch.unknown:
        say(f"dsref: {COMMAND_LINE}: " + MESSAGES.text("unknown_value", lang, names=", ".join(launch.unknown)))
    return settings.launched_by(launch)


@record
class _Named:
    """A launch file's ds_config, with the settings it is checked with."""

    files: list[str]
    settings: CheckSettings
    refused: bool = False
    """The tool refuses the launch file itself (said on standard error)."""


@record
class _Built:
    """A ds_config a launch file builds, with the launch file's text its findings point into."""

    text: str
    built: Built
    settings: CheckSettings


def _launch_settings(path: str, settings: CheckSettings, lang: Lang) -> _Named | _Built | None:
    """The ds_config a launch file names or builds, and the settings it is checked with (the launch, the world size
    its launcher starts, Hugging Face's reading); None, said on standard error, when there is none to check."""
    from ..check.pipeline import display_path
    from ..check.read.loader import MAX_BYTES, LoadError, read_file
    from ..launch.opened import open_launch
    from ..launch.read import MESSAGES
    from ..text.escape import visible
    from .texts import say

    shown = visible(path, name=True)
    read = read_file(path)
    if isinstance(read, LoadError):
        say(f"dsref: {shown}: " + MESSAGES.text("unreadable", lang, reason=read.text(lang)))
        return None
    text = read.data[:MAX_BYTES].decode("utf-8", errors="replace")
    opened = open_launch(path, text, settings.hugging_face.accelerate)
    for said in opened.said:
        shown = visible(display_path(said.file) if said.file else path, name=True)
        where = shown if not said.line else f"{shown}:{said.line}:{said.col}" if said.col else f"{shown}:{said.line}"
        say(f"dsref: {where}: " + said.text(lang))
    if opened.launch is None:
        return None
    checked = settings.launched_by(opened.launch)
    if opened.built is not None:
        return _Built(opened.built.text or text, opened.built, checked)
    if opened.named is None:
        return None
    return _Named([opened.named], checked, opened.refused)


def _show_effective(
    checked: list[tuple[list[str], CheckSettings]],
    stdin: bytes | LoadError | None,
    built: list[tuple[str, str, Built, CheckSettings]],
) -> int:
    import json

    from ..check.pipeline import (
        FileReport,
        check_built,
        check_bytes,
        check_file,
        display_path,
        launched,
        load_error_finding,
    )
    from ..check.read.loader import LoadError
    from ..check.report.show_effective import effective_document
    from ..text.escape import json_visible

    reports = []
    documents = []
    for paths, settings in checked:
        for path in paths:
            if path == "-" and isinstance(stdin, LoadError):
                report = FileReport(path, None, stdin, [load_error_finding(stdin)])
            elif path == "-" and isinstance(stdin, bytes):
                report = check_bytes(stdin, path, settings)
            else:
                report = check_file(path, settings)
            report.path = display_path(path)
            reports.append(report)
            if report.loaded is None:
                continue
            document = effective_document(
                launched(report.loaded, settings),
                world_size=settings.world_size,
                deepspeed_version=settings.deepspeed_version,
                hugging_face=settings.hugging_face if report.loaded.profile == "hf" else None,
            )
            if settings.launch is not None:
                document["launch"] = display_path(settings.launch.path)
            documents.append({"file": report.path, **document})
    for path, text, config, settings in built:  # the ds_config an Accelerate config builds
        report = check_built(text, path, config, settings)
        report.path = display_path(path)
        reports.append(report)
        document = effective_document(
            launched(report.loaded, settings) if report.loaded is not None else config.config,
            world_size=settings.world_size,
            deepspeed_version=settings.deepspeed_version,
            hugging_face=settings.hugging_face,
        )
        launch = display_path(settings.launch.path) if settings.launch is not None else report.path
        documents.append({"file": report.path, "launch": launch, **document})
    text = json.dumps(documents if len(documents) != 1 else documents[0], ensure_ascii=False, indent=2)
    sys.stdout.write(json_visible(text))
    sys.stdout.write("\n")
    if any(r.error is not None for r in reports):
        return 2
    return 1 if any(not r.ok for r in reports) else 0


def _fix(args: argparse.Namespace, lang: Lang, release: Release, settings: CheckSettings) -> int:
    """``--fix`` / ``--diff``: each file fixed in turn (``-`` is standard input, fixed to standard output)."""
    from ..check.fix.fixer import (
        TEXTS,
        Original,
        counted,
        fix_text,
        more_fixes_follow,
        read_original,
        refusal_text,
        unified_diff,
    )
    from ..check.fix.writer import MAX_STARTED, FileChanged, FixWrites, remove_stale_temporaries
    from ..check.pipeline import FileReport, display_path
    from ..check.report.draw import CheckedFor, Piece, assemble, draw
    from ..text.escape import visible
    from .explain import use_color
    from .texts import say

    target = release.version
    if "-" in args.paths and len(args.paths) > 1:
        say("dsref: " + TEXTS.text("stdin_many", lang))
        return 2
    paths = ["-"] if args.paths == ["-"] else _expanded(args.paths, lang)
    if not paths:
        return 2
    # each file's report drawn as soon as it is settled, and only the drawing kept: thousands of reports, with their
    # configs and positions, would each full collection of the garbage collector walk them all
    out = sys.stderr if "-" in paths else sys.stdout
    color = use_color(out) and args.format == "text"
    pieces: list[Piece] = []
    fixed = changed = 0
    status = 0
    failing = False
    cleaned: set[str] = set()

    def keep(report: FileReport, more_fixes: bool = False) -> None:
        nonlocal status, failing
        if report.error is not None:
            status = 2
        failing = failing or not report.ok
        if not args.diff:
            pieces.append(draw(report, args.format, lang, color=color, target=target, more_fixes=more_fixes))

    def settle(entry: _Entry) -> None:
        """What one file's fix comes to, said and counted in the order the files were given."""
        nonlocal fixed, changed, status
        for line in entry.said:
            say(line)
        if entry.diff is not None:
            _write_diff(entry.diff)
        if entry.started is not None:
            try:
                writes.finish(entry.started)
            except FileChanged:
                say("dsref: " + TEXTS.text("changed", lang, path=visible(entry.shown, name=True)))
                keep(entry.before)
                status = 2
                return
            except OSError as exc:
                from ..text.oserror import os_reason

                reason = os_reason(exc, lang)
                say("dsref: " + TEXTS.text("not_written", lang, path=visible(entry.shown, name=True), reason=reason))
                keep(entry.before)
                status = 2
                return
        keep(entry.report, entry.more_fixes)
        if entry.fixed is not None:
            fixed += entry.fixed
            changed += 1

    with FixWrites() as writes:
        waiting: deque[_Entry] = deque()
        for path in paths:
            read = _read_stdin_text() if path == "-" else read_original(path)
            shown = "<stdin>" if path == "-" else display_path(path)
            lines: list[str] = []
            if isinstance(read, Original) and not args.diff:
                folder = os.path.dirname(read.snapshot.target)
                if folder not in cleaned:  # once in each folder written in: a killed run's leftovers, of any file
                    cleaned.add(folder)
                    removed = len(remove_stale_temporaries(folder))
                    if removed:
                        key = "stale_removed_one" if removed == 1 else "stale_removed"
                        where = visible(display_path(folder), name=True)
                        lines.append("dsref: " + TEXTS.text(key, lang, n=removed, folder=where))
            if isinstance(read, FileReport):
                read.path = shown
                status = 2
                waiting.append(_Entry(shown, lines, read, read))
            else:
                result = fix_text(
                    read.text if isinstance(read, Original) else read,
                    shown,
                    settings,
                    unsafe=args.unsafe_fixes,
                )
                result.before.path = result.after.path = shown
                for refused in result.refused:
                    lines.append("dsref: " + refusal_text(refused, visible(shown, name=True), lang))
                if path == "-" and not args.diff:
                    # the fixed file itself, where `- --fix > fixed.json` sends it: as it is
                    sys.stdout.write(result.text)
                entry = _Entry(shown, lines, result.after, result.before)
                if not args.diff:  # what remains listed (unsafe fixes, without --unsafe-fixes) may open the way to more
                    entry.more_fixes = more_fixes_follow(result.after, settings)
                if result.changed:  # else the same text; fixes --fix refused are no longer offered
                    entry.fixed = len(result.fixed)
                    if args.diff:
                        entry.diff = unified_diff(result.original, result.text, shown, patch=not _terminal(sys.stdout))
                    elif isinstance(read, Original):
                        entry.started = writes.start(read.snapshot, result.text)
                waiting.append(entry)
            while waiting and (len(waiting) > MAX_STARTED or waiting[0].ready):
                settle(waiting.popleft())
        while waiting:
            settle(waiting.popleft())
    if not args.diff:
        checked_for = CheckedFor(release, args.profile, len(paths), settings.hugging_face)
        shown_for = checked_for if args.format != "github" else None  # as render() leaves GitHub's commands bare
        out.write(assemble(pieces, args.format, lang, target=target, checked_for=shown_for))
    key = "would_fix" if args.diff else "fixed"
    said = TEXTS.text(key, lang, findings=counted("findings", fixed, lang), files=counted("files", changed, lang))
    print(visible(said), file=sys.stderr if args.diff or args.format != "text" or "-" in paths else sys.stdout)
    if status:
        return status
    if args.diff:
        return 1 if changed else 0
    return 1 if failing else 0


@record(frozen=False)
class _Entry:
    """One file of ``--fix``/``--diff``, waiting for its turn: what to say, the diff to print, the write to finish,
    the report then (``before`` where the write failed), and how many findings it fixed (None: nothing changed)."""

    shown: str
    said: list[str]
    report: FileReport
    before: FileReport
    diff: str | None = None
    started: Started | None = None
    fixed: int | None = None
    more_fixes: bool = False
    """Making the fixes :attr:`report` still lists makes others possible."""

    @property
    def ready(self) -> bool:
        return self.started is None or self.started.ready


def _expanded(paths: list[str], lang: Lang) -> list[str]:
    """The files to check for the paths given (those in a directory that look like DeepSpeed configs), having said
    on standard error how many others a directory held; none, said, when there is none."""
    from ..check.pipeline import expand
    from .texts import CLI, say

    expanded = expand(paths)
    if expanded.skipped:
        n = len(expanded.skipped)
        say("dsref: " + CLI.text("skipped_one" if n == 1 else "skipped", lang, n=n))
    if not expanded.files:
        say("dsref: " + CLI.text("no_config" if expanded.skipped else "no_json", lang, paths=_names(paths)))
    return list(expanded.files)


def _names(paths: list[str]) -> str:
    """The paths the user gave, as a message quotes them."""
    from ..text.escape import visible

    return ", ".join(visible(path, name=True) for path in paths)


def _terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def _write_diff(diff: str) -> None:
    """The diff on standard output: shown escaped on a terminal; elsewhere (a pipe, a file) the patch itself, its
    bytes those of the file (UTF-8, and a file name's bytes that are not UTF-8 as they are on disk), whatever
    encoding standard output has."""
    out = getattr(sys.stdout, "buffer", None)
    if out is None or _terminal(sys.stdout):
        sys.stdout.write(diff)
        return
    sys.stdout.flush()
    out.write(diff.encode("utf-8", "surrogateescape"))
    out.flush()


def _stdin() -> BinaryIO | None:
    """Standard input's bytes, or None where it is closed (Python then has no ``sys.stdin``)."""
    return getattr(sys.stdin, "buffer", None) if sys.stdin is not None else None


def _read_stdin_text() -> str | FileReport:
    """Standard input's text, for ``check - --fix``, or the report of why it cannot be read."""
    from ..check.fix.fixer import read_text
    from ..check.pipeline import FileReport, load_error_finding
    from ..check.read.loader import LoadError, read_stdin

    data = read_stdin(_stdin())
    if isinstance(data, LoadError):
        return FileReport("-", None, data, [load_error_finding(data)])
    return read_text("-", data)
