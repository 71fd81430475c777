"""The command line: explain, options, --version, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.cli.main import main
from tests import needs


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dsref", *args], capture_output=True, text=True)


def test_explain_a_leaf() -> None:
    proc = run("explain", "zero_optimization.stage", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("zero_optimization.stage\n")
    assert "  default        0\n" in out
    assert "  allowed        0, 1, 2, 3\n" in out
    assert "Partitions the optimizer states and the gradients." in out


def test_explain_an_alias_names_the_canonical_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.prefetch_bucket_size", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "zero_optimization.stage3_prefetch_bucket_size"
    assert "docs say       500000000 (500M)" in out
    assert "default        50000000 (50M)" in out


def test_explain_a_section_lists_its_children(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.offload_optimizer", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    for key in ("device", "nvme_path", "ratio", "super_offload"):
        assert f"\n  {key} " in out


def test_explain_unknown_path_suggests_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.stgae", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "no option 'zero_optimization.stgae'" in err
    assert "zero_optimization.stage" in err


def test_explain_json_recursive(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "fp16", "--recursive", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["option"]["path"] == "fp16"
    assert {c["path"] for c in payload["children"]} >= {"fp16.enabled", "fp16.loss_scale"}


def test_options_paths(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["options", "--format", "paths"]) == 0
    paths = capsys.readouterr().out.splitlines()
    assert "zero_optimization.offload_param.nvme_path" in paths
    assert len(paths) == len(set(paths)) > 500


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0
    assert "DeepSpeed 0.19.8" in proc.stdout


def test_a_missing_dependency_is_one_line_not_a_traceback(tmp_path: object) -> None:
    """Run dsref with a Python path where hjson cannot be imported (a broken installation)."""
    import os
    from pathlib import Path

    blocker = Path(str(tmp_path)) / "hjson"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ModuleNotFoundError(name='hjson')\n")
    config = Path(str(tmp_path)) / "commented.json"
    config.write_text('{"train_batch_size": 8, // a comment: read with hjson\n}\n')
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=f"{blocker.parent}{os.pathsep}{root}")
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "check", str(config)], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "'hjson' is missing" in proc.stderr


def test_check_explain_fix_and_estimate_need_no_babel(tmp_path: object) -> None:
    """The base install has no Babel (the catalog tools' extra): every command but the server runs without it,
    whatever locale the environment names (a script part, a variant) and whatever numbers it writes."""
    import os
    from pathlib import Path

    blocker = Path(str(tmp_path)) / "babel"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ModuleNotFoundError(name='babel')\n")
    config = Path(str(tmp_path)) / "ds.json"
    config.write_text('{"train_batch_size": 8, "zero_optimization": {"stgae": 3}}')
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=f"{blocker.parent}{os.pathsep}{root}", LANG="zh_Hans_CN_posix1.UTF-8")
    commands = [
        (["explain", "zero_optimization.reduce_bucket_size"], 0, "5亿"),
        (["check", str(config)], 1, "DS101"),
        (["check", "--diff", "--unsafe-fixes", str(config)], 1, '{"stage": 3}'),
        (["estimate", "--params", "7B", "--gpus-per-node", "8"], 0, "70亿"),
    ]
    for args, status, said in commands:
        proc = subprocess.run([sys.executable, "-m", "dsref", *args], capture_output=True, text=True, env=env)
        assert proc.returncode == status and "Traceback" not in proc.stderr, (args, proc.stderr)
        assert said in proc.stdout, args


@pytest.mark.slow  # a fresh interpreter per language, without the server's packages
def test_the_server_without_its_extra_says_how_to_install_it_in_both_languages(tmp_path: object) -> None:
    import os
    from pathlib import Path

    blocker = Path(str(tmp_path)) / "pygls"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ModuleNotFoundError(name='pygls')\n")
    root = Path(__file__).resolve().parents[2]
    for lang, said in (("en_US.UTF-8", "`server` extra ('pygls' is missing"), ("zh_CN.UTF-8", "`server` 扩展")):
        env = dict(os.environ, PYTHONPATH=f"{blocker.parent}{os.pathsep}{root}", LANG=lang, LC_ALL="")
        proc = subprocess.run([sys.executable, "-m", "dsref", "server"], capture_output=True, text=True, env=env)
        assert proc.returncode == 2 and proc.stdout == "", proc.stderr
        assert said in proc.stderr and "python -m pip install 'dsref[server]'" in proc.stderr
        assert proc.stderr.count("\n") == 1


# -- the quick reading of `dsref explain` argv -------------------------------------------------------------

_TOKENS = [
    "explain",
    "zero_optimization.stage",
    "fp16",
    "",
    "-",
    "--",
    "-r",
    "--recursive",
    "--lang",
    "--lang=zh",
    "zh",
    "en",
    "--format",
    "--format=json",
    "text",
    "json",
    "xml",
    "--max-depth",
    "--max-depth=2",
    "2",
    "-1",
    "x1",
    "--search",
    "-s",
    "--lan",
    "-h",
    "--help",
    "--format=",
    "--lang=",
]


def _quick_agrees(tail: list[str]) -> None:
    """Whatever command line the quick reading accepts, argparse reads the same way."""
    from dsref.cli.main import _parser, quick_explain_args

    argv = ["explain", *tail]
    quick = quick_explain_args(argv)
    if quick is None:
        return
    assert vars(quick) == vars(_parser("explain").parse_args(argv))


@given(st.lists(st.sampled_from(_TOKENS), max_size=7))
@settings(max_examples=needs.examples(200), deadline=None)
def test_quick_explain_reading_agrees_with_argparse(tail: list[str]) -> None:
    _quick_agrees(tail)


@pytest.mark.slow
@given(st.lists(st.sampled_from(_TOKENS), max_size=7))
@settings(max_examples=needs.examples(1500), deadline=None)
def test_quick_explain_reading_agrees_with_argparse_on_many_lines(tail: list[str]) -> None:
    _quick_agrees(tail)


def test_quick_reading_is_taken_for_the_everyday_call_only() -> None:
    from dsref.cli.main import quick_explain_args

    assert quick_explain_args(["explain", "zero_optimization.stage", "--lang", "zh"]) is not None
    assert quick_explain_args(["explain", "a", "b"]) is None  # argparse says what is wrong
    assert quick_explain_args(["explain", "--search", "bucket"]) is None
    assert quick_explain_args(["check", "x.json"]) is None
