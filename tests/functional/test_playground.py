"""The playground: the pins' rule (scripts/playground.py), the page's texts, and in Chromium, with every request that
leaves the local server blocked, the same findings and fixes as the command line for real configs in both languages.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from dsref.check.positions import LineIndex
from dsref.site.playground import (
    PLAYGROUND,
    check_document,
    config_fragment,
    estimate_document,
    fix_document,
    page_html,
    page_texts,
    with_try_links,
)
from tests import needs
from tests.conftest import shared_path

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
BASE_PACKAGES = ("pydantic", "pydantic_core", "typing_extensions", "annotated_types", "typing_inspection", "hjson")
"""What the base install brings (and what the page's Pyodide loads): the command line compared with the page runs
with these alone, as the browser has no transformers or accelerate to ask."""


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("playground_build", ROOT / "scripts" / "playground.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["playground_build"] = module
    spec.loader.exec_module(module)
    return module


build = _script()

RUNTIME = build.Runtime(python="3.14.2", abi="2026_0", arch="wasm32", info={})


def _wheel(name: str, version: str, tag: str, *requires: str) -> Any:
    filename = f"{name.replace('-', '_')}-{version}-{tag}.whl"
    pin = build.WheelPin(name, version, f"https://files.example/{filename}", "0" * 64)
    interpreter, abi, platform = tag.split("-")
    return build.WheelInfo(pin, frozenset({(interpreter, abi, platform)}), tuple(Requirement(r) for r in requires), ())


def _set(core_tag: str = "cp314-cp314-pyemscripten_2026_0_wasm32", core: str = "2.50.5") -> list[Any]:
    return [
        _wheel("pydantic", "2.14.4", "py3-none-any", "pydantic-core==2.50.5", "typing-extensions>=4.14.1"),
        _wheel("pydantic-core", core, core_tag, "typing-extensions>=4.14.1"),
        _wheel("typing-extensions", "4.16.0", "py3-none-any"),
        _wheel("hjson", "3.1.0", "py3-none-any"),
    ]


def test_the_pins_rule_accepts_a_set_that_moves_together() -> None:
    assert build.fit_problems(RUNTIME, _set(), [Requirement("pydantic>=2.7,<3"), Requirement("hjson>=3.1")]) == []


def test_the_pins_rule_refuses_a_pydantic_core_of_another_pyodide_or_release() -> None:
    other_abi = build.fit_problems(RUNTIME, _set(core_tag="cp313-cp313-pyemscripten_2025_0_wasm32"), [])
    assert len(other_abi) == 1 and "built neither for any Python nor for this Pyodide's cp314" in other_abi[0]
    other_release = build.fit_problems(RUNTIME, _set(core="2.50.4"), [])
    assert other_release == [
        "pydantic needs pydantic-core==2.50.5, the pin is 2.50.4: move Pyodide, pydantic and pydantic-core together"
    ]
    unpinned = build.fit_problems(RUNTIME, _set(), [Requirement("hjson>=3.1"), Requirement("babel>=2.14")])
    assert unpinned == ["dsref needs babel>=2.14, which is not pinned"]


def test_the_pins_are_read_from_one_file_with_the_rule_beside_them() -> None:
    pins = build.read_pins()
    names = {wheel.name for wheel in pins.wheels}
    assert {"pydantic", "pydantic-core", "hjson"} <= names
    assert all(len(wheel.sha256) == 64 for wheel in pins.wheels) and pins.pyodide.integrity.startswith("sha512-")
    text = build.PINS.read_text(encoding="utf-8")
    assert "Pyodide, pydantic and pydantic-core move together" in text


def test_the_page_carries_its_texts_in_its_language() -> None:
    for lang in ("en", "zh"):
        texts = page_texts(lang)
        assert set(texts) == set(PLAYGROUND.table)
        html = page_html(lang, "../playground/app", "../schemas")
        assert (
            json.dumps(texts["fix_safe"], ensure_ascii=False) in html
            and 'import("./../playground/app/page.js")' in html
        )
    assert page_texts("zh")["fix_safe"] != page_texts("en")["fix_safe"]


def test_each_json_example_links_to_the_playground_with_its_text() -> None:
    import base64
    import html

    built = (
        '<p>x</p><div class="language-json highlight"><pre><span></span><code><span class="p">{</span>'
        '<span class="nt">&quot;fp16&quot;</span><span class="p">:</span> <span class="p">{&quot;enabled&quot;: '
        "true}}</span>\n</code></pre></div><p>y</p>"
    )
    linked = with_try_links(built, "zh", "../../zh/playground/")
    label = PLAYGROUND.text("try_it", "zh")
    assert label != PLAYGROUND.text("try_it", "en")
    (href,) = re.findall(f'<a href="([^"]+)">{label}</a>', linked)
    target, fragment = html.unescape(href).split("#config=")
    assert target == "../../zh/playground/"
    text = base64.urlsafe_b64decode(fragment + "=" * (-len(fragment) % 4)).decode("utf-8")
    assert json.loads(text) == {"fp16": {"enabled": True}}
    assert linked.startswith(built.removesuffix("<p>y</p>")) and linked.endswith("</a></p><p>y</p>")


def test_the_workers_functions_answer_as_the_command_line_does(tmp_path: Path) -> None:
    text = '{"train_batch_size": 8, "zero_optimization": {"stgae": 3}, "fp16": {"enabled": "yes"}}\n'
    assert _cli(
        ["check", "--format", "json", "--deepspeed-version", "0.19.8", "--lang", "zh", "-"], text, tmp_path
    ) == (check_document(text, "zh"))
    fixed = json.loads(fix_document(text, "en", unsafe=True))
    assert fixed["text"] == _cli(
        ["check", "--fix", "--unsafe-fixes", "--deepspeed-version", "0.19.8", "-"], text, tmp_path
    )
    assert fixed["fixed"] == 2 and fixed["report"]["files"][0]["findings"] == []


FIT_CONFIG = '{"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true}, "zero_optimization": {"stage": 3}}\n'
"""A run of the fit page's tables: stage 3 without offload, micro batch 1, bf16."""


def _fit_args(model: Path, config: Path, lang: str) -> list[str]:
    from dsref.site.figures import GPU_SIZES, SEQ_LENS
    from dsref.site.fit import GPUS

    return [
        *("estimate", "--config", str(config), "--model", str(model), "--gpu-memory", f"{GPU_SIZES[-1]}GB"),
        *("--gpus-per-node", str(GPUS), "--nodes", "1", "--seq-len", str(SEQ_LENS[-1]), "--lang", lang),
    ]


def test_the_fit_panel_answers_as_dsref_estimate_does(tmp_path: Path) -> None:
    from dsref.site.figures import MODELS

    model, config = tmp_path / "config.json", tmp_path / "ds_config.json"
    model.write_text(json.dumps(MODELS["llama-2-7b"].config), encoding="utf-8")
    config.write_text(FIT_CONFIG, encoding="utf-8")
    fields = {"gpu_memory": "80GB", "gpus_per_node": "8", "nodes": "1", "seq_len": "4096"}
    shape = model.read_text(encoding="utf-8")
    for lang in ("en", "zh"):
        shown = json.loads(estimate_document(FIT_CONFIG, shape, lang, **fields))
        assert shown["ok"] and shown["text"] == _cli(_fit_args(model, config, lang), "", tmp_path)
    # what the panel cannot estimate is said in the page's language, naming the panel's field
    bad = json.loads(estimate_document(FIT_CONFIG, shape, "zh", **{**fields, "gpus_per_node": "0"}))
    assert not bad["ok"] and PLAYGROUND.text("fit_gpus", "zh") in bad["text"]
    unreadable = json.loads(estimate_document(FIT_CONFIG, "{", "zh", **fields))
    assert not unreadable["ok"] and unreadable["text"].startswith(
        PLAYGROUND.text("fit_model_unreadable", "zh", reason="")
    )
    refused = json.loads(estimate_document('{"zero_optimization": {"stage": 9}}', shape, "en", **fields))
    assert refused == {"ok": False, "text": PLAYGROUND.text("fit_refused", "en", version="0.19.8")}


# -- the command line on the base install alone --------------------------------------------------------------------


@functools.cache
def _base_path(scratch: str) -> str:
    """A folder holding the base install's packages (links to this environment's), for ``python -S``."""
    folder = Path(scratch) / "base"
    folder.mkdir(exist_ok=True)
    for name in BASE_PACKAGES:
        module = importlib.import_module(name)
        source = Path(module.__file__ or "")
        source = source.parent if source.name == "__init__.py" else source
        (folder / source.name).symlink_to(source)
    return f"{ROOT}:{folder}"


def _cli(args: list[str], stdin: str, scratch: Path) -> str:
    env = {"PYTHONPATH": _base_path(str(scratch)), "PATH": "/usr/bin:/bin", "HOME": str(scratch)}
    proc = subprocess.run(
        [sys.executable, "-S", "-m", "dsref", *args], input=stdin, capture_output=True, text=True, env=env
    )
    assert proc.returncode in (0, 1, 2) and proc.stdout, proc.stderr  # 2: a file that cannot be read
    return proc.stdout


# -- in Chromium -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground built from the pins (downloads cached in .cache/playground/), its page in both languages where
    the site puts them, served on 127.0.0.1."""
    needs.program("npm")
    needs.program("node")  # runs Pyodide to compile the shipped Python to bytecode
    started = time.perf_counter()
    out = tmp_path_factory.mktemp("playground")
    build.build(out / "app")
    print(f"playground built in {time.perf_counter() - started:.1f} s")
    root = tmp_path_factory.mktemp("site")
    build.stage_pages(root, out / "app")
    with build.serve(root) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    needs.program("chromium", CHROMIUM)
    needs.module("playwright")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


def _configs() -> list[tuple[str, str]]:
    """Real configs of the corpus (every 15th, so they differ in kind) and seed 000 (a whole commented file)."""
    files = sorted(shared_path("corpus", "real").glob("*.json"))[::15]
    seeds = sorted(shared_path("seeds").glob("000_*.txt"))
    texts = [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in [*files, *seeds]]
    # and what bad input gets: a text that does not parse, and one larger than dsref reads
    texts += [("broken", '{"train_batch_size": 8,,\n "fp16": {}}\n'), ("300 KB", '{"x": "' + "a" * 300_000 + '"}\n')]
    # as the editor holds a pasted text: its lines end in \n whatever they ended in
    return [(name, text.replace("\r\n", "\n").replace("\r", "\n")) for name, text in texts]


_CHECKED = "(text) => window.dsrefPlayground.state.checkedText === text"


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_finds_and_fixes_what_the_command_line_does(
    served: str, browser: Any, lang: str, tmp_path: Path
) -> None:
    configs = _configs()
    assert len(configs) >= 20
    context = browser.new_context()
    left: list[str] = []

    def local_only(route: Any) -> None:
        if route.request.url.startswith(served):
            route.continue_()
        else:
            left.append(route.request.url)
            route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    page.goto(served + ("playground/" if lang == "en" else "zh/playground/"))
    page.wait_for_function("() => window.dsrefPlayground && window.dsrefPlayground.state.ready", timeout=120_000)
    # the command line over the same texts, as files, in one process each (a check, then --fix on the first six)
    files = []
    for index, (_name, text) in enumerate(configs):
        files.append(tmp_path / f"{index:02}.json")
        files[-1].write_text(text, encoding="utf-8", newline="")
    args = ["check", "--format", "json", "--deepspeed-version", "0.19.8", "--lang", lang]
    expected = json.loads(_cli([*args, *map(str, files)], "", tmp_path))["files"]
    _cli(["check", "--fix", "--deepspeed-version", "0.19.8", *map(str, files[:6])], "", tmp_path)
    for (name, text), answer in zip(configs, expected, strict=True):
        page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
        page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
        shown = page.evaluate("() => window.dsrefPlayground.state.report")
        assert shown["files"][0]["findings"] == answer["findings"], name
        assert page.locator("#dsref-pg-findings li").count() == len(answer["findings"]), name
    for (name, text), path in zip(configs[:6], files[:6], strict=True):
        page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
        page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
        page.click("#dsref-pg-fix")
        fixed = path.read_bytes().decode("utf-8")
        page.wait_for_function(_CHECKED, arg=fixed, timeout=30_000)
        assert page.evaluate("() => window.dsrefPlayground.view.state.doc.toString()") == fixed, name
    # The release and the reader chosen on the page are those of --deepspeed-version and --profile
    name, text = configs[1]
    page.fill("#dsref-pg-release", "0.14.5")
    page.press("#dsref-pg-release", "Enter")
    page.select_option("#dsref-pg-profile", "hf")
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
    shown = page.evaluate("() => window.dsrefPlayground.state.report")
    chosen = ["check", "--format", "json", "--deepspeed-version", "0.14.5", "--profile", "hf", "--lang", lang, "-"]
    assert shown["files"][0]["findings"] == json.loads(_cli(chosen, text, tmp_path))["files"][0]["findings"], name
    assert shown["checked_for"]["deepspeed"] == "0.14.5" and shown["checked_for"]["reading"] == "hf"
    # a release the command line refuses gets its words, and one between the recorded ones its findings
    page.fill("#dsref-pg-release", "0.9.0")
    page.press("#dsref-pg-release", "Enter")
    page.wait_for_function("() => window.dsrefPlayground.state.report.refused", timeout=30_000)
    env = {"PYTHONPATH": _base_path(str(tmp_path)), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    refused = subprocess.run(
        [sys.executable, "-S", "-m", "dsref", "check", "--deepspeed-version", "0.9.0", "--lang", lang, "-"],
        input=text,
        capture_output=True,
        text=True,
        env=env,
    )
    assert refused.returncode == 2
    assert "dsref: " + page.locator("#dsref-pg-status").text_content() + "\n" == refused.stderr
    page.fill("#dsref-pg-release", "0.14.2")
    page.press("#dsref-pg-release", "Enter")
    page.wait_for_function("() => window.dsrefPlayground.state.report.checked_for?.deepspeed === '0.14.2'")
    chosen[4] = "0.14.2"
    shown = page.evaluate("() => window.dsrefPlayground.state.report")
    assert shown["files"][0]["findings"] == json.loads(_cli(chosen, text, tmp_path))["files"][0]["findings"], name
    page.fill("#dsref-pg-release", "0.19.8")
    page.press("#dsref-pg-release", "Enter")
    page.select_option("#dsref-pg-profile", "")

    # Hover on zero_optimization.stage: what the language server shows (dsref explain as Markdown, with the link)
    from dsref.explain.markdown import markdown
    from dsref.tree.index import OptionIndex
    from dsref.tree.links import option_url

    text = '{\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n'
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
    x, y = page.evaluate(
        """(text) => {
            const view = window.dsrefPlayground.view;
            const at = view.coordsAtPos(text.indexOf('"stage"') + 3);
            return [at.left + 1, (at.top + at.bottom) / 2];
        }""",
        text,
    )
    page.mouse.move(x, y)
    shown = page.locator(".dsref-pg-hover")
    shown.wait_for(timeout=20_000)
    record = OptionIndex.load().get("zero_optimization.stage")
    assert shown.text_content() == markdown(record, lang, link=option_url(record.path, lang))  # type: ignore[arg-type]
    page.mouse.move(0, 0)

    # Completion after "zero_optimization": {" offers stage, with the language server's label and detail
    needs.module("lsprotocol")
    from dsref.server.completion import complete

    text = '{\n  "zero_optimization": {\n    \n  }\n}\n'
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
    at = text.index("    \n") + 4
    page.evaluate(
        "(at) => { const view = window.dsrefPlayground.view; view.focus(); view.dispatch({selection: {anchor: at}}); }",
        at,
    )
    page.keyboard.type('"')
    offered = page.locator(".cm-tooltip-autocomplete li", has=page.locator(".cm-completionLabel", has_text="stage"))
    offered.first.wait_for(timeout=20_000)
    typed = text[:at] + '""' + text[at:]
    server = next(item for item in complete(typed, at + 1, lang) if item.label == "stage")  # type: ignore[arg-type]
    labels = page.locator(".cm-tooltip-autocomplete .cm-completionLabel").all_text_contents()
    assert "stage" in labels
    row = page.locator(".cm-tooltip-autocomplete li").nth(labels.index("stage"))
    assert row.locator(".cm-completionDetail").text_content() == server.detail
    page.keyboard.press("Escape")

    # "Will it fit?": Llama 2 7B on 8 × 80 GB at 4,096 tokens gets the fit page's figure, as dsref estimate prints it
    from dsref.estimate.messages import M as ESTIMATE
    from dsref.estimate.quantities import format_bytes
    from dsref.site.figures import GPU_SIZES, MODELS, SEQ_LENS, peak_bytes
    from dsref.site.fit import GPUS, pages

    page.evaluate("(text) => window.dsrefPlayground.setText(text)", FIT_CONFIG)
    page.wait_for_function(_CHECKED, arg=FIT_CONFIG, timeout=30_000)
    page.select_option("#dsref-pg-fit-model", "llama-2-7b")
    page.fill("#dsref-pg-fit-gpu", f"{GPU_SIZES[-1]}GB")
    page.fill("#dsref-pg-fit-gpus", str(GPUS))
    page.fill("#dsref-pg-fit-seq", str(SEQ_LENS[-1]))
    page.click("#dsref-pg-fit-run")
    page.wait_for_function("() => window.dsrefPlayground.state.fit", timeout=30_000)
    shown = page.locator("#dsref-pg-fit-out").text_content() or ""
    figure = format_bytes(peak_bytes("llama-2-7b", 3, "none", "none", SEQ_LENS[-1], GPUS), lang)  # type: ignore[arg-type]
    assert f"| {ESTIMATE.text('label_stage', lang, stage=3)} | {figure} |" in pages(lang)["fit.md"]  # type: ignore[arg-type]
    model, config = tmp_path / "llama.json", tmp_path / "fit.json"
    model.write_text(json.dumps(MODELS["llama-2-7b"].config), encoding="utf-8")
    config.write_text(FIT_CONFIG, encoding="utf-8")
    assert figure in shown and shown == _cli(_fit_args(model, config, lang), "", tmp_path)

    # A finding's own fix, past a character outside the BMP (two UTF-16 units, one column for dsref)
    text = '{"note": "😀 中文",\n "fp16": {"enabled": "yes"}, "zero_optimization": {"stage": "2"}}\n'
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    page.wait_for_function(_CHECKED, arg=text, timeout=30_000)
    findings = page.evaluate("() => window.dsrefPlayground.state.report.files[0].findings")
    first = next(f for f in findings if f["fix"])
    page.locator("#dsref-pg-findings li button").first.click()
    index = LineIndex(text)
    expected = text
    for edit in sorted(first["fix"]["edits"], key=lambda e: (e["line"], e["column"]), reverse=True):
        start, end = index.offset(edit["line"], edit["column"]), index.offset(edit["end_line"], edit["end_column"])
        expected = expected[:start] + edit["replacement"] + expected[end:]
    assert expected != text
    page.wait_for_function(_CHECKED, arg=expected, timeout=30_000)
    assert left == []
    context.close()


def _python_held_back(served: str, browser: Any) -> tuple[Any, Any]:
    """A browser context whose requests for the worker's wheels (``/py/``) and for anything off the local server are
    refused, so Python never starts, and a page in it."""
    context = browser.new_context()
    context.route(
        "**/*",
        lambda route: (
            route.abort()
            if "/py/" in route.request.url or not route.request.url.startswith(served)
            else route.continue_()
        ),
    )
    return context, context.new_page()


@pytest.mark.slow
def test_schema_findings_come_at_once_while_python_starts(served: str, browser: Any) -> None:
    """With the worker's wheels held back (Python never starts), the page still marks what the site's JSON Schema
    refuses, at the value or key concerned, in the page's language."""
    context, page = _python_held_back(served, browser)
    page.goto(served + "zh/playground/")
    page.wait_for_function("() => window.dsrefPlayground !== undefined")
    text = '{"train_batch_size": 8, "zero_optimization": {"stage": 7, "stgae": 3}}'
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    page.wait_for_function("(text) => window.dsrefPlayground.state.instant?.text === text", arg=text, timeout=20_000)
    found = page.evaluate("() => window.dsrefPlayground.state.instant.found")
    spots = {text[f["from"] : f["to"]] for f in found}
    assert {"7", '"stgae"'} <= spots, found
    assert all(f["message"].startswith("JSON Schema：") for f in found)
    assert all(re.search("[\u4e00-\u9fff]", f["message"].removeprefix("JSON Schema：")) for f in found), found
    assert not page.evaluate("() => window.dsrefPlayground.state.ready")
    # what a "Try it" link or a share link carries opens in the editor
    shared = '{\n  "bf16": {"enabled": true}, // 注释\n  "zero_optimization": {"stage": 2}\n}\n'
    page.goto(served + "playground/" + config_fragment(shared))
    page.wait_for_function("() => window.dsrefPlayground !== undefined")
    assert page.evaluate("() => window.dsrefPlayground.view.state.doc.toString()") == shared
    page.click("#dsref-pg-share")
    assert page.evaluate("() => location.hash") == config_fragment(shared)
    context.close()


COMPLETION_KEYS_IGNORED_MS = 150
"""Longer than CodeMirror's ``interactionDelay`` (75 ms): the keys that move through or accept a completion list do
nothing for that long after the list opens or its options change, as they would for a user's hand."""


def _select_completion(page: Any, label: str) -> None:
    """Moves the open completion list's selection to ``label``: one key at a time, each once the list has held
    still past CodeMirror's interaction delay (the list may still be refining for the last character typed)."""
    selected = page.locator(".cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel")
    labels = page.locator(".cm-tooltip-autocomplete .cm-completionLabel")
    for _ in range(2 * labels.count() + 10):
        page.wait_for_timeout(COMPLETION_KEYS_IGNORED_MS)
        if selected.count() and selected.first.text_content() == label:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{label!r} never became the selected completion: {labels.all_text_contents()}")


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_schema_completion_comes_at_once_while_python_starts(served: str, browser: Any, lang: str) -> None:
    """With Python held back, typing a key's opening quote inside "zero_optimization" offers `stage` from the site's
    JSON Schema, explained by the schema's description in the page's language."""
    context, page = _python_held_back(served, browser)
    page.goto(served + ("playground/" if lang == "en" else "zh/playground/"))
    page.wait_for_function("() => window.dsrefPlayground !== undefined")
    text = '{\n  "zero_optimization": {\n    "stage": 2,\n    \n  }\n}\n'
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
    at = text.index("    \n") + 4
    page.evaluate(
        "(at) => { const view = window.dsrefPlayground.view; view.focus(); view.dispatch({selection: {anchor: at}}); }",
        at,
    )
    page.keyboard.type('"')
    rows = page.locator(".cm-tooltip-autocomplete li")
    rows.first.wait_for(timeout=20_000)
    labels = page.locator(".cm-tooltip-autocomplete .cm-completionLabel").all_text_contents()
    # a key already in the object is not offered again; removed keys (the schema's doNotSuggest) are not offered
    assert "stage" not in labels and "overlap_comm" in labels and "mics_shard_size" not in labels, labels
    page.keyboard.press("Escape")
    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text.replace('"stage": 2,', ""))
    at = text.replace('"stage": 2,', "").index("    \n") + 4
    page.evaluate("(at) => window.dsrefPlayground.view.dispatch({selection: {anchor: at}})", at)
    page.keyboard.type('"st')
    page.locator(".cm-tooltip-autocomplete .cm-completionLabel", has_text="stage").first.wait_for(timeout=20_000)
    _select_completion(page, "stage")
    name = f"ds_config{'.zh' if lang == 'zh' else ''}.schema.json"
    schema = json.loads((ROOT / "schemas" / name).read_text(encoding="utf-8"))
    (section,) = [b for b in schema["properties"]["zero_optimization"]["anyOf"] if "properties" in b]
    info = page.locator(".cm-completionInfo")
    info.wait_for(timeout=10_000)
    assert info.text_content() == section["properties"]["stage"]["description"]
    page.wait_for_timeout(COMPLETION_KEYS_IGNORED_MS)
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.dsrefPlayground.view.state.doc.toString()").count('"stage"') == 1
    assert not page.evaluate("() => window.dsrefPlayground.state.ready")
    context.close()


