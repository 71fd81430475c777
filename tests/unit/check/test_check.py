"""`dsref check`: findings with file:line:col, the three output formats, exit codes, and any input."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsref.check.findings import Severity
from dsref.check.pipeline import _relative_or_given, check_file, display_path
from dsref.check.report.draw import Piece, _json_visible, json_lines
from dsref.check.settings import CheckSettings
from dsref.cli.main import main
from dsref.text.escape import json_visible
from tests import needs
from tests.cli import ctrl_c_as_at_a_terminal, run_dsref
from tests.conftest import shared_path

BAD = """{
  // a comment
  "train_batch_size": 10,
  "train_micro_batch_size_per_gpu": 4,
  "fp16": {"enabled": true},
  "bf16": {"enabled": true},
  "amp": {"enabled": true},
  "zero_optimization": {
    "stage": 2,
    "stgae": 3,
    "cpu_offload": true,
    "offload_param": {"device": "CPU"},
    "stage": 3
  }
}
"""

GOOD = {
    "train_micro_batch_size_per_gpu": 4,
    "gradient_accumulation_steps": 2,
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}},
    "zero_optimization": {"stage": 2, "overlap_comm": True},
}


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    path = tmp_path / "ds_config.json"
    path.write_text(BAD, encoding="utf-8")
    return path


@pytest.fixture
def good(tmp_path: Path) -> Path:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(GOOD, indent=2), encoding="utf-8")
    return path


def test_findings_point_at_line_and_column(bad: Path) -> None:
    report = check_file(str(bad))
    found = {(f.code, f.where) for f in report.findings}
    assert ("DS101", "zero_optimization.stgae") in found
    assert ("DS003", "zero_optimization.stage") in found
    assert ("DS302", "amp") in found
    assert ("DS510", "bf16.enabled") in found
    assert ("DS204", "zero_optimization.offload_param.device") in found
    assert ("DS503", "train_batch_size") in found
    assert not report.ok


def test_text_output_is_compiler_style(bad: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bad), "--lang", "en"]) == 1
    out = capsys.readouterr().out
    assert f"{bad.name}:10:5: error[DS101] unknown key 'stgae'" in out.replace(str(bad), bad.name)
    assert '\n 10 |     "stgae": 3,\n    |     ^^^^^^^\n' in out
    assert "= help: did you mean 'stage'?" in out
    assert out.rstrip().splitlines()[-1].startswith("1 file checked:")


def test_good_file_exits_zero(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(good)]) == 0
    out = capsys.readouterr().out
    assert "0 errors" in out


def test_json_format(bad: Path, good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bad), str(good), "--format", "json"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert [f["ok"] for f in payload["files"]] == [False, True]
    finding = payload["files"][0]["findings"][0]
    assert {"code", "severity", "path", "line", "column", "message"} <= set(finding)
    assert payload["summary"]["files"] == 2 and payload["summary"]["error"] >= 6


def test_github_format(bad: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bad), "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("::error file=") and ",line=10,col=5," in line for line in lines)
    assert any(line.startswith("::notice ") for line in lines)


def test_chinese_output(bad: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(bad), "--lang", "zh"]) == 1
    out = capsys.readouterr().out
    assert "错误[DS101]" in out
    assert "stgae" in out
    # one voice: severities, labels and the summary in Chinese, full-width punctuation after Chinese words
    import re

    for english in ("error[", "warning[", "note[", " error", " warning", " note", "help:", "fix:"):
        assert english not in out, english
    assert "个错误" in out and "个提示" in out  # one measure word for every count
    assert not re.search(r"[\u4e00-\u9fff]: ", out), re.findall(r".{8}[\u4e00-\u9fff]: .{8}", out)


def test_directories_and_many_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.json").write_text(json.dumps(GOOD))
    (tmp_path / "two.json").write_text(json.dumps({**GOOD, "zero_optimization": {"stage": 9}}))
    (tmp_path / "notes.txt").write_text("not a config")
    assert main(["check", str(tmp_path), "--format", "json"]) == 1
    files = [f["file"] for f in json.loads(capsys.readouterr().out)["files"]]
    assert len(files) == 2 and all(f.endswith(".json") for f in files)


def test_hf_profile(tmp_path: Path) -> None:
    path = tmp_path / "hf.json"
    path.write_text(
        '{"train_batch_size": "auto", "bf16": {"enabled": "auto"}, "gradient_clipping": "auto",'
        ' "zero_optimization": {"stage": 2}, "zero_optimization": {"stage": 3}}'
    )
    report = check_file(str(path), settings=CheckSettings(profile="hf"))
    assert report.count(Severity.error) == 0
    assert [f.code for f in report.findings if f.code == "DS003"] == ["DS003"]
    plain = check_file(str(path))
    assert plain.count(Severity.error) >= 2
    commented = tmp_path / "commented.json"
    commented.write_text('{"train_batch_size": 8 // a comment\n}')
    report = check_file(str(commented), settings=CheckSettings(profile="hf"))
    assert report.error is not None and report.findings[0].code == "DS000"
    assert check_file(str(commented)).ok


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["check", "/no/such/file.json"], 2),
        (["check", "x.json", "--world-size", "0"], 2),
        (["check", "x.json", "--lang", "xx"], 2),
        (["check", "x.json", "--deepspeed-version", "latest"], 2),
    ],
)
def test_usage_and_missing_files_exit_2(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == code
    assert "Traceback" not in capsys.readouterr().err


def test_show_effective(good: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(good), "--show-effective", "--world-size", "4"]) == 0
    doc = json.loads(capsys.readouterr().out)
    config = doc["config"]
    assert config["train_batch_size"] == 4 * 2 * 4
    assert config["zero_optimization"]["reduce_bucket_size"] == 500_000_000
    assert config["zero_optimization"]["stage3_prefetch_bucket_size"] == 50_000_000


def test_rule_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rule", "DS510", "--lang", "en"]) == 0
    assert "fp16" in capsys.readouterr().out
    assert main(["rule", "DS101"]) == 0
    assert "unknown" in capsys.readouterr().out.lower()
    assert main(["rule", "DS999"]) == 2


@pytest.mark.parametrize(
    "content",
    [
        b"\x00\x01\x02binary\xff" * 100,
        b'{"a": "\xff\xfe"}',
        b"[" * 20_000 + b"]" * 20_000,
        b'{"a":' * 20_000 + b"1" + b"}" * 20_000,
        b"",
        b"   ",
        b'"just a string"',
        b"[1, 2, 3]",
        b'\xef\xbb\xbf{"train_batch_size": 8}',
    ],
)
def test_any_bytes_give_findings_not_tracebacks(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "weird.json"
    path.write_bytes(content)
    report = check_file(str(path))
    for finding in report.findings:
        assert finding.severity in Severity
    from dsref.check.report.draw import render

    for fmt in ("text", "json", "github"):
        render([report], fmt, "en")


def test_ten_megabytes_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b'{"x": "' + b"a" * 10_000_000 + b'"}')
    report = check_file(str(path))
    assert report.error is not None and report.error.kind.value == "too_large"


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "locked.json"
    path.write_text("{}")
    path.chmod(0)
    try:
        report = check_file(str(path))
        if os.geteuid() != 0:  # root reads anything
            assert report.error is not None and report.error.kind.value == "unreadable"
    finally:
        path.chmod(0o644)


def _corpus() -> list[Path]:
    return sorted(p for p in shared_path("corpus", "real").iterdir() if p.suffix == ".json")


@pytest.mark.slow
def test_whole_corpus_checks_without_exception() -> None:
    counts = {s: 0 for s in Severity}
    for path in _corpus():
        report = check_file(str(path), settings=CheckSettings(world_size=1))
        for finding in report.findings:
            counts[finding.severity] += 1
    assert counts[Severity.error] > 0 and counts[Severity.warning] > 0


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), cuts=st.integers(min_value=1, max_value=8))
def test_mutated_corpus_files(tmp_path: Path, seed: int, cuts: int) -> None:
    rng = random.Random(seed)
    files = _corpus()
    data = bytearray(rng.choice(files).read_bytes())
    for _ in range(cuts):
        if not data:
            break
        at = rng.randrange(len(data))
        choice = rng.random()
        if choice < 0.4:
            data[at] = rng.randrange(256)
        elif choice < 0.7:
            del data[at : at + rng.randrange(1, 20)]
        else:
            data[at:at] = rng.choice([b"{", b"}", b'"', b",", b"//", b"\n", b"auto", b"\xff"])
    path = tmp_path / "mutant.json"
    path.write_bytes(bytes(data))
    for profile in ("deepspeed", "hf"):
        report = check_file(str(path), settings=CheckSettings(profile=profile))  # type: ignore[arg-type]
        from dsref.check.report.draw import render

        render([report], "text", "zh")


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=15,
    ),
    st.integers(min_value=0, max_value=5),
)
@settings(max_examples=needs.examples(300), deadline=None)
def test_json_layout_is_only_layout(value: object, depth: int) -> None:
    """The JSON report writes the upper levels indented and each finding on one line; the data is json.dumps'."""
    from dsref.check.report.draw import json_lines

    text = json_lines(value, depth)
    assert json.loads(text) == value
    if depth == 0:
        assert text == json.dumps(value, ensure_ascii=False)


