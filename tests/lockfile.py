"""The test environment's lock (``requirements/test.lock``): read it, and compare it with what is installed.

``scripts/lock.sh`` writes the lock with ``uv pip compile --universal`` from ``pyproject.toml`` (dsref's own
requirements and its ``test`` extra) and ``requirements/test.in`` (what only the tests need: torch, DeepSpeed,
playwright). ``scripts/test.sh`` installs with the lock as pip constraints; ``scripts/test.sh --latest`` installs the
newest releases the same ranges admit and leaves the lock aside.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
from dataclasses import dataclass
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements" / "test.lock"
TEST_ONLY = ROOT / "requirements" / "test.in"
REFRESH = "bash scripts/lock.sh"

# How scripts/test.sh installed this environment: "locked", "latest", or "" when it did not.
MODE_VARIABLE = "DSREF_TEST_ENV"


def install_mode() -> str:
    return os.environ.get(MODE_VARIABLE, "")


@dataclass(frozen=True)
class Pin:
    """One ``name==version ; marker`` line of the lock."""

    name: str  # canonical (PEP 503) name
    version: str
    marker: Marker | None

    def applies(self) -> bool:
        """Whether this line is for the running Python and platform."""
        return self.marker is None or self.marker.evaluate()


@dataclass(frozen=True)
class Difference:
    """An installed distribution whose version is not the one the lock pins here."""

    name: str
    installed: str
    locked: str

    def __str__(self) -> str:
        return f"{self.name} {self.installed} is installed, the lock pins {self.locked}"


def read_lock(path: Path | None = None) -> list[Pin]:
    path = LOCK if path is None else path
    pins = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        exact = [spec for spec in requirement.specifier if spec.operator == "=="]
        if len(exact) != 1 or len(requirement.specifier) != 1:
            raise ValueError(f"{path}:{number}: not a pin (name==version): {raw!r}; refresh the lock: {REFRESH}")
        pins.append(Pin(canonicalize_name(requirement.name), exact[0].version, requirement.marker))
    return pins


def pinned_here(pins: list[Pin]) -> dict[str, str]:
    """The version the lock pins for each package on this Python and platform."""
    return {pin.name: pin.version for pin in pins if pin.applies()}


def installed_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def differences(pins: list[Pin]) -> list[Difference]:
    """Every installed package whose version differs from its pin (a local label such as ``+cpu`` is no difference:
    the lock pins torch's release, and this machine's file of it is the CPU build)."""
    found = []
    for name, version in sorted(pinned_here(pins).items()):
        installed = installed_version(name)
        if installed is not None and not SpecifierSet(f"=={version}").contains(installed, prereleases=True):
            found.append(Difference(name, installed, version))
    return found


def requirements() -> list[tuple[str, Requirement]]:
    """Every requirement the test environment is built from, with where it is written: dsref's dependencies, its
    ``test`` extra (and the extras that names, such as ``dsref[docs]``), and ``requirements/test.in``."""
    import tomllib  # the test environment needs Python 3.11 (mkdocs-material does), dsref itself 3.10

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras: dict[str, list[str]] = project.get("optional-dependencies", {})
    found = [("pyproject.toml dependencies", Requirement(text)) for text in project["dependencies"]]
    todo, seen = ["test"], set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for text in extras[extra]:
            requirement = Requirement(text)
            if canonicalize_name(requirement.name) == canonicalize_name(project["name"]):
                todo.extend(requirement.extras)
            else:
                found.append((f"pyproject.toml [{extra}]", requirement))
    for raw in TEST_ONLY.read_text(encoding="utf-8").splitlines():
        line = re.sub(r"\s+#.*$", "", raw).strip()
        if line and not line.startswith("#"):
            found.append((str(TEST_ONLY.relative_to(ROOT)), Requirement(line)))
    return found
