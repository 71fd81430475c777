"""The generated option index: the option tree as Python data, for commands that must start fast.

``dsref/generated/index/`` holds one record per option (the same records as
``dsref options --format json``), generated from the schema by
``scripts/generate.py``; a test regenerates it and fails if the committed copy
is stale. ``_keys.py`` has just what resolving any spelling needs; the full
records are split by top-level key, one module (a shard) each.

The index hands out :class:`~dsref.tree.record.OptionRecord`\\ s, always whole:
asking for an option by its canonical path reads that option's shard and
nothing else; anything that needs every option's names (another spelling, the
children of the top level, a listing) reads the key module first, and then the
shards of the records it returns.

The records are Python modules rather than JSON because loading them is then
one read of their compiled form: importing :mod:`json` alone (it imports
:mod:`re`) takes longer than the rest of ``dsref explain``. Reading the index
needs neither pydantic nor the models.

>>> index = OptionIndex.load()
>>> index.resolve("zero_optimization.prefetch_bucket_size").record.path
'zero_optimization.stage3_prefetch_bucket_size'
>>> index.resolve("offload_optimizer").record.path
'zero_optimization.offload_optimizer'
>>> index.resolve("Zero-Optimization.STAGE").via
'normalized'
"""

from __future__ import annotations

import importlib
import os
from dataclasses import fields

from ..records import record
from .record import OptionRecord, child_parent_path, top_of

__all__ = [
    "GENERATED_DIR",
    "INDEX_DIR",
    "INDEX_PACKAGE",
    "KEY_FIELDS",
    "Hit",
    "OptionIndex",
    "hugging_face_auto_paths",
]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from types import ModuleType
    from typing import Any, Literal

    from .record import Container, Kind

    HowFound = Literal["path", "alias", "deprecated_alias", "docs_name", "normalized", "suffix"]
else:
    HowFound = str

INDEX_PACKAGE = "dsref.generated.index"
GENERATED_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generated")
"""``dsref/generated/``: every generated artefact the package reads (written by :mod:`dsref.generator`)."""
INDEX_DIR = os.path.join(GENERATED_DIR, "index")
KEYS_MODULE = "_keys"
PAGES_PREFIX = "pages_"
"""``pages_<lang>.txt`` holds the pre-rendered ``dsref explain`` pages, ``pages.py`` where each one is."""


@record(slots=True)
class _Names:
    """What the key module holds about an option (:data:`KEY_FIELDS`): where it is and every name it answers to."""

    path: str
    key: str
    parent: str | None
    kind: Kind
    container: Container | None
    map_key: str | None
    aliases: tuple[str, ...]
    deprecated_aliases: tuple[str, ...]
    docs_names: tuple[str, ...]
    removed_in: str | None

    @classmethod
    def of(cls, record: OptionRecord) -> _Names:
        return cls(*(getattr(record, name) for name in KEY_FIELDS))

    @property
    def child_parent(self) -> str:
        return child_parent_path(self.path, self.container, self.map_key)

    @property
    def is_map(self) -> bool:
        return self.container == "map"


KEY_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(_Names))
"""The fields kept in the small key module: enough to resolve any spelling without loading the full records."""


@record(slots=True)
class Hit:
    """An option a written path resolved to, and how exactly it matched."""

    record: OptionRecord
    via: HowFound
    written: str

    def __repr__(self) -> str:
        return f"Hit({self.record.path!r}, via={self.via!r})"


