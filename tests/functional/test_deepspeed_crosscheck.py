"""dsref's schema against the installed DeepSpeed 0.19.8: names, aliases, defaults, verdicts.

Every section that mirrors a DeepSpeed pydantic class is compared field by
field; every default that DeepSpeed keeps in a module constant is compared with
that constant; and a grid of probe values is run through both DeepSpeed's class
and dsref's validator, which must agree on accept/reject.
"""

from __future__ import annotations

import importlib
import logging
import math
from enum import Enum
from pathlib import PurePath
from typing import Any

import pytest
from pydantic import BaseModel

from dsref.check.validate.validation import validate
from dsref.schema import UNSET, Section
from dsref.tree.options import Option, OptionTree, option_tree
from tests.conftest import require_deepspeed

pytestmark = pytest.mark.slow  # imports DeepSpeed (seconds); CI runs it, the fast tier leaves it to them

# Fields dsref models that the DeepSpeed class lacks, on purpose.
EXTRA_IN_DSREF: dict[str, str] = {
    "zero_optimization.mics_shard_size": "removed in 0.19.7; kept so old configs get a clear error",
    "zero_optimization.mics_hierarchical_params_gather": "removed in 0.19.7; kept so old configs get a clear error",
    "zero_optimization.zeropp_loco_param": "removed in 0.19.8; kept so old configs get a clear error",
    "zero_optimization.grad_hooks": "in DeepSpeed's docs only; kept so the checker can say it is rejected",
}
# DeepSpeed fields that dsref models as a deprecated alias of another field (same type, renamed).
DS_FIELDS_AS_ALIASES: dict[str, str] = {
    "zero_optimization.stage3_gather_fp16_weights_on_model_save": (
        "zero_optimization.stage3_gather_16bit_weights_on_model_save"
    ),
}


def _ds_class(path: str) -> type[BaseModel]:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]


def _sections(tree: OptionTree) -> list[Option]:
    return [opt for opt in tree if opt.model is not None and opt.model.ds_class]


def _norm(value: Any) -> Any:
    if isinstance(value, Enum):
        return _norm(value.value)
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, BaseModel):
        return type(value).__name__
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)  # DeepSpeed's pp_int prints differently but is an int
    if isinstance(value, (list, tuple)):
        return [_norm(v) for v in value]
    if isinstance(value, dict):
        return {k: _norm(v) for k, v in value.items()}
    if value is None or isinstance(value, (float, str)):
        return value
    return str(value)  # e.g. torch.float16 -> "torch.float16", as it is written in JSON


@pytest.fixture(scope="module")
def deepspeed() -> Any:
    ds = require_deepspeed()
    assert ds.__version__ == "0.19.8", f"cross-check expects DeepSpeed 0.19.8, found {ds.__version__}"
    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    return ds


def test_every_strict_section_names_its_deepspeed_class(tree: OptionTree) -> None:
    missing = [
        opt.path
        for opt in tree
        if opt.model is not None and opt.model.unknown_keys == "reject" and not opt.model.ds_class
    ]
    assert missing == []


@pytest.mark.usefixtures("deepspeed")
def test_deepspeed_classes_are_mirrored_field_by_field(tree: OptionTree) -> None:
    problems: list[str] = []
    checked = 0
    for section in _sections(tree):
        assert section.model is not None
        ds_cls = _ds_class(section.model.ds_class or "")
        ours = section.model.model_fields
        for name, ds_field in ds_cls.model_fields.items():
            if ds_field.exclude and name not in ours:
                continue
            key = ds_field.alias or name
            path = f"{tree.child_parent(section)}.{key}"
            if path in DS_FIELDS_AS_ALIASES:
                resolved = tree.resolve(path)
                if resolved is None or resolved.option.path != DS_FIELDS_AS_ALIASES[path]:
                    problems.append(f"{path}: should resolve to {DS_FIELDS_AS_ALIASES[path]}")
                continue
            if name not in ours:
                problems.append(f"{path}: DeepSpeed field {name!r} missing in dsref")
                continue
            mine = ours[name]
            if (mine.alias or None) != (ds_field.alias or None):
                problems.append(f"{path}: alias {mine.alias!r} != DeepSpeed {ds_field.alias!r}")
            if mine.is_required() != ds_field.is_required():
                problems.append(f"{path}: required-ness differs")
                continue
            if not ds_field.is_required():
                ds_default = _norm(ds_field.get_default(call_default_factory=True))
                my_default = _norm(mine.get_default(call_default_factory=True))
                if isinstance(ds_default, str) and isinstance(my_default, str) and ds_default != my_default:
                    # sub-model defaults compare by mirrored class name
                    sub = tree.get(path) if path in tree else None
                    mirrored = sub.model.ds_class if sub is not None and sub.model is not None else None
                    if mirrored and mirrored.rsplit(".", 1)[-1] == ds_default:
                        checked += 1
                        continue
                if ds_default != my_default and not (
                    isinstance(ds_default, float)
                    and isinstance(my_default, float)
                    and math.isclose(ds_default, my_default)
                ):
                    problems.append(f"{path}: default {my_default!r} != DeepSpeed {ds_default!r}")
            checked += 1
        ds_names = set(ds_cls.model_fields)
        for name, info in ours.items():
            if name not in ds_names:
                path = f"{tree.child_parent(section)}.{info.alias or name}"
                if path not in EXTRA_IN_DSREF:
                    problems.append(f"{path}: in dsref but not a field of {ds_cls.__name__}")
    assert problems == []
    assert checked > 100


