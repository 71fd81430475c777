"""``dsref schema``: the editor JSON Schema (draft-07) of ds_config.json, for VS Code, JetBrains, Neovim, ...

dsref schema > ds_config.schema.json                # English, what DeepSpeed itself accepts
dsref schema --profile hf --lang zh -o schema.json  # Chinese texts; "auto" where Hugging Face fills it
"""

from __future__ import annotations

import argparse
import sys

from ..text.i18n import messages
from .lang import add_lang_option, language

CLI = messages(
    "commands.schema",
    cannot_write="dsref schema: cannot write {path}: {reason}",
)


def configure(parser: argparse.ArgumentParser) -> None:
    add_lang_option(parser)
    parser.add_argument(
        "--profile",
        choices=("deepspeed", "hf"),
        default="deepspeed",
        help='deepspeed: what DeepSpeed accepts; hf: also "auto" where Hugging Face fills it (default deepspeed)',
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write the schema to FILE instead of stdout")


def run(args: argparse.Namespace) -> int:

    lang = language(args)
    if lang is None:
        return 2
    from ..editor.jsonschema import build_schema, render

    text = render(build_schema(lang, args.profile))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.output, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        from ..text.escape import visible
        from .texts import say

        say(CLI.text("cannot_write", lang, path=visible(args.output, name=True), reason=exc.strerror or exc))
        return 1
    return 0