def test_a_try_link_carries_the_settings_the_site_checks_its_example_with() -> None:
    """A rule page's example checked with a world size (DS502's) opens in the playground with that world size, so
    that the playground finds what the page says; the reader and the release go along where they are not the
    page's own choice for the text."""
    import html

    from dsref.site.rules import pages

    page = pages("en")["DS502.md"]
    assert "<!-- dsref-check: world-size 8 expect DS502 -->" in page
    built = (
        '<!-- dsref-check: world-size 8 expect DS502 -->\n<div class="language-json highlight"><pre><span></span>'
        "<code>{&quot;train_batch_size&quot;: 64}\n</code></pre></div>\n"
        '<!-- dsref-check: hf deepspeed-version 0.14.5 -->\n<div class="language-json highlight"><pre><span></span>'
        "<code>{&quot;a&quot;: 1}\n</code></pre></div>\n"
        '<!-- dsref-check: hf -->\n<div class="language-json highlight"><pre><span></span>'
        "<code>{&quot;a&quot;: &quot;auto&quot;}\n</code></pre></div>\n"
        '<div class="language-json highlight"><pre><span></span><code>{}\n</code></pre></div>\n'
    )
    linked = with_try_links(built, "en", "../../playground/")
    hrefs = [html.unescape(href) for href in re.findall(r'<a href="([^"]+)">', linked)]
    assert [h.split("#")[1].split("&", 1)[1:] for h in hrefs] == [
        ["world=8"],
        ["reading=hf&release=0.14.5"],
        ["reading=hf"],  # "auto" in strict JSON is read as Hugging Face's anyway, but a hf block always says so
        [],
    ]
    assert hrefs[0] == "../../playground/" + config_fragment('{"train_batch_size": 64}\n', world_size=8)


