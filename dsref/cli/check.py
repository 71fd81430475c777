"""``dsref check FILE...``: everything wrong with DeepSpeed config files, before the cluster launch.

Exit status: 0 no errors, 1 errors, 2 usage problem or a file that cannot be read (or, with ``--fix``, written, or
that changed while it was being fixed).
With ``--fix`` the status is that of what remains; with ``--diff``, 1 when there is something to fix.
"""

from __future__ import annotations

import argparse
import sys

from ..records import record
from ..tree.releases import OLDEST_COVERED
from ..tree.versions import DEEPSPEED_VERSION
from .lang import add_lang_option, language

TYPE_CHECKING = False
if TYPE_CHECKING:
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

    from ..check.pipeline import expand_paths
    from ..check.read.loader import MAX_BYTES

    paths = list(expand_paths(args.paths))
    if not paths:
        say("dsref: " + CLI.text("no_json", lang, paths=_names(args.paths)))
        return 2
    stdin = sys.stdin.buffer.read(MAX_BYTES + 1) if "-" in paths and sys.stdin is not None else None
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
            built.append((path, with_launch.text, with_launch.built, with_launch.settings))
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
    from dataclasses import replace

    from ..launch.model import LaunchError
    from ..launch.read import MESSAGES, with_files
    from ..launch.shell import read_shell
    from ..text.escape import visible
    from .texts import say

    try:
        launch = with_files(read_shell(shlex.join(command), COMMAND_LINE))
    except LaunchError as exc:
        args = {name: visible(str(value)) for name, value in exc.details.items()}
        say(f"dsref: {COMMAND_LINE}: " + MESSAGES.text(exc.reason, lang, **args))
        return None
    if launch.unknown:
        say(f"dsref: {COMMAND_LINE}: " + MESSAGES.text("unknown_value", lang, names=", ".join(launch.unknown)))
    world_size = settings.world_size if settings.world_size is not None else launch.world_size
    return replace(settings, launch=launch, world_size=world_size, profile=settings.profile or "hf")


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
    from dataclasses import replace

    from ..check.read.loader import MAX_BYTES, LoadError, read_file
    from ..launch.model import LaunchError
    from ..launch.read import MESSAGES, candidates, read_launch
    from ..text.escape import visible
    from .texts import say

    shown = visible(path, name=True)
    read = read_file(path)
    if isinstance(read, LoadError):
        say(f"dsref: {shown}: " + MESSAGES.text("unreadable", lang, reason=read.text(lang)))
        return None
    try:
        launch = read_launch(path, read.data[:MAX_BYTES].decode("utf-8", errors="replace"))
    except LaunchError as exc:
        where = f"{shown}:{exc.line}" if exc.line else shown
        args = {name: visible(str(value)) for name, value in exc.details.items()}
        say(f"dsref: {where}: " + MESSAGES.text(exc.reason, lang, **args))
        return None
    world_size = settings.world_size if settings.world_size is not None else launch.world_size
    checked = replace(settings, launch=launch, world_size=world_size, profile=settings.profile or "hf")
    refused = False
    if launch.built is not None:
        from ..launch.accelerate import ACCELERATE_KEYS

        for key in launch.built.ignored:
            known = ", ".join(k for k in ACCELERATE_KEYS)
            text = MESSAGES.text("accelerate_ignored", lang, key=visible(str(key.value)), known=known)
            say(f"dsref: {shown}:{key.line}:{key.col}: " + text)
        for key in launch.built.refused:
            refused = True
            text = MESSAGES.text("accelerate_refused", lang, key=visible(str(key.value)))
            say(f"dsref: {shown}:{key.line}:{key.col}: " + text)
        if launch.built.config is not None:
            return _Built(read.data[:MAX_BYTES].decode("utf-8", errors="replace"), launch.built, checked)
    if launch.ds_config is None:
        say(f"dsref: {shown}: " + MESSAGES.text("no_ds_config", lang))
        return None
    if launch.ds_config_path is None:
        written = str(launch.ds_config.value)
        tried = ", ".join(visible(p, name=True) for p in candidates(written, path))
        where = f"{shown}:{launch.ds_config.line}:{launch.ds_config.col}"
        say(f"dsref: {where}: " + MESSAGES.text("ds_config_missing", lang, written=visible(written), tried=tried))
        return None
    if launch.unknown:
        say(f"dsref: {shown}: " + MESSAGES.text("unknown_value", lang, names=", ".join(launch.unknown)))
    return _Named([launch.ds_config_path], checked, refused)


