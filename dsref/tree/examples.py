"""Each option's example: a whole ``ds_config.json`` with the option at its place and what it needs beside it.

The example is derived from the schema's facts, never written per option:

* the value: the option's ``example`` (:class:`~dsref.schema._meta.Meta`), else for a bool the value that is not the
  default (writing the default changes nothing), else its default;
* the ZeRO stage, where the option works only at some stages (``stages``): the highest of them;
* a section's switch: ``"enabled": true`` for every section on the way that a boolean ``enabled`` (off by default)
  turns on;
* what a section or the option ``requires`` beside it (``"device": "cpu"`` for an offload knob, an optimizer
  ``type`` for ``optimizer.params.*``), and the keys a section cannot do without (fields with no default);
* a batch size (``train_micro_batch_size_per_gpu``), without which DeepSpeed builds no config.

Where two facts set the same key, the nearer one wins: a section's ``requires`` before the stage, the option's own
``requires`` after both (``compile.passes`` with autosp asks for stage 1 where the section asks for 3).

Options that no config can show at work get none, and :func:`why_none` says why: DeepSpeed removed them or refuses
them (or any value but the default), they are deprecated (their replacement has the example), DeepSpeed reads them
but never uses the value, or only Python code or DeepSpeed itself sets them (``Meta.no_example``).
``tests/unit/tree/test_examples.py`` checks every example with ``dsref check`` and builds it with DeepSpeed's
``DeepSpeedConfig``; the reference pages and ``dsref explain`` show it (``example_config`` of the option index).

>>> example_config(option_tree().get("zero_optimization.offload_param.pin_memory"))["zero_optimization"]
{'stage': 3, 'offload_param': {'device': 'cpu', 'pin_memory': False}}
>>> why_none(option_tree().get("amp.enabled"))
'removed'
"""

from __future__ import annotations

import copy
import itertools
from typing import Any, Literal

from ..schema import UNSET
from .options import Option, OptionTree, option_tree

__all__ = ["BATCH", "NoExample", "example_config", "why_none"]

BATCH = ("train_micro_batch_size_per_gpu", 1)
"""What every example holds so that DeepSpeed builds it: a batch size (DS501 without one)."""

NoExample = Literal[
    "section", "removed", "docs_only", "deprecated", "parsed_unused", "refused", "set_in_code", "filled_in", "no_value"
]


def why_none(opt: Option) -> NoExample | None:
    """Why ``opt`` has no example config (``None``: it has one)."""
    if opt.kind == "section":
        return "section"
    if opt.removed_in is not None:
        return "removed"
    if opt.meta.docs_only:
        return "docs_only"
    if opt.meta.deprecated:
        return "deprecated"
    if opt.meta.parsed_unused:
        return "parsed_unused"
    if opt.meta.no_example is not None:
        return opt.meta.no_example
    if _value(opt) is None:
        return "no_value"
    return None


def _value(opt: Option) -> Any:
    if opt.meta.example is not UNSET:
        return opt.meta.example
    if isinstance(opt.default, bool):
        return not opt.default
    return None if opt.default is UNSET else opt.default


def example_config(opt: Option, tree: OptionTree | None = None) -> dict[str, Any] | None:
    """The whole config that shows ``opt`` at work, or ``None`` (see :func:`why_none`)."""
    if why_none(opt) is not None:
        return None
    tree = tree or option_tree()
    sections = _sections_above(opt, tree)
    names = _entry_names(sections)
    config: dict[str, Any] = {}

    def put(path: str, value: Any) -> None:
        for placeholder, name in names.items():
            path = path.replace(placeholder, name)
        _put(config, path, value)

    put(BATCH[0], BATCH[1])
    if sections:
        config[sections[0].key] = {}  # the option's own section comes first, then what it needs elsewhere
    for section in sections:
        for child in tree.under(tree.child_parent(section)):
            if child is not opt and _is_switch(child):
                put(child.path, True)
        for path, value in section.meta.requires:
            put(path, value)
    if opt.stages is not None:
        put("zero_optimization.stage", max(opt.stages))
    for section in sections:
        for child in tree.under(tree.child_parent(section)):
            if child is not opt and child.kind == "leaf" and child.default is UNSET:
                put(child.path, _value(child))
    for path, value in opt.meta.requires:
        put(path, value)
    put(opt.path, _value(opt))
    return config


def _entry_names(sections: list[Option]) -> dict[str, str]:
    """``<placeholder>`` of a map of named entries → the name its example uses (``<metric>`` → ``seqlen``)."""
    names: dict[str, str] = {}
    for section in sections:
        if section.container == "map" and isinstance(section.meta.example, dict) and section.meta.example:
            names[f"{section.path}.<{section.meta.map_key}>"] = f"{section.path}.{next(iter(section.meta.example))}"
    return names


def _sections_above(opt: Option, tree: OptionTree) -> list[Option]:
    """The sections ``opt`` is in, outermost first (a map or list section, not its ``<name>``/``[]`` step)."""
    found: list[Option] = []
    parent = opt.parent
    while parent is not None:
        path = parent[:-2] if parent.endswith("[]") else parent.rsplit(".", 1)[0] if parent.endswith(">") else parent
        section = tree.get(path)
        found.append(section)
        parent = section.parent
    return found[::-1]


def _is_switch(opt: Option) -> bool:
    """A boolean ``enabled``, off by default and used, that turns its section on."""
    return opt.key == "enabled" and opt.default is False and not opt.meta.parsed_unused and opt.meta.no_example is None


def _put(config: dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` (dotted, with ``<name>`` map steps and ``[]`` list steps) in ``config``, making what is missing;
    a key already there keeps its place."""
    steps = path.replace("[]", ".[]").split(".")
    node: Any = config
    for step, after in itertools.pairwise(steps):
        if step == "[]":
            if not node:
                node.append({})
            node = node[0]
            continue
        key = step.strip("<>")
        if key not in node or not isinstance(node[key], (dict, list)):
            node[key] = [] if after == "[]" else {}
        node = node[key]
    node[steps[-1].strip("<>")] = copy.deepcopy(value)  # later steps may add to it: the schema's value stays as is
