"""What a careless or hostile user can hand dsref: each gets a one-line answer and an exit status, never a traceback,
a hang or output a terminal would obey."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dsref
from dsref.check.read.loader import load, load_bytes
from dsref.cli.main import main
from tests import needs
from tests.cli import ctrl_c_as_at_a_terminal
from tests.models import SMALL_LLAMA

pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")


def run(*args: str, cwd: Path | None = None, stdin: bytes | None = None, env: dict[str, str] | None = None):
    """``python -m dsref`` with bytes in and out (whatever it prints must be checked as bytes)."""
    return subprocess.run(
        [sys.executable, "-m", "dsref", *args],
        capture_output=True,
        input=stdin,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> None:
    assert b"Traceback" not in proc.stderr, proc.stderr.decode("utf-8", "replace")


# -- item 1: what the report is made of ---------------------------------------------------------------------------

SURROGATES = '{"train_batch_size": 8, "x\\ud800": 1, "fp16": {"enabled": "\\udcff"}}'


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_lone_surrogates_in_keys_and_values_are_reported_in_every_format(tmp_path: Path, fmt: str) -> None:
    (tmp_path / "ds_config.json").write_text(SURROGATES, encoding="utf-8")
    (tmp_path / "after.json").write_text('{"train_batch_size": 8, "stgae": 1}', encoding="utf-8")
    proc = run("check", "ds_config.json", "after.json", "--format", fmt, cwd=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 1
    out = proc.stdout.decode("utf-8")  # valid UTF-8, or this raises
    assert "after.json" in out  # the batch's output is whole: the next file is there too
    if fmt == "json":
        report = json.loads(out)
        keys = {f["path"] for f in report["files"][0]["findings"]}
        assert "x\ud800" in keys  # the JSON escape reads back as what the file holds
    else:
        assert "x\\ud800" in out and "\\udcff" in out


def test_a_lone_surrogate_in_a_path_or_a_string_is_kept_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """DeepSpeed's models take such a string as written (a path option makes a path of it): no traceback, and no
    "converts it" finding whose fix would write the same text again (the crash and the finding it replaced)."""
    config = tmp_path / "ds_config.json"
    config.write_text(
        '{"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme", "nvme_path": "\\ud800"}},'
        ' "comms_logger": {"prof_ops": ["\\udcff"]}}',
        encoding="utf-8",
    )
    for argv in (
        ["check", str(config)],
        ["check", "--format", "json", str(config)],
        ["check", "--fix", "--diff", str(config)],
    ):
        status = main(argv)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err and status in (0, 1), (argv, out, err)
        assert "DS202" not in out, argv  # nothing is converted
    assert config.read_text(encoding="utf-8").count("\\ud800") == 1  # --diff wrote nothing


@pytest.mark.slow
def test_file_names_that_are_not_utf8_keep_the_output_valid(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"bad\xff.json")
    with open(name, "wb") as handle:
        handle.write(b'{"train_batch_size": 8, "stgae": 1, "steps_per_print": 10}')  # two keys: a config
    proc = run("check", str(tmp_path), "--format", "json")
    no_traceback(proc)
    report = json.loads(proc.stdout.decode("utf-8"))
    assert report["files"][0]["file"].endswith("bad\udcff.json")
    text = run("check", str(tmp_path)).stdout.decode("utf-8")
    assert "bad\\xff.json:1:" in text  # the byte as it is, shown


def test_control_characters_are_shown_not_obeyed(tmp_path: Path) -> None:
    hostile = "\u001b]0;owned\u0007\r\nds_config.json:1:1: error[DS000] fake\u202e"
    config = {"train_batch_size": 8, hostile: 1, "fp16": {"enabled": hostile}}
    name = tmp_path / "a\u001b[31mred\nb.json"
    name.write_text(json.dumps(config), encoding="utf-8")
    for fmt in ("text", "github"):
        proc = run("check", str(name), "--format", fmt, "--lang", "en")
        no_traceback(proc)
        out = proc.stdout.decode("utf-8")
        for char in "\x1b\x07\r\u202e":
            assert char not in out, (fmt, char)
        assert "\\x1b]0;owned\\x07\\r\\n" in out
        lines = out.splitlines()
        # every line is one of dsref's own: no forged "file:line:col:" line, no file name split in two
        assert not any(line.startswith("ds_config.json:1:1") for line in lines)
        assert all("b.json" not in line or "red\\nb.json" in line for line in lines)


def test_an_integer_too_long_to_print() -> None:
    findings = dsref.validate({"train_batch_size": 10**5000, "steps_per_print": -(10**400)})
    assert findings, "a 5,001-digit batch size is not a config"
    shown = {f.option: f.args["value"] for f in findings}
    assert shown["train_batch_size"] == "≈1.0e+5000"


@pytest.mark.slow
def test_stdout_closed_full_or_ascii(tmp_path: Path) -> None:
    config = tmp_path / "ds.json"
    config.write_text('{"train_batch_size": 8, "零": 1}', encoding="utf-8")
    closed = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m dsref check "{config}" >&-'], capture_output=True, timeout=60
    )
    no_traceback(closed)
    assert closed.returncode == 2
    assert closed.stderr.decode().startswith("dsref: standard output is closed")
    if os.path.exists("/dev/full"):
        full = subprocess.run(
            ["bash", "-c", f'"{sys.executable}" -m dsref check "{config}" > /dev/full'],
            capture_output=True,
            timeout=60,
            env={**os.environ, "LANG": "zh_CN.UTF-8"},
        )
        no_traceback(full)
        assert full.returncode == 2
        assert full.stderr.decode() == "dsref: 无法写出结果：设备上没有剩余空间\n"
    ascii_ = run("check", str(config), "--lang", "zh", env={"PYTHONIOENCODING": "ascii"})
    no_traceback(ascii_)
    assert ascii_.returncode == 0
    ascii_.stdout.decode("ascii")
    assert "\\u" in ascii_.stdout.decode("ascii")


@pytest.mark.slow
def test_a_fifo_is_refused_not_waited_for(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    (tmp_path / "ok.json").write_text('{"train_batch_size": 8}', encoding="utf-8")
    for target in (fifo, tmp_path):  # named, and met in a directory
        proc = run("check", str(target))
        no_traceback(proc)
        assert proc.returncode == 2
        assert b"named pipe (FIFO), not a regular file" in proc.stdout
    assert load(fifo).reason == "not_a_file"
    assert run("check", "--fix", str(fifo)).returncode == 2
    assert load("/dev/null").reason == "not_a_file"


# -- item 2: the inputs people pipe and name ----------------------------------------------------------------------


def test_check_reads_standard_input(tmp_path: Path) -> None:
    text = b'{"train_batch_size": "8", "stgae": 1,}'
    (tmp_path / "ds.json").write_bytes(text)
    from_file = run("check", "ds.json", "--format", "json", cwd=tmp_path)
    from_stdin = run("check", "-", "--format", "json", stdin=text, cwd=tmp_path)
    assert from_stdin.returncode == from_file.returncode == 1
    read_file, read_stdin = json.loads(from_file.stdout), json.loads(from_stdin.stdout)
    assert read_stdin["files"][0]["file"] == "<stdin>"
    assert read_stdin["files"][0]["findings"] == read_file["files"][0]["findings"]
    both = run("check", "ds.json", "-", stdin=text, cwd=tmp_path)
    assert both.stdout.count(b"error[DS201]") == 2
    assert run("check", "-", "-", stdin=text).returncode == 2
    bom = run("check", "-", stdin=b"\xef\xbb\xbf" + text, cwd=tmp_path)
    assert bom.returncode == 1 and b"<stdin>:1:" in bom.stdout


def test_a_file_name_starting_with_a_dash(tmp_path: Path) -> None:
    (tmp_path / "-x.json").write_text('{"train_batch_size": 8}', encoding="utf-8")
    proc = run("check", "-x.json", cwd=tmp_path)
    assert proc.returncode == 2
    last = proc.stderr.decode().splitlines()[-1]
    said = "'-x.json' starts with '-', so it was read as an option; to check a file of that name, put '--' before it"
    assert last == f"dsref: {said}: dsref check -- -x.json"
    zh = run("check", "-x.json", "--lang", "zh", cwd=tmp_path)
    assert "“-x.json”以“-”开头" in zh.stderr.decode()
    assert run("check", "--", "-x.json", cwd=tmp_path).returncode == 0


def test_an_empty_file_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "", "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        "dsref: an empty file name was given; give the path of a config file, or '-' to read standard input\n"
    )


def test_an_unreadable_directory_says_permission_denied(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Root reads every directory whatever its mode, so the refusal is made here, where os.walk and load ask.
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "ds.json").write_text("{}", encoding="utf-8")
    real_scandir, real_listdir = os.scandir, os.listdir

    def refuse(path: object = ".") -> object:
        if os.fspath(path) == str(locked):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(locked))
        return real_scandir(path)  # type: ignore[arg-type]

    def refuse_list(path: object = ".") -> list[str]:
        if os.fspath(path) == str(locked):  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(locked))
        return real_listdir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", refuse)
    monkeypatch.setattr(os, "listdir", refuse_list)
    assert main(["check", str(locked), "--lang", "en"]) == 2
    out = capsys.readouterr().out
    assert "cannot read this directory: permission denied" in out
    assert main(["check", str(locked), "--lang", "zh"]) == 2
    assert "无法读取这个目录：权限不足" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize(
    ("encoding", "named"),
    [("utf-16-le", "UTF-16LE"), ("utf-16-be", "UTF-16BE"), ("utf-16", "UTF-16"), ("utf-32", "UTF-32")],
)
def test_utf16_is_called_utf16_with_the_command_that_converts_it(tmp_path: Path, encoding: str, named: str) -> None:
    path = tmp_path / "ds_config.json"
    path.write_bytes('{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 2}\n}\n'.encode(encoding))
    error = load(path)
    assert error.reason == "encoding_utf16", error
    text = error.text("en")
    assert f"saved as {named}," in text
    command = f"iconv -f {named} -t UTF-8 ds_config.json > ds_config.json.utf8 && mv ds_config.json.utf8 ds_config.json"
    assert text.endswith(command)
    subprocess.run(["bash", "-c", command], cwd=tmp_path, check=True)  # and the command works
    assert run("check", str(path)).returncode == 0


def test_binary_is_still_binary() -> None:
    assert load_bytes(bytes(range(256)) * 4).reason == "binary"


# -- item 3: explain's JSON answers even when there is nothing to say ------------------------------------------------


def test_explain_json_without_a_match_prints_an_error_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.stgae", "--format", "json", "--lang", "en"]) == 2
    captured = capsys.readouterr()
    error = json.loads(captured.out)["error"]
    assert error["code"] == "no_option" and "zero_optimization.stage" in error["suggestions"]
    assert "no option 'zero_optimization.stgae'" in captured.err
    assert main(["explain", "--search", "qqqzzz", "--format", "json", "--lang", "zh"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "no_matches"


# -- item 6: values in messages are JSON --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "said"),
    [
        ({"fp16": {"enabled": None}}, "expected bool, got null"),
        ({"fp16": {"enabled": [True]}}, "expected bool, got array [true]"),
        ({"fp16": {"enabled": {"x": 1}}}, 'expected bool, got object {"x": 1}'),
        ({"train_batch_size": 0}, "0 is out of range (> 0)"),
        ({"gradient_accumulation_steps": -1}, "-1 is out of range (> 0)"),
    ],
)
def test_values_in_messages_are_written_as_json(config: dict[str, object], said: str) -> None:
    from dsref.check.report.messages import message

    texts = [message(f, "en") for f in dsref.validate(config)]
    assert said in texts, texts


# -- item 3: many files stream -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_findings_stream_in_order_and_ctrl_c_keeps_them(tmp_path: Path) -> None:
    import signal

    for i in range(4000):
        config = f'{{"train_batch_size": 8, "stgae": {i}, "steps_per_print": 10}}'  # two keys: check DIR takes it
        (tmp_path / f"c{i:05d}.json").write_text(config, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "dsref", "check", str(tmp_path), "--jobs", "2", "--lang", "en"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=ctrl_c_as_at_a_terminal,
    )
    assert proc.stdout is not None
    said = proc.stdout.readline()  # what the check is for, said before the first file's findings
    assert said.startswith(b"Checked for DeepSpeed "), said
    first = proc.stdout.readline()  # printed while thousands of files are still to be checked
    assert first.startswith(os.fsencode(tmp_path / "c00000.json") + b":1:25: warning[DS101]"), first
    still_running = proc.poll() is None
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group, workers included
    rest = proc.stdout.read()  # not communicate(): it would skip what readline() buffered already
    proc.wait(timeout=60)
    err = proc.stderr.read() if proc.stderr else b""
    no_traceback(subprocess.CompletedProcess(proc.args, proc.returncode, rest, err))
    if still_running:
        assert proc.returncode == 130
    printed = [line for line in (first + rest).splitlines() if b": warning[DS101]" in line]
    numbers = [int(line.split(b"/c")[1][:5]) for line in printed]
    assert numbers == list(range(len(numbers)))  # in order, none lost before the interruption


def test_check_and_draw_hands_each_file_on_before_checking_the_next(monkeypatch: pytest.MonkeyPatch) -> None:
    from dsref.check import batch

    checked: list[str] = []
    real = batch.check_file

    def counting(path: str, *args: object) -> object:
        checked.append(path)
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "check_file", counting)
    pieces = batch.check_and_draw(["a.json", "b.json", "c.json"], "text", "en", jobs=1)
    next(pieces)
    assert checked == ["a.json"]
    assert len(list(pieces)) == 2 and checked == ["a.json", "b.json", "c.json"]


# -- item 4: a parse error points at the first wrong character ------------------------------------------------------

TEMPLATE = (
    '{\n  "train_batch_size": 8,\n  "optimizer": {"type": "AdamW", "params": {"lr": %s, "weight_decay": 0.0}}\n}\n'
)


@pytest.mark.parametrize(
    ("value", "profiles", "said"),
    [
        ("True", ("deepspeed", "hf"), "'True' is Python; JSON writes true"),
        ("None", ("deepspeed", "hf"), "'None' is Python; JSON writes null"),
        ("$LR", ("deepspeed", "hf"), "'$LR' looks like a template placeholder that was never filled in"),
        ("${LR}", ("deepspeed", "hf"), "'${LR}' looks like a template placeholder"),
        ("{{ lr }}", ("deepspeed", "hf"), "'{{ lr }}' looks like a template placeholder"),
        ("<LR>", ("deepspeed", "hf"), "'<LR>' looks like a template placeholder"),
        ("%LR%", ("deepspeed", "hf"), "'%LR%' looks like a template placeholder"),
        ("'3e-4'", ("hf",), "JSON strings take double quotes, not single ones: '3e-4'"),
        ('3e-4 "eps": 1e-8', ("deepspeed", "hf"), 'a comma is missing before "eps"'),
    ],
)
def test_the_first_wrong_token_is_named_where_it_stands(value: str, profiles: tuple[str, ...], said: str) -> None:
    text = TEMPLATE % value
    column = text.splitlines()[2].index(value.split()[0]) + 1
    if value.startswith("3e-4 "):
        column = text.splitlines()[2].index('"eps"') + 1
    for profile in profiles:
        error = load_bytes(text.encode(), profile)  # type: ignore[arg-type]
        assert (error.line, error.col) == (3, column), (profile, error)
        assert said in error.text("en"), error.text("en")
        assert error.text("zh") != error.text("en")


def test_a_placeholder_gets_help_in_both_languages(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(TEMPLATE % "$LR", encoding="utf-8")
    out = run("check", str(path), "--lang", "zh").stdout.decode()
    assert ":3:" in out and "模板占位符" in out and "= 建议：配置文件会被原样读取" in out


def test_a_byte_order_mark_is_noted_at_1_1_for_deepspeed_and_refused_for_hf(tmp_path: Path) -> None:
    path = tmp_path / "ds.json"
    path.write_bytes(b'\xef\xbb\xbf{"train_batch_size": 8}\n')
    plain = json.loads(run("check", str(path), "--format", "json").stdout)["files"][0]["findings"]
    assert [(f["code"], f["line"], f["column"]) for f in plain] == [("DS004", 1, 1)]
    assert "DeepSpeed's reader skips it" in plain[0]["message"]
    hf = json.loads(run("check", str(path), "--format", "json", "--profile", "hf").stdout)["files"][0]["findings"]
    assert (hf[0]["code"], hf[0]["line"], hf[0]["column"]) == ("DS000", 1, 1)
    assert all(f.get("seen_by") == "deepspeed" for f in hf[1:])  # what Hjson, which skips the mark, reads


@settings(max_examples=needs.examples(300), deadline=None)
@given(st.text(alphabet="{}[]:,\"' \n\ttTrueNon$<>%{}abc123.-e/#*", max_size=60), st.booleans())
def test_the_search_for_the_first_mistake_never_fails(text: str, strict: bool) -> None:
    from dsref.check.read.diagnose import first_mistake

    mistake = first_mistake(text, strict=strict)
    if mistake is not None:
        assert 0 <= mistake.pos < mistake.end <= len(text)
        assert text[mistake.pos : mistake.end] == mistake.word


# -- issue 28, part 5: estimate reads its two files as check reads one ----------------------------------------------

MODEL = SMALL_LLAMA


def _bounded(*args: str) -> subprocess.CompletedProcess[bytes]:
    """``python -m dsref`` that can neither hang the suite (a timeout) nor take the machine's memory (2 GiB)."""

    def limit_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    return subprocess.run(
        [sys.executable, "-m", "dsref", *args], capture_output=True, timeout=60, preexec_fn=limit_memory
    )


