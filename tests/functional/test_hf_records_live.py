"""The installed transformers and Accelerate, run on the battery of ``tests/data/hf_releases.json`` exactly as
``scripts/hf_releases.py`` ran each recorded release (``scripts/hf_probe.py`` in a child process), do what the record
says their release does: the record is the oracle for the releases that are not installed, and this holds it to the
real thing where one is (``tests/unit/launch/test_hf_records.py`` holds dsref to the record)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

from tests import hf_records, needs

ROOT = Path(__file__).resolve().parents[2]


def _recorder() -> Any:
    spec = importlib.util.spec_from_file_location("hf_releases", ROOT / "scripts" / "hf_releases.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize(("library", "kind"), [("transformers", "trainer"), ("accelerate", "accelerate")])
def test_the_installed_release_does_what_its_record_says(
    library: str, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    needs.module("torch")
    needs.module("deepspeed")  # transformers' DeepSpeed integration checks for it
    needs.module("accelerate")
    installed = needs.module(library).__version__
    record = hf_records.record()
    if installed not in record[library]["releases"]:
        pytest.skip(
            f"{library} {installed} is not recorded: `python scripts/hf_releases.py record --release "
            f"{library}=={installed}` after adding it to the script's table"
        )
    monkeypatch.setenv("DSREF_HF_RELEASES_DIR", str(tmp_path))  # the stand-ins the recorder writes go there
    got = _recorder().probe(None, {kind: record["battery"][kind]})
    expected = {name: result for at, _case, name, result in hf_records.results(library) if at == installed}
    assert got[kind].keys() == expected.keys()
    differing = [name for name in expected if got[kind][name] != expected[name]]
    assert differing == []
