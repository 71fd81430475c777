"""When a document is checked: at once after a lone edit, once after a burst of edits, and its diagnostics published
only for the text it has now.

A check runs in a worker thread on a snapshot of the document, so that the server goes on reading the edits that
follow. What it finds is published only if nothing changed the document (its text, or the settings) while it ran;
otherwise it is dropped, and the newest text is checked instead. A check cannot be stopped halfway (it is pure
Python), so "cancelled" means: never started, or its result dropped.

* A document at rest (nothing checked or waiting) is checked as soon as it changes: a lone keystroke waits for one
  check and nothing else (5 ms for a 200-line config, 40-100 ms for a 250 KB one).
* A change that comes while a check runs, or while an earlier change waits, starts the :data:`DEBOUNCE` again: a burst
  is checked once, that long after its last change. 75 ms is longer than the gaps inside a burst (a key held down
  repeats every 25-40 ms; the notifications of one paste, multi-cursor edit or format come microseconds apart) and
  short enough that, with the check itself, diagnostics follow a pause in typing about as fast as a person notices.
* A save with nothing waiting publishes the document again; with a check on the way, that check's result serves.

What else needs the findings of the current text (a code action) asks :meth:`Scheduler.running` for the check of that
text, if one is under way, and waits for it: never for more than that one check, never for a check of its own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from ..records import record

__all__ = ["DEBOUNCE", "Scheduler"]

log = logging.getLogger("dsref.server")

DEBOUNCE = 0.075
"""Seconds without a change after which a document that changed while it was being checked is checked again."""


@record(frozen=False, eq=False)
class _State:
    generation: int = 0
    """How many times the document or the settings changed: a check's result is for the generation it began at."""
    running: bool = False
    waiting: asyncio.TimerHandle | None = None
    wanted: bool = False
    """A check has been asked for since the last one began."""
    started: int = -1
    """The generation the check under way began at."""
    finished: asyncio.Future[None] | None = None
    """Set once the check under way ends (its result delivered, or dropped), for whoever waits on it."""


class Scheduler:
    """Checks documents in a worker thread, one at a time, publishing only results that are still true.

    ``prepare(uri)`` runs in the loop (the document as it is now) and returns the work to do in the worker;
    ``deliver(uri, result)`` runs in the loop with the result, only if the document did not change meanwhile.
    """

    def __init__(
        self,
        prepare: Callable[[str], Callable[[], Any]],
        deliver: Callable[[str, Any], None],
        *,
        delay: float = DEBOUNCE,
    ) -> None:
        self._prepare = prepare
        self._deliver = deliver
        self._delay = delay
        self._states: dict[str, _State] = {}
        self._worker: ThreadPoolExecutor | None = None
        self._stopped = False

    def changed(self, uri: str) -> None:
        """The text of ``uri``, or the settings, changed: what was found before no longer holds."""
        state = self._states.setdefault(uri, _State())
        state.generation += 1
        state.wanted = True
        if state.running or state.waiting is not None:
            self._wait(uri, state)
        else:
            self._start(uri, state)

    def publish(self, uri: str) -> None:
        """Publish the diagnostics of ``uri`` again (a save): at once if nothing is on the way."""
        state = self._states.setdefault(uri, _State())
        if not (state.running or state.waiting is not None or state.wanted):
            state.wanted = True
            self._start(uri, state)

    def running(self, uri: str) -> asyncio.Future[None] | None:
        """A future set once the check of the current text of ``uri`` ends, its result delivered; None when no check
        of the current text is under way (none at all, one of an older text, or one waiting for a burst to end)."""
        state = self._states.get(uri)
        if state is None or not state.running or state.started != state.generation:
            return None
        if state.finished is None:
            state.finished = asyncio.get_running_loop().create_future()
        return state.finished

    def forget(self, uri: str) -> None:
        """``uri`` was closed: nothing more is published for it."""
        state = self._states.pop(uri, None)
        if state is not None and state.waiting is not None:
            state.waiting.cancel()
        if state is not None:
            _finish(state)

    def stop(self) -> None:
        """Nothing more is checked or published (after shutdown)."""
        self._stopped = True
        for uri in list(self._states):
            self.forget(uri)
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)

    def _wait(self, uri: str, state: _State) -> None:
        if state.waiting is not None:
            state.waiting.cancel()
        state.waiting = asyncio.get_running_loop().call_later(self._delay, self._quiet, uri, state)

    def _quiet(self, uri: str, state: _State) -> None:
        state.waiting = None
        if state.wanted and not state.running:
            self._start(uri, state)

    def _start(self, uri: str, state: _State) -> None:
        if self._stopped or self._states.get(uri) is not state:
            return
        state.wanted = False
        generation = state.generation
        try:
            work = self._prepare(uri)
        except Exception as exc:  # the document is gone: nothing to check
            log.warning("cannot check %s: %s", uri, exc)
            return
        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dsref-check")
        state.running = True
        state.started = generation
        done = asyncio.wrap_future(self._worker.submit(work))
        done.add_done_callback(lambda future: self._done(uri, state, generation, future))

    def _done(self, uri: str, state: _State, generation: int, future: asyncio.Future[Any] | Future[Any]) -> None:
        try:
            self._end(uri, state, generation, future)
        finally:
            _finish(state)

    def _end(self, uri: str, state: _State, generation: int, future: asyncio.Future[Any] | Future[Any]) -> None:
        state.running = False
        if self._stopped or self._states.get(uri) is not state or future.cancelled():
            return
        if generation == state.generation:
            error = future.exception()
            if error is not None:
                log.error("checking %s failed: %s", uri, error)
                return
            try:
                self._deliver(uri, future.result())
            except Exception as exc:
                log.error("publishing the diagnostics of %s failed: %s", uri, exc)
        elif state.wanted and state.waiting is None:  # changed while it ran, and the burst is over
            self._start(uri, state)


def _finish(state: _State) -> None:
    finished, state.finished = state.finished, None
    if finished is not None and not finished.done():
        finished.set_result(None)