@pytest.mark.usefixtures("deepspeed")
def test_defaults_match_deepspeed_constants(tree: OptionTree) -> None:
    problems: list[str] = []
    count = 0
    for opt in tree:
        name = opt.meta.ds_constant
        if not name:
            continue
        module, _, attr = name.rpartition(".")
        try:
            value = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as exc:
            problems.append(f"{opt.path}: cannot read {name}: {exc}")
            continue
        mine = opt.default
        if _norm(value) != _norm(mine):
            problems.append(f"{opt.path}: default {mine!r} != {name} = {value!r}")
        count += 1
    assert problems == []
    assert count >= 40, f"only {count} options name a DeepSpeed constant"


@pytest.mark.usefixtures("deepspeed")
def test_top_level_scalars_match_runtime_constants(tree: OptionTree) -> None:
    """Every top-level key DeepSpeed reads with get_scalar_param and a ``<KEY>_DEFAULT`` constant agrees."""
    constants = importlib.import_module("deepspeed.runtime.constants")
    compared = 0
    problems: list[str] = []
    for opt in tree.top_level():
        if opt.kind != "leaf" or opt.removed_in:
            continue
        const = getattr(constants, f"{opt.key.upper()}_DEFAULT", UNSET)
        if const is UNSET:
            continue
        compared += 1
        if _norm(const) != _norm(opt.default):
            problems.append(f"{opt.key}: dsref {opt.default!r} != constants {const!r}")
    assert problems == []
    assert compared >= 15


# -- verdicts ---------------------------------------------------------------

PROBES: tuple[Any, ...] = (0, 1, -1, 3, 2.5, 5e8, True, "true", "2", "x", None, [], {}, ["a"], "cpu", "auto")

# (option path, probe) pairs where DeepSpeed's verdict depends on a cross-field rule in its
# model validator, not on the value alone; dsref's cross-field rules live in the checker.
CROSS_FIELD: dict[str, str] = {
    "zero_optimization.compute_grad_norm": "false is accepted only at stages 1-2 (model validator)",
    "zero_optimization.offload_optimizer": "ratio < 1 needs stage 3 (model validator)",
    "fp16.loss_scale_window": "must be > 0 only when fp16 is enabled with dynamic scaling",
    "fp16.min_loss_scale": "must be > 0 only when fp16 is enabled with dynamic scaling",
}


def _ds_accepts(ds_cls: type[BaseModel], key: str, value: Any) -> bool:
    try:
        ds_cls(**{key: value})
    except Exception:  # DeepSpeed raises ValidationError, AssertionError, TypeError, ValueError
        return False
    return True


def _nest(path: str, value: Any) -> dict[str, Any]:
    out: Any = value
    for step in reversed(path.split(".")):
        out = {step: out}
    return out  # type: ignore[no-any-return]


@pytest.mark.usefixtures("deepspeed")
def test_validator_agrees_with_deepspeed_on_every_strict_leaf(tree: OptionTree) -> None:
    """For each leaf of a mirrored section, each probe value: DeepSpeed refuses ⇔ dsref reports an error."""
    disagreements: list[str] = []
    compared = 0
    for section in _sections(tree):
        if section.container is not None or "<" in section.path or "[]" in section.path:
            continue
        assert section.model is not None
        ds_cls = _ds_class(section.model.ds_class or "")
        for child in tree.children(section.path):
            if child.removed_in or child.meta.docs_only or child.path in CROSS_FIELD:
                continue
            for probe in PROBES:
                ds_ok = _ds_accepts(ds_cls, child.key, probe)
                findings = [f for f in validate(_nest(child.path, probe)) if f.severity.value == "error"]
                ours_ok = not findings
                compared += 1
                if ds_ok != ours_ok:
                    disagreements.append(
                        f"{child.path} = {probe!r}: DeepSpeed {'accepts' if ds_ok else 'refuses'}, "
                        f"dsref {'accepts' if ours_ok else 'refuses: ' + findings[0].kind.name}"
                    )
    assert disagreements == []
    assert compared > 1000


def test_sections_are_section_models(tree: OptionTree) -> None:
    for opt in tree:
        if opt.model is not None:
            assert issubclass(opt.model, Section), opt.path


def test_tree_is_built_once() -> None:
    assert option_tree() is option_tree()