def test_json_report_has_one_finding_per_line(tmp_path: Path) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text('{"zero_optimization": {"stgae": 2, "stage": 4}}', encoding="utf-8")
    proc = run_dsref("check", "--format", "json", str(path))
    lines = [line.strip().rstrip(",") for line in proc.stdout.splitlines()]
    findings = [json.loads(line) for line in lines if line.startswith('{"code"')]
    assert [f["code"] for f in findings] == [f["code"] for f in json.loads(proc.stdout)["files"][0]["findings"]]
    assert len(findings) == 3  # DS501 (no batch size), DS101 (stgae), DS204 (stage 4)


def test_rule_on_a_passed_on_key_replaces_the_unknown_key_note(tmp_path: Path) -> None:
    """An optimizer param dsref does not know is one finding: DS549's error, not also DS101's note."""
    path = tmp_path / "ds.json"
    config = {"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "betas1": 0.9}}}
    path.write_text(json.dumps(config), encoding="utf-8")
    report = check_file(str(path))
    assert [(f.code, f.location) for f in report.findings] == [("DS549", ("optimizer", "params", "betas1"))]
    assert report.findings[0].args["suggestions"] == ["betas"]
    config["optimizer"] = {"type": "MuAdam", "params": {"betas1": 0.9}}  # not checked: the note stays
    path.write_text(json.dumps(config), encoding="utf-8")
    assert [f.code for f in check_file(str(path)).findings] == ["DS101"]


def test_check_for_another_release_adds_no_note_of_its_own(tmp_path: Path) -> None:
    """The cross-field rules follow the release checked for (tests/unit/tree/test_rule_releases.py): no blanket
    note that they follow 0.19.8 (the former DS584)."""
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_batch_size": 8, "optimizer": {"type": "OneBitAdam"}}), encoding="utf-8")
    assert [f.code for f in check_file(str(path)).findings] == ["DS541"]
    assert check_file(str(path), settings=CheckSettings(deepspeed_version="0.19.6")).findings == []


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_several_processes_print_what_one_prints(fmt: str) -> None:
    """Byte for byte, with the exit status, over real files (readable, broken and unreadable alike)."""
    files = [str(p) for p in _corpus()][:150]
    outputs = []
    for jobs in ("1", "3"):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "dsref",
                "check",
                "--format",
                fmt,
                "--lang",
                "zh",
                "--world-size",
                "2",
                "-j",
                jobs,
                *files,
            ],
            capture_output=True,
            text=True,
        )
        outputs.append((proc.returncode, proc.stdout, proc.stderr))
    assert outputs[0] == outputs[1]
    assert outputs[0][1].count("DS") > 100


