"""`dsref explain`: what it prints for each kind of path, in both languages, and how it fails."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.cli.main import main
from dsref.explain.render import explain
from dsref.explain.search import search
from dsref.tree.index import OptionIndex
from tests import needs
from tests.snapshot import assert_snapshot

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
    assert exp.record is not None
    assert exp.record.path == (path or "tensor_parallel.partition_config.layer_specs[].partition_type")
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
    from dsref.cli.explain import use_color

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


# -- what keeps `dsref explain` fast stays true to the renderer ---------------------------------------------


@pytest.mark.slow  # a fuzzer or a cross-check of seconds; the fast tier has the plain cases
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=12,
    )
)
@settings(max_examples=needs.examples(500), deadline=None)
def test_values_are_written_as_json_writes_them(value: object) -> None:
    from dsref.text.facts import json_text

    assert json_text(value) == json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_prerendered_page_is_what_the_renderer_draws(lang: str) -> None:
    """In colour (a terminal) and without (a pipe); the generated-files test keeps the pages themselves fresh."""
    from dsref.explain.pages import prerendered, without_color
    from dsref.explain.render import page_paths, render_text
    from dsref.tree.links import option_url

    written = page_paths()
    assert len(written) > len(OptionIndex.load())  # aliases and deprecated names too
    for path in written:
        page = prerendered(path, lang)
        assert page is not None, path
        live = explain(path, lang=lang)  # type: ignore[arg-type]
        assert live.record is not None
        link = option_url(live.record.path, lang)  # type: ignore[arg-type]
        assert page == render_text(live, lang, color=True, link=link)  # type: ignore[arg-type]
        assert without_color(page) == render_text(live, lang, color=False, link=link)  # type: ignore[arg-type]


def test_an_option_path_resolves_to_itself_the_quick_way_and_the_full_way() -> None:
    """The lazy index answers a canonical path from its shard alone; a full index must give the same answer."""
    from dsref.generator.index import index_document

    full = OptionIndex.from_records(index_document())
    for record in full:
        lazy = OptionIndex(full.dsref, full.deepspeed, shards=tuple({e.top for e in full}))
        hit, quick = full.resolve(record.path), lazy.resolve(record.path)
        assert hit is not None and quick is not None
        assert (hit.record.path, hit.via) == (quick.record.path, quick.via) == (record.path, "path")
        assert [e.path for e in lazy.children(quick.record)] == [e.path for e in full.children(hit.record)]


def test_the_everyday_call_loads_neither_the_renderer_nor_the_index() -> None:
    """Beyond what the interpreter loads by itself (site hooks, an editable install's finder), only these."""
    code = (
        "import sys, runpy; before = set(sys.modules)\n"
        "sys.argv = ['dsref', 'explain', 'zero_optimization.stage', '--lang', 'zh']\n"
        "try:\n    runpy.run_module('dsref', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "new = set(sys.modules) - before - set(sys.builtin_module_names)\n"
        "print(sorted(m for m in new if not m.startswith('dsref.generated.index.')), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "zero_optimization.stage" in proc.stdout
    loaded = proc.stderr.strip()
    expected = [
        "__future__",  # from __future__ import annotations loads it (unless the interpreter already has)
        "dsref",
        "dsref.cli",
        "dsref.cli.explain",
        "dsref.cli.lang",
        "dsref.cli.main",
        "dsref.explain",
        "dsref.explain.pages",
        "dsref.generated",
        "dsref.generated.pages",
        "dsref.text",
        "dsref.text.language",
    ]
    assert loaded in (str(expected), str(expected[1:])), loaded


def test_chinese_lines_break_where_a_chinese_typesetter_allows() -> None:
    """No line starts with a closing mark (，。）…) or ends with an opening one (（“…), and no text is lost."""
    from dsref.explain.render import _NO_LINE_END, _NO_LINE_START, _reflow
    from dsref.text.i18n import option_text

    checked = 0
    for record in OptionIndex.load():
        text = option_text(record.path, record.description, "zh") or ""
        for width in (100, 60, 37):
            lines = _reflow(text, width)
            assert "".join(lines).replace(" ", "") == "".join(text.split()).replace(" ", "")
            for line in lines[1:]:
                assert line[0] not in _NO_LINE_START, (record.path, line)
            for line in lines[:-1]:
                assert line[-1] not in _NO_LINE_END, (record.path, line)
            checked += len(lines)
    assert checked > 5000


def test_a_missing_pages_file_falls_back_to_rendering_live(tmp_path: object) -> None:
    import shutil
    from pathlib import Path

    import dsref

    copy = Path(str(tmp_path)) / "dsref"
    shutil.copytree(Path(dsref.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "generated" / "pages_en.txt").unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "zero_optimization.stage", "--lang", "en"],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
        cwd=str(tmp_path),
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout == main_output(["explain", "zero_optimization.stage", "--lang", "en"])


def main_output(argv: list[str]) -> str:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(argv) == 0
    return buffer.getvalue()


@pytest.mark.parametrize(("typed", "written"), [("归约", "规约"), ("聚合", "收集"), ("分区", "切分")])
def test_search_finds_options_by_a_rendering_the_glossary_rules_out(typed: str, written: str) -> None:
    found = search(typed, "zh")
    assert found, typed
    assert [r.path for r in found] == [r.path for r in search(written, "zh")]


def test_a_match_through_a_ruled_out_rendering_ranks_below_the_chosen_term() -> None:
    index = OptionIndex.load()
    records = [index.get("fp16").to_json(), index.get("fp16.enabled").to_json()]
    records[0]["description"] = "Sums the gradients across ranks (归约) before the step."  # the ruled-out rendering
    records[1]["description"] = "Sums the gradients across ranks (规约) before the step."  # the chosen one
    fake = OptionIndex.from_records({"dsref": "x", "deepspeed": "0.19.8", "options": records})
    assert [r.path for r in search("规约", "en", fake)] == ["fp16.enabled", "fp16"]
    assert [r.path for r in search("归约", "en", fake)] == ["fp16.enabled", "fp16"]


def _default_row(said: str, label: str) -> str:
    rows = [line.strip() for line in said.splitlines() if line.strip().startswith(label)]
    assert len(rows) == 1, said
    return rows[0].removeprefix(label).strip()


@pytest.mark.parametrize(("lang", "label"), [("en", "default"), ("zh", "默认值")])
def test_explain_s_default_row_gives_the_release_s_default(
    lang: str, label: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """offload pin_memory: false up to 0.19.4, true from 0.19.5 (recorded from the releases, behaviour.json). The
    row gives the release's default and 0.19.8's beside it; where the release has 0.19.8's, the row is 0.19.8's."""
    from dsref.tree.releases import behaviour

    path = "zero_optimization.offload_optimizer.pin_memory"
    assert behaviour("0.19.4", path).default is False and behaviour("0.19.5", path).default is True
    rows = {}
    for release in ("0.19.4", "0.19.5", None):
        argv = ["explain", path, "--lang", lang, *(["--deepspeed-version", release] if release else [])]
        assert main(argv) == 0
        rows[release] = _default_row(capsys.readouterr().out, label)
    assert rows["0.19.5"] == rows[None] == "true"
    assert rows["0.19.4"].startswith("false") and "0.19.4" in rows["0.19.4"] and "0.19.8" in rows["0.19.4"]
    assert rows["0.19.4"].endswith("true)" if lang == "en" else "true）")
