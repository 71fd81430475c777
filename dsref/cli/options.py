"""``dsref options``: every option as JSON records (the documented dump) or as paths."""

from __future__ import annotations

import argparse
import json
import sys

from .lang import add_lang_option, language

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..text.i18n import Lang


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--format", choices=("json", "paths"), default="json")
    parser.add_argument(
        "--deepspeed-version",
        default=None,
        metavar="X.Y.Z",
        help="add to each option how this release reads it (whether at all, and its default there)",
    )
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
        records = [record.to_json() for record in index]
    else:  # asked for a language: each record also carries its texts in it
        document["lang"] = lang
        records = [dict(record.to_json(), text=option_texts(record, lang)) for record in index]
    document["options"] = records
    if args.deepspeed_version is not None:
        from ..check.report.target import UncoveredRelease, release_to_check
        from ..tree.releases import in_release
        from .texts import say

        try:
            release = release_to_check(args.deepspeed_version, None).version
        except UncoveredRelease as exc:
            say("dsref: " + exc.text(lang or _environment_language()))
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


def _environment_language() -> Lang:
    from ..text.language import UnknownLanguage, resolve_language

    try:
        return resolve_language(None)
    except UnknownLanguage:
        return "en"
