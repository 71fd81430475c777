"""The package's layers, as the import-linter contracts in pyproject.toml state them, hold for the code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = (
    "dsref's layers: generator > cli > server | site > check | explain | editor | estimate > text > tree > generated "
    "> schema > records"
)


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).parent / "lint-imports"
    if not command.exists():
        pytest.fail("import-linter is not installed; pip install -e '.[test]'")
    env = {**os.environ, "PYTHONPATH": str(cwd)}
    return subprocess.run(
        [str(command), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )


def test_every_contract_is_kept() -> None:
    proc = lint_imports(ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


def _copy_of_the_package(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "dsref", tmp_path / "dsref", ignore=shutil.ignore_patterns("__pycache__", "*.txt", "*.json"))
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("tree/paths.py", "from ..check import findings", LAYERS),  # the tree reaching up into a face
        ("explain/search.py", "from ..estimate import table", LAYERS),  # one face importing another
        ("schema/_types.py", "from ..text import glossary", LAYERS),  # the schema importing anything of dsref
        ("text/glossary.py", "from ..schema import _meta", "Text imports only the option tree, not the schema"),
        ("check/report.py", "from ..cli import lang", "Nothing imports the CLI"),
        ("server/app.py", "from ..site import rules", LAYERS),  # the server and the site stay apart
        ("tree/options.py", "from .. import __version__", "Nothing imports the package root"),
    ],
)
def test_a_broken_layer_fails_with_the_contract_name(tmp_path: Path, module: str, line: str, contract: str) -> None:
    copy = _copy_of_the_package(tmp_path)
    path = copy / "dsref" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    proc = lint_imports(copy)
    assert proc.returncode != 0
    broken = proc.stdout.split("Broken contracts", 1)[-1]
    assert contract in " ".join(broken.split()), proc.stdout
