"""What the command line itself says when it cannot start or finish a command (both languages, like every text),
and :func:`say`, the one way a message of the command line reaches standard error."""

from __future__ import annotations

import sys

from ..text.escape import visible
from ..text.i18n import messages

CLI = messages(
    "cli",
    stdout_closed="standard output is closed, so there is nowhere to print the answer",
    output_failed="cannot write the output: {reason}",
    dash_name=(
        "'{name}' starts with '-', so it was read as an option; to check a file of that name, put '--' before it: "
        "dsref check -- {name}"
    ),
    empty_name="an empty file name was given; give the path of a config file, or '-' to read standard input",
    no_json="no *.json files found in {paths}",
    no_config="no DeepSpeed config found in {paths}",
    skipped="skipped {n} *.json files that do not look like DeepSpeed configs (by their name, ds_config*.json, "
    "*deepspeed*.json or zero*.json, or two of the keys every config has); name a file to check it anyway",
    skipped_one="skipped 1 *.json file that does not look like a DeepSpeed config (by its name, ds_config*.json, "
    "*deepspeed*.json or zero*.json, or two of the keys every config has); name it to check it anyway",
    stdin_twice="'-' (standard input) can be given only once",
    at_least_one="{option} must be 1 or more",
    unknown_language="unknown language '{value}'; use --lang en or --lang zh",
    no_rule="no rule '{value}'; `dsref rule` lists them",
    stdio_or_tcp="--stdio and --tcp exclude each other",
    bad_port="--port takes a number from 1 to 65535",
    server_extra=(
        "the language server needs dsref's `server` extra ('{name}' is missing from this Python): "
        "`python -m pip install 'dsref[server]'`"
    ),
)
"""Messages of :mod:`dsref.cli`; a command's own messages live beside the library code it calls."""


def say(line: str) -> None:
    """Print one line of dsref's on standard error (when there is one), :func:`~dsref.text.escape.visible`.

    A message quotes what the user gave (a file name, an option, a language) and what the system answered; made
    visible as a whole, none of it can act on the terminal, whichever message it is. Pass a file name or an argument
    through ``visible(..., name=True)`` first, so that a byte that is not UTF-8 shows as the ``\\xNN`` it is.
    """
    if sys.stderr is not None:
        print(visible(line), file=sys.stderr)