def test_every_part_a_forked_process_sends_comes_back_whole(tmp_path: Path) -> None:
    """A forked process sends each drawn part through the pipe as its fields' values, in marshal's format: a field
    that format cannot carry would make every helper stop at its first file, leaving all to this process (slowly,
    and silently). Each format, a file with findings, a broken one and a missing one: every part the helper drew
    comes back equal, and this process checks only its own share."""
    from dsref.check import batch

    paths = []
    for n in range(2):
        good, broken = tmp_path / f"good{n}.json", tmp_path / f"broken{n}.json"
        good.write_text('{"train_batch_size": 8, "zero_optimization": {"stage": 9}}', encoding="utf-8")
        broken.write_text('{"fp16": {"enabled": True}}', encoding="utf-8")
        paths += [str(good), str(broken), str(tmp_path / f"missing{n}.json")]
    here = os.getpid()
    for fmt in ("text", "json", "github"):
        alone = dict(
            zip(
                paths, batch.check_and_draw(paths, fmt, "zh", settings=CheckSettings(world_size=2), jobs=1), strict=True
            )
        )
        checked_here: list[str] = []

        def one(path: str, alone: dict[str, Piece] = alone, checked_here: list[str] = checked_here) -> Piece:
            if os.getpid() == here:
                checked_here.append(path)
            return alone[path]

        assert list(batch._dealt_round(paths, one, 2)) == list(alone.values())
        assert checked_here == paths[0::2]  # the helper's parts (files 1, 3, 5) all came through the pipe


