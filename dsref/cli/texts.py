"""What the command line itself says when it cannot start or finish a command (both languages, like every text)."""

from __future__ import annotations

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
    stdin_twice="'-' (standard input) can be given only once",
    bad_version="--deepspeed-version takes a release number such as 0.19.8, not '{value}'",
    at_least_one="{option} must be 1 or more",
    unknown_language="unknown language '{value}'; use --lang en or --lang zh",
    no_rule="no rule '{value}'; `dsref rule` lists them",
    stdio_or_tcp="--stdio and --tcp exclude each other",
    bad_port="--port takes a number from 1 to 65535",
)
"""Messages of :mod:`dsref.cli`; a command's own messages live beside the library code it calls."""
