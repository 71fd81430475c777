"""The ``dsref`` command line: a thin shell over the library.

Each subcommand lives in its own module of :mod:`dsref.cli`, exposing
``configure(parser)`` (cheap: no heavy imports) and ``run(args) -> int``. Only
the module of the command being run is imported, so ``dsref explain`` never pays
for what ``dsref check`` needs.

The everyday ``dsref explain PATH`` is read without argparse (see
:func:`quick_explain_args`): importing argparse costs more than the rest of the
command, and ``explain`` is meant to start as fast as the interpreter itself.
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import NoReturn

    from ..text.language import Lang

COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("dsref.cli.explain", "explain an option or a section"),
    "check": ("dsref.cli.check", "check config files against DeepSpeed 0.19.8"),
    "rule": ("dsref.cli.rule", "explain a finding code"),
    "changes": ("dsref.cli.changes", "what changed in the config from one DeepSpeed release to another"),
    "options": ("dsref.cli.options", "dump every option (the documented JSON interface)"),
    "estimate": ("dsref.cli.estimate", "GPU memory: model states per ZeRO stage, the peak of a run, what fits"),
    "completion": ("dsref.cli.completion", "print a shell completion script (bash or zsh)"),
    "schema": ("dsref.cli.schema", "the JSON Schema of ds_config.json for editors"),
    "server": ("dsref.cli.server", "the language server for editors (LSP over stdio)"),
}
"""Command name → (module, one-line help). Add a command by adding a module and a line here."""


def _parser(wanted: str | None, argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    import argparse

    from ..tree.versions import DEEPSPEED_VERSION, DSREF_VERSION

    class Parser(argparse.ArgumentParser):
        """argparse, saying what to do about a file name that it took for an option."""

        def error(self, message: str) -> NoReturn:
            import os

            from ..text.escape import visible

            dashed = [a for a in argv if a.startswith("-") and a != "-" and os.path.lexists(a)]
            if dashed:
                self.print_usage(sys.stderr)
                _say("dash_name", _lang_in(argv), name=visible(dashed[0], name=True))
                self.exit(2)
            super().error(visible(message, name=True))  # argparse quotes the arguments it could not read

    parser = Parser(prog="dsref", description="The DeepSpeed ds_config.json reference: explain and check every option.")
    parser.add_argument(
        "--version", action="version", version=f"dsref {DSREF_VERSION} (DeepSpeed {DEEPSPEED_VERSION} config schema)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        if wanted is None or name == wanted:  # other commands' options are only needed for --help
            importlib.import_module(module_name).configure(command)
    return parser


_EXPLAIN_VALUES = {
    "--lang": "lang",
    "--format": "format",
    "--max-depth": "max_depth",
    "--deepspeed-version": "deepspeed_version",
}


def quick_explain_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """What argparse makes of ``explain [PATH] [--lang L] [--format text|json] [-r] [--max-depth N]
    [--deepspeed-version X]``, read
    directly; None for any other command line (help, search, a mistake, an abbreviated option), which goes through
    argparse. ``tests/functional/test_cli.py`` checks that both readings agree on every command line this one
    accepts."""
    from types import SimpleNamespace

    if not argv or argv[0] != "explain":
        return None
    found: dict[str, object] = {"command": "explain", "path": None, "recursive": False, "max_depth": None}
    found.update(search=None, format="text", lang=None, deepspeed_version=None)
    positional = False
    rest = list(argv[1:])
    while rest:
        token = rest.pop(0)
        if token in ("-r", "--recursive"):
            found["recursive"] = True
            continue
        if not token.startswith("-") or token == "-":
            if positional:
                return None
            found["path"], positional = token, True
            continue
        option, equals, value = token.partition("=")
        if option not in _EXPLAIN_VALUES:
            return None
        if not equals:
            if not rest or rest[0].startswith("-"):
                return None
            value = rest.pop(0)
        if option == "--format" and value not in ("text", "json"):
            return None
        if option == "--max-depth":
            try:
                found["max_depth"] = int(value)
            except ValueError:
                return None
        else:
            found[_EXPLAIN_VALUES[option]] = value
    return SimpleNamespace(**found)  # type: ignore[return-value]


def main(argv: Sequence[str] | None = None) -> int:
    if sys.stdout is None:  # started with stdout closed (`>&-`)
        _say("stdout_closed")
        return 2
    # What cannot be encoded for this terminal (PYTHONIOENCODING=ascii, a lone surrogate from a file name) is
    # printed as a backslash escape rather than stopping the command halfway.
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = quick_explain_args(args_list)
    if args is None:
        first = next((a for a in args_list if not a.startswith("-")), None)
        command = None
        if first == "check":  # `check CONFIG -- LAUNCH COMMAND`: the command is not dsref's to parse
            from .check import split_launch_command

            args_list, command = split_launch_command(args_list)
        args = _parser(first if first in COMMANDS else None, args_list).parse_args(args_list)
        if command is not None:
            args.launch_command = command
    try:
        status = int(importlib.import_module(COMMANDS[args.command][0]).run(args))
        if not sys.stdout.closed:  # the language server closes it on exit
            sys.stdout.flush()
        return status
    except ModuleNotFoundError as exc:
        # A broken installation (a dependency missing from this Python), not a bug to show as a traceback.
        from .texts import say

        say(
            f"dsref: the package {exc.name!r} is missing from this Python ({sys.executable}); "
            "reinstall dsref with its dependencies: python -m pip install dsref"
        )
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _discard_output()
        sys.stderr.close()
        return 0
    except OSError as exc:  # writing the answer failed: a full disk, a quota, an I/O error
        _discard_output()
        from ..text.oserror import os_reason

        lang = _chosen(getattr(args, "lang", None))
        _say("output_failed", lang, reason=os_reason(exc, lang))
        return 2


def _discard_output() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of what could not be
    written neither fails again nor prints a traceback of its own."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _lang_in(argv: Sequence[str]) -> str | None:
    """The value of ``--lang`` on a command line argparse could not read."""
    for i, token in enumerate(argv):
        if token.startswith("--lang="):
            return token.partition("=")[2]
        if token == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _say(key: str, lang: str | None = None, **args: object) -> None:
    """One line on standard error, in the user's language (``--lang`` when it was read, else the environment's)."""
    from .texts import CLI, say

    say("dsref: " + CLI.text(key, _chosen(lang), **args))


def _chosen(lang: str | None) -> Lang:
    """``--lang`` when it names a language, else the environment's."""
    from ..text.language import UnknownLanguage, resolve_language

    try:
        return resolve_language(lang)
    except UnknownLanguage:
        return resolve_language(None)
