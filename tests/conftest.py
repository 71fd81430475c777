"""Shared fixtures (the option tree, the ../shared/ folder, DeepSpeed) and what holds every run to the same rules.

* In CI (``CI`` set, as ``.ci/run`` sets it) a skipped test fails, unless it is marked
  ``@pytest.mark.skip_allowed_in_ci(reason)``: CI can never go green by skipping. ``tests/needs.py`` is how a test
  says what it needs beyond dsref's requirements.
* When a run fails and the installed packages are not the ones ``requirements/test.lock`` pins, the summary names
  each of them and the commands to test against the lock or to refresh it.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from dsref.tree.options import OptionTree, option_tree

from . import lockfile, needs

SHARED = Path(__file__).resolve().parents[1].parent / "shared"

# Helpers of the tests that import what only some tests need (torch): never collected on their own (pytest runs
# with --doctest-modules, which would import them).
collect_ignore = ["live_memory.py"]

# No test compiles a DeepSpeed C++ op (minutes each, and nothing a test decides needs one). torch compiles them into
# TORCH_EXTENSIONS_DIR, which every process of this run (and the subprocesses it starts) inherits from here: a
# folder of this run's own, empty at the end or the run fails (pytest_sessionfinish).
OP_BUILDS = Path(tempfile.mkdtemp(prefix="dsref-tests-torch-extensions-"))
os.environ["TORCH_EXTENSIONS_DIR"] = str(OP_BUILDS)


@pytest.fixture(scope="session")
def tree() -> OptionTree:
    return option_tree()


def shared_path(*parts: str) -> Path:
    """A path under ../shared/, or a skip with the reason when it is absent (a clone elsewhere).

    In CI (``CI`` set) a missing ../shared/ is a failure, not a skip.
    """
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if needs.in_ci():
            pytest.fail(f"{path} is missing in CI; .ci/run expects ../shared/ beside the checkout", pytrace=False)
        pytest.skip(f"{path} not found: ../shared/ is absent in this clone")
    return path


@pytest.fixture(scope="session")
def generated() -> dict[Path, bytes]:
    """Every generated file as the generator writes it now (about 1.5 s to build; read-only for the tests)."""
    from dsref.generator.files import generated_files

    return generated_files()


@pytest.fixture(scope="session")
def inventory() -> list[dict[str, Any]]:
    return json.loads(shared_path("facts", "deepspeed_inventory.json").read_text(encoding="utf-8"))


def require_deepspeed() -> Any:
    """Import DeepSpeed 0.19.8 or skip; in CI its absence is a failure."""
    return needs.module("deepspeed")


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see no locale variables unless they set them, so output does not depend on the runner's LANG."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tells :mod:`tests.needs` whether the test about to run (its fixtures first) is in the fast tier."""
    needs.TIER.fast = item.get_closest_marker("slow") is None


def pytest_runtest_teardown(item: pytest.Item) -> None:
    needs.TIER.fast = False


_IMPORTS = re.compile(r"^\s*(?:import|from)\s+(\w+)", re.MULTILINE)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A doctest of dsref that imports a package dsref does not require (Markdown, for the site's extensions) skips
    where it is missing, saying so; in CI that skip fails as any other does."""
    for item in items:
        examples = getattr(getattr(item, "dtest", None), "examples", ())
        for name in sorted({name for example in examples for name in _IMPORTS.findall(example.source)}):
            if importlib.util.find_spec(name) is None:
                install = needs.INSTALL.get(name, 'python -m pip install -e ".[test]"')
                item.add_marker(pytest.mark.skip(reason=f"the doctest imports {name!r}, which is missing: {install}"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """In CI a skip is a failure, unless the test is marked ``skip_allowed_in_ci`` (with the reason it may skip)."""
    outcome = yield
    report = outcome.get_result()
    if not (report.skipped and needs.in_ci()) or hasattr(report, "wasxfail"):
        return
    if item.get_closest_marker("skip_allowed_in_ci") is not None:
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = (
        f"skipped in CI ({reason}); CI runs every test: install what it needs in scripts/test.sh, "
        "or mark the test skip_allowed_in_ci with the reason it may skip"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    """A whole module that skips when collected (``pytest.importorskip`` at its top) fails in CI too."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and needs.in_ci():
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"{collector.nodeid} skipped in CI ({reason}); CI runs every test"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run when any test compiled a DeepSpeed op (see ``OP_BUILDS``), naming the op."""
    built = sorted(path.name for path in OP_BUILDS.iterdir()) if OP_BUILDS.exists() else []
    shutil.rmtree(OP_BUILDS, ignore_errors=True)
    if built:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(
                f"a test compiled DeepSpeed's C++ op(s) {', '.join(built)}: no test may (tests/deepspeed_phases.py, "
                "no_op_builds, shows how to start the engine without them)",
                red=True,
            )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int) -> None:
    """After a failed run, name the installed packages that are not what the lock pins: a newer release of one of
    them is the first suspect, and the commands say how to rule it out or to take it on."""
    if exitstatus in (0, pytest.ExitCode.NO_TESTS_COLLECTED) or not lockfile.LOCK.exists():
        return
    try:
        found = lockfile.differences(lockfile.read_lock())
    except ValueError as error:
        terminalreporter.write_line(str(error))
        return
    if not found:
        return
    terminalreporter.section("packages that are not the locked ones")
    for difference in found:
        terminalreporter.write_line(f"  {difference}")
    terminalreporter.write_line(
        "If a failure above comes from one of them: bash scripts/test.sh runs the suite against the lock; to take "
        f"the new release on, fix what it broke, then refresh the lock: {lockfile.REFRESH} --upgrade-package NAME"
    )
