"""``dsref options``: every option as JSON records (the documented dump) or as paths."""

from __future__ import annotations

import argparse
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("json", "paths"), default="json")
    parser.add_argument(
        "--deepspeed-version",
        default=None,
        metavar="X.Y.Z",
        help="add to each option how this release reads it (whether at all, and its default there)",
    )


def run(args: argparse.Namespace) -> int:
    from ..tree.index import OptionIndex

    index = OptionIndex.load()
    if args.format == "paths":
        sys.stdout.write("".join(path + "\n" for path in index.paths()))
        return 0
    records = [record.to_json() for record in index]
    document = {"dsref": index.dsref, "deepspeed": index.deepspeed, "options": records}
    if args.deepspeed_version is not None:
        from ..tree.releases import in_release
        from ..tree.versions import parse_version

        try:
            release = ".".join(map(str, parse_version(args.deepspeed_version)))
        except ValueError:
            from ..text.escape import visible
            from ..text.language import UnknownLanguage, resolve_language
            from .texts import CLI, say

            try:
                lang = resolve_language(None)  # the environment's: `options` takes no --lang
            except UnknownLanguage:
                lang = "en"
            say("dsref: " + CLI.text("bad_version", lang, value=visible(args.deepspeed_version, name=True)))
            return 2
        document["release"] = release
        for record, data in zip(index, records, strict=True):
            compared = record.validated_by_deepspeed or record.unknown_keys == "reject"
            default = record.default if record.has_default else None
            data["in_release"] = in_release(
                release, record.path, record.since, record.removed_in, default, compared=compared
            )
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=1) + "\n")
    return 0
