"""The generated option index: the option tree as Python data, for commands that must start fast.

``dsref/generated/index/`` holds one record per option (the same records as
``dsref options --format json``), generated from the schema by
``scripts/generate.py``; a test regenerates it and fails if the committed copy
is stale. ``_keys.py`` has just what resolving any spelling needs; the full
records are split by top-level key, one module each, read on first use.

The records are Python modules rather than JSON because loading them is then
one read of their compiled form: importing :mod:`json` alone (it imports
:mod:`re`) takes longer than the rest of ``dsref explain``. Reading the index
needs neither pydantic nor the models.

>>> index = OptionIndex.load()
>>> index.resolve("zero_optimization.prefetch_bucket_size").entry.path
'zero_optimization.stage3_prefetch_bucket_size'
>>> index.resolve("offload_optimizer").entry.path
'zero_optimization.offload_optimizer'
>>> index.resolve("Zero-Optimization.STAGE").via
'normalized'
"""

from __future__ import annotations

import importlib
import os

__all__ = ["GENERATED_DIR", "INDEX_DIR", "INDEX_PACKAGE", "KEY_FIELDS", "Entry", "Hit", "OptionIndex", "top_of"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from types import ModuleType
    from typing import Any, Literal

    HowFound = Literal["path", "alias", "deprecated_alias", "docs_name", "normalized", "suffix"]

INDEX_PACKAGE = "dsref.generated.index"
GENERATED_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generated")
"""``dsref/generated/``: every generated artefact the package reads (written by :mod:`dsref.generator`)."""
INDEX_DIR = os.path.join(GENERATED_DIR, "index")
KEYS_MODULE = "_keys"
PAGES_PREFIX = "pages_"
"""``pages_<lang>.txt`` holds the pre-rendered ``dsref explain`` pages, ``pages.py`` where each one is."""


KEY_FIELDS = (
    "path",
    "key",
    "parent",
    "kind",
    "container",
    "map_key",
    "aliases",
    "deprecated_aliases",
    "docs_names",
    "removed_in",
)
"""The fields kept in the small key module: enough to resolve any spelling without loading the full records."""


def top_of(path: str) -> str:
    """The top-level key an option path starts with (the shard its record is in)."""
    return path.split(".", 1)[0].split("[", 1)[0]


class Entry(dict):  # type: ignore[type-arg,unused-ignore]
    """One option record (a plain dict, read from the index), with a few conveniences.

    An entry read from the key module starts with the key fields only; asking for any other field loads the
    record's shard (all options under the same top-level key) on first use.
    """

    __slots__ = ("_index",)

    def __init__(self, record: dict[str, Any], index: OptionIndex | None = None) -> None:
        super().__init__(record)
        self._index = index

    def __missing__(self, field: str) -> Any:
        if self._index is None or not self._index.load_shard(self.top):
            raise KeyError(field)
        return dict.__getitem__(self, field)

    def full(self) -> dict[str, Any]:
        """The complete record as a plain dict."""
        self["description"]  # loads the shard if needed
        return dict(self)

    @property
    def top(self) -> str:
        return top_of(self.path)

    @property
    def path(self) -> str:
        return str(dict.__getitem__(self, "path"))

    @property
    def key(self) -> str:
        return str(dict.__getitem__(self, "key"))

    @property
    def is_section(self) -> bool:
        return bool(dict.__getitem__(self, "kind") == "section")

    @property
    def child_parent(self) -> str:
        container = dict.__getitem__(self, "container")
        if container == "map":
            return f"{self.path}.<{dict.__getitem__(self, 'map_key')}>"
        if container == "list":
            return f"{self.path}[]"
        return self.path


class Hit:
    """An option a written path resolved to, and how exactly it matched."""

    __slots__ = ("entry", "via", "written")

    def __init__(self, entry: Entry, via: HowFound, written: str) -> None:
        self.entry = entry
        self.via = via
        self.written = written

    def __repr__(self) -> str:
        return f"Hit({self.entry.path!r}, via={self.via!r})"


class OptionIndex:
    """Lookup over the generated index: by path, by any spelling, by words.

    Built lazily: looking up an exact path reads only that path's shard; anything that needs every option
    (other spellings, listing, search) reads the key module first.
    """

    def __init__(
        self,
        dsref: str,
        deepspeed: str,
        records: list[dict[str, Any]] | None = None,
        *,
        shards: tuple[str, ...] = (),
    ) -> None:
        """``records``: every option, complete, in memory; otherwise the index reads the generated modules."""
        self.dsref = dsref
        self.deepspeed = deepspeed
        self._shards = frozenset(shards)
        self._loaded: set[str] = set()
        self._by_path: dict[str, Entry] = {}
        self._all: list[Entry] | None = None
        self._children: dict[str | None, list[Entry]] = {}
        self._keys: dict[tuple[str | None, str], tuple[Entry, str]] = {}
        self._normalized: dict[tuple[str | None, str], tuple[Entry, str]] = {}
        if records is not None:
            self._set_all([Entry(record, self) for record in records])

    @classmethod
    def load(cls) -> OptionIndex:
        """The index of the generated modules (one per process)."""
        global _LOADED
        if _LOADED is None:
            package = importlib.import_module(INDEX_PACKAGE)
            _LOADED = cls(package.DSREF, package.DEEPSPEED, shards=package.SHARDS)
        return _LOADED

    @classmethod
    def from_records(cls, document: dict[str, Any]) -> OptionIndex:
        """An index over complete records in memory (``{"dsref", "deepspeed", "options": [...]}``)."""
        return cls(str(document["dsref"]), str(document["deepspeed"]), list(document["options"]))

    # -- reading the generated modules ------------------------------------------------------------------

    def _module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{INDEX_PACKAGE}.{name}")

    def load_shard(self, top: str) -> bool:
        """Read the full records of every option under the top-level key ``top``; False if there is none to read."""
        if top in self._loaded or top not in self._shards:
            return False
        self._loaded.add(top)
        module = self._module(top)
        fields = module.FIELDS
        for row in module.ROWS:
            record = dict(zip(fields, row, strict=True))
            entry = self._by_path.get(record["path"])
            if entry is None:
                self._by_path[record["path"]] = Entry(record, self)
            else:
                dict.update(entry, record)
        return True

    @property
    def entries(self) -> list[Entry]:
        """Every option, in the order of the option tree."""
        if self._all is None:
            module = self._module(KEYS_MODULE)
            fields = module.FIELDS
            entries = []
            for row in module.ROWS:
                known = self._by_path.get(row[0])
                entries.append(known if known is not None else Entry(dict(zip(fields, row, strict=True)), self))
            self._set_all(entries)
        assert self._all is not None
        return self._all

    def _set_all(self, entries: list[Entry]) -> None:
        self._all = entries
        self._by_path = {entry.path: entry for entry in entries}
        self._children = {}
        self._keys = {}
        for entry in entries:
            parent = entry["parent"]
            self._children.setdefault(parent, []).append(entry)
            names = [(entry.key, "path")]
            names += [(alias, "alias") for alias in entry["aliases"]]
            names += [(alias, "deprecated_alias") for alias in entry["deprecated_aliases"]]
            names += [(alias, "docs_name") for alias in entry["docs_names"]]
            for name, via in names:
                self._keys.setdefault((parent, name), (entry, via))

    def _exact(self, path: str) -> Entry | None:
        """The option whose canonical path is ``path``, reading at most its shard."""
        entry = self._by_path.get(path)
        if entry is None and self._all is None and self.load_shard(top_of(path)):
            entry = self._by_path.get(path)
        return entry

    # -- lookups ----------------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, path: str) -> Entry:
        entry = self._exact(path)
        if entry is None:
            return self._by_path_all()[path]
        return entry

    def _by_path_all(self) -> dict[str, Entry]:
        self.entries  # noqa: B018 (reads the key module)
        return self._by_path

    def top_level(self) -> list[Entry]:
        self.entries  # noqa: B018
        return list(self._children.get(None, ()))

    def children(self, entry: Entry | None) -> list[Entry]:
        if entry is None:
            return self.top_level()
        if self._all is None and entry.top in self._loaded:
            parent = entry.child_parent  # a shard holds every option under its top-level key, in tree order
            return [e for e in self._by_path.values() if dict.__getitem__(e, "parent") == parent]
        self.entries  # noqa: B018
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
        exact_path = self._exact(written) if "<" not in written else None
        if exact_path is not None:  # the canonical path itself: its shard is all it takes
            return Hit(exact_path, "path", written)
        from .paths import normalize_step, resolve_steps, split_path

        self.entries  # noqa: B018
        steps = split_path(written)
        if not steps:
            return None
        exact = resolve_steps(steps, lambda p, k: self._keys.get((p, k)), _child_parent, _is_map)
        if exact is not None:
            return Hit(exact[0], exact[1], written)  # type: ignore[arg-type]
        if not self._normalized:  # built only when an exact lookup fails
            for (parent, name), hit in self._keys.items():
                self._normalized.setdefault((parent, normalize_step(name)), hit)
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

        from .paths import normalize_step, split_path

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


def _child_parent(entry: Entry) -> str:
    return entry.child_parent


def _is_map(entry: Entry) -> bool:
    return bool(entry["container"] == "map")


_LOADED: OptionIndex | None = None
