"""Write a fixed config over the file it was read from, and over nothing else.

``check --fix`` reads a file, fixes the text, then writes it back. Between the read and the write the user may have
saved the file, a symbolic link may point elsewhere, and the process may be stopped. :func:`write_fixed` writes only
when the file is still, byte for byte, what was read (:class:`Snapshot`), and raises :class:`FileChanged` otherwise;
the file is then left as it is.

How the bytes get there:

* **A symbolic link** is followed: the fix goes to its target (``os.path.realpath``), and the link stays a link.
* **A file with one name** is replaced whole: the text goes to a temporary file beside it
  (``.NAME.XXXXXXXX.dsref-fix``) that takes the file's owner and group, its mode and its extended attributes (which
  hold ACLs on Linux), is checked against the snapshot once more, and is renamed over it. A reader sees the old file
  or the new one, never a mix.
* **A file with several names** (hard links), or **one this user could not give its owner and group** (another
  user's file that the group or everyone may write: :func:`writes_in_place`), is written in place
  (:func:`_write_in_place`): a rename would give this name a new file and leave the other names with the old text, or
  hand the file to this user. The file keeps its owner, group, mode and attributes, as it stays the same file.

SIGTERM, SIGINT and SIGHUP during the write remove the temporary file and end dsref with status 128 + the signal's
number (SIGINT goes on to Python's ``KeyboardInterrupt``, exit status 130); during an in-place write they wait until
the write is done. SIGKILL cannot be caught, so a killed run may leave a ``.NAME.XXXXXXXX.dsref-fix`` behind:
``check --fix`` removes, once in each folder it writes in, those older than :data:`STALE_AFTER_S` (a live write takes
milliseconds) with :func:`remove_stale_temporaries`, and says so; ``check`` never reads them (a folder is searched for
``*.json``, hidden files skipped).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import signal
import stat
import threading
import time
from typing import TYPE_CHECKING, Any

from ...records import record

if TYPE_CHECKING:
    from collections.abc import Collection
    from concurrent.futures import Future, ThreadPoolExecutor
    from types import FrameType, TracebackType

__all__ = [
    "MAX_STARTED",
    "STALE_AFTER_S",
    "TEMPORARY_NAME",
    "TEMPORARY_SUFFIX",
    "WRITE_THREADS",
    "FileChanged",
    "FixWrites",
    "Snapshot",
    "Started",
    "remove_stale_temporaries",
    "write_fixed",
    "writes_in_place",
]

TEMPORARY_SUFFIX = ".dsref-fix"
"""The end of a temporary file's name: ``.NAME.XXXXXXXX.dsref-fix`` beside the file ``NAME``."""

STALE_AFTER_S = 60
"""A temporary file of this age (seconds) is one a killed run left behind: a write lasts milliseconds."""

_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name))
"""The signals that stop dsref and can be caught (SIGKILL cannot)."""


@record
class Snapshot:
    """A file as ``check --fix`` read it: where its bytes are, and what it must still be for a fix to be written.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "ds.json")
    >>> with open(path, "wb") as out:
    ...     _ = out.write(b'{"train_batch_size": 8}')
    >>> snapshot = Snapshot.of(path, b'{"train_batch_size": 8}', os.stat(path))
    >>> snapshot.matches(os.stat(path), b'{"train_batch_size": 8}')
    True
    >>> snapshot.matches(os.stat(path), b'{"train_batch_size": 9}')  # same size and time, other bytes
    False
    >>> import shutil; shutil.rmtree(os.path.dirname(path))
    """

    path: str
    """The path as given (a symbolic link stays one)."""
    target: str
    """Where the bytes are: ``path`` with every symbolic link resolved."""
    device: int
    inode: int
    size: int
    mtime_ns: int
    sha256: str
    """Of the bytes read."""

    @classmethod
    def of(cls, path: str, data: bytes, status: os.stat_result) -> Snapshot:
        """The snapshot of ``data``, read from ``path`` whose status (``fstat`` of the descriptor read) was
        ``status``."""
        return cls(
            path=path,
            target=os.path.realpath(path),
            device=status.st_dev,
            inode=status.st_ino,
            size=status.st_size,
            mtime_ns=status.st_mtime_ns,
            sha256=hashlib.sha256(data).hexdigest(),
        )

    def matches(self, status: os.stat_result, data: bytes) -> bool:
        """``data`` (the whole file, read now) and its ``status`` are what was read: the same file (device and
        inode: not another one renamed over it), size, modification time and content."""
        return (
            (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)
            == (self.device, self.inode, self.size, self.mtime_ns)
            and len(data) == self.size
            and hashlib.sha256(data).hexdigest() == self.sha256
        )


