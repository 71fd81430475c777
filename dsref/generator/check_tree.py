"""Write the check tree (:mod:`dsref.check.validate.checktree`) from the models: one record per option, with its core
schema.

The core schema of an option is what :func:`dsref.check.validate.validation.value_validator` validates its value with
on the
model-built tree: pydantic's own schema for the field's type and constraints. Validation needs none of its metadata
or serialization parts, which are dropped; the few Python objects it holds are written as names:

* functions of :mod:`dsref.schema._coerce` (the ``BeforeValidator`` helpers) and of pydantic's own validators;
* pydantic's validator of ``pathlib.Path`` fields (a closure, written as a marker and replaced by an equivalent);
* enum classes, written as their members (the validator only compares values);
* classes no JSON value can be an instance of, written by name.

Anything else makes :func:`encode_schema` fail, so a new kind of field type cannot slip through unnoticed; and
``tests/test_checktree.py`` checks that each encoded validator is the same validator as pydantic's.
"""

from __future__ import annotations

import functools
import json
import pathlib
import types
from dataclasses import fields
from enum import Enum
from typing import Any, Union

from ..check.validate.checktree import CHECK_TREE_FILE, ROW_FIELDS
from ..schema import UNSET, Meta
from ..tree.options import Option, OptionTree, is_model, option_tree, strip_annotated, union_args

__all__ = ["check_tree_files", "encode_schema", "row", "rows", "validator_of"]

_DROPPED = frozenset({"metadata", "serialization", "ref"})
"""Parts of a core schema that validation does not read (``ref`` names a schema for ``definition-ref``, which no
option's schema uses, and holds an id that would change at every run)."""
_PATH_VALIDATOR = "GenerateSchema._path_schema.<locals>.path_validator"


def encode_schema(value: Any) -> Any:
    """A core schema as JSON (see the module docstring); ``TypeError`` for an object it cannot name."""
    if isinstance(value, dict):
        if value.get("type") in ("definitions", "definition-ref"):
            raise TypeError("a schema with definitions; keep its refs before writing it")
        out: dict[str, Any] = {}
        if value.get("type") == "enum":
            cls = value["cls"]
            out["$enum"] = {
                "name": cls.__name__,
                "mixin": _enum_mixin(cls),
                "members": [[m.name, m.value] for m in value["members"]],
            }
        for key, item in value.items():
            if key in _DROPPED or (key in ("cls", "members") and "$enum" in out):
                continue
            out[key] = encode_schema(item)
        return out
    if isinstance(value, (list, tuple)):
        return [encode_schema(v) for v in value]
    if value is None or (isinstance(value, (str, bool, int, float)) and not isinstance(value, Enum)):
        return value
    if isinstance(value, functools.partial):
        return {
            "$partial": {
                "fn": _name_of(value.func),
                "args": encode_schema(value.args),
                "keywords": encode_schema(value.keywords),
            }
        }
    if isinstance(value, types.FunctionType):
        if value.__qualname__ == _PATH_VALIDATOR:
            return {"$path_validator": _path_constructor(value)}
        return {"$fn": _name_of(value)}
    if isinstance(value, type):
        if value is pathlib.Path:
            return {"$class": "pathlib:Path"}
        if value.__module__.startswith("dsref.schema."):
            return {"$foreign_class": value.__name__}
    raise TypeError(f"cannot write {value!r} into the check tree")


def _enum_mixin(cls: type[Enum]) -> str | None:
    for mixin in (int, str, float):
        if issubclass(cls, mixin):
            return mixin.__name__
    return None


def _name_of(function: Any) -> str:
    module, name = function.__module__, function.__qualname__
    if "." in name or module not in ("dsref.schema._coerce", "pydantic._internal._validators"):
        raise TypeError(f"cannot name {module}.{name} in the check tree")
    return f"{module}:{name}"


def _path_constructor(function: types.FunctionType) -> str:
    """The closure must build a ``pathlib.Path`` from a ``str`` (its ``path_type`` not ``bytes``), which is what
    :func:`dsref.check.validate.checktree.path_validator` does."""
    names, cells_ = function.__code__.co_freevars, function.__closure__ or ()
    cells = {name: cell.cell_contents for name, cell in zip(names, cells_, strict=True)}
    if cells.get("path_constructor") is not pathlib.Path or cells.get("path_type") is bytes:
        raise TypeError(f"unexpected path validator {cells}")
    return "pathlib:Path"


