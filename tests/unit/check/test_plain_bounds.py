"""The plain-value answers at the edges of a bound are pydantic-core's.

:mod:`dsref.check.validate.plain_types` answers "within the bounds" for most values without asking pydantic-core;
an off-by-one in a ``gt``/``ge``/``lt``/``le`` comparison would pass or refuse exactly the values at the bound. Here
each bound, for an int and for a float, and every bounded option of the check tree, is tried at the bound and beside
it; every sure answer must be pydantic-core's (strict JSON, and lax Python with the bound it states).
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from pydantic_core import SchemaValidator, ValidationError

from dsref.check.validate.checktree import check_tree
from dsref.check.validate.plain_types import UNSURE, Refused, plain_type

BOUNDS = ("gt", "ge", "lt", "le")


def _near(bound: float) -> list[Any]:
    """The bound and its neighbours, as ints and as floats."""
    return sorted({bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5, float(bound), float(bound - 1)})


def _strict(validator: SchemaValidator, value: Any) -> bool:
    try:
        validator.validate_json(json.dumps(value), strict=True)
    except ValidationError:
        return False
    return True


def _lax(validator: SchemaValidator, value: Any) -> Any:
    """What lax validation keeps, or a Refused with the error types and the bounds the errors state."""
    try:
        return validator.validate_python(value)
    except ValidationError as exc:
        errors = exc.errors(include_url=False, include_input=False)
        stated: dict[str, Any] = {}
        for error in errors:
            for name, bound in (error.get("ctx") or {}).items():
                if name in BOUNDS:
                    stated.setdefault(name, bound)
        return Refused(frozenset(error["type"] for error in errors), stated)


def _wrong(schema: dict[str, Any], values: list[Any]) -> tuple[list[str], int]:
    """Where a sure answer differs from pydantic-core's, and how many sure answers there were."""
    plain, validator = plain_type(schema), SchemaValidator(schema)  # type: ignore[arg-type]
    wrong, sure = [], 0
    for value in values:
        verdict = plain.strict(value)
        if verdict is not UNSURE:
            sure += 1
            if verdict is not _strict(validator, value):
                wrong.append(f"{schema} strict({value!r}): {verdict}, pydantic-core: {not verdict}")
        answer = plain.lax(value)
        if answer is not UNSURE:
            sure += 1
            expected = _lax(validator, value)
            if answer != expected or type(answer) is not type(expected):
                wrong.append(f"{schema} lax({value!r}): {answer!r}, pydantic-core: {expected!r}")
    return wrong, sure


@pytest.mark.parametrize("bound", BOUNDS)
@pytest.mark.parametrize(("kind", "edge"), [("int", 4), ("int", 0), ("float", 1.0), ("float", 0.0)])
def test_each_bound_at_its_edge(kind: str, edge: float, bound: str) -> None:
    wrong, sure = _wrong({"type": kind, bound: edge}, _near(edge))
    assert not wrong, "\n".join(wrong)
    assert sure >= 2 * 5, sure  # the values beside the bound are answered here, not handed on


@pytest.mark.parametrize(("low", "high"), [("ge", "le"), ("gt", "lt"), ("ge", "lt"), ("gt", "le")])
def test_a_range_at_both_edges(low: str, high: str) -> None:
    wrong, sure = _wrong({"type": "float", low: 0.0, high: 1.0}, [*_near(0.0), *_near(1.0)])
    assert not wrong, "\n".join(wrong)
    assert sure >= 10, sure


@cache
def _bounded_schemas() -> list[dict[str, Any]]:
    """Each distinct schema of the check tree with a numeric bound (the options' own, as the tree stores them)."""
    found: dict[str, dict[str, Any]] = {}
    for opt in check_tree():
        spec = opt.validator_spec
        schema = None if spec is None else spec.schema
        if isinstance(schema, dict) and any(isinstance(schema.get(name), (int, float)) for name in BOUNDS):
            found.setdefault(json.dumps(schema, sort_keys=True), schema)
    return list(found.values())


def test_every_bounded_option_of_the_check_tree_at_its_edges() -> None:
    schemas = _bounded_schemas()
    assert len(schemas) >= 5, schemas  # the tree has bounded ints and floats (ge=0, ge=1, gt=0, le=1, ...)
    wrong: list[str] = []
    sure = 0
    for schema in schemas:
        values = [
            value for name in BOUNDS if isinstance(schema.get(name), (int, float)) for value in _near(schema[name])
        ]
        found, answered = _wrong(schema, values)
        wrong += found
        sure += answered
    assert not wrong, "\n".join(wrong[:20])
    assert sure > len(schemas) * 4, (sure, len(schemas))
