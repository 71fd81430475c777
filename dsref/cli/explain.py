"""``dsref explain [PATH]``: an option or a section, in the terminal, in English or Chinese."""

from __future__ import annotations

import os
import sys

from .lang import add_lang_option, language

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ..text.language import Lang


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", help="dotted option path, e.g. zero_optimization.stage (any spelling)")
    parser.add_argument("--recursive", "-r", action="store_true", help="list the whole subtree of a section")
    parser.add_argument("--max-depth", type=int, default=None, metavar="N", help="with --recursive: how deep")
    parser.add_argument("--search", "-s", metavar="WORDS", help="list options whose name or text has these words")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--deepspeed-version", default=None, metavar="X.Y.Z", help="also say how this release reads the option"
    )
    add_lang_option(parser)


def use_color(stream: object) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set or TERM is dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def run(args: argparse.Namespace) -> int:
    lang = language(args)
    if lang is None:
        return 2
    if args.deepspeed_version is not None:
        from ..check.report.target import UncoveredRelease, release_to_check

        try:
            release_to_check(args.deepspeed_version, None)
        except UncoveredRelease as exc:
            from .texts import say

            say("dsref: " + exc.text(lang))
            return 2
    quick = args.deepspeed_version is None and args.format == "text" and not args.recursive
    if args.path and quick and args.max_depth is None and args.search is None:
        from ..explain.pages import prerendered, without_color

        text = prerendered(args.path, lang)
        if text is not None:
            sys.stdout.write(text if use_color(sys.stdout) else without_color(text))
            return 0
    return _run(args, lang)


def _run(args: argparse.Namespace, lang: Lang) -> int:
    from ..explain.render import ExplainError, M, explain, render_json, render_text
    from ..tree.links import option_url

    if args.max_depth is not None and args.max_depth < 1:
        from .texts import CLI, say

        say("dsref: " + CLI.text("at_least_one", lang, option="--max-depth"))
        return 2
    if args.search is not None:
        from ..explain.search import search  # the glossary it reads imports re: only searches pay for it

        found = search(args.search, lang)
        if not found:
            from ..text.escape import visible
            from .texts import say

            said = M.text("no_matches", lang, words=visible(args.search, name=True))
            say("dsref: " + said)
            if args.format == "json":
                _json_error("no_matches", said, [])
            return 1
        if args.format == "json":
            import json

            from ..text.escape import json_visible

            sys.stdout.write(json_visible(json.dumps([e.path for e in found], ensure_ascii=False, indent=2)) + "\n")
        else:
            from ..text.facts import shown_summary

            width = max(len(e.path) for e in found) + 2
            sys.stdout.write("".join(f"{e.path.ljust(width)}{shown_summary(e, lang)}\n" for e in found))
        return 0
    try:
        exp = explain(
            args.path, recursive=args.recursive or args.max_depth is not None, max_depth=args.max_depth, lang=lang
        )
    except ExplainError as exc:
        from .texts import say

        say(f"dsref: {exc.message}")
        if exc.suggestions:
            say(M.text("did_you_mean", lang, paths=", ".join(exc.suggestions)))
        if args.format == "json":
            _json_error("no_option", exc.message, list(exc.suggestions))
        return 2
    link = option_url(exp.record.path, lang) if exp.record is not None else None
    if args.format == "json":
        release = None
        if args.deepspeed_version is not None:
            from ..tree.versions import parse_version

            release = ".".join(map(str, parse_version(args.deepspeed_version)))  # as dsref writes it, checked above
        sys.stdout.write(render_json(exp, lang, link=link, release=release))
    else:
        release = None
        if args.deepspeed_version is not None:
            from ..tree.versions import parse_version

            release = ".".join(map(str, parse_version(args.deepspeed_version)))  # as dsref writes it, checked above
        sys.stdout.write(render_text(exp, lang, color=use_color(sys.stdout), link=link, release=release))
        if release is not None and exp.record is not None:
            from ..explain.release import release_note
            from ..text.escape import visible

            note = release_note(exp.record, release, lang)
            if note is not None:
                sys.stdout.write(visible(f"\n{note}\n", lines=True))
    return 0


def _json_error(code: str, message: str, suggestions: list[str]) -> None:
    """With ``--format json``, a failure is a JSON object on standard output too, so that a program reading the
    output gets an answer it can parse: ``{"error": {"code": ..., "message": ..., "suggestions": [...]}}``."""
    import json

    from ..text.escape import json_visible

    error = {"error": {"code": code, "message": message, "suggestions": suggestions}}
    sys.stdout.write(json_visible(json.dumps(error, ensure_ascii=False, indent=2)) + "\n")
