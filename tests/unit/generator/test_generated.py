"""Committed generated files equal what the schema produces now."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dsref.generator.files import leftovers


def test_generated_files_are_up_to_date(generated: dict[Path, bytes]) -> None:
    stale = [str(path) for path, content in generated.items() if not path.exists() or path.read_bytes() != content]
    assert stale == [], "run: python scripts/generate.py"


@pytest.mark.slow
def test_generate_check_mode_passes() -> None:
    proc = subprocess.run([sys.executable, "scripts/generate.py", "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_the_generated_folder_holds_only_what_is_generated(generated: dict[Path, bytes]) -> None:
    """A shard left behind by a removed top-level key would still be importable."""
    assert leftovers(generated) == [], "run: python scripts/generate.py"
