"""`dsref explain`: what it prints for each kind of path, in both languages, and how it fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from dsref.cli import main
from dsref.explain import explain, search
from dsref.index import OptionIndex

from .snapshot import assert_snapshot

CASES = {
    "leaf": "zero_optimization.stage",
    "section": "zero_optimization.offload_param",
    "alias": "zero_optimization.prefetch_bucket_size",
    "deprecated": "zero_optimization.cpu_offload",
    "removed": "amp",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", list(CASES))
def test_snapshot(case: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", CASES[case], "--lang", lang]) == 0
    assert_snapshot(f"explain/{case}.{lang}.txt", capsys.readouterr().out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_snapshot_unknown(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.stgae", "--lang", lang]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert_snapshot(f"explain/unknown.{lang}.txt", captured.err)


@pytest.mark.parametrize(
    ("written", "path", "via"),
    [
        ("zero_optimization.stage3_prefetch_bucket_size", "zero_optimization.stage3_prefetch_bucket_size", "path"),
        ("zero_optimization.prefetch_bucket_size", "zero_optimization.stage3_prefetch_bucket_size", "alias"),
        (
            "zero_optimization.stage3_gather_fp16_weights_on_model_save",
            "zero_optimization.stage3_gather_16bit_weights_on_model_save",
            "deprecated_alias",
        ),
        ("bfloat16.enabled", "bf16.enabled", "deprecated_alias"),
        ("aio.thread_count", "aio.intra_op_parallelism", "docs_name"),
        ("offload_optimizer", "zero_optimization.offload_optimizer", "suffix"),
        ("offload_param.device", "zero_optimization.offload_param.device", "suffix"),
        ("Zero_Optimization.Stage", "zero_optimization.stage", "normalized"),
        (
            "zero-optimization.stage3-prefetch-bucket-size",
            "zero_optimization.stage3_prefetch_bucket_size",
            "normalized",
        ),
        ("tensor_parallel.partition_config.layer_specs[0].partition_type", None, "path"),
    ],
)
def test_every_spelling_resolves(written: str, path: str | None, via: str) -> None:
    exp = explain(written)
    assert exp.entry is not None
    assert exp.entry.path == (path or "tensor_parallel.partition_config.layer_specs[].partition_type")
    assert exp.via == via


def test_section_lists_children_and_recursion() -> None:
    flat = explain("zero_optimization")
    deep = explain("zero_optimization", recursive=True)
    two = explain("zero_optimization", recursive=True, max_depth=2)
    assert {d for d, _ in flat.rows} == {0}
    assert max(d for d, _ in deep.rows) == 1
    assert len(flat.rows) < len(two.rows) <= len(deep.rows)
    top = explain(None)
    assert {e.key for _, e in top.rows} >= {"zero_optimization", "fp16", "train_batch_size"}


def test_search_in_both_languages() -> None:
    english = [e.path for e in search("bucket size", "en")]
    assert "zero_optimization.reduce_bucket_size" in english
    chinese = [e.path for e in search("卸载", "zh")]
    assert "zero_optimization.offload_param" in chinese or "zero_optimization.offload_optimizer" in chinese


def test_json_format_is_stable(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "zero_optimization.stage", "--format", "json", "--lang", "zh"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"query", "resolved_via", "lang", "option", "children"}
    option = payload["option"]
    assert option["path"] == "zero_optimization.stage" and option["default"] == 0
    assert option["link"].endswith("/zh/reference/zero_optimization/#zero_optimization.stage")
    assert (
        option["text"]["enum"]["3"]
        != "Partitions optimizer states, gradients and the parameters themselves; parameters are gathered per layer."
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["explain", ""],
        ["explain", "..."],
        ["explain", "x" * 10_000],
        ["explain", "zero_optimization.\udcff"],
        ["explain", "zero_optimization.stage", "--lang", "klingon"],
        ["explain", "zero_optimization", "--max-depth", "0"],
    ],
)
def test_bad_input_gets_one_line_and_nonzero_exit(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("dsref: ")
    assert "Traceback" not in err
    assert len(err.splitlines()) <= 2


def test_non_utf8_argument_from_a_real_shell() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", b"\xff\xfe".decode("utf-8", "surrogateescape")], capture_output=True
    )
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr


def test_colour_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from dsref.commands.explain import use_color

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert use_color(Tty())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not use_color(Tty())
    monkeypatch.delenv("NO_COLOR")
    assert not use_color(sys.stdout) or sys.stdout.isatty()
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "fp16"],
        capture_output=True,
        text=True,
        env=dict(os.environ, NO_COLOR=""),
    )
    assert "\033[" not in proc.stdout


def test_completion_scripts_list_paths(capsys: pytest.CaptureFixture[str]) -> None:
    for shell in ("bash", "zsh"):
        assert main(["completion", shell]) == 0
        script = capsys.readouterr().out
        assert "zero_optimization.offload_param.device" in script
        assert "explain" in script
    proc = subprocess.run(
        [
            "bash",
            "-c",
            "source <(python -m dsref completion bash); COMP_WORDS=(dsref explain zero_optimization.offload_p); "
            'COMP_CWORD=2; _dsref; echo "${COMPREPLY[@]}"',
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PATH=os.path.dirname(sys.executable) + ":" + os.environ["PATH"]),
    )
    expected = [e.path for e in OptionIndex.load() if e.path.startswith("zero_optimization.offload_p")]
    assert proc.stdout.split() == expected
