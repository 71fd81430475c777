"""Dotted option paths: how a written path is split and walked, shared by the option tree and the index.

>>> split_path("tensor_parallel.partition_config.layer_specs[0].patterns")
['tensor_parallel', 'partition_config', 'layer_specs', 'patterns']
>>> normalize_step("Stage3-Prefetch_Bucket_Size")
'stage3_prefetch_bucket_size'
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Literal, TypeVar

    Via = Literal["path", "alias", "deprecated_alias", "docs_name"]
    T = TypeVar("T")
else:
    Via = str

__all__ = ["VIA_RANK", "Via", "normalize_step", "resolve_steps", "split_path"]

VIA_RANK: dict[str, int] = {"path": 0, "alias": 1, "deprecated_alias": 2, "docs_name": 3}


def split_path(written: str) -> list[str]:
    """The steps of a written path; ``name[]`` and ``name[3]`` step into a list of objects."""
    steps: list[str] = []
    for part in written.strip().strip(".").split("."):
        if not part:
            continue
        if part.endswith("]") and "[" in part:
            head = part[: part.index("[")]
            if head:
                steps.append(head)
            continue
        steps.append(part)
    return steps


def normalize_step(step: str) -> str:
    """A step with case and ``-``/``_`` slips forgiven."""
    return step.strip().lower().replace("-", "_")


def resolve_steps(
    steps: list[str],
    lookup: Callable[[str | None, str], tuple[T, str] | None],
    child_parent: Callable[[T], str],
    is_map: Callable[[T], bool],
) -> tuple[T, str] | None:
    """Walk ``steps`` from the top: ``lookup(parent, key)`` finds a child; a map's entry name is skipped.

    Returns the option reached and the least exact way a step matched (``path`` < ``alias`` < …).
    """
    parent: str | None = None
    via = "path"
    found: T | None = None
    i = 0
    while i < len(steps):
        if found is not None:
            parent = child_parent(found)
            if is_map(found):
                i += 1  # this step is the user's own entry name (or the <placeholder>)
                if i == len(steps):
                    break
        hit = lookup(parent, steps[i])
        if hit is None:
            return None
        found, how = hit
        if VIA_RANK[how] > VIA_RANK[via]:
            via = how
        i += 1
    if found is None:
        return None
    return found, via
