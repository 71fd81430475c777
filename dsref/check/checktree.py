"""The option tree for checking, read from a generated file: no pydantic models to import or build.

``dsref check`` needs, for every option, the facts the option tree holds (keys, aliases, defaults, versions,
Meta) and a validator of its value. Building them from the pydantic models costs a quarter of a second at each
start; ``dsref/generated/check_tree.py`` (written by :mod:`dsref.generator.check_tree` from the same models,
kept in sync by ``tests/test_checktree.py``) holds them ready: each option's record and its pydantic-core
schema, the very schema pydantic generates for the field, from which :class:`pydantic_core.SchemaValidator`
builds the same validator pydantic would. Only ``pydantic_core`` is imported, and only the validators of options a
file writes are built.

Options of this tree have no ``annotation``, ``field_info``, ``model``, ``description``, ``summary`` or
``related``: commands that show texts or walk the models use :func:`dsref.tree.options.option_tree`.

>>> tree = check_tree()
>>> opt = tree.get("zero_optimization.stage")
>>> opt.default, opt.validated_by_deepspeed, opt.meta.stages
(0, True, None)
>>> opt.validator_spec.build().validate_python(2)
<ZeroStage.gradients: 2>
"""

from __future__ import annotations

import enum
import importlib
import os
import pathlib
from dataclasses import MISSING, field, fields
from functools import cache
from typing import Any, TypeVar

from ..records import record
from ..schema import UNSET, HfAuto, HfChange, Meta
from ..tree.options import Option, OptionTree
from .plain_types import PlainType, plain_type

__all__ = [
    "CHECK_TREE_FILE",
    "CHECK_TREE_MODULE",
    "ValidatorSpec",
    "check_tree",
    "decode_schema",
    "made_directly",
    "option_from_record",
]

CHECK_TREE_MODULE = "dsref.generated.check_tree"
CHECK_TREE_FILE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "generated", "check_tree.py"
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pydantic_core import SchemaValidator

_TUPLE_FIELDS = ("aliases", "deprecated_aliases", "stages")
_META_TUPLES = ("stages", "deprecated_aliases", "docs_names", "former_names", "deprecated_forms")
_META_PAIRS = ("enum_docs", "replacement", "former_values", "requires")
"""Facts written as lists of pairs (absent: none, the field's default)."""
_SAFE_MODULES = frozenset({"dsref.schema._coerce", "pydantic._internal._validators", "pathlib"})
"""Modules the encoded schemas may name functions and classes of: none of them imports the models."""


@record(frozen=False, eq=False)
class ValidatorSpec:
    """An option's encoded pydantic-core schema, turned into a validator on first use.

    ``schema`` is None for a section that takes nothing but a JSON object (no plain-value form).
    """

    schema: Any
    _built: Any = field(default=None, repr=False)
    _plain: PlainType | None = field(default=None, repr=False)

    @property
    def plain(self) -> PlainType:
        """What can be said of a value without building the validator (:mod:`dsref.check.plain_types`)."""
        if self._plain is None:
            self._plain = plain_type(self.schema)
        return self._plain

    def build(self) -> SchemaValidator | None:
        if self.schema is None:
            return None
        if self._built is None:
            from pydantic_core import SchemaValidator

            self._built = SchemaValidator(decode_schema(self.schema))
        return self._built


def decode_schema(value: Any) -> Any:
    """A core schema from its JSON form (see :func:`dsref.generator.check_tree.encode_schema`)."""
    if isinstance(value, list):
        return [decode_schema(v) for v in value]
    if not isinstance(value, dict):
        return value
    if "$fn" in value:
        return _named(value["$fn"])
    if "$partial" in value:
        from functools import partial

        spec = value["$partial"]
        return partial(_named(spec["fn"]), *decode_schema(spec["args"]), **decode_schema(spec["keywords"]))
    if "$class" in value:
        return _named(value["$class"])
    if "$foreign_class" in value:
        # A class no JSON value is an instance of (e.g. TorchDtype): a stand-in of the same name behaves the same.
        return type(value["$foreign_class"], (), {})
    if "$path_validator" in value:
        return path_validator
    out = {k: decode_schema(v) for k, v in value.items() if k != "$enum"}
    if "$enum" in value:
        spec = value["$enum"]
        out["cls"] = cls = _enum_class(spec["name"], spec["mixin"], spec["members"])
        out["members"] = list(cls.__members__.values())
    return out


