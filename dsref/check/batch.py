"""Check many files in one call: in several processes when there are enough files to pay for them.

The files are dealt round: with ``n`` processes, this one checks files ``0, n, 2n, ...`` and hands every other file,
in order, to a pool of ``n - 1`` worker processes (:class:`concurrent.futures.ProcessPoolExecutor`, forked: they start
with everything this one has loaded, the check tree and the rules, so that only a path goes to a worker and only the
file's drawn part of the output, :func:`dsref.check.report.draw.draw`, comes back). This process hands the parts on
in the order the files were given, each as soon as it is ready, so that the caller can print them at once
(:class:`dsref.check.report.draw.Writer`) and keep little: no more than a few files per worker are handed out ahead
of the one being printed. The output is the same, byte for byte, whatever the number of processes
(``tests/unit/check/test_check.py`` compares them).

The workers ignore Ctrl-C (this process stops them on its way out). Where no worker can be started (Windows, macOS,
a browser), or one stops early (the pool is then broken), the files no worker answered for are checked here: the
answer is the same, only slower.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from functools import partial

from .pipeline import STDIN, FileReport, check_bytes, check_file, display_path, load_error_finding
from .read.loader import LoadError
from .report.draw import Piece, draw
from .settings import DEFAULT_SETTINGS, CheckSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from ..text.i18n import Lang

__all__ = ["FILES_PER_WORKER", "check_and_draw", "workers_for"]

FILES_PER_WORKER = 48
"""Below this many files per process, starting one costs more than it saves."""

AHEAD_PER_WORKER = 4
"""Files handed to each worker ahead of the file being yielded: enough to keep it busy while this process checks
its own share, few enough that the parts waiting to be yielded stay small."""


def check_and_draw(
    paths: list[str],
    fmt: str,
    lang: Lang,
    settings: CheckSettings = DEFAULT_SETTINGS,
    *,
    color: bool = False,
    jobs: int | None = None,
    stdin: bytes | LoadError | None = None,
) -> Iterator[Piece]:
    """Each file checked for ``settings`` and drawn in ``fmt``, yielded in the order given as soon as it is ready.
    ``jobs``: how many processes (None: one per CPU this process may use, as far as the number of files makes it
    worth it). ``stdin``: what standard input held, read by the caller, for the path ``-`` (workers cannot read it),
    or why it could not be read."""
    one = partial(_check_and_draw, stdin=stdin, fmt=fmt, lang=lang, color=color, settings=settings)
    workers = workers_for(jobs, len(paths))
    if workers <= 1:
        yield from map(one, paths)
        return
    from .fix import fixer, offered  # noqa: F401  (imported once here, before forking, for the files that offer fixes)
    from .rules import all_rules
    from .validate.checktree import check_tree

    check_tree(), all_rules()  # loaded once here, before forking, instead of once in every process
    yield from _dealt_round(paths, one, workers)


def _dealt_round(paths: list[str], one: Callable[[str], Piece], workers: int) -> Iterator[Piece]:
    """``one`` of each path, in order: this process takes every ``workers``-th file, a pool of ``workers - 1``
    forked processes the others; what the pool does not answer (it could not start, or broke) is done here."""
    from collections import deque

    theirs = deque(index for index in range(len(paths)) if index % workers)
    handed: dict[int, Future[Piece] | None] = {}
    with _Pool(one, workers - 1) as pool:
        for index, path in enumerate(paths):
            while theirs and theirs[0] < index + AHEAD_PER_WORKER * workers:
                queued = theirs.popleft()
                handed[queued] = pool.submit(paths[queued])
            future = handed.pop(index, None)
            piece = _answer(future) if future is not None else None
            yield piece if piece is not None else one(path)


def _answer(future: Future[Piece]) -> Piece | None:
    """The part a worker drew, or None when it gave none (the pool broke, or the check failed there: checked here,
    it fails again if it must, as with one process)."""
    try:
        return future.result()
    except Exception:
        return None


class _Pool:
    """The worker processes: forked on entry, stopped on exit. While they live, what this process had allocated is
    frozen (:func:`gc.freeze`), so that neither its collections nor theirs write to the memory they share; it is
    unfrozen on exit, unless the caller had frozen something itself (then its heap is left as it was)."""

    def __init__(self, one: Callable[[str], Piece], size: int) -> None:
        self.one, self.size = one, size
        self.executor: ProcessPoolExecutor | None = None
        self.froze = False

    def __enter__(self) -> _Pool:
        import gc
        import signal

        try:
            previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # so that the workers ignore Ctrl-C from birth
        except ValueError:  # not the main thread: signals are not ours to handle
            previous = None
        # and held back here meanwhile, not lost: a Ctrl-C while the workers are forked arrives once they are
        # (blocked, a signal stays pending, ignored or not; a forked child starts with none pending). The mask is
        # this thread's: dsref's process has no other then, and the pool's own thread, started here, inherits it.
        holds = previous is not None and hasattr(signal, "pthread_sigmask")  # POSIX only (so is fork)
        mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if holds else None
        self.froze = gc.get_freeze_count() == 0
        if self.froze:
            gc.freeze()
        try:
            try:
                self.executor = self._start()
            finally:
                if previous is not None:
                    signal.signal(signal.SIGINT, previous)
                if mask is not None:
                    signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # a Ctrl-C held back arrives here
        except BaseException:
            self.__exit__()
            raise
        return self

    def _start(self) -> ProcessPoolExecutor | None:
        """The pool, its workers forked; None where they cannot be (no fork, no pipe, no semaphores)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        before = set(multiprocessing.active_children())
        try:
            context = multiprocessing.get_context("fork")
            executor = ProcessPoolExecutor(
                self.size, mp_context=context, initializer=_start_worker, initargs=(self.one,)
            )
        except (OSError, ValueError, NotImplementedError):
            return None
        try:
            executor.submit(int)  # a pool with a fork context forks all its workers at its first task
        except BaseException as exc:
            for started in set(multiprocessing.active_children()) - before:  # forked before one failed to be
                started.kill()
                started.join()
            executor.shutdown(wait=False, cancel_futures=True)
            if isinstance(exc, OSError):
                return None
            raise
        return executor

    def submit(self, path: str) -> Future[Piece] | None:
        """``path`` handed to a worker; None when there is no pool, or no more (it broke)."""
        if self.executor is None:
            return None
        try:
            return self.executor.submit(_worker_check, path)
        except RuntimeError:  # BrokenProcessPool
            return None

    def __exit__(self, *exc: object) -> None:
        import gc

        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=True)
            self.executor = None
        if self.froze:
            gc.unfreeze()
            self.froze = False