HOSTILE = {
    "nested 5,000 levels deep": "[" * 5_000 + "]" * 5_000,
    "four times the largest file dsref reads": '{"x": "' + "a" * (4 * 256 * 1024) + '"}\n',
    "not UTF-8 (a lone surrogate, which no UTF-8 file holds)": '{"train_batch_size": "\ud800"}\n',
    "a 5,000-digit number": '{"train_batch_size": ' + "1" * 5_000 + "}\n",
    "a number past a float's range": '{"train_batch_size": 1e99999}\n',
}
"""Texts that stopped the page's checker for the rest of the visit (issue 39), each answered as dsref check answers
the same bytes."""


def _cli_findings(text: str, args: list[str], scratch: Path, name: str = "hostile.json") -> list[Any]:
    """What ``dsref check --format json ARGS FILE`` finds in a file holding what the page's ``text`` stands for."""
    from dsref.site.playground import utf8

    path = scratch / name
    path.write_bytes(utf8(text))
    base = ["check", "--format", "json", "--deepspeed-version", "0.19.8", *args, str(path)]
    return json.loads(_cli(base, "", scratch))["files"][0]["findings"]  # type: ignore[no-any-return]


@pytest.mark.slow
def test_no_input_stops_the_checker(served: str, browser: Any, tmp_path: Path) -> None:
    """Each hostile text gets dsref check's DS000 in the page and the valid config after it its findings; a worker
    that dies takes its findings with it and is started again; findings are shown with their severity in words,
    their code linking to its rule page and their help lines, at most SHOWN_FINDINGS of them."""
    from dsref.check.report.draw import S as REPORT
    from dsref.site.playground import SHOWN_FINDINGS
    from dsref.site.rules import example_of

    context = browser.new_context()
    page = context.new_page()
    page.goto(served + "zh/playground/")
    page.wait_for_function("() => window.dsrefPlayground && window.dsrefPlayground.state.ready", timeout=120_000)

    def checked(text: str) -> list[Any]:
        page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
        page.wait_for_function(_CHECKED, arg=text, timeout=60_000)
        return page.evaluate("() => window.dsrefPlayground.state.report.files[0].findings")  # type: ignore[no-any-return]

    for index, (name, hostile) in enumerate(HOSTILE.items()):
        shown = checked(hostile)
        assert shown[0]["code"] == "DS000", name  # then what the other reader reads in it, if anything (issue 38)
        assert shown == _cli_findings(hostile, ["--lang", "zh"], tmp_path), name
        valid = '{"train_batch_size": 8,\n "fp16": {"enabled": "yes"}}\n' + "\n" * index
        assert checked(valid) == _cli_findings(valid, ["--lang", "zh"], tmp_path), name
    assert page.evaluate("() => window.dsrefPlayground.state.restarts") == 0

    # A worker that dies: its findings go, the reason is said, and the next text is checked by the one started again
    assert page.locator("#dsref-pg-findings li").count() == 1
    page.evaluate(
        """() => {
            const worker = window.dsrefPlayground.worker;
            worker.terminate();
            worker.onerror(new ErrorEvent("error", { message: "RangeError: Maximum call stack size exceeded" }));
        }"""
    )
    assert page.locator("#dsref-pg-findings li").count() == 0
    assert page.evaluate("() => window.dsrefPlayground.state.report") is None
    assert "RangeError" in (page.locator("#dsref-pg-status").text_content() or "")
    page.wait_for_function("() => window.dsrefPlayground.state.ready", timeout=120_000)
    example = example_of("DS502")
    assert example is not None and example.world_size == 8
    assert checked(example.text) == _cli_findings(example.text, ["--lang", "zh"], tmp_path)
    assert page.evaluate("() => window.dsrefPlayground.state.restarts") == 1

    # The world size, as --world-size
    page.fill("#dsref-pg-world", "8")
    page.press("#dsref-pg-world", "Enter")
    page.wait_for_function(
        "() => window.dsrefPlayground.state.report?.files[0].findings.some((f) => f.code === 'DS502')"
    )
    shown = page.evaluate("() => window.dsrefPlayground.state.report.files[0].findings")
    assert shown == _cli_findings(example.text, ["--lang", "zh", "--world-size", "8"], tmp_path)
    # each finding: an icon and its severity in words, its code a link to its rule page, its help lines
    first = page.locator("#dsref-pg-findings li").first
    (ds502,) = [f for f in shown if f["code"] == "DS502"]
    item = page.locator("#dsref-pg-findings li[data-code=DS502]")
    assert item.locator(".dsref-pg-severity").text_content() == REPORT.text(ds502["severity"], "zh")
    assert item.locator(".dsref-pg-icon").text_content()
    assert (item.locator("a").get_attribute("href") or "").endswith("/zh/rules/DS502/")
    assert first.is_visible()
    misspelt = '{"train_batch_size": 8, "zero_optimization": {"stgae": 3}}\n'
    (ds101,) = [f for f in checked(misspelt) if f["code"] == "DS101"]
    assert ds101["help"]
    assert page.locator("#dsref-pg-findings li[data-code=DS101] .dsref-pg-help").all_text_contents() == ds101["help"]

    # Thousands of findings: SHOWN_FINDINGS drawn, the rest counted
    many = "{\n" + ",\n".join(f'  "unknown_key_{n}": {n}' for n in range(SHOWN_FINDINGS + 50)) + "\n}\n"
    total = len(checked(many))
    assert total > SHOWN_FINDINGS
    assert page.locator("#dsref-pg-findings li").count() == SHOWN_FINDINGS
    assert str(total - SHOWN_FINDINGS) in (page.locator("#dsref-pg-more").text_content() or "")

    # A rule page's "Try it" link opens its example with the world size the page checks it with
    href = re.findall(r'href="[^"]*(#config=[^"]+)"', with_try_links(_built_example(example.text), "zh", ""))[0]
    page.close()
    page = context.new_page()  # a new page: the same page given another fragment would not load again
    page.goto(served + "zh/playground/" + href.replace("&amp;", "&"))
    page.wait_for_function("() => window.dsrefPlayground && window.dsrefPlayground.state.ready", timeout=120_000)
    page.wait_for_function("() => window.dsrefPlayground.state.report?.files", timeout=60_000)
    assert page.input_value("#dsref-pg-world") == "8"
    codes = page.evaluate("() => window.dsrefPlayground.state.report.files[0].findings.map((f) => f.code)")
    assert "DS502" in codes
    context.close()