def _estimate_reads(tmp_path: Path, option: str, target: str) -> list[str]:
    """The command that reads ``target`` with ``option``, the other file (if any) being fine."""
    model = tmp_path / "model.json"
    model.write_text(json.dumps(MODEL), encoding="utf-8")
    if option == "--model":
        return ["estimate", "--model", target]
    return ["estimate", "--model", str(model), "--config", target]


def test_estimate_refuses_a_fifo_and_a_device_without_waiting_or_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    targets = [str(fifo)] + [device for device in ("/dev/zero",) if os.path.exists(device)]
    for target in targets:
        check_says = load(target).text("en")  # what `dsref check` says of it
        assert "not a regular file" in check_says
        for option in ("--model", "--config"):
            proc = _bounded(*_estimate_reads(tmp_path, option, target), "--lang", "en")
            no_traceback(proc)
            assert proc.returncode == 2 and proc.stdout == b""
            what = "model config" if option == "--model" else "DeepSpeed config"
            assert proc.stderr.decode() == f"dsref estimate: cannot read the {what} {target}: {check_says}\n"


@pytest.mark.parametrize("option", ["--model", "--config"])
@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("kind", ["fifo", "device", "directory", "oversized"])
def test_estimate_says_what_check_says_of_a_file_it_cannot_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, lang: str, kind: str
) -> None:
    import threading

    from dsref.check.read.loader import MAX_BYTES

    if kind == "fifo":
        target = tmp_path / "pipe.json"
        os.mkfifo(target)
    elif kind == "device":
        target = Path("/dev/null")  # a device as /dev/zero is, that ends at once if a regression read it
    elif kind == "directory":
        target = tmp_path / "folder"
        target.mkdir()
    else:
        target = tmp_path / "big.json"
        target.write_text('{"a": "' + "x" * MAX_BYTES + '"}', encoding="utf-8")
    unblock = None
    if kind == "fifo":  # should dsref ever wait for a writer again, one comes: the test fails instead of hanging

        def writer() -> None:
            with open(target, "wb"):
                pass

        unblock = threading.Timer(10, writer)
        unblock.start()
    try:
        status = main([*_estimate_reads(tmp_path, option, str(target)), "--lang", lang])
    finally:
        if unblock is not None:
            unblock.cancel()
    said = capsys.readouterr()
    assert status == 2 and said.out == ""
    lines = said.err.splitlines()
    assert len(lines) == 1 and str(target) in lines[0], lines
    check_says = load(target).text(lang)  # check's message, in the same language, with the same limit
    if kind == "oversized" and option == "--model":
        assert f"{MAX_BYTES}" in check_says and f"{MAX_BYTES}" in lines[0]
        assert check_says not in lines[0]  # the same limit, said of a model's config.json
    else:
        assert lines[0].endswith(check_says), (lines[0], check_says)


