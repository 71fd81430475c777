"""Committed generated files equal what the schema produces now."""

from __future__ import annotations

import subprocess
import sys

from dsref.generated import generated_files


def test_generated_files_are_up_to_date() -> None:
    stale = [
        str(path) for path, content in generated_files().items() if not path.exists() or path.read_bytes() != content
    ]
    assert stale == [], "run: python scripts/generate.py"


def test_generate_check_mode_passes() -> None:
    proc = subprocess.run([sys.executable, "scripts/generate.py", "--check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_the_index_package_holds_no_module_it_does_not_generate() -> None:
    """A shard left behind by a removed top-level key would still be importable."""
    from pathlib import Path

    from dsref.index import INDEX_DIR

    wanted = {path.name for path in generated_files() if path.parent == Path(INDEX_DIR)}
    present = {path.name for path in Path(INDEX_DIR).iterdir() if path.suffix in (".py", ".txt")}
    assert present == wanted
