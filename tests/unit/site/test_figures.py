"""One source for every worked figure: the pages state memory figures only as the estimator gives them for the
declared worked examples (``dsref/site/figures.py``), and two pages never state different figures for one case."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from dsref.estimate.table import row_label
from dsref.site import LANGS, figures, fit, zero
from dsref.site.figures import Macro, Statement, disagreements, fill, hand_written, statements, wrong_arithmetic
from dsref.site.hooks import figure_problems, on_page_markdown
from dsref.text.i18n import Lang

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))


def _page(src_uri: str) -> SimpleNamespace:
    return SimpleNamespace(meta={}, file=SimpleNamespace(src_uri=src_uri))


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _zero_statements(lang: Lang) -> list[Statement]:
    """The worked example's table on the committed ZeRO page, read back as statements about its case."""
    page = f"docs/{lang}/zero.md"
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    est = figures.model_estimate(zero.EXAMPLE_MODEL, zero.EXAMPLE_GPUS)
    by_label = {row_label(row, lang): row for row in est.rows}
    found = []
    for number, line in enumerate(lines, 1):
        cells = _cells(line) if line.startswith("| ") else []
        row = by_label.get(cells[0]) if cells else None
        if row is None:
            continue
        for quantity, text in zip(("gpu", "cpu", "nvme"), cells[1:4], strict=True):
            if quantity == "nvme" and row.nvme_bytes is None:
                continue
            macro = Macro(
                quantity,
                zero.EXAMPLE_MODEL,
                zero.EXAMPLE_GPUS,
                row.stage,
                row.offload_optimizer,  # type: ignore[arg-type]
                row.offload_param,  # type: ignore[arg-type]
                row.zero_init is not False,
            )
            found.append(Statement(page, number, lang, macro, text))
    return found


def _fit_statements(lang: Lang) -> list[Statement]:
    """The peak tables of the committed "Will my model fit?" page, read back as statements about their cases."""
    page = f"docs/{lang}/fit.md"
    lines = (ROOT / page).read_text(encoding="utf-8").split("\n")
    labels = {fit._label(*choice, lang): choice for choice in fit.CHOICES}  # type: ignore[arg-type]
    titles = {
        fit.M.text("model_title", lang, model=model.name, seq=figures.format_number(seq, 0, lang)): (model_id, seq)
        for model_id, model in figures.MODELS.items()
        for seq in figures.SEQ_LENS
    }
    found = []
    case = None
    for number, line in enumerate(lines, 1):
        if line.startswith("## "):
            case = titles.get(line[3:])
        cells = _cells(line) if line.startswith("| ") else []
        if case is None or not cells or cells[0] not in labels:
            continue
        stage, optimizer, param = labels[cells[0]]
        for checkpointing, text in ((False, cells[1]), (True, cells[2])):
            macro = Macro("peak", case[0], fit.GPUS, stage, optimizer, param, True, case[1], checkpointing)
            found.append(Statement(page, number, lang, macro, text))
    return found


def _all_statements() -> list[Statement]:
    found: list[Statement] = []
    for lang in LANGS:
        found += _zero_statements(lang) + _fit_statements(lang)
        for path in sorted((DOCS / lang).rglob("*.md")):
            found += statements(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix(), lang)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(DOCS).as_posix() for p in PAGES])
def test_every_figure_of_a_page_comes_from_the_estimator(page: Path) -> None:
    problems = figure_problems(page.read_text(encoding="utf-8"), page.relative_to(DOCS).parts[0])
    assert not problems, "\n".join(f"{page.relative_to(ROOT)}: {p}" for p in problems)


def test_the_generated_pages_state_the_worked_examples() -> None:
    for lang in LANGS:
        assert len(_zero_statements(lang)) == 28  # 13 rows of GPU and CPU figures, 2 with NVMe
        assert len(_fit_statements(lang)) == 2 * 2 * len(fit.CHOICES) * 2


def test_every_stated_figure_is_the_estimators() -> None:
    wrong = []
    for lang in LANGS:
        for statement in _zero_statements(lang) + _fit_statements(lang):
            expected = figures.value(statement.macro, lang)
            if expected != statement.text:
                wrong.append(f"{statement.page}:{statement.line}: {statement.text}, the estimator gives {expected}")
    assert not wrong, "\n".join(wrong)


def test_no_two_pages_state_different_figures_for_one_case() -> None:
    found = _all_statements()
    shared = {s.key for s in found if s.page.endswith("/zero.md")} & {s.key for s in found if "guides" in s.page}
    assert len(shared) >= 10, "the guides cite the ZeRO page's worked example"
    problems = disagreements(found)
    assert not problems, "\n".join(problems)


def test_a_figure_that_differs_between_two_pages_is_named_with_both() -> None:
    macro = figures.parse("gpu model=llama-2-7b gpus=8 stage=3")
    found = [
        Statement("docs/en/zero.md", 37, "en", macro, "14.6 GB"),
        Statement("docs/en/guides/choosing-zero-stage.md", 46, "en", macro, "15.2 GB"),
    ]
    [problem] = disagreements(found)
    assert problem.startswith("gpu llama-2-7b gpus=8 stage=3 (en) differs between pages: ")
    assert "docs/en/zero.md:37 says 14.6 GB" in problem
    assert "docs/en/guides/choosing-zero-stage.md:46 says 15.2 GB" in problem


def test_the_zero_page_and_the_guide_agree_on_stage_3_of_llama_2_7b() -> None:
    """The disagreement that started this: 16.7 GB on the ZeRO page, 15.2 GB in the guide, for one case."""
    guide = (DOCS / "en" / "guides" / "choosing-zero-stage.md").read_text(encoding="utf-8")
    filled = fill(guide, "en")[0]
    stage3 = next(line for line in filled.split("\n") if line.startswith("| 3 |") and "GB" in line)
    zero_row = next(
        line
        for line in (DOCS / "en" / "zero.md").read_text(encoding="utf-8").split("\n")
        if line.startswith("| stage 3 |")
    )
    assert _cells(stage3)[2].split(" (")[0] == _cells(zero_row)[1] == "14.6 GB"


