"""What a value means to one option: whether its type takes it as written, what lax validation makes of it, and
the validator that decides every value that is not plainly valid (:mod:`.plain_types`).

Shared by the schema's walk (:mod:`.validation`), its repairs (:mod:`.schema_repairs`), the effective config
(:mod:`.effective`) and the rules.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any, Protocol, Union, get_args, get_origin

from ...schema import Meta
from ...tree.options import Option, is_model, strip_annotated, union_args
from .plain_types import AS_WRITTEN, NOT_PLAIN, judge

__all__ = [
    "REMEMBERED",
    "Validator",
    "accepts",
    "coerce",
    "plain_value",
    "plainly_valid",
    "remember",
    "scalar_key",
    "validator_from_model",
    "value_validator",
]


REMEMBERED = 65_536
"""The most values a memo holds: it starts again when full, so that no input makes it grow without end."""


def scalar_key(opt: Option, value: Any) -> tuple[Option, type, Any] | None:
    """How a memo of values for ``opt`` knows ``value``: by the option (options hash by identity), the value's
    type (``1``, ``1.0`` and ``true`` are three values) and the value (a float by its exact bits, so ``-0.0`` is
    not ``0.0``); None for a value that is not a short scalar."""
    kind = type(value)
    if kind is float:
        return opt, kind, value.hex()
    if kind is int or kind is bool or value is None or (kind is str and len(value) <= 64):
        return opt, kind, value
    return None


def remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    """``memo[key] = value``, the memo emptied first when it holds :data:`REMEMBERED` values."""
    if len(memo) >= REMEMBERED:
        memo.clear()
    memo[key] = value


def coerce(opt: Option, value: Any) -> Any:
    """The value DeepSpeed's lax validation makes of ``value`` for ``opt``, as JSON data (the fix of a
    :attr:`~dsref.check.findings.Kind.coerced` finding writes it); raises ``ValueError`` when it cannot."""
    if plainly_valid(opt, value) == AS_WRITTEN:
        return value
    adapter = value_validator(opt)
    if adapter is None:
        raise ValueError(f"{opt.path} has no validator")
    from pydantic_core import ValidationError

    try:
        return plain_value(adapter.validate_python(value))
    except ValidationError as exc:
        raise ValueError(str(exc)) from None


def accepts(opt: Option, value: Any, *, scalar: bool = False) -> bool:
    """Whether ``value`` satisfies the option's type exactly (no coercion).

    Sections only accept plain values where their type says so (``scalar=True``).
    """
    if opt.kind == "section" and not scalar:
        return False
    if plainly_valid(opt, value) != NOT_PLAIN:
        return True
    adapter = value_validator(opt)
    if adapter is None:
        return False
    from pydantic_core import ValidationError

    try:
        adapter.validate_json(json.dumps(value), strict=True)
    except (ValidationError, RecursionError, TypeError, ValueError, NotImplementedError):  # see validation.leaf
        return False
    return True


def plainly_valid(opt: Option, value: Any) -> int:
    """Whether ``value`` is plainly valid for ``opt`` by the facts the check tree holds
    (:func:`dsref.check.validate.plain_types.judge`); an option of the model-built tree has none, and every value
    of it goes to its validator."""
    spec = opt.validator_spec
    return NOT_PLAIN if spec is None else judge(spec.plain, value)


def plain_value(value: Any) -> Any:
    """A value DeepSpeed's models keep, as JSON data: an enum's member as its value, a path as its text."""
    from enum import Enum
    from pathlib import PurePath

    if isinstance(value, Enum):
        return value.value
    return str(value) if isinstance(value, PurePath) else value


class Validator(Protocol):
    """What validates a value: pydantic's ``TypeAdapter`` or pydantic-core's ``SchemaValidator``."""

    def validate_json(self, data: str, /, *, strict: bool | None = None) -> Any: ...

    def validate_python(self, data: Any, /) -> Any: ...


@cache
def value_validator(opt: Option) -> Validator | None:
    """A validator for the option's own type and bounds (options hash by identity).

    An option of the check tree brings its own, built from the generated schema (None: a section that takes
    nothing but an object); one of the model-built tree gets a ``TypeAdapter`` of its field.
    """
    if opt.validator_spec is not None:
        return opt.validator_spec.build()
    return validator_from_model(opt)


def validator_from_model(opt: Option) -> Validator | None:
    """A ``TypeAdapter`` of what ``opt`` of the model-built tree takes: a leaf's type and constraints; for a
    section, the plain-value forms of its type (a JSON object goes to the section's own keys, never to this
    validator), None where it has none. What the generated check tree stores the core schema of, and what it
    rebuilds an option's validator with when it cannot use that schema."""
    from pydantic import TypeAdapter

    constraints = tuple(item for item in opt.field_info.metadata if not isinstance(item, Meta))
    if opt.kind == "leaf":
        if not constraints:
            return TypeAdapter(opt.annotation)
        parts = (opt.annotation, *constraints)
        return TypeAdapter(Annotated[parts])  # type: ignore[arg-type]
    scalars = tuple(arg for arg in union_args(opt.annotation) if not _section_form(arg))
    if not scalars:
        return None
    if constraints:
        raise TypeError(f"{opt.path}: constraints on a section field")
    return TypeAdapter(Union[scalars])  # type: ignore[arg-type]  # noqa: UP007


def _section_form(arg: Any) -> bool:
    if is_model(arg):
        return True
    args = get_args(arg)
    if get_origin(arg) is dict and args:
        return is_model(strip_annotated(args[-1]))
    if get_origin(arg) is list and args:
        return is_model(strip_annotated(args[0]))
    return False
