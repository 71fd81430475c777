"""Check many files in one call: in several processes when there are enough files to pay for them.

The files are dealt round: with ``n`` processes, this one checks files ``0, n, 2n, ...`` and the ``k``-th process
it forks checks files ``k, n + k, ...``, drawing each file's part of the output (:func:`dsref.check.report.draw.draw`)
and sending it back through a pipe as soon as it is drawn (:mod:`marshal`). This process hands the parts on in the
order the files were given, each as soon as it is ready, so that the caller can print them at once
(:class:`dsref.check.report.draw.Writer`) and keep nothing; the output is the same, byte for byte, whatever the number
of processes (``tests/test_check.py`` compares them). The forked processes start with everything this one has
loaded (the check tree, the rules), cost a fork and a pipe each (no pool, no threads), and ignore Ctrl-C: this
process stops them on its way out. Where a process cannot be forked (Windows, macOS, a browser), or one stops
early, its files are checked here.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import signal
import sys
from collections.abc import Callable, Iterator
from dataclasses import fields
from functools import partial
from typing import BinaryIO

from .pipeline import STDIN, check_bytes, check_file, display_path
from .report.draw import Piece, draw
from .settings import DEFAULT_SETTINGS, CheckSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = ["FILES_PER_WORKER", "check_and_draw", "workers_for"]

FILES_PER_WORKER = 48
"""Below this many files per process, starting one costs more than it saves."""

_PIECE_FIELDS = tuple(f.name for f in fields(Piece))
"""A part travels through the pipe as its fields' values, strings and numbers that :mod:`marshal` writes (the
same interpreter reads them back; ``pickle`` would cost its import at every start)."""


def check_and_draw(
    paths: list[str],
    fmt: str,
    lang: Lang,
    settings: CheckSettings = DEFAULT_SETTINGS,
    *,
    color: bool = False,
    jobs: int | None = None,
    stdin: bytes | None = None,
) -> Iterator[Piece]:
    """Each file checked for ``settings`` and drawn in ``fmt``, yielded in the order given as soon as it is ready.
    ``jobs``: how many processes (None: one per CPU this process may use, as far as the number of files makes it
    worth it). ``stdin``: what standard input held, read by the caller, for the path ``-`` (workers cannot read it)."""
    one = partial(_check_and_draw, stdin=stdin, fmt=fmt, lang=lang, color=color, settings=settings)
    workers = workers_for(jobs, len(paths))
    if workers <= 1:
        yield from map(one, paths)
        return
    from .rules import all_rules
    from .validate.checktree import check_tree

    check_tree(), all_rules()  # loaded once here, before forking, instead of once in every process
    yield from _dealt_round(paths, one, workers)


class _Helper:
    """A forked process checking every ``workers``-th file, and the pipe its drawn parts come back through."""

    def __init__(self, pid: int, reader: BinaryIO) -> None:
        self.pid, self.reader, self.alive = pid, reader, True

    def next_piece(self) -> Piece | None:
        """Its next part, or None once it has stopped (its remaining files are then checked here)."""
        if self.alive:
            try:
                values = marshal.load(self.reader)
            except (EOFError, OSError, ValueError, TypeError):
                values = None
            if isinstance(values, tuple) and len(values) == len(_PIECE_FIELDS):
                return Piece(*values)
            self.alive = False
        return None

    def stop(self) -> None:
        self.reader.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)  # one that has finished is only waited for
        os.waitpid(self.pid, 0)


def _dealt_round(paths: list[str], one: Callable[[str], Piece], workers: int) -> Iterator[Piece]:
    helpers = [_fork(paths[k::workers], one) for k in range(1, workers)]
    try:
        for index, path in enumerate(paths):
            helper = helpers[index % workers - 1] if index % workers else None
            piece = helper.next_piece() if helper is not None else None
            yield piece if piece is not None else one(path)
    finally:
        for helper in helpers:
            if helper is not None:
                helper.stop()


def _fork(share: list[str], one: Callable[[str], Piece]) -> _Helper | None:
    """A process that checks ``share`` and sends each drawn part back; None where none can be started."""
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # so that the child ignores Ctrl-C from birth
    except ValueError:  # not the main thread: signals are not ours to handle
        previous = None
    pid = -1
    try:
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
    except OSError:
        pass
    if pid == 0:  # the child: check, send, and leave without running the parent's clean-up
        status = 0
        try:
            os.close(read_end)
            with os.fdopen(write_end, "wb") as out:
                for path in share:
                    piece = one(path)
                    marshal.dump(tuple(getattr(piece, name) for name in _PIECE_FIELDS), out)
                    out.flush()
        except BaseException:  # the parent meets the end of the pipe and checks the rest itself
            status = 1
        os._exit(status)
    if previous is not None:
        signal.signal(signal.SIGINT, previous)
    if pid < 0:
        return None
    os.close(write_end)
    return _Helper(pid, os.fdopen(read_end, "rb"))


def _check_and_draw(
    path: str, *, stdin: bytes | None, fmt: str, lang: Lang, color: bool, settings: CheckSettings
) -> Piece:
    read_already = path == STDIN and stdin is not None
    report = check_bytes(stdin, path, settings) if read_already and stdin is not None else check_file(path, settings)
    report.path = display_path(path)
    return draw(report, fmt, lang, color=color, target=settings.deepspeed_version)


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
