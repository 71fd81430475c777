"""Check many files in one call: in several processes when there are enough files to pay for them.

Each worker process checks its share of the files and draws their part of the output
(:func:`dsref.check.report.draw`); this process hands the parts on in the order the files
were given, each as soon as it and every part before it are ready, so that the caller can
print them at once (:class:`dsref.check.report.Writer`) and keep nothing. The output is the
same, byte for byte, whatever the number of processes (``tests/test_check.py`` compares them).
Workers are forked, so they start with everything this process has loaded; where
forking is unavailable or unsafe (Windows, macOS), the files are checked here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from functools import partial

from ..tree.profiles import Profile
from ..tree.versions import DEEPSPEED_VERSION
from .pipeline import STDIN, check_bytes, check_file, display_path
from .report import Piece, draw

TYPE_CHECKING = False
if TYPE_CHECKING:
    import multiprocessing.pool

    from ..text.i18n import Lang

__all__ = ["FILES_PER_WORKER", "check_and_draw", "workers_for"]

FILES_PER_WORKER = 48
"""Below this many files per process, starting one costs more than it saves."""


def check_and_draw(
    paths: list[str],
    fmt: str,
    lang: Lang,
    *,
    color: bool = False,
    profile: Profile | None = "deepspeed",
    world_size: int | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
    jobs: int | None = None,
    stdin: bytes | None = None,
) -> Iterator[Piece]:
    """Each file checked and drawn in ``fmt``, yielded in the order given as soon as it is ready. ``jobs``: how
    many processes (None: one per CPU this process may use, as far as the number of files makes it worth it).
    ``stdin``: what standard input held, read by the caller, for the path ``-`` (workers cannot read it)."""
    one = partial(
        _check_and_draw,
        stdin=stdin,
        fmt=fmt,
        lang=lang,
        color=color,
        profile=profile,
        world_size=world_size,
        deepspeed_version=deepspeed_version,
    )
    workers = workers_for(jobs, len(paths))
    if workers <= 1:
        yield from map(one, paths)
        return
    from .checktree import check_tree
    from .rules import all_rules

    check_tree(), all_rules()  # loaded once here, before forking, instead of once in every worker
    with _workers_ignoring_interrupts(workers) as pool:
        # imap hands results on in order while later files are still being checked; small chunks keep the
        # first lines quick and the parts waiting for an earlier file few.
        yield from pool.imap(one, paths, chunksize=max(1, min(16, len(paths) // (workers * 4))))


def _workers_ignoring_interrupts(workers: int) -> multiprocessing.pool.Pool:
    """A pool of forked workers that ignore Ctrl-C.

    Ctrl-C reaches every process of the terminal's group. The workers are forked while this process ignores it, so
    they ignore it from their first instruction; this process then takes its handler back, stops on
    KeyboardInterrupt, and the pool terminates the workers on its way out. The user sees no worker's traceback, and
    the pool never waits for a worker that died.
    """
    import multiprocessing
    import signal

    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to handle
        return multiprocessing.get_context("fork").Pool(workers)
    try:
        return multiprocessing.get_context("fork").Pool(workers)
    finally:
        signal.signal(signal.SIGINT, previous)


def _check_and_draw(
    path: str,
    *,
    stdin: bytes | None,
    fmt: str,
    lang: Lang,
    color: bool,
    profile: Profile | None,
    world_size: int | None,
    deepspeed_version: str,
) -> Piece:
    if path == STDIN and stdin is not None:
        report = check_bytes(stdin, path, profile=profile, world_size=world_size, deepspeed_version=deepspeed_version)
    else:
        report = check_file(path, profile=profile, world_size=world_size, deepspeed_version=deepspeed_version)
    report.path = display_path(path)
    return draw(report, fmt, lang, color=color, target=deepspeed_version)


def workers_for(jobs: int | None, files: int) -> int:
    """How many processes to check ``files`` files with."""
    if jobs is not None:
        return max(1, min(jobs, files))
    if files < 2 * FILES_PER_WORKER:
        return 1  # too few to share: decided before multiprocessing is imported (8 ms of a one-file check)
    import multiprocessing

    if sys.platform == "darwin" or "fork" not in multiprocessing.get_all_start_methods():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(cpus, files // FILES_PER_WORKER))
