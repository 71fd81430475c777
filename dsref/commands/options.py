"""``dsref options``: every option as JSON records (the documented dump) or as paths."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("json", "paths"), default="json")


def run(args: argparse.Namespace) -> int:
    from .. import __version__
    from ..options import option_tree
    from ..versions import DEEPSPEED_VERSION

    tree = option_tree()
    if args.format == "paths":
        sys.stdout.write("".join(opt.path + "\n" for opt in tree))
        return 0
    dump = {"dsref": __version__, "deepspeed": DEEPSPEED_VERSION, "options": [opt.to_json() for opt in tree]}
    sys.stdout.write(json.dumps(dump, ensure_ascii=False, indent=1) + "\n")
    return 0
