"""``dsref server``: the language server for editors, over stdio (``--tcp`` on 127.0.0.1 for debugging).

Exit status: 0 when the client ends the session (``shutdown``, then ``exit``), 1 when it exits without
``shutdown`` or closes the server's input first, 2 for a usage problem.
"""

from __future__ import annotations

import argparse

SERVER_EXTRA = ("pygls", "lsprotocol", "attrs", "cattrs")
"""What ``dsref[server]`` installs beyond the base install (``pyproject.toml``: pygls and lsprotocol, and the attrs
and cattrs they bring, which the server uses too): the server alone imports them."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="speak LSP on stdin and stdout (the default)")
    parser.add_argument("--tcp", action="store_true", help="listen on a TCP port instead (for debugging)")
    parser.add_argument("--host", default="127.0.0.1", help="address for --tcp (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=2087, help="port for --tcp (default 2087)")


def run(args: argparse.Namespace) -> int:
    if (args.tcp and args.stdio) or not 0 < args.port < 65536:
        from .lang import environment_language
        from .texts import CLI, say

        say("dsref: " + CLI.text("stdio_or_tcp" if args.tcp and args.stdio else "bad_port", environment_language()))
        return 2
    try:
        from ..server.app import main
    except ModuleNotFoundError as exc:
        if exc.name not in SERVER_EXTRA:
            raise
        from .lang import environment_language
        from .texts import CLI, say

        say("dsref: " + CLI.text("server_extra", environment_language(), name=exc.name))
        return 2

    return main(tcp=(args.host, args.port) if args.tcp else None)
