"""Shared fixtures: the option tree, the ../shared/ folder and DeepSpeed, when present."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from dsref.tree.options import OptionTree, option_tree

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


@pytest.fixture(scope="session")
def tree() -> OptionTree:
    return option_tree()


def shared_path(*parts: str) -> Path:
    """A path under ../shared/, or a skip with the reason when it is absent (a clone elsewhere).

    In CI (``CI`` set) a missing ../shared/ is a failure, not a skip.
    """
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing in CI; .ci/run expects ../shared/ beside the checkout")
        pytest.skip(f"{path} not found: ../shared/ is absent in this clone")
    return path


@pytest.fixture(scope="session")
def inventory() -> list[dict[str, Any]]:
    return json.loads(shared_path("facts", "deepspeed_inventory.json").read_text(encoding="utf-8"))


def require_deepspeed() -> Any:
    """Import DeepSpeed 0.19.8 or skip; in CI its absence is a failure."""
    try:
        import deepspeed
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("deepspeed is not installed; .ci/run installs torch==2.13.0 and deepspeed==0.19.8")
        pytest.skip("deepspeed is not installed (pip install torch==2.13.0 deepspeed==0.19.8)")
    return deepspeed


@pytest.fixture(autouse=True)
def _english_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests see no locale variables unless they set them, so output does not depend on the runner's LANG."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
