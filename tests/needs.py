"""What a test needs beyond ``pip install -e ".[test]"``, and the one way a test says so.

A test that needs torch, DeepSpeed, transformers, playwright, node, npm or Chromium calls :func:`module` or
:func:`program` (or :func:`missing`) instead of importing or looking it up on its own. On a plain machine it skips and
says what is missing and the command that installs it; in CI (:func:`in_ci`) it fails, so CI cannot go green by
skipping. ``conftest.py`` adds the second half: in CI any skip at all fails, unless the test is marked
``skip_allowed_in_ci`` with the reason.
"""

from __future__ import annotations

import importlib
import os
import shutil
from dataclasses import dataclass
from types import ModuleType
from typing import NoReturn

import pytest

# How each thing a test may need gets onto a machine: the command a skip or a CI failure names.
INSTALL = {
    "torch": "python -m pip install -c requirements/test.lock torch==2.13.0 (or: bash scripts/test.sh)",
    "deepspeed": "python -m pip install -c requirements/test.lock torch==2.13.0 deepspeed==0.19.8",
    "transformers": 'python -m pip install -e ".[test]"',
    "playwright": "python -m pip install -c requirements/test.lock -r requirements/test.in",
    "node": "node >= 20 and npm from your system's packages",
    "npm": "node >= 20 and npm from your system's packages",
    "chromium": "bash scripts/install_test_deps.sh",
    "git": "git from your system's packages",
    "patch": "GNU patch from your system's packages",
}


SLOW_ONLY = frozenset({"torch", "deepspeed", "transformers", "accelerate"})
"""Packages whose import costs seconds of CPU (torch, and those that import it): only a test marked ``slow`` may use
them (CONTRIBUTING, the two tiers). The fast tier holds dsref to what these libraries were recorded doing; the slow
tier to the libraries at work."""


@dataclass
class Tier:
    fast: bool = False
    """True while a test outside the slow tier runs (``conftest.py`` sets it for each test)."""


TIER = Tier()


def in_ci() -> bool:
    """``CI`` is set to anything but empty, ``0`` or ``false`` (as CI services and ``.ci/run`` set it)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def examples(full: int) -> int:
    """How many examples a property test draws: ``full`` in CI, a fifth of it (at least 20) on a developer's machine,
    so the fast tier stays within its minute (CONTRIBUTING) while CI draws them all."""
    return full if in_ci() else max(20, full // 5)


def missing(what: str, install: str) -> NoReturn:
    """Skip with ``what`` is missing and how to install it; fail instead in CI."""
    message = f"{what} is missing: {install}"
    if in_ci():
        pytest.fail(f"{message} (CI runs every test; .ci/run installs it through scripts/test.sh)", pytrace=False)
    pytest.skip(message, allow_module_level=True)


def module(name: str) -> ModuleType:
    """Import ``name`` (a top-level package the tests use beyond dsref's own requirements), or skip/fail.

    A fast-tier test that asks for torch or DeepSpeed fails, saying to mark it slow."""
    if TIER.fast and name.split(".")[0] in SLOW_ONLY:
        pytest.fail(f"this test needs {name}, seconds to import: mark it @pytest.mark.slow", pytrace=False)
    try:
        return importlib.import_module(name)
    except ImportError as error:
        missing(f"the Python package {name!r} ({error})", INSTALL.get(name.split(".")[0], INSTALL["transformers"]))


def program(name: str, path: str | None = None) -> str:
    """The executable ``name`` (on PATH, or at ``path`` when given), or skip/fail."""
    found = path if path is not None and os.access(path, os.X_OK) else shutil.which(name) if path is None else None
    if found is None:
        missing(f"the program {path or name!r}", INSTALL.get(name, f"install {name}"))
    return found
