"""``dsref check --fix`` writes only over what it read (``dsref/check/fix/writer.py``).

* A file changed between the read and the write keeps the change, and dsref says so (both languages), exit status 2.
* The check compares the bytes, not only the size and time, and sees a file replaced, deleted, grown or re-linked.
* A symbolic link is written through (the link stays a link), hard links stay linked, owner, group, mode and extended
  attributes stay.
* SIGTERM, SIGINT and SIGHUP during the write leave no temporary file and end with 128 + the signal; during an
  in-place write they wait until it is done. Temporary files a SIGKILL left are removed by the next fix of the file.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import dsref.check.fix.fixer
import dsref.check.fix.writer
from dsref.check.fix.fixer import Original, read_original
from dsref.check.fix.writer import (
    STALE_AFTER_S,
    FileChanged,
    remove_stale_temporaries,
    write_fixed,
    writes_in_place,
)
from dsref.cli.main import main

ROOT = Path(__file__).resolve().parents[3]

BROKEN = '{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": "true"}\n}\n'
FIXED = BROKEN.replace('"bfloat16": {"enabled": "true"}', '"bf16": {"enabled": true}')
EDITED = BROKEN.replace('"train_batch_size": 8', '"train_batch_size": 16')


def _original(path: Path) -> Original:
    read = read_original(str(path))
    assert isinstance(read, Original)
    return read


def _leftovers(*folders: Path) -> list[str]:
    return sorted(p.name for folder in folders for p in folder.iterdir() if p.name.endswith(".dsref-fix"))


# -- a file changed after it was read -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "en",
            "changed after dsref read it, so the fixes were not written; the file is left as it is now: "
            "run dsref check --fix again",
        ),
        ("zh", "在 dsref 读取之后被改动过，因此没有写入修复，文件保持现有内容不变；请重新运行 dsref check --fix"),
    ],
)
@pytest.mark.parametrize("linked", [False, True], ids=["one name", "hard-linked"])
def test_an_edit_made_while_fixing_survives_and_is_reported(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lang: str,
    said: str,
    linked: bool,
) -> None:
    """The user saves the file while dsref fixes it: their text stays, byte for byte, and dsref claims no fix."""
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    if linked:  # written in place rather than renamed over: the same check
        os.link(path, tmp_path / "other.json")
    real_fix_text = dsref.check.fix.fixer.fix_text

    def user_saves_meanwhile(*args: Any, **kwargs: Any) -> Any:
        result = real_fix_text(*args, **kwargs)
        path.write_text(EDITED, encoding="utf-8")
        return result

    monkeypatch.setattr(dsref.check.fix.fixer, "fix_text", user_saves_meanwhile)
    assert main(["check", "--fix", str(path), "--lang", lang]) == 2
    out, err = capsys.readouterr()
    assert path.read_text(encoding="utf-8") == EDITED
    assert f"dsref: {path} {said}" in err
    assert "Traceback" not in err
    assert out.rstrip().endswith("fixed 0 findings in 0 files" if lang == "en" else "已修复 0 个问题，涉及 0 个文件")
    assert not _leftovers(tmp_path)


def _same_size_and_time(path: Path) -> None:
    before = path.stat()
    path.write_text(BROKEN.replace('"train_batch_size": 8', '"train_batch_size": 9'), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _replaced(path: Path) -> None:
    """Another file renamed over it, with the same bytes and time (an editor that saves by renaming)."""
    before = path.stat()
    other = path.with_name("new.json")
    other.write_text(BROKEN, encoding="utf-8")
    os.utime(other, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(other, path)


def _grown(path: Path) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write("// more\n")


def _relinked(path: Path) -> None:
    """The link now leads to another file with the same text."""
    other = path.with_name("elsewhere.json")
    other.write_text(BROKEN, encoding="utf-8")
    path.unlink()
    path.symlink_to(other.name)


CHANGES: dict[str, Callable[[Path], None]] = {
    "edited": lambda path: path.write_text(EDITED, encoding="utf-8"),
    "same size and time, other bytes": _same_size_and_time,
    "another file renamed over it": _replaced,
    "grown": _grown,
    "deleted": lambda path: path.unlink(),
    "link leads elsewhere": _relinked,
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=list(CHANGES))
def test_any_change_since_the_read_stops_the_write(tmp_path: Path, change: Callable[[Path], None]) -> None:
    target = tmp_path / "real.json"
    target.write_text(BROKEN, encoding="utf-8")
    path = tmp_path / "ds.json"
    path.symlink_to(target.name)
    original = _original(path)
    if change is not _relinked:
        change(target)
        after = target.read_bytes() if target.exists() else None
    else:
        change(path)
        after = target.read_bytes()
    with pytest.raises(FileChanged) as raised:
        write_fixed(original.snapshot, FIXED)
    assert raised.value.path == str(path)
    assert (target.read_bytes() if target.exists() else None) == after
    assert not _leftovers(tmp_path)


# -- links, owner, mode, extended attributes ----------------------------------------------------------------------


def test_a_symbolic_link_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    configs, links = tmp_path / "configs", tmp_path / "links"
    configs.mkdir()
    links.mkdir()
    target = configs / "real.json"
    target.write_text(BROKEN, encoding="utf-8")
    link = links / "ds.json"
    link.symlink_to(os.path.relpath(target, links))
    before = os.readlink(link)
    assert main(["check", "--fix", str(link)]) == 0
    assert link.is_symlink() and os.readlink(link) == before
    assert target.read_text(encoding="utf-8") == FIXED
    assert sorted(p.name for p in links.iterdir()) == ["ds.json"]
    assert sorted(p.name for p in configs.iterdir()) == ["real.json"]


def test_hard_links_keep_one_file_with_the_fix(tmp_path: Path) -> None:
    path, other = tmp_path / "ds.json", tmp_path / "other.json"
    path.write_text(BROKEN, encoding="utf-8")
    os.link(path, other)
    inode = path.stat().st_ino
    assert main(["check", "--fix", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == FIXED
    assert path.stat().st_ino == other.stat().st_ino == inode
    assert path.stat().st_nlink == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds.json", "other.json"]


def test_owner_group_and_mode_are_kept(tmp_path: Path) -> None:
    """As root the file is first given to another user and group; otherwise to another group of ours if there is one.
    Either way owner, group and mode after the fix are those before it."""
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    path.chmod(0o604)
    if os.geteuid() == 0:
        os.chown(path, 12345, 23456)
    elif others := [g for g in os.getgroups() if g != os.getegid()]:
        os.chown(path, -1, others[0])
    before = path.stat()
    assert main(["check", "--fix", str(path)]) == 0
    after = path.stat()
    assert path.read_text(encoding="utf-8") == FIXED
    assert after.st_ino != before.st_ino  # replaced, not written in place
    assert (after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (
        before.st_uid,
        before.st_gid,
        0o604,
    )


def _status(uid: int, gid: int, links: int = 1) -> os.stat_result:
    """A file's status with only what the decision reads: its owner, its group, its number of names."""
    return os.stat_result((stat.S_IFREG | 0o664, 1, 1, links, uid, gid, 0, 0, 0, 0))