def test_macros_fill_in_the_page_language_and_defaults_apply() -> None:
    page = "<!-- dsref-figures: model=llama-2-7b -->\nx {{ figure params }} y {{ figure params-per-gpu gpus=8 }}\n"
    assert fill(page, "en") == ("\nx 6.7B y 842.3M\n", [])
    assert fill(page, "zh")[0].endswith("x 67.4亿 y 8.4亿\n")
    assert fill("{{ figure bytes elements=5e8 dtype=fp32 }}", "en") == ("1.9 GB", [])  # 2e9 bytes, GB = 2**30


@pytest.mark.parametrize(
    ("macro", "problem"),
    [
        ("{{ figure gpu model=llama-2-70b gpus=8 }}", "model=llama-2-70b is not a declared model"),
        ("{{ figure gpu model=llama-2-7b gpus=16 }}", "gpus=16 is not a declared GPU count (1, 8, 64)"),
        ("{{ figure peak model=llama-2-7b stage=3 }}", "peak needs seq="),
        ("{{ figure peak model=llama-2-7b seq=1024 }}", "seq=1024 is not a declared sequence length"),
        ("{{ figure nvme model=llama-2-7b stage=2 }}", "uses no NVMe"),
        ("{{ figure memory model=llama-2-7b }}", "unknown quantity 'memory'"),
        ("{{ figure gpu model=llama-2-7b stage=3", "does not close"),
    ],
)
def test_a_macro_that_names_no_declared_case_is_refused(macro: str, problem: str) -> None:
    text, problems = fill(f"a\n{macro}\n", "en")
    assert macro in text
    assert problems and problems[0].startswith("line 2: ") and problem in problems[0], problems


def test_figures_written_by_hand_are_found_outside_code_and_quotations() -> None:
    page = (
        "Stage 3 needs 15.2 GB per GPU, 8.6× less; 单卡时要 117.8 GB，减少到 1/3.3，即 3.3 倍。\n"
        'A "500 MB" bucket, “24 GB 显卡”, `--gpu-memory 24GB`, <!-- 1 GB -->\n'
        "```console\n$ dsref estimate --cpu-memory 512GB\n```\n"
        "stage {{ figure gpu model=llama-2-7b stage=3 }}\n"
    )
    found = hand_written(page)
    assert [p.split("'")[1] for p in found] == ["15.2 GB", "8.6×", "117.8 GB", "3.3 倍"]
    assert all(p.startswith("line 1: ") for p in found)


def test_batch_arithmetic_that_does_not_hold_is_found() -> None:
    assert wrong_arithmetic("4 × 8 × 16 = 512 and 8 × 4 × 4 = 128\n") == []
    assert wrong_arithmetic("ok\none step sees 4 × 8 × 8 = 512 samples\n") == [
        "line 2: 4 × 8 × 8 = 512 does not hold: the product is 256"
    ]


def test_a_figure_that_disagrees_with_the_estimator_fails_the_build_with_page_and_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    markdown = "# Page\n\nStage 3 of Llama 2 7B on 8 GPUs needs 15.2 GB per GPU.\n\n{{ figure gpu model=x }}\n"
    with caplog.at_level("WARNING", logger="mkdocs.plugins.dsref"):
        out = on_page_markdown(markdown, page=_page("en/guides/wrong-figure.md"))
    assert "docs/en/guides/wrong-figure.md:3: '15.2 GB' written by hand" in caplog.text
    assert "docs/en/guides/wrong-figure.md:5: model=x is not a declared model" in caplog.text
    assert "15.2 GB" in out


def test_the_build_fills_the_figures_of_a_page_in_its_language() -> None:
    markdown = "# Page\n\n| {{ figure gpu model=llama-2-7b gpus=8 stage=3 }} |\n"
    assert on_page_markdown(markdown, page=_page("en/guides/x.md")).endswith("| 14.6 GB |\n")
    assert on_page_markdown(markdown, page=_page("zh/guides/x.md")).endswith("| 14.6 GB |\n")


def test_the_worked_examples_are_the_real_llama_2_shapes() -> None:
    llama7, llama13 = (figures.MODELS[m].arch for m in ("llama-2-7b", "llama-2-13b"))
    assert (llama7.params, llama7.largest_layer) == (6_738_415_616, 131_072_000)
    assert (llama13.params, llama13.largest_layer) == (13_015_864_320, 163_840_000)
    assert re.fullmatch(
        r"dsref estimate --params 6738415616 --largest-layer 131072000 --gpus-per-node 8",
        figures.estimate_command("llama-2-7b", 8),
    )


def test_one_activation_method_feeds_every_figure() -> None:
    """Activations are counted in one place (:func:`dsref.estimate.activations.saved_activations`), reached only
    through the peak of a run: the command line with or without --model, the fit page and the figures all ask
    :func:`dsref.estimate.peak.peak_memory`. A second formula (34·s·b·h) once gave the guides 17.0 GB where the fit
    page said 22.9 GB for the same run (issue 26)."""
    import ast
    import pathlib

    import dsref

    root = pathlib.Path(dsref.__file__).parent
    callers = set()
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "saved_activations":
                callers.add(path.relative_to(root).as_posix())
    # the fit page's validation table shows the same function's figure beside a measurement of it
    assert callers <= {"estimate/activations.py", "estimate/peak.py", "site/fit.py"}, callers
    assert not hasattr(dsref.estimate.activations, "activation_memory")
