"""DeepSpeed release numbers: the one dsref describes, and how to compare them.

>>> parse_version("0.19.8") > parse_version("0.19.7")
True
>>> parse_version("v0.3.15")
(0, 3, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, TypeVar

DSREF_VERSION = "0.1.0.dev0"
"""dsref's own release (``dsref.__version__``; ``pyproject.toml`` reads it from here)."""

DEEPSPEED_VERSION = "0.19.8"
"""The DeepSpeed release whose config dsref's schema describes: the newest it covers."""


@cache
def parse_version(text: str) -> tuple[int, int, int]:
    """``"0.19.8"`` → ``(0, 19, 8)`` (``v`` prefix and missing patch allowed); ``ValueError`` for anything else.

    Kept once worked out (the rules ask it for each finding; a release number is a few characters).
    """
    parts = text.strip().removeprefix("v").split(".")
    if len(parts) not in (2, 3) or not all(part.isascii() and part.isdigit() for part in parts):
        raise ValueError(f"not a DeepSpeed release number: {text!r}")
    major, minor, patch = (int(part) for part in [*parts, "0"][:3])
    return major, minor, patch


Run = TypeVar("Run", bound=Sequence[Any])


def run_at(runs: Iterable[Run], release: str) -> Run | None:
    """Of records kept as runs of releases (each run a sequence whose first item is the first release it holds for,
    oldest first), the run ``release`` falls in; None before the first.

    >>> run_at([["0.10.0", "a"], ["0.14.3", "b"]], "0.14.2"), run_at([["0.10.1", "a"]], "0.10.0")
    (['0.10.0', 'a'], None)
    """
    wanted = parse_version(release)
    found: Run | None = None
    for run in runs:
        if parse_version(run[0]) > wanted:
            break
        found = run
    return found
