"""``dsref explain [PATH]``: an option or a section, in the terminal."""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", help="dotted option path, e.g. zero_optimization.stage")
    parser.add_argument("--recursive", "-r", action="store_true", help="show the whole subtree")
    parser.add_argument("--max-depth", type=int, default=None, help="with --recursive, how deep to go")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    from ..explain import UnknownOption, explain, render_json, render_text

    try:
        exp = explain(args.path, recursive=args.recursive or args.max_depth is not None, max_depth=args.max_depth)
    except UnknownOption as exc:
        print(f"dsref: no option {exc.written!r}", file=sys.stderr)
        if exc.suggestions:
            print("did you mean: " + ", ".join(exc.suggestions), file=sys.stderr)
        return 2
    sys.stdout.write(render_json(exp) if args.format == "json" else render_text(exp))
    return 0
