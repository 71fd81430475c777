"""The test environment is locked: requirements/test.lock satisfies every requirement, pins every package the tests
and dsref import, and is what scripts/test.sh installed; a failure names the package and the command to refresh it."""

from __future__ import annotations

import ast
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from tests import lockfile

ROOT = lockfile.ROOT

# Top-level modules the code imports that are not distributions of their own name (checked below, so a new one fails
# until it is named here).
IMPORT_NAMES = {"yaml": "pyyaml", "lsprotocol": "lsprotocol", "pygls": "pygls", "pytest_lsp": "pytest-lsp"}


def test_the_lock_satisfies_every_requirement() -> None:
    pins = lockfile.pinned_here(lockfile.read_lock())
    problems = []
    for source, requirement in lockfile.requirements():
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        version = pins.get(name)
        if version is None:
            problems.append(f"{name}: {source} asks for {requirement}, the lock has no pin for it")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{name}: {source} asks for {requirement}, the lock pins {version}")
    assert problems == [], f"refresh the lock: {lockfile.REFRESH}\n" + "\n".join(problems)


def _imported_top_level(paths: list[Path]) -> dict[str, str]:
    """Every top-level module the files import (absolutely), with one file that imports it."""
    found: dict[str, str] = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], str(path.relative_to(ROOT)))
    return found


@pytest.mark.slow  # asks pip about every installed package: the environment's, not the code's
def test_every_package_the_tests_and_dsref_import_is_locked() -> None:
    files = [*sorted((ROOT / "tests").glob("*.py")), *sorted((ROOT / "dsref").rglob("*.py"))]
    files += sorted((ROOT / "scripts").glob("*.py"))
    distributions = importlib.metadata.packages_distributions()
    pins = {pin.name for pin in lockfile.read_lock()}  # on any Python: tomli is imported where tomllib is missing
    problems = []
    for module, where in sorted(_imported_top_level(files).items()):
        if module in sys.stdlib_module_names or module in ("dsref", "tests", "__future__"):
            continue
        if (ROOT / "scripts" / f"{module}.py").exists():  # scripts import each other by their file's name
            continue
        names = distributions.get(module) or [IMPORT_NAMES.get(module, module)]
        if not any(canonicalize_name(name) in pins for name in names):
            problems.append(
                f"{module} (imported by {where}) is not in the lock: add its distribution to "
                f"pyproject.toml's test extra or requirements/test.in, then {lockfile.REFRESH}"
            )
    assert problems == [], "\n".join(problems)


def test_the_import_names_table_is_true() -> None:
    """Each entry of IMPORT_NAMES names the distribution that installs the module (where it is installed)."""
    distributions = importlib.metadata.packages_distributions()
    for module, distribution in IMPORT_NAMES.items():
        if module in distributions:
            assert canonicalize_name(distribution) in map(canonicalize_name, distributions[module]), module


@pytest.mark.skip_allowed_in_ci("scripts/test.sh --latest installs the newest releases on purpose")
def test_the_installed_packages_are_the_locked_ones() -> None:
    mode = lockfile.install_mode()
    if mode == "latest":
        pytest.skip("scripts/test.sh --latest installed the newest releases instead of the locked ones")
    found = lockfile.differences(lockfile.read_lock())
    if mode != "locked" and found:
        pytest.skip(f"not installed by scripts/test.sh ({len(found)} packages differ from the lock, e.g. {found[0]})")
    assert [str(difference) for difference in found] == [], (
        f"install the locked ones (bash scripts/test.sh), or take them on: {lockfile.REFRESH}"
    )


def test_a_stale_pin_is_reported_with_the_package_and_the_command(tmp_path: Path) -> None:
    """The comparison that the run's summary and the test above print, on a lock written for the occasion."""
    lock = tmp_path / "test.lock"
    pytest_version = importlib.metadata.version("pytest")
    lock.write_text(f"pytest==0.0.1\n    # via dsref\npackaging=={importlib.metadata.version('packaging')}\n")
    found = lockfile.differences(lockfile.read_lock(lock))
    assert [str(d) for d in found] == [f"pytest {pytest_version} is installed, the lock pins 0.0.1"]
    lock.write_text("pytest>=8\n")
    with pytest.raises(ValueError, match=r"test.lock:1: not a pin .* refresh the lock: bash scripts/lock.sh"):
        lockfile.read_lock(lock)


@pytest.mark.slow
def test_a_failed_run_names_what_differs_from_the_lock(tmp_path: Path) -> None:
    """A real pytest run that fails, in an environment that differs from the lock (a pin rewritten for it),
    ends with the package and the commands."""
    lock = tmp_path / "test.lock"
    lock.write_text("pytest==0.0.1\n")
    (tmp_path / "test_fails.py").write_text("def test_it():\n    assert False\n")
    (tmp_path / "conftest.py").write_text(
        "import tests.lockfile\nfrom pathlib import Path\n"
        f"tests.lockfile.LOCK = Path({str(lock)!r})\n"
        "from tests.conftest import pytest_terminal_summary  # noqa: F401\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), "CI": ""},
    )
    assert proc.returncode == 1, proc.stdout
    assert "packages that are not the locked ones" in proc.stdout
    assert f"pytest {importlib.metadata.version('pytest')} is installed, the lock pins 0.0.1" in proc.stdout
    assert "bash scripts/lock.sh --upgrade-package NAME" in proc.stdout