def _built_example(text: str) -> str:
    """A rule page's example as the site's build writes it: its dsref-check comment, then the highlighted block."""
    import html

    return (
        "<!-- dsref-check: world-size 8 expect DS502 -->\n"
        f'<div class="language-json highlight"><pre><span></span><code>{html.escape(text)}</code></pre></div>'
    )


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_schema_preview_claims_nothing_the_exact_check_will_not(served: str, browser: Any, lang: str) -> None:
    """While Python starts: no syntax error for a text the deepspeed launcher reads (Hjson: comments, trailing
    commas), but one for Hugging Face's strict JSON; no "must be null" from the other branch of a section that may
    be null; a value of none of an option's types said in one message naming them."""
    context, page = _python_held_back(served, browser)
    page.goto(served + ("playground/" if lang == "en" else "zh/playground/"))
    page.wait_for_function("() => window.dsrefPlayground !== undefined")

    def preview(text: str) -> list[str]:
        page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
        page.wait_for_function(
            "(text) => window.dsrefPlayground.state.instant?.text === text", arg=text, timeout=20_000
        )
        return [f["message"] for f in page.evaluate("() => window.dsrefPlayground.state.instant.found")]

    hjson = '{\n  // the launcher reads comments\n  "train_batch_size": 8,\n}\n'
    assert preview(hjson) == []
    strict = '{\n  "train_batch_size": "auto",\n}\n'  # "auto": read as Hugging Face's json.load reads it
    (syntax,) = preview(strict)
    assert syntax.startswith(PLAYGROUND.text("syntax", lang, detail=""))  # type: ignore[arg-type]
    found = preview('{"optimizer": {"type": "Adam", "params": {"lr": "x"}}, "scheduler": {"params": {}}}')
    assert found and all("optimizer.params.lr" in m for m in found), found
    assert not any("null" in m for m in found), found
    (types,) = preview('{"optimizer": "adam"}')
    assert types.endswith(PLAYGROUND.text("schema_types", lang, types="object | null")), types  # type: ignore[arg-type]
    # a long line wraps on a phone and scrolls sideways on a wider screen
    wraps = "() => document.querySelector('#dsref-pg-editor .cm-content').classList.contains('cm-lineWrapping')"
    assert not page.evaluate(wraps)
    page.set_viewport_size({"width": 390, "height": 800})
    page.wait_for_function(wraps, timeout=5_000)
    assert not page.evaluate("() => window.dsrefPlayground.state.ready")
    context.close()


