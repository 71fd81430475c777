"""The site build's cache of dsref's answers about the docs' examples (dsref/site/buildcache.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsref.site import buildcache
from dsref.site.buildcache import BuildCache
from dsref.site.doccheck import blocks, output

PAGE = (
    "<!-- dsref-check: expect DS600 -->\n"
    '```json\n{"zero_optimization": {"stage": 2}}\n```\n'
    "<!-- dsref-check-output -->\n"
)


def test_an_answer_is_computed_once_and_then_read_back(tmp_path: Path) -> None:
    cache, block, calls = BuildCache(tmp_path), blocks(PAGE)[0], []

    def compute() -> str:
        calls.append(1)
        return output(block, "zh")

    first = cache.text("output", block, "zh", compute)
    again = BuildCache(tmp_path).text("output", block, "zh", compute)  # another build
    assert first == again and "DS600" in first and len(calls) == 1
    assert BuildCache(tmp_path).text("output", block, "en", lambda: "other language") == "other language"


@pytest.mark.parametrize("damage", ["{not json", '{"key": "another", "value": "forged"}', '{"key": "KEY", "value": 7}'])
def test_a_corrupt_or_stale_entry_is_ignored_and_replaced(tmp_path: Path, damage: str) -> None:
    cache, block = BuildCache(tmp_path), blocks(PAGE)[0]
    cache.text("output", block, "en", lambda: "right")
    (entry,) = tmp_path.rglob("*.json")
    entry.write_text(damage.replace("KEY", entry.stem), encoding="utf-8")
    assert BuildCache(tmp_path).text("output", block, "en", lambda: "recomputed") == "recomputed"
    assert json.loads(entry.read_text(encoding="utf-8"))["value"] == "recomputed"


def test_another_dsref_or_another_block_is_another_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cache, block = BuildCache(tmp_path), blocks(PAGE)[0]
    cache.lines("problems", block, "en", lambda: [])
    edited = blocks(PAGE.replace('"stage": 2', '"stage": 1'))[0]
    assert cache.lines("problems", edited, "en", lambda: ["edited"]) == ["edited"]
    monkeypatch.setattr(buildcache, "fingerprint", lambda: "another dsref")
    assert cache.lines("problems", block, "en", lambda: ["new dsref"]) == ["new dsref"]


def test_no_folder_keeps_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DSREF_SITE_CACHE", "off")
    cache = BuildCache.beside(tmp_path / "mkdocs.yml")
    assert cache.folder is None and cache.text("output", blocks(PAGE)[0], "en", lambda: "x") == "x"
    monkeypatch.delenv("DSREF_SITE_CACHE")
    assert BuildCache.beside(tmp_path / "mkdocs.yml").folder == tmp_path / ".cache" / "dsref-site"