def test_jobs_must_be_positive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "-j", "0", "x.json"]) == 2
    assert "--jobs must be 1 or more" in capsys.readouterr().err


def test_how_many_processes() -> None:
    from dsref.check.batch import FILES_PER_WORKER, workers_for

    assert workers_for(1, 1000) == 1
    assert workers_for(8, 3) == 3  # never more processes than files
    assert workers_for(None, FILES_PER_WORKER - 1) == 1  # too few files to pay for a second process


def test_a_helper_process_that_stops_early_leaves_its_files_to_this_one() -> None:
    """The files are dealt round; when a forked worker dies (here: at the file f4), this process checks the files the
    pool had left, and the parts still come in order, each once."""
    from dsref.check import batch
    from dsref.check.report.draw import Piece

    here = os.getpid()
    checked_in: list[str] = []

    def one(path: str) -> Piece:
        if os.getpid() != here and path == "f4":
            os._exit(3)  # a helper that dies without a word
        if os.getpid() == here:
            checked_in.append(path)
        return Piece(path, 0, 0, 0, True, False)

    paths = [f"f{i}" for i in range(9)]
    got = list(batch._dealt_round(paths, one, 3))
    assert [piece.text for piece in got] == paths
    # this process's own files (f0, f3, f6) and the one that killed a worker (f4), with whatever the broken pool had
    # not answered; a worker took f4 only after sending f1 or f2, which came from it
    assert {"f0", "f3", "f4", "f6"} <= set(checked_in) and len(checked_in) == len(set(checked_in))
    assert not {"f1", "f2"} <= set(checked_in)


_CTRL_C_WHILE_FORKING = """
import multiprocessing, os, signal
signal.signal(signal.SIGINT, signal.default_int_handler)  # as dsref has it when a terminal starts it
from dsref.check import batch
from dsref.check.report.draw import Piece

real_fork, here = os.fork, os.getpid()

def fork_then_ctrl_c():
    pid = real_fork()
    if pid and os.getpid() == here:  # in this process, with a worker just forked: as a terminal's Ctrl-C
        os.kill(here, signal.SIGINT)
    return pid

os.fork = fork_then_ctrl_c
try:
    list(batch._dealt_round([f"f{i}" for i in range(9)], lambda p: Piece(p, 0, 0, 0, True, False), 3))
except KeyboardInterrupt:
    print("interrupted", len(multiprocessing.active_children()))
else:
    print("not interrupted")
"""