def validator_of(opt: Option) -> Any:
    """What validates ``opt``'s value on the model-built tree: a leaf's type and constraints; for a section, the
    plain-value forms of its type (a JSON object goes to the section's own keys, never to this validator)."""
    from pydantic import TypeAdapter

    from ..check.validate.validation import value_validator

    if opt.kind == "leaf":
        return value_validator(opt)
    scalars = tuple(arg for arg in union_args(opt.annotation) if not _section_form(arg))
    if not scalars:
        return None
    constraints = tuple(item for item in opt.field_info.metadata if not isinstance(item, Meta))
    if constraints:
        raise TypeError(f"{opt.path}: constraints on a section field")
    return TypeAdapter(Union[scalars])  # type: ignore[arg-type]  # noqa: UP007


def _section_form(arg: Any) -> bool:
    if is_model(arg):
        return True
    from typing import get_args, get_origin

    args = get_args(arg)
    if get_origin(arg) is dict and args:
        return is_model(strip_annotated(args[-1]))
    if get_origin(arg) is list and args:
        return is_model(strip_annotated(args[0]))
    return False


_LEFT_OUT = frozenset({"description", "summary", "annotation", "field_info", "model"})
"""Fields of an option that the check tree leaves out (None there; ``related`` is empty)."""


def row(opt: Option) -> tuple[Any, ...]:
    """The check tree's row of one option: each field of :class:`~dsref.tree.options.Option`, in its order, as
    :func:`dsref.check.validate.checktree.option_from_row` passes it to ``Option``, then whether the option has a
    default.
    ``default`` is None where it has none, ``meta`` holds the facts that differ from their defaults
    (:func:`_meta_record`), and ``validator_spec`` the option's encoded core schema."""
    values: list[Any] = []
    for f in fields(Option):
        name = f.name
        if name in _LEFT_OUT:
            value: Any = None
        elif name == "related":
            value = ()
        elif name == "default":
            value = None if opt.default is UNSET else opt.default
        elif name == "meta":
            value = _meta_record(opt.meta)
        elif name == "validator_spec":
            validator = validator_of(opt)
            value = None if validator is None else encode_schema(validator.core_schema)
        elif name == "bounds":
            value = dict(opt.bounds)
        else:
            value = getattr(opt, name)
        values.append(value)
    return (*values, opt.default is not UNSET)


_PLAIN = Meta()


def _meta_record(meta: Meta) -> dict[str, Any]:
    """The Meta fields that differ from their defaults, as ``Meta`` takes them (tuples stay tuples); ``hf_auto`` as
    its parts and ``$unset`` naming the fields whose value is ``UNSET``."""
    out: dict[str, Any] = {}
    unset = []
    for name in Meta.__dataclass_fields__:
        value = getattr(meta, name)
        if value == getattr(_PLAIN, name):
            continue
        if value is UNSET:
            unset.append(name)
        elif name == "hf_auto" and value is not None:
            out[name] = {"by": value.by, "source": value.source}
            if value.compared:
                out[name]["compared"] = value.compared
            if value.changes:
                out[name]["changes"] = tuple(
                    (c.by, c.release, c.before) + (() if c.example is UNSET else (c.example,)) for c in value.changes
                )
        else:
            out[name] = value
    if unset:
        out["$unset"] = tuple(unset)
    return out


def rows(tree: OptionTree | None = None) -> list[tuple[Any, ...]]:
    return [row(opt) for opt in tree or option_tree()]


def check_tree_files() -> dict[pathlib.Path, bytes]:
    """``dsref/generated/check_tree.py``: the rows (:func:`row`) as ``ROWS`` of JSON data, one option per line
    (so that a diff shows which options changed). A module rather than JSON: importing its compiled form is a
    third of the time ``json.load`` takes, at every start of ``dsref check``."""
    from ..tree.versions import DEEPSPEED_VERSION, DSREF_VERSION
    from .index import python_literal

    every = rows()
    for one in every:
        json.dumps(one, allow_nan=False)  # JSON data only: the module holds what the JSON file held
    body = "".join(f"    {python_literal(one)},\n" for one in every)
    text = (
        f'"""The check tree, generated from the schema by scripts/generate.py: do not edit.\n\n'
        f'See dsref/check/validate/checktree.py for how it is read.\n"""\n\n'
        f"DSREF = {python_literal(DSREF_VERSION)}\nDEEPSPEED = {python_literal(DEEPSPEED_VERSION)}\n\n"
        f"FIELDS = {python_literal(ROW_FIELDS)}\n\nROWS = (\n{body})\n"
    )
    return {pathlib.Path(CHECK_TREE_FILE): text.encode("utf-8")}