# -- the launch pasted beside the config ----------------------------------------------------------------------------

LAUNCH_CONFIG = """{
  "train_micro_batch_size_per_gpu": 2,
  "gradient_accumulation_steps": "auto",
  "bf16": {"enabled": true},
  "optimizer": {"type": "AdamW", "params": {"lr": "auto"}},
  "zero_optimization": {"stage": 3}
}
"""

SHELL_LAUNCH = """#!/bin/bash
deepspeed --num_gpus 8 train.py \\
  --deepspeed ds_config.json \\
  --per_device_train_batch_size 4 \\
  --bf16 --learning_rate 2e-5
"""
"""Mismatches the config: Trainer compares its micro batch 2 with --per_device_train_batch_size 4 (line 4)."""

LLAMA_FACTORY_LAUNCH = """### model
model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
stage: sft
deepspeed: examples/deepspeed/ds_z3_config.json
per_device_train_batch_size: 2
learning_rate: 1.0e-4
bf16: false
"""

ACCELERATE_LAUNCH = """compute_environment: LOCAL_MACHINE
distributed_type: DEEPSPEED
deepspeed_config:
  gradient_accumulation_steps: 4
  offload_optimizer_device: disk
  zero_stage: 2
mixed_precision: bf16
num_machines: 1
num_processes: 8
"""


