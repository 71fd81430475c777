"""The ``dsref`` command line: a thin shell over the library."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from . import __version__
from .explain import UnknownOption, explain, render_json, render_text
from .options import option_tree
from .versions import DEEPSPEED_VERSION


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dsref", description="The DeepSpeed ds_config.json reference: explain and check every option."
    )
    parser.add_argument(
        "--version", action="version", version=f"dsref {__version__} (DeepSpeed {DEEPSPEED_VERSION} config schema)"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p_explain = sub.add_parser("explain", help="explain an option or a section")
    p_explain.add_argument("path", nargs="?", help="dotted option path, e.g. zero_optimization.stage")
    p_explain.add_argument("--recursive", "-r", action="store_true", help="show the whole subtree")
    p_explain.add_argument("--max-depth", type=int, default=None, help="with --recursive, how deep to go")
    p_explain.add_argument("--format", choices=("text", "json"), default="text")

    p_options = sub.add_parser("options", help="dump every option (the documented JSON interface)")
    p_options.add_argument("--format", choices=("json", "paths"), default="json")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "explain":
        try:
            exp = explain(args.path, recursive=args.recursive or args.max_depth is not None, max_depth=args.max_depth)
        except UnknownOption as exc:
            print(f"dsref: no option {exc.written!r}", file=sys.stderr)
            if exc.suggestions:
                print("did you mean: " + ", ".join(exc.suggestions), file=sys.stderr)
            return 2
        sys.stdout.write(render_json(exp) if args.format == "json" else render_text(exp))
        return 0
    if args.command == "options":
        tree = option_tree()
        if args.format == "paths":
            sys.stdout.write("".join(opt.path + "\n" for opt in tree))
        else:
            dump = {
                "dsref": __version__,
                "deepspeed": DEEPSPEED_VERSION,
                "options": [opt.to_json() for opt in tree],
            }
            sys.stdout.write(json.dumps(dump, ensure_ascii=False, indent=1) + "\n")
        return 0
    return 2  # pragma: no cover - argparse enforces a command