@pytest.mark.slow
def test_a_ctrl_c_while_the_workers_are_forked_is_held_back_not_lost() -> None:
    """The workers are forked with Ctrl-C ignored, so that they ignore it from birth: one that comes meanwhile is
    held back and reaches the process once they are forked, as a KeyboardInterrupt, and the pool stops. In a
    process of its own, as dsref runs: a signal sent to a process goes to any of its threads that does not block
    it, and a test runner's own threads would take it."""
    done = subprocess.run([sys.executable, "-c", _CTRL_C_WHILE_FORKING], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["interrupted", "0"], done.stdout + done.stderr


def test_where_no_process_can_be_forked_the_files_are_checked_here(monkeypatch: pytest.MonkeyPatch) -> None:
    from dsref.check import batch
    from dsref.check.report.draw import Piece

    def refuse() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refuse)
    got = list(batch._dealt_round(["a", "b", "c"], lambda p: Piece(p, 0, 0, 0, True, False), 3))
    assert [piece.text for piece in got] == ["a", "b", "c"]
    monkeypatch.undo()
    monkeypatch.setattr(os, "pipe", refuse)
    got = list(batch._dealt_round(["a", "b", "c"], lambda p: Piece(p, 0, 0, 0, True, False), 3))
    assert [piece.text for piece in got] == ["a", "b", "c"]
    for missing in ("fork", "pipe"):  # a browser's Python (Pyodide) has neither
        monkeypatch.undo()
        monkeypatch.delattr(os, missing)
        assert batch.workers_for(4, 1000) == 1 and batch.workers_for(None, 10_000) == 1