_worker_one: Callable[[str], Piece] | None = None
"""In a worker process, what checks and draws one file: set by :func:`_start_worker`, inherited through the fork
(never pickled, so it may be any callable)."""


def _start_worker(one: Callable[[str], Piece]) -> None:
    global _worker_one  # the worker's own copy of this module, set once as it starts
    _worker_one = one


def _worker_check(path: str) -> Piece:
    if _worker_one is None:
        raise RuntimeError("_worker_check runs in a worker process, after _start_worker")
    return _worker_one(path)


def _check_and_draw(
    path: str, *, stdin: bytes | LoadError | None, fmt: str, lang: Lang, color: bool, settings: CheckSettings
) -> Piece:
    if path == STDIN and isinstance(stdin, LoadError):  # standard input closed, or its read failed
        report = FileReport(path, None, stdin, [load_error_finding(stdin)])
    elif path == STDIN and isinstance(stdin, bytes):
        report = check_bytes(stdin, path, settings)
    else:
        report = check_file(path, settings)
    more = False
    if any(f.fix is not None for f in report.findings):
        from .fix.fixer import more_fixes_follow  # only here: most files offer no fix, and start-up stays light
        from .fix.offered import offered

        report = offered(report, settings)  # the fixes listed are those --fix applies
        more = more_fixes_follow(report, settings)  # and whether making them makes others possible
    report.path = display_path(path)
    return draw(report, fmt, lang, color=color, target=settings.deepspeed_version, more_fixes=more)


def _can_fork() -> bool:
    """Whether forking is there and safe: not on Windows or in a browser (Pyodide: no ``fork``, no ``pipe``), nor on
    macOS (where a forked process may crash in the system's libraries). Where it is not, ``--jobs`` above 1 checks
    every file in this process, saying nothing: the answer is the same, only slower."""
    return hasattr(os, "fork") and hasattr(os, "pipe") and sys.platform not in ("darwin", "emscripten", "wasi")


def workers_for(jobs: int | None, files: int) -> int:
    """How many processes to check ``files`` files with."""
    if jobs is not None:
        return max(1, min(jobs, files)) if _can_fork() else 1
    if files < 2 * FILES_PER_WORKER or not _can_fork():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, files // FILES_PER_WORKER))