class FileChanged(Exception):
    """The file is no longer what was read (edited, replaced, or its link points elsewhere); nothing was written."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.path = path


def write_fixed(snapshot: Snapshot, text: str) -> None:
    """Write ``text`` (UTF-8) over the file ``snapshot`` was taken of, if it is still what was read.

    Raises :class:`FileChanged` when it is not, ``OSError`` when it cannot be written (a file nobody may write, a
    folder that does not take the temporary file, a full disk); either way the file is left as it was.
    """
    status = _writable(snapshot)
    data = text.encode("utf-8")
    if writes_in_place(status):
        _write_in_place(snapshot, data)
        return
    try:
        _replace(snapshot, data, status)
    except _OwnerNotKept:  # a chown refused where it should not be (a root without CAP_CHOWN, a network mount)
        _write_in_place(snapshot, data)


def _writable(snapshot: Snapshot) -> os.stat_result:
    """The status of the file ``snapshot`` was taken of, which is still there and may be written; else
    :class:`FileChanged` or ``PermissionError``."""
    if os.path.realpath(snapshot.path) != snapshot.target:
        raise FileChanged(snapshot.path)
    try:
        status = os.stat(snapshot.target)
    except FileNotFoundError:  # deleted since it was read
        raise FileChanged(snapshot.path) from None
    # a file nobody may write is read-only to us too, even when running as root (which os.access lets through)
    writable = status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
    if not os.access(snapshot.target, os.W_OK) or not writable:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), snapshot.path)
    return status


WRITE_THREADS = 8
"""Files whose bytes :class:`FixWrites` waits for at once: the disk takes concurrent syncs together (one journal
commit for several), so that the wait is shared instead of paid file after file."""

MAX_STARTED = 64
"""Writes started and not yet finished, at most (each holds an open file)."""


@record(frozen=False)
class Started:
    """A write :meth:`FixWrites.start` began: the temporary file being synced, or what went wrong already."""

    snapshot: Snapshot
    temporary: str | None = None
    """None when nothing is left to do but report (written in place, or failed)."""
    fd: int = -1
    synced: Future[None] | None = None
    error: Exception | None = None

    @property
    def ready(self) -> bool:
        """Whether :meth:`FixWrites.finish` would not wait."""
        return self.synced is None or self.synced.done()


class FixWrites:
    """The fixes of many files written as :func:`write_fixed` writes one, with the waits for the disk overlapped.

    ``check --fix`` over a folder of thousands of files would otherwise wait for each file's bytes to reach the disk
    (``fsync``, milliseconds on a busy disk) before it fixes the next. Here :meth:`start` writes the temporary file
    and hands its ``fsync`` to a thread, and the caller goes on fixing; :meth:`finish`, called in the order the
    files were started, waits for that file's sync, checks it against the snapshot and renames it over the file,
    raising what :func:`write_fixed` raises. Everything but the syncs happens in the calling thread. One signal guard
    covers the whole run: SIGTERM, SIGINT and SIGHUP remove every temporary file not yet renamed, then end dsref as
    :func:`write_fixed` does; an in-place write still makes them wait until it is done.
    """

    def __init__(self, threads: int = WRITE_THREADS) -> None:
        self._threads = threads
        self._guard = _SignalGuard(defer=False)
        self._open: set[int] = set()
        self._pool: ThreadPoolExecutor | None = None

    def __enter__(self) -> FixWrites:
        from concurrent.futures import ThreadPoolExecutor

        self._guard.__enter__()
        self._pool = ThreadPoolExecutor(self._threads, thread_name_prefix="dsref-fsync")
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        try:
            if self._pool is not None:
                self._pool.shutdown(wait=True, cancel_futures=True)
            for fd in self._open:
                with contextlib.suppress(OSError):
                    os.close(fd)
            self._open.clear()
            self._guard.remove_temporaries()  # only those of writes not finished (an exception on the way out)
        finally:
            self._guard.__exit__(kind, error, traceback)

    def start(self, snapshot: Snapshot, text: str) -> Started:
        """Begin writing ``text`` over the file of ``snapshot``."""
        assert self._pool is not None, "FixWrites.start outside its with block"
        try:
            status = _writable(snapshot)
            data = text.encode("utf-8")
            if writes_in_place(status):
                _write_in_place(snapshot, data)
                return Started(snapshot)
            folder, name = os.path.split(snapshot.target)
            fd, temporary = _create_temporary(folder, name, self._guard)
            try:
                _write_all(fd, data)
                _copy_metadata(snapshot.target, temporary, fd, status)
            except _OwnerNotKept:
                os.close(fd)
                self._guard.drop(temporary)
                _write_in_place(snapshot, data)
                return Started(snapshot)
            except BaseException:
                os.close(fd)
                self._guard.drop(temporary)
                raise
            self._open.add(fd)
            return Started(snapshot, temporary, fd, self._pool.submit(os.fsync, fd))
        except (FileChanged, OSError) as exc:
            return Started(snapshot, error=exc)

    def finish(self, started: Started) -> None:
        """Wait for the sync of ``started`` and rename it over the file; raises :class:`FileChanged` or ``OSError``
        as :func:`write_fixed` does, the file then left as it was."""
        if started.error is not None:
            raise started.error
        temporary, fd = started.temporary, started.fd
        if temporary is None:
            return
        try:
            assert started.synced is not None
            started.synced.result()
            self._open.discard(fd)
            os.close(fd)
            fd = -1
            _rename_over(started.snapshot, temporary, self._guard)
        finally:
            if fd >= 0:
                self._open.discard(fd)
                os.close(fd)
            if temporary in self._guard.temporaries:  # not renamed: the file is left as it was
                self._guard.drop(temporary)
            started.temporary = None


def writes_in_place(status: os.stat_result, *, euid: int | None = None, groups: Collection[int] | None = None) -> bool:
    """Whether the fix of a file of ``status`` is written over the file's own bytes (:func:`_write_in_place`) rather
    than by renaming a new file over it: when the file has several names (a rename would part them), or when the new
    file could not be given the file's owner and group: a user other than root may give a file only themselves as
    owner and only a group they belong to. ``euid`` and ``groups``: this process's (``os.geteuid()``, its
    ``os.getgroups()`` and ``os.getegid()``) unless given.

    >>> import os
    >>> owned = os.stat_result((0o100644, 1, 1, 1, 1000, 1000, 0, 0, 0, 0))  # mode, inode, dev, links, uid, gid, …
    >>> writes_in_place(owned, euid=1000, groups={1000}), writes_in_place(owned, euid=1000, groups={100})
    (False, True)
    >>> writes_in_place(owned, euid=1001, groups={1000}), writes_in_place(owned, euid=0, groups=set())
    (True, False)
    """
    if status.st_nlink > 1:
        return True
    if not hasattr(os, "geteuid"):  # no owners to keep (Windows)
        return False
    euid = os.geteuid() if euid is None else euid
    if euid == 0:
        return False
    if groups is None:
        groups = {*os.getgroups(), os.getegid()}
    return status.st_uid != euid or status.st_gid not in groups


class _OwnerNotKept(Exception):
    """The new file could not be given the target's owner and group after all; it is removed, nothing was written."""


