"""hjson's internals are used only with the releases they are tested with.

:mod:`dsref.check.read.hjson_scanner` calls hjson's undocumented lexical functions (``getNext``, ``scanKeyName``,
``scantfnns``, …) to say where a finding stands in an Hjson file. A new hjson release may change them without
notice, so dsref's requirement is capped below the next minor release, and the installed release must be one
the requirement admits (the loader's tests compare the scanner with ``hjson.loads`` on that release).
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[3]


def _hjson_requirement() -> Requirement:
    """hjson's line in ``[project] dependencies`` (read as text: tomllib is Python 3.11's, dsref runs on 3.10)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = text.split("\ndependencies = [", 1)[1].split("\n]", 1)[0]
    found = [Requirement(line) for line in re.findall(r'^\s*"([^"]+)"', dependencies, re.MULTILINE)]
    hjson = [requirement for requirement in found if requirement.name == "hjson"]
    assert len(hjson) == 1, found
    return hjson[0]


def test_the_hjson_requirement_admits_only_the_tested_minor_release() -> None:
    specifier = _hjson_requirement().specifier
    assert specifier.contains("3.1.0")
    assert not specifier.contains("3.2.0"), f"hjson{specifier} admits releases the scanner was not tested with"
    assert not specifier.contains("4.0.0")
    assert not specifier.contains("3.0.2")


def test_the_installed_hjson_is_one_the_requirement_admits() -> None:
    installed = importlib.metadata.version("hjson")
    assert _hjson_requirement().specifier.contains(installed), installed


def test_the_scanner_finds_the_functions_it_drives() -> None:
    """The names the scanner imports are there, and a small Hjson text is placed as hjson reads it."""
    import hjson

    from dsref.check.read.scanner import scan_hjson

    text = "{\n  # a comment\n  zero_optimization: {stage: 2}\n  fp16: {enabled: true}\n}\n"
    scan = scan_hjson(text)
    assert scan.error is None
    assert hjson.loads(text) == {"zero_optimization": {"stage": 2}, "fp16": {"enabled": True}}