def _launch_cli(
    launch: str, config_at: str | None, lang: str, scratch: Path, config: str = LAUNCH_CONFIG
) -> tuple[Any, str]:
    """``dsref check --format json LAUNCH`` on the base install and PyYAML (the page's, with the YAML reader it loads
    for a YAML launch), in a folder holding the launch and the config where the launch names it."""
    from dsref.site.playground_launch import LAUNCH_NAMES, launch_kind

    folder = scratch / f"launch-{len(list(scratch.glob('launch-*')))}"
    folder.mkdir()
    name = LAUNCH_NAMES[launch_kind(launch) or "shell"]
    (folder / name).write_text(launch, encoding="utf-8")
    if config_at is not None:
        (folder / config_at).parent.mkdir(parents=True, exist_ok=True)
        (folder / config_at).write_text(config, encoding="utf-8")
    yaml = scratch / "yaml-only"
    if not yaml.exists():
        yaml.mkdir()
        (yaml / "yaml").symlink_to(Path(importlib.import_module("yaml").__file__ or "").parent)
    env = {"PYTHONPATH": f"{_base_path(str(scratch))}:{yaml}", "PATH": "/usr/bin:/bin", "HOME": str(scratch)}
    args = ["check", "--format", "json", "--deepspeed-version", "0.19.8", "--lang", lang, name]
    proc = subprocess.run(
        [sys.executable, "-S", "-m", "dsref", *args], capture_output=True, text=True, env=env, cwd=folder
    )
    assert proc.returncode in (0, 1), proc.stderr
    return json.loads(proc.stdout), proc.stderr