def _replace(snapshot: Snapshot, data: bytes, status: os.stat_result) -> None:
    """A temporary file beside the target with its metadata, checked against the snapshot, then renamed over it."""
    target = snapshot.target
    folder, name = os.path.split(target)
    with _SignalGuard(defer=False) as guard:
        fd = -1
        try:
            fd, temporary = _create_temporary(folder, name, guard)
            _write_all(fd, data)
            _copy_metadata(target, temporary, fd, status)
            os.fsync(fd)
            os.close(fd)
            fd = -1
            _rename_over(snapshot, temporary, guard)
        finally:
            if fd >= 0:
                os.close(fd)
            guard.remove_temporaries()


def _rename_over(snapshot: Snapshot, temporary: str, guard: _SignalGuard) -> None:
    """Last, just before the rename, the check against the snapshot: the window in which an edit would be lost is
    this check and one rename."""
    _check_unchanged(snapshot)
    os.replace(temporary, snapshot.target)
    guard.temporaries.discard(temporary)


def _write_in_place(snapshot: Snapshot, data: bytes) -> None:
    """Write over the file's own bytes: the only way every name of a hard-linked file sees the fix, and the file
    keeps its owner, group, mode and extended attributes as it is the same file.

    This is not atomic: while the bytes are written a reader may see the new text's beginning with the old one's
    end, and a crash (power, SIGKILL) in that moment leaves such a mix. The window is kept small: the new bytes are
    ready before the file is opened; the check against the snapshot reads through the descriptor that then writes;
    the text is written from the start in one call, the file cut to its new length and synced; and SIGTERM, SIGINT
    and SIGHUP wait until that is done.
    """
    with _SignalGuard(defer=True):
        fd = os.open(snapshot.target, os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            _check_unchanged_fd(snapshot, fd)
            os.lseek(fd, 0, os.SEEK_SET)
            _write_all(fd, data)
            os.ftruncate(fd, len(data))
            os.fsync(fd)
        finally:
            os.close(fd)


def _check_unchanged(snapshot: Snapshot) -> None:
    try:
        fd = os.open(snapshot.target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FileChanged(snapshot.path) from None
    try:
        _check_unchanged_fd(snapshot, fd)
    finally:
        os.close(fd)


def _check_unchanged_fd(snapshot: Snapshot, fd: int) -> None:
    """Raise :class:`FileChanged` unless the file open at ``fd`` is, whole, what the snapshot says (read to its end,
    one byte past the size read, so a file that grew is seen)."""
    status = os.fstat(fd)
    if not stat.S_ISREG(status.st_mode):
        raise FileChanged(snapshot.path)
    os.lseek(fd, 0, os.SEEK_SET)
    chunks, left = [], snapshot.size + 1
    while left > 0:
        chunk = os.read(fd, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    if not snapshot.matches(status, b"".join(chunks)):
        raise FileChanged(snapshot.path)


def _create_temporary(folder: str, name: str, guard: _SignalGuard) -> tuple[int, str]:
    """Create ``.NAME.XXXXXXXX.dsref-fix`` in ``folder`` (mode 0600, never an existing file) and record it in
    ``guard`` before it exists, so that a signal arriving at any moment removes it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
    for _ in range(100):
        temporary = os.path.join(folder, f".{name}.{os.urandom(4).hex()}{TEMPORARY_SUFFIX}")
        guard.temporaries.add(temporary)
        try:
            return os.open(temporary, flags, 0o600), temporary
        except FileExistsError:
            guard.temporaries.discard(temporary)
            continue
        except BaseException:
            guard.temporaries.discard(temporary)
            raise
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.path.join(folder, name))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def _copy_metadata(target: str, temporary: str, fd: int, status: os.stat_result) -> None:
    """Give the temporary file (open at ``fd``) the target's owner and group, its mode, then its extended attributes
    (ACLs among them); raise :class:`_OwnerNotKept` when the owner or group cannot be given."""
    if hasattr(os, "fchown") and (status.st_uid, status.st_gid) != _owner(fd):
        with contextlib.suppress(PermissionError):
            os.fchown(fd, status.st_uid, status.st_gid)
        if (status.st_uid, status.st_gid) != _owner(fd):
            raise _OwnerNotKept
    # after chown, which may clear the set-user/group-ID bits
    mode = stat.S_IMODE(status.st_mode)
    if os.chmod in os.supports_fd:
        os.chmod(fd, mode)
    else:
        os.chmod(temporary, mode)
    _copy_xattrs(target, fd)


def _owner(fd: int) -> tuple[int, int]:
    status = os.fstat(fd)
    return status.st_uid, status.st_gid


_XATTR_SKIPPED = {errno.ENOTSUP, errno.EOPNOTSUPP, errno.EPERM, errno.EACCES, getattr(errno, "ENODATA", errno.ENOENT)}
"""Why an extended attribute may not be copied and the write still go on: the file system has none, or this one is
not dsref's to set (``security.*`` and ``trusted.*`` need privileges), or it went away meanwhile."""


def _copy_xattrs(target: str, fd: int) -> None:
    if not hasattr(os, "listxattr"):  # not on macOS or Windows
        return
    try:
        names = os.listxattr(target)
    except OSError as exc:
        if exc.errno in _XATTR_SKIPPED:
            return
        raise
    for attribute in names:
        try:
            os.setxattr(fd, attribute, os.getxattr(target, attribute))
        except OSError as exc:
            if exc.errno not in _XATTR_SKIPPED:
                raise


TEMPORARY_NAME = re.compile(r"\..+\.[a-z0-9_]{8}" + re.escape(TEMPORARY_SUFFIX), re.DOTALL)
"""The name of any file's temporary: ``.NAME.XXXXXXXX.dsref-fix`` (eight letters, digits or ``_``: ``os.urandom``'s
hex, or ``tempfile.mkstemp``'s letters in earlier releases of dsref)."""


def remove_stale_temporaries(folder: str, *, now: float | None = None) -> list[str]:
    """Remove the temporary files a killed run left in ``folder``, of any file (:data:`TEMPORARY_NAME`, regular files
    of this user, untouched for :data:`STALE_AFTER_S` seconds); the paths removed, in the folder's order. One listing
    of the folder: ``check --fix`` calls it once for each folder it writes in. Never fails: a folder that cannot be
    listed, or a file that cannot be removed, is left as it is."""
    limit = (time.time() if now is None else now) - STALE_AFTER_S
    removed: list[str] = []
    try:
        with os.scandir(folder or ".") as listing:
            entries = [entry for entry in listing if TEMPORARY_NAME.fullmatch(entry.name)]
    except OSError:
        return removed
    for entry in entries:
        try:
            found = entry.stat(follow_symlinks=False)
            mine = not hasattr(os, "geteuid") or found.st_uid == os.geteuid()
            if stat.S_ISREG(found.st_mode) and mine and found.st_mtime < limit:
                os.unlink(entry.path)
                removed.append(entry.path)
        except OSError:
            continue
    return removed


class _SignalGuard:
    """SIGTERM, SIGINT and SIGHUP handled while a file is written, then given back.

    ``defer=False`` (a temporary file is being written): the signal removes the temporary file, then goes on as
    before: to the handler that was there (Python's for SIGINT raises ``KeyboardInterrupt``), or, where the signal
    would have ended the process, to ``SystemExit(128 + signal)``, so that what was printed is still flushed.
    ``defer=True`` (the file is being written in place): the signal waits until the write is done.
    A signal that was ignored stays ignored (``nohup``). Handlers can only be set in the main thread; elsewhere the
    guard does nothing.
    """

    def __init__(self, *, defer: bool) -> None:
        self.defer = defer
        self.temporaries: set[str] = set()
        """Temporary files being written (several while :class:`FixWrites` waits for the disk)."""
        self._previous: dict[int, Any] = {}
        self._pending: list[tuple[int, FrameType | None]] = []

    def __enter__(self) -> _SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for signum in _SIGNALS:
                previous = signal.getsignal(signum)
                if previous is not signal.SIG_IGN:
                    self._previous[signum] = previous
                    signal.signal(signum, self._handle)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        previous = self._restore()
        if self._pending:
            signum, frame = self._pending[0]
            _go_on(signum, frame, previous.get(signum, signal.SIG_DFL))

    def remove_temporaries(self) -> None:
        while self.temporaries:
            self.drop(self.temporaries.pop())

    def drop(self, temporary: str) -> None:
        """Remove ``temporary`` if it is still there and no longer track it."""
        self.temporaries.discard(temporary)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.defer:
            self._pending.append((signum, frame))
            return
        self.remove_temporaries()
        previous = self._restore()
        _go_on(signum, frame, previous.get(signum, signal.SIG_DFL))

    def _restore(self) -> dict[int, Any]:
        previous, self._previous = self._previous, {}
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)  # None: set outside Python
        return previous


def _go_on(signum: int, frame: FrameType | None, previous: Any) -> None:
    """What the signal would have done without the guard."""
    if callable(previous):
        previous(signum, frame)
        return
    raise SystemExit(128 + signum)
