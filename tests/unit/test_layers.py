"""The import-linter contracts of pyproject.toml catch what they are written to catch.

Whether the code keeps them is not a test: ``scripts/lint.sh`` runs ``lint-imports`` (``.ci/run`` after the tests,
and pre-commit). Here a copy of the package gets one forbidden import per contract, all at once, and one run of
import-linter must report each of them under the contract that forbids it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests import needs

ROOT = Path(__file__).resolve().parents[2]


def _contract_names() -> list[str]:
    import tomllib  # the test environment needs Python 3.11 (mkdocs-material does), dsref itself 3.10

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [contract["name"] for contract in config["tool"]["importlinter"]["contracts"]]


CONTRACTS = _contract_names()
LAYERS = CONTRACTS[0]

# (module, the line appended to it, the import as import-linter names it, the contract that forbids it)
BROKEN = [
    ("tree/paths.py", "from ..check import findings", "dsref.tree.paths -> dsref.check.findings", LAYERS),
    ("explain/search.py", "from ..estimate import table", "dsref.explain.search -> dsref.estimate.table", LAYERS),
    ("schema/_types.py", "from ..text import glossary", "dsref.schema._types -> dsref.text.glossary", LAYERS),
    ("server/app.py", "from ..site import rules", "dsref.server.app -> dsref.site.rules", LAYERS),
    (
        "text/glossary.py",
        "from ..schema import _meta",
        "dsref.text.glossary -> dsref.schema._meta",
        "Text imports only the option tree, not the schema",
    ),
    (
        "check/report/messages.py",
        "from ...cli import lang",
        "dsref.check.report.messages -> dsref.cli.lang",
        "Nothing imports the CLI",
    ),
    (
        "tree/options.py",
        "from .. import __version__",
        "dsref.tree.options -> dsref ",
        "Nothing imports the package root",
    ),
]


def lint_imports(cwd: Path) -> subprocess.CompletedProcess[str]:
    """import-linter over the package found in ``cwd``, with this interpreter (its output one line a statement)."""
    program = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = {**os.environ, "PYTHONPATH": str(cwd), "COLUMNS": "1000"}
    return subprocess.run(
        [sys.executable, "-c", program, "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )


def _sections(report: str) -> dict[str, str]:
    """The report of each broken contract, by the contract's name (whitespace folded)."""
    text = " ".join(report.split("Broken contracts", 1)[-1].split())
    starts = sorted((text.find(" ".join(name.split())), name) for name in CONTRACTS if " ".join(name.split()) in text)
    ends = [start for start, _ in starts[1:]] + [len(text)]
    return {name: text[start:end] for (start, name), end in zip(starts, ends, strict=True)}


def test_each_forbidden_import_is_reported_under_the_contract_that_forbids_it(tmp_path: Path) -> None:
    needs.module("importlinter")  # import-linter (the test extra)
    shutil.copytree(ROOT / "dsref", tmp_path / "dsref", ignore=shutil.ignore_patterns("__pycache__", "*.txt", "*.json"))
    for module, line, _, _ in BROKEN:
        path = tmp_path / "dsref" / module
        path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    proc = lint_imports(tmp_path)
    assert proc.returncode != 0, proc.stdout
    sections = _sections(proc.stdout)
    for module, _, found, contract in BROKEN:
        [name] = [name for name in CONTRACTS if name.startswith(contract)]
        assert name in sections, f"{contract!r} is not broken by {module}:\n{proc.stdout}"
        assert re.search(re.escape(found.rstrip()) + r" \(l\.\d+\)", sections[name]), (module, sections[name])
