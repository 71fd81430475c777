"""The snapshot helper fails on a missing snapshot instead of writing it and passing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import snapshot


def test_a_missing_snapshot_fails_and_is_not_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "SNAPSHOTS", tmp_path / "tests" / "snapshots")
    monkeypatch.delenv(snapshot.UPDATE, raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(AssertionError, match="is missing; write it with DSREF_UPDATE_SNAPSHOTS=1"):
        snapshot.assert_snapshot("new/case.txt", "output\n")
    assert not (tmp_path / "tests" / "snapshots" / "new" / "case.txt").exists()


def test_update_writes_it_and_then_it_is_compared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "SNAPSHOTS", tmp_path / "tests" / "snapshots")
    monkeypatch.setenv(snapshot.UPDATE, "1")
    snapshot.assert_snapshot("new/case.txt", "output\n")
    monkeypatch.delenv(snapshot.UPDATE)
    snapshot.assert_snapshot("new/case.txt", "output\n")
    with pytest.raises(AssertionError, match="differs"):
        snapshot.assert_snapshot("new/case.txt", "other output\n")
