"""dsref leaves the garbage collector as it found it: a command run in-process (``dsref.cli.main.main``, as the
tests, the site build and other programs run it) neither turns the collector off nor freezes the caller's heap.
Only ``check`` over many files freezes it, right before forking its workers (so that they share its memory), and
unfreezes it once they are done."""

from __future__ import annotations

import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from dsref.cli.main import main

COMMANDS = {
    "explain": ["explain", "zero_optimization.stage", "--lang", "en"],  # read without argparse
    "explain search": ["explain", "--search", "offload", "--lang", "en"],
    "rule": ["rule", "DS101", "--lang", "en"],
    "check": ["check", "--lang", "en", "{one}"],
    "check fix": ["check", "--diff", "--unsafe-fixes", "--lang", "en", "{one}"],
    "check jobs": ["check", "--jobs", "2", "--lang", "en", "{many}"],
}


@pytest.fixture
def configs(tmp_path: Path) -> dict[str, str]:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(6):
        (many / f"c{i}.json").write_text(json.dumps({"train_batch_size": 8, "zero_optimization": {"stgae": i}}))
    one = tmp_path / "one.json"
    one.write_text(json.dumps({"train_batch_size": 8, "zero_optimization": {"stgae": 2}}))
    return {"one": str(one), "many": str(many)}


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector on and nothing frozen, as in a fresh interpreter; left so whatever the test did."""
    was_enabled, frozen = gc.isenabled(), gc.get_freeze_count()
    gc.unfreeze()
    gc.enable()
    yield
    gc.unfreeze()
    if frozen:
        gc.freeze()
    if not was_enabled:
        gc.disable()


@pytest.mark.parametrize("command", COMMANDS)
def test_a_command_leaves_the_collector_on_and_the_heap_unfrozen(
    command: str, configs: dict[str, str], collector: None, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [arg.format(**configs) for arg in COMMANDS[command]]
    assert main(argv) in (0, 1)
    assert capsys.readouterr().out
    assert gc.isenabled(), f"dsref {' '.join(argv)} left the garbage collector off"
    assert gc.get_freeze_count() == 0, f"dsref {' '.join(argv)} froze {gc.get_freeze_count()} objects of the caller"


@pytest.mark.parametrize("command", ["explain", "check"])
def test_a_collector_the_caller_turned_off_stays_off(
    command: str, configs: dict[str, str], collector: None, capsys: pytest.CaptureFixture[str]
) -> None:
    gc.disable()
    assert main([arg.format(**configs) for arg in COMMANDS[command]]) in (0, 1)
    assert not gc.isenabled()


def test_the_workers_start_with_the_heap_frozen_and_the_caller_gets_it_back(collector: None) -> None:
    """What this process had allocated is frozen when the workers are forked (their collections never touch the
    memory they share with it), and unfrozen once they are done; a caller that froze its heap itself keeps it."""
    from dsref.check import batch
    from dsref.check.report.draw import Piece

    here = os.getpid()

    def one(path: str) -> Piece:
        return Piece(f"{path} {os.getpid() != here} {gc.get_freeze_count()}", 0, 0, 0, True, False)

    got = [piece.text.split() for piece in batch._dealt_round([f"f{i}" for i in range(6)], one, 2)]
    in_workers = [int(frozen) for _, worker, frozen in got if worker == "True"]
    assert len(in_workers) == 3 and all(in_workers), got  # files f1, f3, f5, in a worker, with the heap frozen
    assert gc.get_freeze_count() == 0
    gc.freeze()
    frozen = gc.get_freeze_count()
    list(batch._dealt_round(["a", "b", "c"], one, 2))
    assert gc.get_freeze_count() == frozen  # not unfrozen behind the caller's back