def _enum_class(name: str, mixin: str | None, members: list[list[Any]]) -> type[enum.Enum]:
    """A stand-in for the schema's enum: the same name, members and mixed-in type (the validator only looks at
    member values, and dsref at ``.value``)."""
    pairs = [(member, value) for member, value in members]
    base = {"int": int, "str": str, "float": float}.get(mixin or "")
    made = enum.Enum(name, pairs, type=base) if base else enum.Enum(name, pairs)
    return made  # type: ignore[return-value]  # the functional API makes a class


def _named(ref: str) -> Any:
    module, _, name = ref.partition(":")
    if module not in _SAFE_MODULES:
        raise ValueError(f"the check tree names {ref}, outside the modules it may import")
    return getattr(importlib.import_module(module), name)


def path_validator(input_value: Any) -> pathlib.Path:
    """pydantic's validator of a ``pathlib.Path`` field read from a string (``GenerateSchema._path_schema``)."""
    from pydantic_core import PydanticCustomError

    if not isinstance(input_value, str):
        raise PydanticCustomError("path_type", "Input is not a valid path")
    try:
        return pathlib.Path(input_value)
    except TypeError as exc:
        raise PydanticCustomError("path_type", "Input is not a valid path") from exc


def option_from_record(record: dict[str, Any]) -> Option:
    """An :class:`~dsref.tree.options.Option` from its record in the check tree file."""
    values = dict(record)
    meta_record = values.pop("meta")
    validator = values.pop("validator")
    default = values.pop("default")
    if not values.pop("has_default"):
        default = UNSET
    for name in _TUPLE_FIELDS:
        if values.get(name) is not None:
            values[name] = tuple(values[name])
    if values.get("allowed") is not None:
        values["allowed"] = tuple(values["allowed"])
    values.update(
        default=default,
        description=None,
        summary=None,
        meta=_meta(meta_record),
        annotation=None,
        field_info=None,  # documented: the check tree has no pydantic fields
        validator_spec=ValidatorSpec(validator),
    )
    return made_directly(Option, values)


def _meta(record: dict[str, Any]) -> Meta:
    if not record:
        return _NO_META
    values = dict(record)
    for name in values.pop("$unset", ()):
        values[name] = UNSET
    for name in _META_TUPLES:
        if values.get(name) is not None:
            values[name] = tuple(values[name])
    for name in _META_PAIRS:
        if name in values:
            values[name] = tuple(tuple(pair) for pair in values[name])
    if values.get("hf_auto") is not None:
        hf = values["hf_auto"]
        changes = tuple(HfChange(*change) for change in hf.get("changes", ()))
        values["hf_auto"] = HfAuto(by=tuple(hf["by"]), source=hf["source"], changes=changes)
    return Meta(**values)


_NO_META = Meta()
"""The facts of an option dsref says nothing special about (a fifth of them): one record, shared (it is frozen)."""

_Record = TypeVar("_Record")
_set = object.__setattr__


def made_directly(cls: type[_Record], values: dict[str, Any]) -> _Record:
    """``cls(**values)`` for a frozen dataclass with no ``__post_init__``, made as :mod:`copy` makes one: each field
    set on a new instance. The check tree makes 602 options at every start of ``dsref check``, and binding the 27
    keyword arguments of a frozen dataclass's ``__init__`` took most of the time. The fields are set in the order
    ``__init__`` sets them, so that the instances share one table of attribute names as they would (attribute
    reads stay as fast). ``tests/test_checktree.py`` compares every option made so with one its ``__init__``
    makes."""
    names, required, in_order = _fields_of(cls)  # type: ignore[arg-type]  # a class hashes
    if not values.keys() <= names or not required <= values.keys():
        raise TypeError(f"{cls.__name__} has the fields {sorted(names)}, not {sorted(values)}")
    made = object.__new__(cls)
    for name, default, factory in in_order:
        value = values.get(name, default)
        _set(made, name, factory() if value is MISSING else value)
    return made


@cache
def _fields_of(cls: type) -> tuple[frozenset[str], frozenset[str], tuple[tuple[str, Any, Any], ...]]:
    """A dataclass's field names, those it cannot do without, and each field with its default and default factory
    (``MISSING`` where none), in order."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} cannot be made field by field")
    every = fields(cls)
    in_order = tuple((f.name, f.default, f.default_factory) for f in every)
    required = frozenset(name for name, default, factory in in_order if default is MISSING and factory is MISSING)
    return frozenset(f.name for f in every), required, in_order


@cache
def check_tree() -> OptionTree:
    """The option tree read from ``dsref/generated/check_tree.py`` (read once)."""
    module = importlib.import_module(CHECK_TREE_MODULE)
    fields = module.FIELDS
    return OptionTree.from_options(option_from_record(dict(zip(fields, row, strict=True))) for row in module.ROWS)
