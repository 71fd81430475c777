"""Language choice and catalog loading."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dsref.i18n import UnknownLanguage, option_text, resolve_language


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_SG"}, "zh"),
        ({"LANG": "zh_Hans"}, "zh"),
        ({"LANG": "zh-Hans-CN"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "C"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({"LANG": "klingon!!"}, "en"),
        ({"LANG": ""}, "en"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
    ],
)
def test_environment_decides(environ: dict[str, str], expected: str) -> None:
    assert resolve_language(None, environ) == expected


def test_explicit_language_wins() -> None:
    assert resolve_language("zh", {"LANG": "en_US.UTF-8"}) == "zh"
    assert resolve_language("en", {"LANG": "zh_CN.UTF-8"}) == "en"
    assert resolve_language("zh_CN", {}) == "zh"
    for bad in ("fr", "xx", "", "zh_TW"):
        with pytest.raises(UnknownLanguage):
            resolve_language(bad, {})


def test_option_texts_are_translated() -> None:
    from dsref.index import OptionIndex

    english = OptionIndex.load().get("bf16.enabled")["description"]
    assert option_text("bf16.enabled", english, "en") == english
    chinese = option_text("bf16.enabled", english, "zh")
    assert chinese and chinese != english and "bf16" in chinese


def test_broken_catalog_falls_back_to_english_and_says_so_once(tmp_path: Path) -> None:
    """Run dsref against a copy of the package whose .mo is garbage."""
    import shutil

    import dsref

    package = Path(dsref.__file__).parent
    copy = tmp_path / "dsref"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    mo = copy / "locales" / "zh_CN" / "LC_MESSAGES" / "dsref.mo"
    mo.write_bytes(b"\x00garbage")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "zero_optimization", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0
    assert "zero_optimization.stage" not in proc.stderr
    assert proc.stderr.count("cannot read the catalog") == 1
    assert "default" in proc.stdout  # English labels
    mo.unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "explain", "bf16", "--lang", "zh"],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0 and "cannot read the catalog" in proc.stderr
