"""``dsref completion bash|zsh``: a shell completion script for dsref, option paths included.

source <(dsref completion bash)        # bash
dsref completion zsh > ~/.zfunc/_dsref # zsh (with ~/.zfunc in fpath)
"""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("shell", choices=("bash", "zsh"))


def run(args: argparse.Namespace) -> int:
    from ..completion import script

    sys.stdout.write(script(args.shell))
    return 0
