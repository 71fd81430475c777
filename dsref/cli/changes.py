"""``dsref changes --from X --to Y``: what changed in the config between two DeepSpeed releases, each change under
the first release that made it (options read or no longer read, defaults, values refused or taken, cross-field
checks), as recorded from the releases themselves: what a user upgrading a config written for X must know."""

from __future__ import annotations

import argparse

from .lang import add_lang_option, language


def configure(parser: argparse.ArgumentParser) -> None:
    from ..tree.versions import DEEPSPEED_VERSION

    parser.add_argument(
        "--from", dest="start", required=True, metavar="X", help="the release the config was written for"
    )
    parser.add_argument(
        "--to",
        dest="end",
        default=DEEPSPEED_VERSION,
        metavar="Y",
        help=f"the release to upgrade to ({DEEPSPEED_VERSION})",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..check.report.target import UncoveredRelease, release_to_check
    from ..site.changes import M, report
    from ..tree.changes import changes_between
    from ..tree.versions import parse_version
    from .texts import say

    lang = language(args)
    if lang is None:
        return 2
    try:
        start, end = (release_to_check(given, None).version for given in (args.start, args.end))
    except UncoveredRelease as exc:
        say("dsref: " + exc.text(lang))
        return 2
    if parse_version(start) >= parse_version(end):
        say("dsref: " + M.text("order", lang, start=start, end=end))
        return 2
    if args.format == "json":
        import json

        found = [
            {"release": c.release, "previous": c.previous, "what": c.what.value, "path": c.path}
            | ({"before": c.before, "after": c.after} if c.what.value == "default" else {})
            for c in changes_between(start, end)
        ]
        print(json.dumps({"from": start, "to": end, "changes": found}, indent=1, ensure_ascii=False))
        return 0
    print("\n".join(report(start, end, lang)))
    return 0
