"""``dsref options``: every option as JSON records (the documented dump) or as paths."""

from __future__ import annotations

import argparse
import json
import sys

from .lang import add_lang_option, language


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("json", "paths"), default="json")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..text.facts import option_texts
    from ..tree.index import OptionIndex

    lang = language(args) if args.lang is not None else None
    if args.lang is not None and lang is None:
        return 2
    index = OptionIndex.load()
    if args.format == "paths":
        sys.stdout.write("".join(path + "\n" for path in index.paths()))
        return 0
    document: dict[str, object] = {"dsref": index.dsref, "deepspeed": index.deepspeed}
    if lang is None:  # the documented dump, the same whatever the environment's language
        document["options"] = [record.to_json() for record in index]
    else:  # asked for a language: each record also carries its texts in it
        document["lang"] = lang
        document["options"] = [dict(record.to_json(), text=option_texts(record, lang)) for record in index]
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return 0