class OptionIndex:
    """Lookup over the generated index: by path, by any spelling, by words; every answer a whole record.

    Built lazily: :meth:`get` of a canonical path reads only that path's shard; anything that needs every option's
    names (other spellings, listing, search) reads the key module first.
    """

    def __init__(
        self,
        dsref: str,
        deepspeed: str,
        records: Iterable[OptionRecord] | None = None,
        *,
        shards: tuple[str, ...] = (),
    ) -> None:
        """``records``: every option, in memory; otherwise the index reads the generated modules."""
        self.dsref = dsref
        self.deepspeed = deepspeed
        self._shards = frozenset(shards)
        self._loaded: set[str] = set()
        self._records: dict[str, OptionRecord] = {}
        self._rows: dict[str, tuple[Any, ...]] = {}
        """Rows of the shards read, by path, each made a record when first asked for (a removed option's note
        needs one record of a shard of hundreds)."""
        self._shard_paths: dict[str, list[tuple[str, str | None]]] = {}
        """Each shard read: its options' paths and parents, in tree order."""
        self._fields: tuple[str, ...] = ()
        self._names: list[_Names] | None = None
        self._children: dict[str | None, list[_Names]] = {}
        self._keys: dict[tuple[str | None, str], tuple[_Names, str]] = {}
        self._normalized: dict[tuple[str | None, str], tuple[_Names, str]] = {}
        if records is not None:
            self._records = {record.path: record for record in records}
            self._set_names([_Names.of(record) for record in self._records.values()])

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
        """An index over JSON records in memory (``{"dsref", "deepspeed", "options": [...]}``)."""
        records = [OptionRecord.from_json(record) for record in document["options"]]
        return cls(str(document["dsref"]), str(document["deepspeed"]), records)

    # -- reading the generated modules ------------------------------------------------------------------

    def _module(self, name: str) -> ModuleType:
        return importlib.import_module(f"{INDEX_PACKAGE}.{name}")

    def _load_shard(self, top: str) -> None:
        """Read the records of every option under the top-level key ``top``, once (none: no such key)."""
        if top in self._loaded or top not in self._shards:
            return
        self._loaded.add(top)
        module = self._module(top)
        self._fields = fields = tuple(module.FIELDS)
        at_path, at_parent = fields.index("path"), fields.index("parent")
        listed = self._shard_paths[top] = []
        for row in module.ROWS:
            self._rows[row[at_path]] = row
            listed.append((row[at_path], row[at_parent]))

    def _all_names(self) -> list[_Names]:
        """Every option's names, in the order of the option tree (read from the key module on first use)."""
        if self._names is None:
            module = self._module(KEYS_MODULE)
            if module.FIELDS != KEY_FIELDS:
                raise RuntimeError("the key module of the option index is stale: run scripts/generate.py")
            self._set_names([_Names(*_tuples(row)) for row in module.ROWS])
        assert self._names is not None
        return self._names

    def _set_names(self, names: list[_Names]) -> None:
        self._names = names
        self._children = {}
        self._keys = {}
        for option in names:
            self._children.setdefault(option.parent, []).append(option)
            spellings = [(option.key, "path")]
            spellings += [(alias, "alias") for alias in option.aliases]
            spellings += [(alias, "deprecated_alias") for alias in option.deprecated_aliases]
            spellings += [(alias, "docs_name") for alias in option.docs_names]
            for name, via in spellings:
                self._keys.setdefault((option.parent, name), (option, via))

    def _exact(self, path: str) -> OptionRecord | None:
        """The option whose canonical path is ``path``, reading at most its shard."""
        record = self._records.get(path)
        if record is None:
            self._load_shard(top_of(path))
            row = self._rows.pop(path, None)
            if row is not None:
                record = self._records[path] = OptionRecord.from_json(dict(zip(self._fields, row, strict=True)))
        return record

    # -- lookups ----------------------------------------------------------------------------------------

    def get(self, path: str) -> OptionRecord:
        """The option at canonical ``path``; ``KeyError`` when there is none."""
        record = self._exact(path)
        if record is None:
            raise KeyError(path)
        return record

    def paths(self) -> list[str]:
        """Every option's canonical path, in the order of the option tree (no record is read)."""
        return [option.path for option in self._all_names()]

    def __iter__(self) -> Iterator[OptionRecord]:
        """Every option, in the order of the option tree."""
        return iter([self.get(path) for path in self.paths()])

    def __len__(self) -> int:
        return len(self._all_names())

    def top_level(self) -> list[OptionRecord]:
        self._all_names()
        return [self.get(option.path) for option in self._children.get(None, ())]

    def children(self, record: OptionRecord | None) -> list[OptionRecord]:
        """The options directly under a section (``None``: the top level)."""
        if record is None:
            return self.top_level()
        parent = record.child_parent
        if self._names is None and record.top in self._loaded:
            # A shard holds every option under its top-level key, in tree order.
            listed = self._shard_paths.get(record.top, ())
            return [self.get(path) for path, above in listed if above == parent]
        self._all_names()
        return [self.get(option.path) for option in self._children.get(parent, ())]

    def subtree(self, record: OptionRecord | None, max_depth: int | None = None) -> list[tuple[int, OptionRecord]]:
        """(depth, record) below ``record`` (``None``: the whole tree), depth first."""
        rows: list[tuple[int, OptionRecord]] = []

        def walk(node: OptionRecord | None, depth: int) -> None:
            for child in self.children(node):
                rows.append((depth, child))
                if child.is_section and (max_depth is None or depth + 1 < max_depth):
                    walk(child, depth + 1)

        walk(record, 0)
        return rows

    def resolve(self, written: str) -> Hit | None:
        """Any spelling a user might type: exact, alias, deprecated or docs name, case/``-`` slips, or a path
        missing its section prefix (when that names one option unambiguously)."""
        exact_path = self._exact(written) if "<" not in written else None
        if exact_path is not None:  # the canonical path itself: its shard is all it takes
            return Hit(exact_path, "path", written)
        found = self._resolve_names(written)
        return None if found is None else Hit(self.get(found[0].path), found[1], written)

    def _resolve_names(self, written: str) -> tuple[_Names, HowFound] | None:
        from .paths import normalize_step, resolve_steps, split_path

        names = self._all_names()
        steps = split_path(written)
        if not steps:
            return None
        exact = resolve_steps(steps, lambda p, k: self._keys.get((p, k)), _child_parent, _is_map)
        if exact is not None:
            return exact[0], exact[1]  # type: ignore[return-value]
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
            return loose[0], "normalized"
        wanted = ".".join(normalize_step(s) for s in steps)
        tails = [
            option for option in names if normalize_step(option.path).endswith("." + wanted) and "<" not in option.path
        ]
        if tails:
            tails.sort(key=lambda o: (o.path.count("."), o.removed_in is not None, o.path))
            best = tails[0]
            if len(tails) == 1 or tails[1].path.count(".") > best.path.count("."):
                return best, "suffix"
        return None

    def suggest(self, written: str, n: int = 5) -> list[str]:
        """Canonical paths closest to what the user wrote (for "did you mean")."""
        import difflib

        from .paths import normalize_step, split_path

        names = self._all_names()
        steps = split_path(written)
        target = ".".join(normalize_step(s) for s in steps)
        last = normalize_step(steps[-1]) if steps else ""
        lowered = {option.path.lower(): option.path for option in names}
        close = [lowered[p] for p in difflib.get_close_matches(target, list(lowered), n=n, cutoff=0.6)]
        if last:
            keys = {normalize_step(option.key): option.key for option in names}
            for key in difflib.get_close_matches(last, list(keys), n=3, cutoff=0.75):
                for option in names:
                    if normalize_step(option.key) == key and option.path not in close:
                        close.append(option.path)
        return close[:n]


def _tuples(row: tuple[Any, ...]) -> list[Any]:
    """A row of the key module with its lists as tuples."""
    return [tuple(value) if isinstance(value, list) else value for value in row]


def _child_parent(option: _Names) -> str:
    return option.child_parent


def _is_map(option: _Names) -> bool:
    return option.is_map


_LOADED: OptionIndex | None = None


def hugging_face_auto_paths() -> frozenset[str]:
    """The options some release of Hugging Face's Trainer or Accelerate fills when the file writes ``"auto"``
    there (the schema's ``HfAuto`` facts), by their dotted paths: where an ``"auto"`` means the file is theirs.

    >>> "bf16.enabled" in hugging_face_auto_paths(), "monitor.tensorboard.job_name" in hugging_face_auto_paths()
    (True, False)
    """
    package = importlib.import_module(INDEX_PACKAGE)
    return frozenset(package.HF_AUTO)
