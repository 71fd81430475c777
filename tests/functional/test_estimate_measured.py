"""The estimator against peak GPU memory measured on a real GPU (``scripts/measure_gpu_memory.py``).

The measured table is committed once a GPU machine has run the script; until then the comparison skips and says so,
and only the script's matrix and predictions are checked here.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOLERANCE = 0.10


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("measure_gpu_memory", ROOT / "scripts" / "measure_gpu_memory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_matrix_covers_what_the_issue_asks() -> None:
    script = _script()
    runs = script.matrix()
    assert len(runs) >= 12 and len({run["model"] for run in runs}) >= 2
    assert {run["stage"] for run in runs} == {0, 1, 2, 3}
    assert any(run["offload_optimizer"] == "cpu" for run in runs)
    assert {run["checkpointing"] for run in runs} == {True, False}
    predictions = [script.predicted_allocated(run) for run in runs]
    assert all(p > 0 for p in predictions)


@pytest.mark.skip_allowed_in_ci(
    "the table is measured on a GPU, which CI does not have; the task that is lent one commits it"
)
def test_estimate_within_10_percent_of_the_measured_peak() -> None:
    script = _script()
    if not script.TABLE.exists():
        pytest.skip("no measured table yet: run scripts/measure_gpu_memory.py on a CUDA GPU and commit its output")
    table = json.loads(script.TABLE.read_text())
    for row in table["rows"]:
        run = {key: row[key] for key in ("model", "stage", "offload_optimizer", "checkpointing")}
        predicted, measured = script.predicted_allocated(run), row["max_memory_allocated"]
        assert abs(predicted - measured) <= TOLERANCE * measured, (table["gpu"], run, predicted, measured)
