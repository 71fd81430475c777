"""The one-option battery: for each option of the schema, small configs a release's probe builds to see what that
release does with the option.

For each option (a leaf at a fixed path: no ``<name>`` or ``[]`` step) the battery holds, all with the option's
section switched on (``"enabled": true`` on the way, from :func:`dsref.tree.examples.example_config`, or built the
same way for an option 0.19.8 no longer has):

* ``absent``: the config without the option (what the release does when it is not written);
* ``example``: the option's example value; ``alt``: a second value that differs from it (so that an example equal
  to a release's default still shows whether the release reads the option); ``schema_default``: 0.19.8's default
  written out;
* ``wrong_type``: a value of another JSON type; ``out_of_range``: the nearest value outside 0.19.8's bounds, where
  the option has bounds.

The probe (:func:`dsref.generator.release_probe.behaviour`) builds each with the release's ``DeepSpeedConfig``
and compares what the built object holds; :mod:`dsref.generator.releases` records the result.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from ..schema import UNSET
from ..tree.examples import BATCH, example_config
from ..tree.options import Option, OptionTree

VARIANTS = ("example", "alt", "schema_default", "wrong_type", "out_of_range")
"""The values the battery writes for each option, in the order the recorded verdicts keep."""

CHECKED = ("example", "wrong_type", "out_of_range")
"""The variants whose verdicts ``check --deepspeed-version X`` must match (the others tell reads and default)."""

WRONG = "dsref-wrong-type"


def _put(config: dict[str, Any], path: str, value: Any) -> None:
    node = config
    *parents, last = path.split(".")
    for key in parents:
        child = node.get(key)
        if not isinstance(child, dict):
            child = node[key] = {}
        node = child
    node[last] = value


def _drop(config: dict[str, Any], path: str) -> dict[str, Any]:
    out = copy.deepcopy(config)
    node: Any = out
    *parents, last = path.split(".")
    for key in parents:
        node = node[key]
    node.pop(last, None)
    return out


def _plain(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _example_value(opt: Option) -> Any:
    if opt.meta.example is not UNSET:
        return opt.meta.example
    if isinstance(opt.default, bool):
        return not opt.default
    return None if opt.default is UNSET else opt.default


def _alt(opt: Option, value: Any) -> Any:
    """A second value of the option's type that differs from ``value`` and stays within 0.19.8's bounds and
    spellings; UNSET when there is none to hand."""
    if isinstance(value, bool):
        return not value
    if opt.allowed:
        others = [v for v in opt.allowed if v != value and _plain(v)]
        return others[0] if others else UNSET
    if isinstance(value, int):
        step = 1 if "le" not in opt.bounds and "lt" not in opt.bounds else -1
        return value + step if value + step not in (opt.bounds.get("gt"), opt.bounds.get("lt")) else value - step
    if isinstance(value, float):
        return value / 2 if value else 0.5
    return UNSET


def _wrong(value: Any) -> Any:
    return [WRONG] if isinstance(value, str) else WRONG


def _out_of_range(opt: Option, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return UNSET
    bounds = opt.bounds
    if "gt" in bounds:
        return bounds["gt"]
    if "ge" in bounds:
        return bounds["ge"] - 1
    if "lt" in bounds:
        return bounds["lt"]
    if "le" in bounds:
        return bounds["le"] + 1
    return UNSET


def _config_for(opt: Option, tree: OptionTree) -> dict[str, Any] | None:
    """The option's example config; for an option without one that a release may still read (removed, deprecated),
    the same built by hand: the batch size, ``enabled`` switched on in each section above, the option's value."""
    config = example_config(opt, tree)
    if config is not None:
        return config
    if opt.kind == "section" or (opt.default is UNSET and opt.meta.example is UNSET):
        return None
    config = {BATCH[0]: BATCH[1]}
    parts = opt.path.split(".")
    for depth in range(1, len(parts)):
        section = ".".join(parts[:depth])
        switch = f"{section}.enabled"
        if switch != opt.path and switch in tree and tree.get(switch).default is False:
            _put(config, switch, True)
    _put(config, opt.path, _example_value(opt))
    return config


def battery(tree: OptionTree) -> dict[str, dict[str, Any]]:
    """Option path → ``{"absent": config, "values": {variant: value}, "configs": {variant: config}}``."""
    found: dict[str, dict[str, Any]] = {}
    for opt in tree:
        if opt.kind == "section" or "<" in opt.path or "[]" in opt.path:
            continue
        config = _config_for(opt, tree)
        if config is None:
            continue
        example = _example_value(opt)
        values: dict[str, Any] = {"example": example}
        alt = _alt(opt, example)
        if alt is not UNSET:
            values["alt"] = alt
        if opt.default is not UNSET and _plain(opt.default) and opt.default != example:
            values["schema_default"] = opt.default
        values["wrong_type"] = _wrong(example)
        far = _out_of_range(opt, example)
        if far is not UNSET:
            values["out_of_range"] = far
        configs: dict[str, Any] = {}
        for variant, value in values.items():
            one = copy.deepcopy(config)
            _put(one, opt.path, value)
            configs[variant] = one
        found[opt.path] = {
            "key": opt.field_name,
            "path": opt.path,
            "absent": _drop(config, opt.path),
            "values": json.loads(json.dumps(values)),
            "configs": configs,
        }
    return found
