"""The generated option index: the option tree as JSON, for commands that must start fast.

``dsref/data/options.json`` holds one record per option (the same records as
``dsref options --format json``), generated from the schema by
``scripts/generate.py``; a test regenerates it and fails if the committed copy
is stale. Reading it needs neither pydantic nor the models, so ``dsref explain``
starts in a few milliseconds.

>>> index = OptionIndex.load()
>>> index.resolve("zero_optimization.prefetch_bucket_size").entry.path
'zero_optimization.stage3_prefetch_bucket_size'
>>> index.resolve("offload_optimizer").entry.path
'zero_optimization.offload_optimizer'
>>> index.resolve("Zero-Optimization.STAGE").via
'normalized'
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .paths import normalize_step, resolve_steps, split_path

__all__ = ["INDEX_PATH", "Entry", "Hit", "OptionIndex"]

INDEX_PATH = Path(__file__).with_name("data") / "options.json"

HowFound = Literal["path", "alias", "deprecated_alias", "docs_name", "normalized", "suffix"]


class Entry(dict[str, Any]):
    """One option record (a plain dict, read from the index), with a few conveniences."""

    @property
    def path(self) -> str:
        return str(self["path"])

    @property
    def key(self) -> str:
        return str(self["key"])

    @property
    def is_section(self) -> bool:
        return bool(self["kind"] == "section")

    @property
    def child_parent(self) -> str:
        if self["container"] == "map":
            return f"{self.path}.<{self['map_key']}>"
        if self["container"] == "list":
            return f"{self.path}[]"
        return self.path


@dataclass(frozen=True)
class Hit:
    """An option a written path resolved to, and how exactly it matched."""

    entry: Entry
    via: HowFound
    written: str


class OptionIndex:
    """Lookup over the generated index: by path, by any spelling, by words."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.deepspeed = str(document["deepspeed"])
        self.dsref = str(document["dsref"])
        self.entries: list[Entry] = [Entry(record) for record in document["options"]]
        self._by_path = {entry.path: entry for entry in self.entries}
        self._children: dict[str | None, list[Entry]] = {}
        self._keys: dict[tuple[str | None, str], tuple[Entry, str]] = {}
        self._normalized: dict[tuple[str | None, str], tuple[Entry, str]] = {}
        for entry in self.entries:
            parent = entry["parent"]
            self._children.setdefault(parent, []).append(entry)
            names = [(entry.key, "path")]
            names += [(alias, "alias") for alias in entry["aliases"]]
            names += [(alias, "deprecated_alias") for alias in entry["deprecated_aliases"]]
            names += [(alias, "docs_name") for alias in entry["docs_names"]]
            for name, via in names:
                self._keys.setdefault((parent, name), (entry, via))
                self._normalized.setdefault((parent, normalize_step(name)), (entry, via))

    @classmethod
    def load(cls) -> OptionIndex:
        return _load(INDEX_PATH)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, path: str) -> Entry:
        return self._by_path[path]

    def top_level(self) -> list[Entry]:
        return list(self._children.get(None, ()))

    def children(self, entry: Entry | None) -> list[Entry]:
        if entry is None:
            return self.top_level()
        return list(self._children.get(entry.child_parent, ()))

    def subtree(self, entry: Entry | None, max_depth: int | None = None) -> list[tuple[int, Entry]]:
        """(depth, entry) below ``entry`` (``None``: the whole tree), depth first."""
        rows: list[tuple[int, Entry]] = []

        def walk(node: Entry | None, depth: int) -> None:
            for child in self.children(node):
                rows.append((depth, child))
                if child.is_section and (max_depth is None or depth + 1 < max_depth):
                    walk(child, depth + 1)

        walk(entry, 0)
        return rows

    def resolve(self, written: str) -> Hit | None:
        """Any spelling a user might type: exact, alias, deprecated or docs name, case/``-`` slips, or a path
        missing its section prefix (when that names one option unambiguously)."""
        steps = split_path(written)
        if not steps:
            return None
        exact = resolve_steps(steps, lambda p, k: self._keys.get((p, k)), _child_parent, _is_map)
        if exact is not None:
            return Hit(exact[0], exact[1], written)  # type: ignore[arg-type]
        loose = resolve_steps(
            [normalize_step(s) for s in steps],
            lambda p, k: self._normalized.get((p, k)),
            _child_parent,
            _is_map,
        )
        if loose is not None:
            return Hit(loose[0], "normalized", written)
        wanted = ".".join(normalize_step(s) for s in steps)
        tails = [
            entry
            for entry in self.entries
            if normalize_step(entry.path).endswith("." + wanted) and "<" not in entry.path
        ]
        if tails:
            tails.sort(key=lambda e: (e.path.count("."), e["removed_in"] is not None, e.path))
            best = tails[0]
            if len(tails) == 1 or tails[1].path.count(".") > best.path.count("."):
                return Hit(best, "suffix", written)
        return None

    def suggest(self, written: str, n: int = 5) -> list[str]:
        """Canonical paths closest to what the user wrote (for "did you mean")."""
        import difflib

        steps = split_path(written)
        target = ".".join(normalize_step(s) for s in steps)
        last = normalize_step(steps[-1]) if steps else ""
        paths = [entry.path for entry in self.entries]
        lowered = {p.lower(): p for p in paths}
        close = [lowered[p] for p in difflib.get_close_matches(target, list(lowered), n=n, cutoff=0.6)]
        if last:
            keys = {normalize_step(e.key): e.key for e in self.entries}
            for key in difflib.get_close_matches(last, list(keys), n=3, cutoff=0.75):
                for entry in self.entries:
                    if normalize_step(entry.key) == key and entry.path not in close:
                        close.append(entry.path)
        return close[:n]

    def search(self, words: str, texts: dict[str, str] | None = None, limit: int = 30) -> list[Entry]:
        """Options whose path, key or text contains every word (case-insensitive), best matches first.

        ``texts`` maps a path to its text in the reader's language (for searching Chinese words).
        """
        terms = [w.lower() for w in words.split() if w.strip()]
        if not terms:
            return []
        scored: list[tuple[int, int, str, Entry]] = []
        for entry in self.entries:
            name = entry.path.lower().replace("_", " ")
            body = " ".join(str(entry.get(k) or "") for k in ("description", "summary")).lower()
            local = (texts or {}).get(entry.path, "").lower()
            haystack = " ".join((entry.path.lower(), name, body, local))
            if all(term in haystack for term in terms):
                in_name = sum(term in name or term in entry.path.lower() for term in terms)
                scored.append((-in_name, entry.path.count("."), entry.path, entry))
        scored.sort(key=lambda row: row[:3])
        return [row[3] for row in scored[:limit]]


def _child_parent(entry: Entry) -> str:
    return entry.child_parent


def _is_map(entry: Entry) -> bool:
    return bool(entry["container"] == "map")


@cache
def _load(path: Path) -> OptionIndex:
    with path.open(encoding="utf-8") as handle:
        return OptionIndex(json.load(handle))