def _show_effective(
    checked: list[tuple[list[str], CheckSettings]],
    stdin: bytes | None,
    built: list[tuple[str, str, Built, CheckSettings]],
) -> int:
    import json

    from ..check.pipeline import check_built, check_bytes, check_file, display_path, launched
    from ..check.report.show_effective import effective_document
    from ..text.escape import json_visible

    reports = []
    documents = []
    for paths, settings in checked:
        for path in paths:
            if path == "-" and stdin is not None:
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
            )
            if settings.launch is not None:
                document["launch"] = display_path(settings.launch.path)
            documents.append({"file": report.path, **document})
    for path, text, config, settings in built:  # the ds_config an Accelerate config builds
        report = check_built(text, path, config, settings)
        report.path = display_path(path)
        reports.append(report)
        document = effective_document(
            config.config, world_size=settings.world_size, deepspeed_version=settings.deepspeed_version
        )
        documents.append({"file": report.path, "launch": report.path, **document})
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
        read_original,
        read_text,
        refusal_text,
        unified_diff,
    )
    from ..check.fix.writer import FileChanged, write_fixed
    from ..check.pipeline import FileReport, display_path, expand_paths
    from ..check.read.loader import MAX_BYTES
    from ..check.report.draw import CheckedFor, render
    from ..text.escape import visible
    from .explain import use_color
    from .texts import CLI, say

    target = release.version
    if "-" in args.paths and len(args.paths) > 1:
        say("dsref: " + TEXTS.text("stdin_many", lang))
        return 2
    paths = ["-"] if args.paths == ["-"] else list(expand_paths(args.paths))
    if not paths:
        say("dsref: " + CLI.text("no_json", lang, paths=_names(args.paths)))
        return 2
    reports: list[FileReport] = []
    fixed = changed = 0
    status = 0
    for path in paths:
        read = read_text(path, sys.stdin.buffer.read(MAX_BYTES + 1)) if path == "-" else read_original(path)
        shown = "<stdin>" if path == "-" else display_path(path)
        if isinstance(read, FileReport):
            read.path = shown
            reports.append(read)
            status = 2
            continue
        result = fix_text(
            read.text if isinstance(read, Original) else read,
            shown,
            settings,
            unsafe=args.unsafe_fixes,
        )
        result.before.path = result.after.path = shown
        for refused in result.refused:
            say("dsref: " + refusal_text(refused, visible(shown, name=True), lang))
        if path == "-" and not args.diff:
            sys.stdout.write(result.text)  # the fixed file itself, where `- --fix > fixed.json` sends it: as it is
        if not result.changed:
            reports.append(result.after)  # the same text; fixes --fix refused are no longer offered
            continue
        if args.diff:
            sys.stdout.write(unified_diff(result.original, result.text, shown))
        elif isinstance(read, Original):
            try:
                write_fixed(read.snapshot, result.text)
            except FileChanged:
                say("dsref: " + TEXTS.text("changed", lang, path=visible(shown, name=True)))
                reports.append(result.before)
                status = 2
                continue
            except OSError as exc:
                from ..text.oserror import os_reason

                reason = os_reason(exc, lang)
                say("dsref: " + TEXTS.text("not_written", lang, path=visible(shown, name=True), reason=reason))
                reports.append(result.before)
                status = 2
                continue
        reports.append(result.after)
        fixed += len(result.fixed)
        changed += 1
    if reports and any(r.error is not None for r in reports):
        status = 2
    if not args.diff:
        out = sys.stderr if "-" in paths else sys.stdout
        color = use_color(out) and args.format == "text"
        checked_for = CheckedFor(release, args.profile, len(reports), settings.hugging_face)
        out.write(render(reports, args.format, lang, color=color, target=target, checked_for=checked_for))
    key = "would_fix" if args.diff else "fixed"
    said = TEXTS.text(key, lang, findings=counted("findings", fixed, lang), files=counted("files", changed, lang))
    print(visible(said), file=sys.stderr if args.diff or args.format != "text" or "-" in paths else sys.stdout)
    if status:
        return status
    if args.diff:
        return 1 if changed else 0
    return 1 if any(not r.ok for r in reports) else 0


def _names(paths: list[str]) -> str:
    """The paths the user gave, as a message quotes them."""
    from ..text.escape import visible

    return ", ".join(visible(path, name=True) for path in paths)
