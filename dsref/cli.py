"""The ``dsref`` command line: a thin shell over the library.

Each subcommand lives in its own module under :mod:`dsref.commands`, exposing
``configure(parser)`` (cheap: no heavy imports) and ``run(args) -> int``. The
module is imported only when its command runs, so ``dsref explain`` never pays
for what ``dsref check`` needs.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from . import __version__
from .versions import DEEPSPEED_VERSION

COMMANDS: dict[str, tuple[str, str]] = {
    "explain": ("dsref.commands.explain", "explain an option or a section"),
    "options": ("dsref.commands.options", "dump every option (the documented JSON interface)"),
    "completion": ("dsref.commands.completion", "print a shell completion script (bash or zsh)"),
}
"""Command name → (module, one-line help). Add a command by adding a module and a line here."""


def _parser() -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    parser = argparse.ArgumentParser(
        prog="dsref", description="The DeepSpeed ds_config.json reference: explain and check every option."
    )
    parser.add_argument(
        "--version", action="version", version=f"dsref {__version__} (DeepSpeed {DEEPSPEED_VERSION} config schema)"
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    modules: dict[str, ModuleType] = {}
    for name, (module_name, help_text) in COMMANDS.items():
        module = importlib.import_module(module_name)
        modules[name] = module
        module.configure(sub.add_parser(name, help=help_text, description=help_text))
    return parser, modules


def main(argv: Sequence[str] | None = None) -> int:
    parser, modules = _parser()
    args = parser.parse_args(argv)
    try:
        return int(modules[args.command].run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
