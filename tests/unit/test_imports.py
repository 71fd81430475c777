"""No module of dsref imports a private name of another of its packages.

Ruff's PLC2701 leaves imports within one root package alone; this walks the code for them. Ruff, mypy and
import-linter themselves are not tests: ``scripts/lint.sh`` runs them (``.ci/run`` after the tests, and pre-commit).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _private_imports(path: Path) -> list[str]:
    """``from X import _y`` (or from a module ``X._z``) in ``path`` where X is in another package of dsref."""
    module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    package = package.removesuffix(".__init__")
    own = module.split(".")[:2]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
        target = ".".join([*base, *([node.module] if node.module else [])])
        if not target.startswith("dsref.") or target.split(".")[:2] == own:
            continue
        private = [step for step in target.split(".") if _is_private(step)]
        private += [alias.name for alias in node.names if _is_private(alias.name)]
        if private:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {', '.join(private)} from {target}")
    return found


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_a_private_name_from_another_package() -> None:
    """What two packages share is public in the lower one (ruff's PLC2701, which leaves imports within one root
    package alone: relative ones, and those of its own root)."""
    modules = [p for p in sorted((ROOT / "dsref").rglob("*.py")) if "generated" not in p.parts]
    found = [line for path in modules for line in _private_imports(path)]
    assert found == [], "\n".join(found)