def test_jobs_where_no_process_can_be_started_is_the_same_answer_quietly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--jobs 4`` on a Python without fork and pipe (a browser's) checks every file here, and says nothing more."""
    from dsref.cli.main import main

    for i in range(6):
        (tmp_path / f"c{i}.json").write_text(json.dumps({"train_batch_size": 8, "zero_optimization": {"stgae": i}}))
    assert main(["check", "--jobs", "1", "--lang", "en", str(tmp_path)]) == 1
    alone = capsys.readouterr()
    monkeypatch.delattr(os, "fork")
    monkeypatch.delattr(os, "pipe")
    assert main(["check", "--jobs", "4", "--lang", "en", str(tmp_path)]) == 1
    assert capsys.readouterr() == alone and alone.err == "" and alone.out.count("DS101") == 6


@pytest.mark.slow
def test_ctrl_c_while_several_processes_check_is_no_traceback(tmp_path: Path) -> None:
    import signal
    import time

    children = Path("/proc/self/task")
    if not children.is_dir():
        pytest.skip("needs /proc to see when the helper processes have started")
    for i in range(6000):
        (tmp_path / f"c{i:04}.json").write_text(json.dumps({"train_batch_size": 8, "fp16": {"enabled": True}}))
    proc = subprocess.Popen(
        [sys.executable, "-m", "dsref", "check", "-j", "3", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    started = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        if started.exists() and len(started.read_text().split()) >= 2:
            break  # both helpers are forked (this process checks a share too)
        time.sleep(0.005)
    time.sleep(0.1)  # and checking
    helpers = started.read_text().split()
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal does: to the whole process group
    _, err = proc.communicate(timeout=60)
    assert "Traceback" not in err, err
    assert proc.returncode == 130
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in helpers):
        time.sleep(0.05)
    assert helpers and not any(Path(f"/proc/{pid}").exists() for pid in helpers)  # none left checking


def test_a_minified_config_shows_the_part_of_its_line_around_the_finding(tmp_path: Path) -> None:
    path = tmp_path / "mini.json"
    path.write_text(json.dumps({"train_batch_size": 8, "x": "a" * 3000, "zero_optimization": {"stgae": 2}}))
    out = run_dsref("check", str(path)).stdout.splitlines()
    assert out[0].startswith("Checked for DeepSpeed ")  # what the check is for, then the finding
    source, caret = out[2], out[3]
    assert len(source) < 120 and source.split(" | ", 1)[1].startswith("…")
    at = caret.index("^")
    assert source[at : at + len('"stgae"')] == '"stgae"'
    assert out[-1] == "1 file checked: 1 error, 1 warning, 0 notes; 1 fixable with --fix --unsafe-fixes"


@settings(max_examples=needs.examples(400), deadline=None)
@given(
    st.text(alphabet=st.sampled_from('ab"{}:,\x1b\u2028\u202e\t零'), min_size=1, max_size=1500),
    st.data(),
)
def test_a_long_source_line_is_cut_before_it_is_escaped_with_the_same_result(line: str, data: st.DataObject) -> None:
    """shown_source escapes only the part of a long line it shows: what it shows is what escaping the whole line
    and then cutting it shows."""
    from dsref.check.report.draw import _visible_source, shown_source, source_window

    column = data.draw(st.integers(1, len(line)))
    width = data.draw(st.integers(1, len(line) - column + 1))
    assert shown_source(line, column, width) == source_window(*_visible_source(line, column, width))


def test_display_path_as_relpath(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report names a file as os.path.relpath does (relative below the working directory, else as given), though
    display_path works it out without relpath on POSIX."""
    work = tmp_path / "work" / "wt"
    work.mkdir(parents=True)
    named = ["a.json", "./a.json", "sub/../a.json", "sub//a.json", "sub/", ".", "..", "../wt/a.json", "../wt2/a.json"]
    named += ["../../x.json", "..foo.json", "sub/..foo", "/", "//x/y", "///x", "", "a b/ç.json", "/etc/hosts"]
    named += [str(work), f"{work}/a.json", f"{work}/", str(work.parent), f"{work}2/a.json", f"{work}/../wt/b"]
    steps = ["a", "..", ".", "", "wt", "work", "..x", str(tmp_path).strip("/")]
    pick = random.Random(7)
    named += [pick.choice(["", "/", "//"]) + "/".join(pick.choices(steps, k=pick.randint(1, 6))) for _ in range(400)]
    for cwd in (work, tmp_path, Path("/")):
        monkeypatch.chdir(cwd)
        for path in named:
            assert display_path(path) == _relative_or_given(path), (cwd, path)


def test_report_json_shortcuts() -> None:
    """The JSON report's shortcuts write what json.dumps and json_visible write: a report is made visible without a
    search when it is ASCII without DEL, and numbers, booleans and null are written without an encoder."""
    pick = random.Random(5)
    chars = ["a", " ", "\\", '"', "\x00", "\x1b", "\t", "\n", "\x7f", "\x9b", "é", "零", "\u202e", "\u2028", "😀"]
    for n in range(300):
        value = {"message": "".join(pick.choices(chars, k=n % 12)), "line": n - 150, "ok": n % 2 == 0, "x": None}
        text = json_lines({"findings": [value], **value}, 2)
        assert json.loads(text) == {"findings": [value], **value}
        assert _json_visible(text) == json_visible(text)
        for scalar in value.values():
            assert json_lines(scalar, 1) == json.dumps(scalar, ensure_ascii=False)


@pytest.mark.parametrize("written", [b'{"steps_per_print": 5}', b'{"x": "' + b"a" * 300_000 + b'"}'])
def test_a_file_larger_than_its_status_says_is_read_whole_or_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, written: bytes
) -> None:
    """A file read for as many bytes as its status gives (one that grew since, or a /proc file saying 0) is read
    on: the short file whole, the long one refused as too large, never judged from its first bytes."""
    import os

    from dsref.check.read import loader

    path = tmp_path / "growing.json"
    path.write_bytes(written)
    real_fstat = os.fstat

    def says_empty(fd: int) -> os.stat_result:
        status = list(real_fstat(fd))
        status[6] = 0  # st_size
        return os.stat_result(status)

    monkeypatch.setattr(loader.os, "fstat", says_empty)
    report = check_file(str(path))
    if len(written) < loader.MAX_BYTES:
        assert report.error is None and report.loaded is not None and report.loaded.data == {"steps_per_print": 5}
    else:
        assert report.error is not None and report.error.kind.value == "too_large"
