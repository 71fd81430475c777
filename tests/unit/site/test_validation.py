"""The fit page's validation table (issue 26, part 5): CPU-measured points, data in ``dsref/site/validation_cpu.json``
written by ``scripts/measure_cpu_memory.py``, checked against the estimator here and shown on the page in both
languages."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from dsref.site.fit import TOLERANCE, VALIDATION, pages, validation_rows

ROOT = Path(__file__).resolve().parents[3]


def test_every_measured_point_is_within_the_tolerance_of_the_estimator() -> None:
    rows = validation_rows()
    assert len(rows) >= 8
    assert {row["model"]["model_type"] for row, _ in rows} >= {"llama", "qwen2", "mistral", "gpt2"}
    for row, estimated in rows:
        measured = row["measured_bytes"]
        assert abs(estimated - measured) <= TOLERANCE / 100 * measured, (row, estimated, measured)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fit_page_shows_every_row_with_both_figures(lang: str) -> None:
    page = pages(lang)["fit.md"]  # type: ignore[arg-type]
    for row, estimated in validation_rows():
        assert f"{row['measured_bytes']:,}" in page and f"{estimated:,}" in page
    data = json.loads(VALIDATION.read_text(encoding="utf-8"))
    assert data["torch"] in page and data["transformers"] in page


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("measure_cpu_memory", ROOT / "scripts" / "measure_cpu_memory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_table_holds_the_scripts_points() -> None:
    script = _script()
    recorded = json.loads(VALIDATION.read_text(encoding="utf-8"))["rows"]
    assert [{k: v for k, v in row.items() if k != "measured_bytes"} for row in recorded] == [
        script.run_of(point) for point in script.POINTS
    ]


@pytest.mark.slow
def test_the_measurements_are_what_the_table_says() -> None:
    """Measured again: the bytes saved depend on the library versions only, not on the weights or the machine."""
    from tests import needs

    needs.module("torch")
    needs.module("transformers")
    script = _script()
    recorded = json.loads(VALIDATION.read_text(encoding="utf-8"))
    import torch
    import transformers

    if (torch.__version__, transformers.__version__) != (recorded["torch"], recorded["transformers"]):
        pytest.skip("measured with other library versions: run scripts/measure_cpu_memory.py")
    for point, row in zip(script.POINTS, recorded["rows"], strict=True):
        assert script.measure(point) == row["measured_bytes"], point
