"""The config as DeepSpeed will see it: aliases resolved, defaults filled in, values coerced where DeepSpeed does.

Cross-field rules ask it for an option's value by canonical path, whichever
spelling the file used, and where in the file it was written.

>>> eff = effective({"zero_optimization": {"stage": "3", "prefetch_bucket_size": 1000}})
>>> eff.get("zero_optimization.stage"), eff.get("zero_optimization.stage3_prefetch_bucket_size")
(3, 1000)
>>> eff.get("zero_optimization.overlap_comm"), eff.is_set("zero_optimization.overlap_comm")
(True, False)
>>> eff.location("zero_optimization.stage3_prefetch_bucket_size")
('zero_optimization', 'prefetch_bucket_size')
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from ...schema import UNSET
from ...tree.options import Option, OptionTree
from ...tree.profiles import NEWEST, HfReleases, hugging_face_fills
from ...tree.releases import ReleaseFacts
from ..positions import Location
from .plain_types import AS_WRITTEN

__all__ = ["Effective", "effective"]

_ABSENT: Any = object()
"""Not in :attr:`Effective.values` (a value the file writes may be anything, None included)."""


class Effective:
    """Values by canonical option path, with where each was written (if it was)."""

    def __init__(
        self, tree: OptionTree, hugging_face: HfReleases = NEWEST, release: ReleaseFacts | None = None
    ) -> None:
        self.tree = tree
        self.hugging_face = hugging_face
        """The Hugging Face releases whose filling :attr:`filled` follows."""
        self.release = release
        """The release read for, where its defaults differ from 0.19.8's (recorded from it); None for 0.19.8."""
        self.values: dict[str, Any] = {}
        self.locations: dict[str, Location] = {}
        self.ignored: list[Location] = []
        """Keys in the file that DeepSpeed does not read (unknown, or a docs-only name)."""
        self.autos: set[str] = set()
        """Canonical paths the file writes as ``"auto"`` (under any spelling)."""
        self.filled: set[str] = set()
        """Those of :attr:`autos` Hugging Face fills (:func:`~dsref.tree.profiles.hugging_face_fills`); DeepSpeed
        drops the others where its models validate."""

    def is_set(self, path: str) -> bool:
        """Whether the file wrote this option (under any spelling, with a value DeepSpeed keeps)."""
        return path in self.values

    def location(self, path: str) -> Location | None:
        return self.locations.get(path)

    def get(self, path: str, default: Any = UNSET) -> Any:
        """The value DeepSpeed uses: the file's (coerced like DeepSpeed does), else the runtime default."""
        value = self.values.get(path, _ABSENT)  # one lookup: the rules ask this a hundred times per file
        if value is not _ABSENT:
            return value
        if default is not UNSET:
            return default
        return self._default(path)

    def _default(self, path: str) -> Any:
        opt = self.tree.get(path)
        if path == "zero_optimization.overlap_comm":
            return self.get("zero_optimization.stage") == 3  # None resolves by stage
        default = None if opt.default is UNSET else opt.default
        return default if self.release is None else self.release.default(path, default)

    def section_present(self, path: str) -> bool:
        return path in self.values and isinstance(self.values[path], Mapping)


def effective(
    config: Any,
    tree: OptionTree | None = None,
    hugging_face: HfReleases = NEWEST,
    release: ReleaseFacts | None = None,
) -> Effective:
    """Read ``config`` (a parsed ds_config) into an :class:`Effective` view. Never raises.

    ``tree`` defaults to the generated check tree, like :func:`dsref.check.validate.validation.validate`;
    ``hugging_face``
    are the releases whose filling :attr:`Effective.filled` follows; ``release`` gives the defaults of an earlier
    DeepSpeed release (:func:`dsref.tree.releases.release_facts`).
    """
    if tree is None:
        from .checktree import check_tree

        tree = check_tree()
    result = Effective(tree, hugging_face, release)
    if isinstance(config, Mapping):
        zero = config.get("zero_optimization")
        if isinstance(zero, bool):  # the legacy form DeepSpeed still maps
            config = dict(config)
            config["zero_optimization"] = {"stage": 1} if zero else {"stage": 0}
        _walk(tree, None, config, (), result)
    return result


def _walk(tree: OptionTree, parent: str | None, value: Mapping[Any, Any], loc: Location, out: Effective) -> None:
    for key, item in value.items():
        if not isinstance(key, str):
            continue
        if parent is None and key == "$schema":
            continue
        hit = tree.lookup_key(parent, key)
        if hit is None or hit[1] == "docs_name":
            out.ignored.append((*loc, key))
            continue
        opt, via = hit
        here = (*loc, key)
        if isinstance(item, str) and item == "auto":
            out.autos.add(opt.path)
            if hugging_face_fills(tree, here, out.hugging_face):
                out.filled.add(opt.path)
        if opt.path in out.locations and via == "deprecated_alias":
            continue  # DeepSpeed prefers the current name (bf16 over bfloat16)
        kept = _as_deepspeed_keeps(opt, item)
        if kept is UNSET:
            continue
        out.values[opt.path] = kept
        out.locations[opt.path] = here
        if opt.kind == "section" and isinstance(item, Mapping) and opt.container is None:
            _walk(tree, tree.child_parent(opt), item, here, out)


def _as_deepspeed_keeps(opt: Option, value: Any) -> Any:
    """The value DeepSpeed ends up with, or UNSET where it drops it ("auto" in its pydantic sections)."""
    if opt.validated_by_deepspeed and isinstance(value, str) and value == "auto" and opt.allowed != ("auto",):
        return UNSET
    if opt.kind == "leaf" and opt.validated_by_deepspeed:
        from .values import plainly_valid, remember, scalar_key, value_validator

        if plainly_valid(opt, value) == AS_WRITTEN:  # kept as written, without asking the validator
            return value

        key = scalar_key(opt, value)
        if key is not None and key in _KEPT:
            return _KEPT[key]
        adapter = value_validator(opt)
        if adapter is None:
            return value
        from pydantic_core import ValidationError

        try:
            coerced = adapter.validate_python(value)
        except (ValidationError, RecursionError, TypeError, ValueError):
            coerced = value
        kept = coerced.value if isinstance(coerced, Enum) else coerced
        if key is not None:
            remember(_KEPT, key, kept)
        return kept
    return value


_KEPT: dict[Any, Any] = {}
"""What DeepSpeed keeps of a scalar value of an option, once worked out
(:func:`dsref.check.validate.validation.scalar_key`)."""