def test_estimate_reads_a_model_folder_and_standard_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(MODEL), encoding="utf-8")
    assert main(["estimate", "--model", str(folder), "--format", "json"]) == 0
    from_folder = json.loads(capsys.readouterr().out)
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(MODEL).encode()))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main(["estimate", "--model", "-", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == from_folder
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"model_type": "llama"}')))
    assert main(["estimate", "--model", "-", "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("dsref estimate: <stdin>: the llama config has no hidden_size")
    assert main(["estimate", "--model", "-", "--config", "-", "--lang", "en"]) == 2
    assert "standard input can be read only once" in capsys.readouterr().err


def test_a_number_too_long_to_convert_is_refused_in_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "model.json"
    path.write_text(json.dumps(MODEL)[:-1] + ', "vocab_size": ' + "7" * 5000 + "}", encoding="utf-8")
    for lang, words in (("en", "this integer has 5,000 digits"), ("zh", "这个整数有 5,000 位")):
        assert main(["estimate", "--model", str(path), "--lang", lang]) == 2
        err = capsys.readouterr().err
        assert f"{path}:1:" in err and words in err and "4,300" in err, err
        assert "set_int_max_str_digits" not in err
    check = load_bytes(b'{"train_batch_size": ' + b"9" * 5000 + b"}").text("en")  # check says it the same way
    assert check.startswith("this integer has 5,000 digits") and "set_int_max_str_digits" not in check
