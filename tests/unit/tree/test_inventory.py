"""The schema against ../shared/facts/deepspeed_inventory.json: every path, its removal, its default.

The inventory was read from DeepSpeed's source just before 0.19.7 and annotated
with each path's 0.19.8 status. The DeepSpeed cross-check is what counts where
the two differ; the differences kept on purpose are listed here with the reason.
"""

from __future__ import annotations

import json
from typing import Any

from dsref.schema import UNSET
from dsref.tree.options import OptionTree

DEFAULT_DIFFERENCES = {
    "expert_parallel.expert_w3": "absent means 'the preset's name'; dsref shows that as null plus a default note",
    "sequence_parallel_size": "absent behaves as 1 (DeepSpeed divides the world size by it); an explicit null crashes",
}
REMOVAL_DIFFERENCES = {
    "optimizer.type": "only three of its values (the 1-bit optimizers) went away in 0.19.7, not the key",
}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return float(a) == float(b)
    return bool(a == b)


def test_every_inventory_path_resolves(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    missing = [r["path"] for r in inventory if r["path"] != "<root>" and tree.resolve(r["path"]) is None]
    assert missing == []


def test_inventory_paths_are_canonical_or_aliases(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    """An inventory path either is our canonical path or resolves through a declared alias."""
    wrong = []
    for record in inventory:
        if record["path"] == "<root>":
            continue
        resolution = tree.resolve(record["path"])
        assert resolution is not None
        pattern = "<" in record["path"] or "[]" in record["path"]
        if resolution.via == "path" and resolution.option.path != record["path"] and not pattern:
            wrong.append(record["path"])
    assert wrong == []


def test_removed_paths_carry_their_release(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    problems = []
    for record in inventory:
        if record["path"] == "<root>" or record["path"] in REMOVAL_DIFFERENCES:
            continue
        option = tree.resolve(record["path"])
        assert option is not None
        status = record["status_0_19_8"]
        if "removed" in status:
            expected = "0.19.7" if "0.19.7" in status else "0.19.8"
            if option.option.removed_in != expected:
                problems.append(f"{record['path']}: removed_in {option.option.removed_in} != {expected}")
        elif option.option.removed_in is not None:
            problems.append(f"{record['path']}: marked removed in {option.option.removed_in}, inventory says {status}")
    assert problems == []


def test_defaults_agree_with_inventory(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    problems = []
    for record in inventory:
        if record["kind"] != "leaf" or record["path"] in DEFAULT_DIFFERENCES:
            continue
        resolution = tree.resolve(record["path"])
        assert resolution is not None
        ours = None if resolution.option.default is UNSET else resolution.option.default
        if not _same(ours, record["default"]):
            problems.append(f"{record['path']}: dsref {ours!r}, inventory {record['default']!r}")
    assert problems == []


def test_documented_defaults_that_differ_are_recorded(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    """Where the inventory notes the docs state another default, dsref records the docs' value."""
    missing = []
    for record in inventory:
        if record["kind"] != "leaf" or not record["docs_vs_code"] or record["docs_default"] is None:
            continue
        if record["docs_default"].startswith("(example"):
            continue  # the docs show an example value there, not a default
        resolution = tree.resolve(record["path"])
        assert resolution is not None
        option = resolution.option
        code = json.dumps(record["default"]).strip('"')
        if record["docs_default"].strip('`"').startswith(code):
            continue  # same value; the disagreement is about behaviour, recorded in the description
        if option.meta.docs_default is UNSET and not option.meta.docs_names and not option.meta.docs_only:
            missing.append(record["path"])
    assert missing == [], "record docs_default= for these"


def test_deprecations_are_modelled(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    problems = []
    for record in inventory:
        if not record["deprecated"]:
            continue
        resolution = tree.resolve(record["path"])
        assert resolution is not None
        if not (resolution.option.deprecated or resolution.via == "deprecated_alias"):
            problems.append(record["path"])
    assert problems == []


def test_counts(tree: OptionTree, inventory: list[dict[str, Any]]) -> None:
    live = [o for o in tree if o.removed_in is None and not o.meta.docs_only]
    removed = [o for o in tree if o.removed_in is not None]
    top = {o.key for o in tree.top_level() if o.removed_in is None}
    inventory_live = [r for r in inventory if r["path"] != "<root>" and "removed" not in r["status_0_19_8"]]
    inventory_top = {r["path"] for r in inventory_live if "." not in r["path"]}
    assert len(live) >= len(inventory_live) - 1  # the inventory counts the docs-only grad_hooks as live
    assert len(removed) >= len(inventory) - 1 - len(inventory_live)
    assert top >= inventory_top
    assert len(tree) >= len(inventory) - 1
    json.dumps([o.to_json() for o in tree])
