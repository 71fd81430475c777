"""Snapshot assertions: compare output with a file under tests/snapshots/; DSREF_UPDATE_SNAPSHOTS=1 rewrites it.

A missing snapshot is a failure, never a pass: write it on purpose with DSREF_UPDATE_SNAPSHOTS=1, read it, commit it.
"""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).with_name("snapshots")
UPDATE = "DSREF_UPDATE_SNAPSHOTS"


def assert_snapshot(name: str, actual: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get(UPDATE) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(
            f"snapshot {path.relative_to(SNAPSHOTS.parent.parent)} is missing; write it with {UPDATE}=1 pytest, "
            "read it, and commit it"
        )
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"snapshot {name} differs; if the change is intended: {UPDATE}=1 pytest"