@pytest.mark.parametrize(
    ("owner", "group", "links", "euid", "groups", "in_place"),
    [
        (1000, 1000, 1, 1000, {1000}, False),  # ours: a new file can be given it all, renamed over it
        (1000, 2000, 1, 1000, {1000, 2000}, False),  # another group of ours
        (1000, 2000, 1, 1000, {1000}, True),  # a group we are not in: written in place, the group stays
        (2000, 1000, 1, 1000, {1000}, True),  # another user's file we may write: it stays theirs
        (2000, 3000, 1, 0, set(), False),  # root gives any owner
        (1000, 1000, 2, 1000, {1000}, True),  # hard links
    ],
)
def test_a_file_whose_owner_could_not_be_given_is_written_in_place(
    owner: int, group: int, links: int, euid: int, groups: set[int], in_place: bool
) -> None:
    assert writes_in_place(_status(owner, group, links), euid=euid, groups=groups) is in_place


def test_a_refused_chown_falls_back_to_writing_in_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the system refuses what the decision expected it to allow (root without CAP_CHOWN in a container, a
    network mount that maps owners), the new file is dropped and the fix written in place: owner and group stay."""
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    before = path.stat()
    real_fstat = os.fstat

    def other_owner(fd: int) -> os.stat_result:  # the temporary file looks as if it kept this user as its owner
        status = real_fstat(fd)
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".dsref-fix"):
            fields = list(status)
            fields[4] = status.st_uid + 1
            return os.stat_result(fields)
        return status

    if not Path("/proc/self/fd").is_dir():
        pytest.skip("no /proc/self/fd to tell the temporary file's descriptor")
    monkeypatch.setattr(dsref.check.fix.writer.os, "fchown", lambda fd, uid, gid: None)
    monkeypatch.setattr(dsref.check.fix.writer.os, "fstat", other_owner)
    write_fixed(_original(path).snapshot, FIXED)
    after = path.stat()
    assert path.read_text(encoding="utf-8") == FIXED
    assert (after.st_ino, after.st_uid, after.st_gid) == (before.st_ino, before.st_uid, before.st_gid)
    assert _leftovers(tmp_path) == []


NOBODY = 65534


@pytest.mark.skipif(not hasattr(os, "seteuid") or os.geteuid() != 0, reason="needs root, to act as another user")
def test_another_users_file_keeps_its_owner() -> None:
    """A file of root's that everyone may write, fixed by the user ``nobody`` (this process with ``nobody`` as its
    effective user for the write): it stays root's, in the same inode, and keeps its group and mode."""
    folder = Path(tempfile.mkdtemp(prefix="dsref-owner-", dir="/tmp"))  # pytest's folders are closed to others
    try:
        folder.chmod(0o777)
        path = folder / "ds.json"
        path.write_text(BROKEN, encoding="utf-8")
        path.chmod(0o666)
        before = path.stat()
        snapshot = _original(path).snapshot
        os.seteuid(NOBODY)
        try:
            write_fixed(snapshot, FIXED)
        finally:
            os.seteuid(0)
        after = path.stat()
        assert path.read_text(encoding="utf-8") == FIXED
        assert (after.st_ino, after.st_uid, after.st_gid, stat.S_IMODE(after.st_mode)) == (
            before.st_ino,
            before.st_uid,
            before.st_gid,
            0o666,
        )
        assert _leftovers(folder) == []
    finally:
        shutil.rmtree(folder)


