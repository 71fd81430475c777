"""DeepSpeed release numbers: the one dsref describes, and how to compare them.

>>> parse_version("0.19.8") > parse_version("0.19.7")
True
>>> parse_version("v0.3.15")
(0, 3, 15)
"""

from __future__ import annotations

import re

DEEPSPEED_VERSION = "0.19.8"
"""The DeepSpeed release whose config dsref's schema describes."""

_VERSION = re.compile(r"^v?(\d+)\.(\d+)(?:\.(\d+))?$")


def parse_version(text: str) -> tuple[int, int, int]:
    """``"0.19.8"`` → ``(0, 19, 8)``; ``ValueError`` for anything else."""
    match = _VERSION.match(text.strip())
    if match is None:
        raise ValueError(f"not a DeepSpeed release number: {text!r}")
    major, minor, patch = match.groups()
    return int(major), int(minor), int(patch or 0)
