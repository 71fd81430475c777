"""The plain-value answers at the edges of a bound agree with pydantic-core.

:func:`dsref.check.validate.plain_types.judge` says "plainly valid" for most values without asking pydantic-core;
an off-by-one in a ``gt``/``ge``/``lt``/``le`` comparison would pass a value the validator refuses, or send every
value at the bound to the validator. Here each bound, for an int and for a float, and every bounded option of the
check tree, is tried at the bound and beside it: a value judged plainly valid must be one pydantic-core takes as
written, and a value of the fact's own JSON type that pydantic-core takes must be judged plainly valid.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic_core import SchemaValidator, ValidationError

from dsref.check.validate.checktree import check_tree
from dsref.check.validate.plain_types import NOT_PLAIN, judge

BOUNDS = ("gt", "ge", "lt", "le")
CORE_TYPE = {"integer": "int", "number": "float"}


def _near(bound: float) -> list[Any]:
    """The bound and its neighbours, as ints and as floats."""
    return sorted({bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5, float(bound), float(bound - 1)})


def _strict(validator: Any, value: Any) -> bool:
    try:
        validator.validate_json(json.dumps(value), strict=True)
    except ValidationError:
        return False
    return True


def _of_its_type(fact: dict[str, Any], value: Any) -> bool:
    kind = fact.get("type")
    return (kind == "integer" and type(value) is int) or (kind == "number" and type(value) in (int, float))


def _wrong(fact: dict[str, Any], validator: Any, values: list[Any]) -> tuple[list[str], int]:
    """Where the plain answer and pydantic-core's disagree, and how many values were judged plainly valid."""
    wrong, plain = [], 0
    for value in values:
        judged = judge(fact, value) != NOT_PLAIN
        taken = _strict(validator, value)
        plain += judged
        if judged and not taken:
            wrong.append(f"{fact} {value!r}: plainly valid, but pydantic-core refuses it")
        if taken and not judged and _of_its_type(fact, value):
            wrong.append(f"{fact} {value!r}: pydantic-core takes it, but it was not judged plainly valid")
    return wrong, plain


@pytest.mark.parametrize("bound", BOUNDS)
@pytest.mark.parametrize(("kind", "edge"), [("integer", 4), ("integer", 0), ("number", 1.0), ("number", 0.0)])
def test_each_bound_at_its_edge(kind: str, edge: float, bound: str) -> None:
    fact = {"type": kind, bound: edge}
    validator = SchemaValidator({"type": CORE_TYPE[kind], bound: edge})  # type: ignore[misc]
    wrong, plain = _wrong(fact, validator, _near(edge))
    assert not wrong, "\n".join(wrong)
    assert plain >= 1, plain  # the values inside the bound are answered here, not handed on


@pytest.mark.parametrize(("low", "high"), [("ge", "le"), ("gt", "lt"), ("ge", "lt"), ("gt", "le")])
def test_a_range_at_both_edges(low: str, high: str) -> None:
    fact = {"type": "number", low: 0.0, high: 1.0}
    validator = SchemaValidator({"type": "float", low: 0.0, high: 1.0})  # type: ignore[misc]
    wrong, plain = _wrong(fact, validator, [*_near(0.0), *_near(1.0)])
    assert not wrong, "\n".join(wrong)
    assert plain >= 2, plain


def test_every_bounded_option_of_the_check_tree_at_its_edges() -> None:
    bounded = []
    for opt in check_tree():
        spec = opt.validator_spec
        fact = None if spec is None else spec.plain
        if isinstance(fact, dict) and any(isinstance(fact.get(name), (int, float)) for name in BOUNDS):
            bounded.append((opt, fact))
    assert len(bounded) >= 5, bounded  # the tree has bounded ints and floats (ge=0, ge=1, gt=0, le=1, ...)
    wrong: list[str] = []
    plain = 0
    for opt, fact in bounded:
        values = [value for name in BOUNDS if isinstance(fact.get(name), (int, float)) for value in _near(fact[name])]
        found, judged = _wrong(fact, opt.validator_spec.build(), values)  # type: ignore[union-attr]
        wrong += [f"{opt.path}: {line}" for line in found]
        plain += judged
    assert not wrong, "\n".join(wrong[:20])
    assert plain > len(bounded) * 2, (plain, len(bounded))
