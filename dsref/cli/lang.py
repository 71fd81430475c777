"""One module per ``dsref`` subcommand: ``configure(parser)`` and ``run(args) -> int``.

Keep module-level imports light; import what the command needs inside ``run``. The ``--lang`` option every
command takes is added and read here, the same way for all.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

    from ..text.language import Lang


def add_lang_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default=None, help="en or zh (default: from LC_ALL, LC_MESSAGES, LANG)")


def language(args: argparse.Namespace) -> Lang | None:
    """The language chosen by ``--lang`` or the environment; None (after a one-line error) for an unknown one."""
    from ..text.language import UnknownLanguage, resolve_language

    try:
        return resolve_language(args.lang)
    except UnknownLanguage:
        from ..text.escape import visible
        from .texts import CLI, say

        # said in the environment's language, the one asked for being unknown
        say("dsref: " + CLI.text("unknown_language", environment_language(), value=visible(args.lang, name=True)))
        return None


def environment_language() -> Lang:
    from ..text.language import UnknownLanguage, resolve_language

    try:
        return resolve_language(None)
    except UnknownLanguage:
        return "en"
