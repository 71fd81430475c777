"""The scheduler's answer to "is the text as it is now being checked?": what a code action waits for, and only that."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from dsref.server.schedule import Scheduler


@pytest.mark.asyncio
async def test_only_the_check_of_the_current_text_is_waited_for() -> None:
    now = {"version": 0}
    gates: dict[int, threading.Event] = {}
    delivered: list[int] = []

    def prepare(uri: str) -> Any:
        version = now["version"]
        gate = gates.setdefault(version, threading.Event())

        def work() -> int:
            gate.wait(10)
            return version

        return work

    checks = Scheduler(prepare, lambda uri, version: delivered.append(version), delay=0.05)
    assert checks.running("a") is None  # never seen
    checks.changed("a")  # at rest: checked at once
    waiting = checks.running("a")
    assert waiting is not None and not waiting.done()
    assert checks.running("a") is waiting  # every request waits on the same check
    gates[0].set()
    await asyncio.wait_for(waiting, 5)
    assert delivered == [0]  # delivered before the waiter wakes: the analysis is there to read
    assert checks.running("a") is None  # at rest: the last result serves

    now["version"] = 1
    checks.changed("a")
    now["version"] = 2
    checks.changed("a")  # while 1 is checked: 2 waits for the burst to end
    assert checks.running("a") is None  # the check under way is of an older text: nothing to wait for
    gates[1].set()
    gates[2] = threading.Event()
    for _ in range(100):
        await asyncio.sleep(0.02)
        if checks.running("a") is not None:
            break
    waiting = checks.running("a")
    assert waiting is not None  # the check of 2 began after the debounce
    now["version"] = 3
    checks.changed("a")  # the text changed while 2 was checked: its waiters are let go when it ends, unanswered
    gates[2].set()
    await asyncio.wait_for(waiting, 5)
    assert delivered == [0]
    gates[3] = threading.Event()
    gates[3].set()
    for _ in range(100):
        await asyncio.sleep(0.02)
        if delivered[-1] == 3:
            break
    assert delivered == [0, 3]
    checks.stop()


@pytest.mark.asyncio
async def test_closing_a_document_lets_its_waiters_go() -> None:
    gate = threading.Event()
    checks = Scheduler(lambda uri: lambda: gate.wait(10), lambda uri, result: None)
    checks.changed("a")
    waiting = checks.running("a")
    assert waiting is not None
    checks.forget("a")
    await asyncio.wait_for(waiting, 1)
    gate.set()
    checks.stop()
