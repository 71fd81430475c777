"""ruff and mypy over the package, so one pytest run is the whole check."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    """``python -m name`` with this interpreter: the tool installed beside the tests, whatever is on PATH."""
    if importlib.util.find_spec(name) is None:
        pytest.fail(f"{name} is not installed for {sys.executable}; pip install -e '.[test]'", pytrace=False)
    return [sys.executable, "-m", name]


def test_ruff_check() -> None:
    proc = subprocess.run(
        [*_tool("ruff"), "check", "dsref", "tests", "scripts"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    proc = subprocess.run(
        [*_tool("ruff"), "format", "--check", "dsref", "tests", "scripts"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy() -> None:
    proc = subprocess.run([*_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
