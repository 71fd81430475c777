"""``--show-effective``: the config as DeepSpeed will see it.

Defaults are filled in for every option of the sections the file uses (and for the top-level keys), aliases are
resolved to the keys DeepSpeed documents, "auto" values DeepSpeed drops are gone, derived batch values are
computed for a known world size, and keys DeepSpeed ignores are listed apart.

>>> doc = effective_document({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}, world_size=8)
>>> doc["config"]["train_batch_size"], doc["config"]["zero_optimization"]["overlap_comm"]
(32, True)
"""

from __future__ import annotations

from typing import Any

from ...tree.options import Option, option_tree
from ...tree.releases import release_facts
from ...tree.versions import DEEPSPEED_VERSION
from ..findings import format_location
from ..rules.batch import GAS, MICRO, TBS, derive
from ..validate.effective import effective


def effective_document(
    config: Any, *, world_size: int | None = None, deepspeed_version: str = DEEPSPEED_VERSION
) -> dict[str, Any]:
    tree = option_tree()
    eff = effective(config, tree, release=release_facts(deepspeed_version))
    out: dict[str, Any] = {}
    for opt in tree.top_level():
        if opt.removed_in is not None:
            continue
        if opt.kind == "leaf":
            out[opt.key] = eff.get(opt.path)
        elif eff.is_set(opt.path) or opt.default == {}:
            value = _section(tree, opt, eff)
            if value is not None or eff.is_set(opt.path):
                out[opt.key] = value
    derived = None
    if world_size is not None:
        values = [eff.get(p) for p in (TBS, MICRO, GAS)]
        ints = [v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None for v in values]
        derived = derive(ints[0], ints[1], ints[2], world_size)
        if derived is not None:
            out[TBS], out[MICRO], out[GAS] = derived
    return {
        "config": out,
        "world_size": world_size,
        "ignored": [format_location(loc) for loc in eff.ignored],
    }


def _section(tree: Any, opt: Option, eff: Any) -> Any:
    if opt.container is not None:
        return eff.get(opt.path)
    if not eff.is_set(opt.path) and opt.default != {}:
        return None
    value = eff.get(opt.path)
    if value is None and eff.is_set(opt.path):
        return None
    section: dict[str, Any] = {}
    for child in tree.children(opt.path):
        if child.removed_in is not None or child.meta.docs_only or child.meta.deprecated:
            continue
        if child.kind == "section":
            inner = _section(tree, child, eff)
            if inner is not None:
                section[child.key] = inner
        else:
            section[child.key] = eff.get(child.path)
    return section