_BOTH_CHECKED = (
    "([text, launch]) => window.dsrefPlayground.state.checkedText === text && "
    "window.dsrefPlayground.state.checkedLaunch === launch"
)


def _marked_lines(page: Any, editor: str, severity: str) -> list[int]:
    """The lines (1-based) of ``editor`` that hold a mark of ``severity`` (what CodeMirror's lint draws)."""
    return page.evaluate(  # type: ignore[no-any-return]
        """([editor, severity]) => [...document.querySelectorAll(`${editor} .cm-line`)]
            .map((line, index) => (line.querySelector(`.cm-lintRange-${severity}`) ? index + 1 : 0))
            .filter(Boolean)""",
        [editor, severity],
    )


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pasted_launch_is_checked_as_dsref_check_launch(served: str, browser: Any, lang: str, tmp_path: Path) -> None:
    """A launch pasted beside the config gets dsref check LAUNCH's report, its findings marked in the editor that
    holds the value (a mismatch in both); PyYAML is fetched only once a YAML launch is pasted; the share link carries
    the launch; an emptied launch pane gives the config alone's answer again; no launch stops the checker."""
    context = browser.new_context()
    fetched: list[str] = []

    def local_only(route: Any) -> None:
        fetched.append(route.request.url)
        route.continue_() if route.request.url.startswith(served) else route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    page.goto(served + ("playground/" if lang == "en" else "zh/playground/"))
    page.wait_for_function("() => window.dsrefPlayground && window.dsrefPlayground.state.ready", timeout=120_000)
    pg = "window.dsrefPlayground"

    def checked(config: str, launch: str) -> Any:
        page.evaluate(f"([config, launch]) => {{ {pg}.setText(config); {pg}.setLaunch(launch); }}", [config, launch])
        page.wait_for_function(_BOTH_CHECKED, arg=[config, launch], timeout=60_000)
        return page.evaluate(f"() => ({{ report: {pg}.state.report, launch: {pg}.state.launch }})")

    # A shell launch that mismatches: DS589 on the config's line and on the launch's
    shown = checked(LAUNCH_CONFIG, SHELL_LAUNCH)
    report, stderr = _launch_cli(SHELL_LAUNCH, "ds_config.json", lang, tmp_path)
    assert shown["report"]["files"] == report["files"] and stderr == ""
    assert [f["code"] for f in report["files"][0]["findings"]].count("DS589") == 1
    assert _marked_lines(page, "#dsref-pg-editor", "error") == [2]
    assert _marked_lines(page, "#dsref-pg-launch", "error") == [4]  # --per_device_train_batch_size 4
    status = page.locator("#dsref-pg-status").text_content() or ""
    assert PLAYGROUND.text("launch_named", lang, written="ds_config.json") in status  # type: ignore[arg-type]
    assert PLAYGROUND.text("launch_processes", lang, count=8) in status  # type: ignore[arg-type]
    assert page.locator("#dsref-pg-findings li[data-code=DS589] .dsref-pg-where").text_content() == "ds_config.json:2:3"
    effective = json.loads(page.locator("#dsref-pg-effective pre").text_content() or "")
    assert effective["config"]["optimizer"]["params"]["lr"] == 2e-5 and page.locator("#dsref-pg-effective").is_visible()
    assert not any("pyyaml" in url for url in fetched)  # the first answers and a shell launch need no YAML reader

    # A value the launch fills into an "auto": the finding at the launch's flag, the "auto" marked in the config too
    auto = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "bf16": {"enabled": "auto"}\n}\n'
    zero = "deepspeed --num_gpus 2 train.py --deepspeed ds_config.json \\\n  --per_device_train_batch_size 0 --bf16\n"
    shown = checked(auto, zero)
    report, _ = _launch_cli(zero, "ds_config.json", lang, tmp_path, config=auto)
    assert shown["report"]["files"] == report["files"]
    placed = [f for f in report["files"][0]["findings"] if f.get("file") == "launch.sh"]
    assert placed and all(f["line"] == 2 and f["related"][0]["line"] == 2 for f in placed)
    assert 2 in _marked_lines(page, "#dsref-pg-launch", placed[0]["severity"])
    assert 2 in _marked_lines(page, "#dsref-pg-editor", placed[0]["severity"])
    assert page.locator("#dsref-pg-findings .dsref-pg-where", has_text="launch.sh:2:").count() == len(placed)

    # The share link carries the launch, and opens it again
    checked(LAUNCH_CONFIG, SHELL_LAUNCH)
    page.click("#dsref-pg-share")
    assert page.evaluate("() => location.hash") == config_fragment(LAUNCH_CONFIG, launch=SHELL_LAUNCH)

    # A LLaMA-Factory YAML: PyYAML is fetched now, and the path it names stands for the config
    shown = checked(LAUNCH_CONFIG, LLAMA_FACTORY_LAUNCH)
    report, _ = _launch_cli(LLAMA_FACTORY_LAUNCH, "examples/deepspeed/ds_z3_config.json", lang, tmp_path)
    assert shown["report"]["files"] == report["files"]
    assert shown["launch"]["named"] == "examples/deepspeed/ds_z3_config.json"
    assert _marked_lines(page, "#dsref-pg-launch", "error") == [7]  # bf16: false against the config's true
    assert any("pyyaml" in url for url in fetched)

    # An Accelerate config with its deepspeed_config inline: findings on its own lines; the config pane is not read
    shown = checked("{ this is not read }", ACCELERATE_LAUNCH)
    report, _ = _launch_cli(ACCELERATE_LAUNCH, None, lang, tmp_path)
    assert shown["report"]["files"] == report["files"] and shown["launch"]["builds"]
    assert 5 in _marked_lines(page, "#dsref-pg-launch", "error")  # offload_optimizer_device: disk
    assert _marked_lines(page, "#dsref-pg-editor", "error") == []
    assert PLAYGROUND.text("launch_builds", lang) in (page.locator("#dsref-pg-status").text_content() or "")  # type: ignore[arg-type]

    # A launch its reader cannot read stops nothing: the next one is checked
    for hostile in ("a: " + "[" * 5_000 + "]" * 5_000 + "\n", "deepspeed " + "$(" * 3_000 + "\n"):
        page.evaluate("(launch) => window.dsrefPlayground.setLaunch(launch)", hostile)
        page.wait_for_function(
            "(launch) => window.dsrefPlayground.state.checkedLaunch === launch || window.dsrefPlayground.state.stopped",
            arg=hostile,
            timeout=60_000,
        )
    shown = checked(LAUNCH_CONFIG, SHELL_LAUNCH)
    assert [f["code"] for f in shown["report"]["files"][0]["findings"]].count("DS589") == 1

    # Emptied, the launch pane leaves the page as it is without one: dsref check - on the config alone
    shown = checked(LAUNCH_CONFIG, "")
    assert shown["launch"] is None and not page.locator("#dsref-pg-effective").is_visible()
    alone = ["check", "--format", "json", "--deepspeed-version", "0.19.8", "--lang", lang, "-"]
    assert shown["report"] == json.loads(_cli(alone, LAUNCH_CONFIG, tmp_path))
    assert _marked_lines(page, "#dsref-pg-launch", "error") == []

    # A share link with a launch opens both; on a phone the two editors are one above the other, their lines wrapped
    page.close()
    page = context.new_page()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(served + "playground/" + config_fragment(LAUNCH_CONFIG, launch=SHELL_LAUNCH))
    page.wait_for_function("() => window.dsrefPlayground && window.dsrefPlayground.state.ready", timeout=120_000)
    page.wait_for_function(_BOTH_CHECKED, arg=[LAUNCH_CONFIG, SHELL_LAUNCH], timeout=60_000)
    assert page.evaluate("() => window.dsrefPlayground.launchView.state.doc.toString()") == SHELL_LAUNCH
    config_box = page.locator("#dsref-pg-editor").bounding_box()
    launch_box = page.locator("#dsref-pg-launch").bounding_box()
    assert launch_box["y"] >= config_box["y"] + config_box["height"] and launch_box["width"] <= 390
    assert page.evaluate(
        "() => document.querySelector('#dsref-pg-launch .cm-content').classList.contains('cm-lineWrapping')"
    )
    assert [url for url in fetched if not url.startswith(served)] == []
    context.close()
