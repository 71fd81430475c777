"""Snapshot assertions: compare output with a file under tests/snapshots/; DSREF_UPDATE_SNAPSHOTS=1 rewrites it."""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).with_name("snapshots")


def assert_snapshot(name: str, actual: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("DSREF_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        if os.environ.get("CI") and os.environ.get("DSREF_UPDATE_SNAPSHOTS") != "1":
            raise AssertionError(f"snapshot {name} was missing (written now; commit it)")
        return
    expected = path.read_text(encoding="utf-8")
    assert actual == expected, f"snapshot {name} differs; if the change is intended: DSREF_UPDATE_SNAPSHOTS=1 pytest"
