"""``dsref options``: every option as JSON records (the documented dump) or as paths."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("json", "paths"), default="json")


def run(args: argparse.Namespace) -> int:
    from ..tree.index import OptionIndex

    index = OptionIndex.load()
    if args.format == "paths":
        sys.stdout.write("".join(path + "\n" for path in index.paths()))
        return 0
    document = {"dsref": index.dsref, "deepspeed": index.deepspeed, "options": [record.to_json() for record in index]}
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return 0