@pytest.mark.skip_allowed_in_ci(
    "user extended attributes depend on the file system under the temporary folder (tmpfs before Linux 6.6, some "
    "overlay and network mounts have none)"
)
def test_an_extended_attribute_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    if not hasattr(os, "setxattr"):
        pytest.skip(f"os.setxattr does not exist on {sys.platform}: dsref copies no extended attributes there")
    try:
        os.setxattr(path, "user.dsref-test", b"kept")
    except OSError as exc:
        if exc.errno not in (errno.ENOTSUP, errno.EOPNOTSUPP):
            raise
        pytest.skip(f"the file system of {tmp_path} does not take user extended attributes ({exc.strerror})")
    inode = path.stat().st_ino
    assert main(["check", "--fix", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == FIXED
    assert path.stat().st_ino != inode  # the new file got it
    assert os.getxattr(path, "user.dsref-test") == b"kept"


# -- signals ------------------------------------------------------------------------------------------------------

CATCHABLE = {"SIGTERM": (signal.SIGTERM, SystemExit), "SIGINT": (signal.SIGINT, KeyboardInterrupt)}
if hasattr(signal, "SIGHUP"):
    CATCHABLE["SIGHUP"] = (signal.SIGHUP, SystemExit)


@pytest.fixture
def default_handlers() -> Iterator[None]:
    """The handlers a plain ``python -m dsref`` has (pytest may have others), put back afterwards."""
    saved = {signum: signal.getsignal(signum) for signum, _ in CATCHABLE.values()}
    for signum, _ in CATCHABLE.values():
        signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT else signal.SIG_DFL)
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def _signal_self(signum: int) -> None:
    """Send ``signum`` to this process: only while dsref handles it (never kill the test run)."""
    handler = signal.getsignal(signum)
    assert handler not in (signal.SIG_DFL, signal.default_int_handler), "no handler installed around the write"
    signal.raise_signal(signum)


@pytest.mark.parametrize(("signum", "raised"), CATCHABLE.values(), ids=list(CATCHABLE))
@pytest.mark.usefixtures("default_handlers")
def test_a_signal_during_the_write_removes_the_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, signum: int, raised: type[BaseException]
) -> None:
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    original = _original(path)
    real_write_all = dsref.check.fix.writer._write_all
    seen: list[str] = []

    def stopped_halfway(fd: int, data: bytes) -> None:
        real_write_all(fd, data[: len(data) // 2])
        seen.extend(_leftovers(tmp_path))  # the temporary file is there, half written
        _signal_self(signum)
        real_write_all(fd, data[len(data) // 2 :])  # pragma: no cover - the signal stops the write

    monkeypatch.setattr(dsref.check.fix.writer, "_write_all", stopped_halfway)
    with pytest.raises(raised) as stopped:
        write_fixed(original.snapshot, FIXED)
    if raised is SystemExit:
        assert stopped.value.args == (128 + signum,)
    assert len(seen) == 1
    assert path.read_text(encoding="utf-8") == BROKEN
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds.json"]
    assert signal.getsignal(signum) in (signal.SIG_DFL, signal.default_int_handler)  # given back


@pytest.mark.usefixtures("default_handlers")
def test_a_signal_during_an_in_place_write_waits_until_it_is_done(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, other = tmp_path / "ds.json", tmp_path / "other.json"
    path.write_text(BROKEN, encoding="utf-8")
    os.link(path, other)
    original = _original(path)
    real_write_all = dsref.check.fix.writer._write_all

    def signalled_halfway(fd: int, data: bytes) -> None:
        real_write_all(fd, data[: len(data) // 2])
        _signal_self(signal.SIGTERM)
        real_write_all(fd, data[len(data) // 2 :])

    monkeypatch.setattr(dsref.check.fix.writer, "_write_all", signalled_halfway)
    with pytest.raises(SystemExit) as stopped:
        write_fixed(original.snapshot, FIXED)
    assert stopped.value.args == (128 + signal.SIGTERM,)
    assert path.read_text(encoding="utf-8") == other.read_text(encoding="utf-8") == FIXED


SIGTERM_DURING_WRITE = """
import os, signal, sys
import dsref.check.fix.writer as writer
from dsref.cli.main import main

real_write_all = writer._write_all
def terminated(fd, data):
    real_write_all(fd, data[:10])
    os.kill(os.getpid(), signal.SIGTERM)
    real_write_all(fd, data[10:])
writer._write_all = terminated
sys.exit(main(["check", "--fix", sys.argv[1]]))
"""


def test_sigterm_ends_dsref_with_status_143_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    """A real process, its SIGTERM left to the system's default as ``python -m dsref`` has it."""
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SIGTERM_DURING_WRITE), str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"},
        timeout=60,
    )
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    assert "Traceback" not in proc.stderr
    assert path.read_text(encoding="utf-8") == BROKEN
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ds.json"]


def test_temporary_files_a_killed_run_left_are_removed_and_never_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """SIGKILL cannot be caught: the next ``--fix`` in the folder removes the temporary files of any file there older
    than a minute, once, and says how many; ``check`` on the folder does not read them."""
    path = tmp_path / "ds.json"
    path.write_text(BROKEN, encoding="utf-8")
    old = time.time() - STALE_AFTER_S - 5
    stale = tmp_path / ".ds.json.k3x9_a2q.dsref-fix"  # tempfile.mkstemp's names (an earlier dsref) or ours
    stale_hex = tmp_path / ".ds.json.0f1e2d3c.dsref-fix"
    stale_other = tmp_path / ".other.json.0f1e2d3c.dsref-fix"  # of a file that needs no fix, or is gone
    fresh = tmp_path / ".ds.json.4b5a6978.dsref-fix"  # a run writing right now
    others = [tmp_path / ".ds.json.notours.dsref-fix", tmp_path / "ds.json.0f1e2d3c.dsref-fix"]  # not our names
    for leftover in (stale, stale_hex, stale_other, fresh, *others):
        leftover.write_text('{"half": ', encoding="utf-8")
        if leftover is not fresh:
            os.utime(leftover, (old, old))
    from dsref.check.pipeline import expand

    found = expand([str(tmp_path)])
    assert [Path(p).name for p in (*found.files, *found.skipped)] == ["ds.json"]  # the leftovers are not *.json
    assert main(["check", "--fix", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == FIXED
    assert not stale.exists() and not stale_hex.exists() and not stale_other.exists()
    assert fresh.exists() and all(p.exists() for p in others)
    said = capsys.readouterr().err
    assert said.count("removed 3 temporary files that an interrupted dsref check --fix had left in") == 1, said
    assert remove_stale_temporaries(str(tmp_path), now=time.time() + STALE_AFTER_S + 1) == [str(fresh)]


def test_stale_temporaries_are_looked_for_once_in_each_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder of many files is listed once, not once for each file written (which made ``--fix`` quadratic),
    and the removal is said in the user's language."""
    folders = [tmp_path / "a", tmp_path / "b"]
    for folder in folders:
        folder.mkdir()
        for n in range(5):
            (folder / f"ds_config{n}.json").write_text(BROKEN, encoding="utf-8")
    leftover = folders[1] / ".ds_config3.json.0f1e2d3c.dsref-fix"
    leftover.write_text("{", encoding="utf-8")
    old = time.time() - STALE_AFTER_S - 5
    os.utime(leftover, (old, old))
    listed: list[str] = []
    real_remove = dsref.check.fix.writer.remove_stale_temporaries

    def counted(folder: str, **kwargs: Any) -> list[str]:
        listed.append(folder)
        return real_remove(folder, **kwargs)

    monkeypatch.setattr(dsref.check.fix.writer, "remove_stale_temporaries", counted)
    assert main(["check", "--fix", "--lang", "zh", *map(str, folders)]) == 0
    assert sorted(listed) == sorted(str(f) for f in folders)
    assert not leftover.exists()
    assert "已删除 1 个临时文件" in capsys.readouterr().err


SIGTERM_DURING_A_FOLDER = """
import os, signal, sys
import dsref.check.fix.writer as writer
from dsref.cli.main import main

real_write_all, seen = writer._write_all, []
def terminated(fd, data):
    real_write_all(fd, data)
    seen.append(fd)
    if len(seen) == 3:  # two files' temporary files are waiting for their sync, or renamed: a third is written
        os.kill(os.getpid(), signal.SIGTERM)
writer._write_all = terminated
sys.exit(main(["check", "--fix", sys.argv[1]]))
"""


def test_sigterm_while_a_folder_is_fixed_leaves_no_temporary_file(tmp_path: Path) -> None:
    """Several writes are under way at once (:class:`FixWrites` overlaps their syncs): a signal removes every
    temporary file not yet renamed; each file is the old text or the fixed one, never a mix."""
    for n in range(6):
        (tmp_path / f"ds_config{n}.json").write_text(BROKEN, encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SIGTERM_DURING_A_FOLDER), str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8"},
        timeout=120,
    )
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    assert "Traceback" not in proc.stderr
    assert _leftovers(tmp_path) == []
    texts = [(tmp_path / f"ds_config{n}.json").read_text(encoding="utf-8") for n in range(6)]
    assert all(text in (BROKEN, FIXED) for text in texts)
    assert texts[2:] == [BROKEN] * 4  # the third was being written, the rest not yet read


def test_a_folder_fixed_with_overlapped_writes_says_each_file_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file that cannot be written, among files that can: each file's outcome is said in the order given."""
    names = [f"ds_config{n}.json" for n in range(5)]
    for name in names:
        (tmp_path / name).write_text(BROKEN, encoding="utf-8")
    (tmp_path / "ds_config2.json").chmod(0o444)
    assert main(["check", "--fix", str(tmp_path)]) == 2
    out = capsys.readouterr()
    assert [line.split(":")[0].rsplit("/", 1)[-1] for line in out.err.splitlines()] == ["dsref"]
    assert "ds_config2.json" in out.err and "cannot write" in out.err
    fixed = [(tmp_path / name).read_text(encoding="utf-8") == FIXED for name in names]
    assert fixed == [True, True, False, True, True]
    assert out.out.index("ds_config2.json") > 0 and out.out.rstrip().endswith("fixed 8 findings in 4 files")
