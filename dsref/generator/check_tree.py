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
``tests/unit/check/test_checktree.py`` checks that each encoded validator is the same validator as pydantic's.
"""

from __future__ import annotations

import functools
import json
import pathlib
import types
from dataclasses import fields
from enum import Enum
from typing import Any

from ..check.validate.checktree import CHECK_TREE_FILE, ROW_FIELDS
from ..schema import UNSET, HfChange, Meta
from ..tree.options import Option, OptionTree, option_tree

__all__ = ["check_tree_files", "encode_schema", "plain_facts", "row", "rows", "validator_of"]

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
    """What validates ``opt``'s value on the model-built tree
    (:func:`dsref.check.validate.values.validator_from_model`): the check tree stores its core schema."""
    from ..check.validate.values import validator_from_model

    return validator_from_model(opt)


_STATED_TYPES = {"none": "null", "bool": "boolean", "int": "integer", "float": "number", "str": "string"}
_BOUNDS = {
    "int": ("gt", "ge", "lt", "le"),
    "float": ("gt", "ge", "lt", "le", "allow_inf_nan"),
    "str": ("min_length", "max_length"),
}
_IGNORED = frozenset({"type", "strict"})
"""Keys of a schema that change nothing for a plainly valid value (``strict`` only narrows lax conversions)."""


def plain_facts(schema: Any) -> dict[str, Any] | None:
    """What makes a value plainly valid for an encoded core schema (:mod:`dsref.check.validate.plain_types`
    says what the facts are); None where the schema holds something these facts cannot state (a function that
    may change a plainly valid value, a pattern, a constraint of another name): the validator decides there."""
    if not isinstance(schema, dict):
        return None
    kind = schema.get("type")
    keys = set(schema) - _IGNORED
    if kind in _STATED_TYPES and keys <= set(_BOUNDS.get(kind, ())):
        fact: dict[str, Any] = {"type": _STATED_TYPES[kind]}
        fact.update((name, schema[name]) for name in sorted(keys) if name != "allow_inf_nan")  # finite either way
        return fact
    if kind == "literal" and keys == {"expected"}:
        return _choice(schema["expected"])
    if kind == "enum" and keys == {"$enum", "sub_type"} and schema["sub_type"] == schema["$enum"]["mixin"]:
        return _choice([value for _name, value in schema["$enum"]["members"]])
    if kind in ("nullable", "default") and keys <= {"schema", "default", "validate_default"}:
        inner = plain_facts(schema["schema"])
        return inner if inner is None or kind == "default" else {**inner, "nullable": True}
    if kind == "list" and keys <= {"items_schema"}:
        items = plain_facts(schema["items_schema"]) if "items_schema" in schema else _ANY
        return None if items is None else {"type": "array", "items": items}
    if kind == "tuple" and keys == {"items_schema"}:
        fixed = [plain_facts(item) for item in schema["items_schema"]]
        return None if None in fixed else {"type": "array", "prefix_items": fixed}
    if kind == "dict" and keys <= {"keys_schema", "values_schema"}:
        if schema.get("keys_schema", {"type": "str"}) != {"type": "str"}:
            return None
        values = plain_facts(schema["values_schema"]) if "values_schema" in schema else _ANY
        return None if values is None else {"type": "object", "values": values}
    if kind == "any" and not keys:
        return _ANY
    if kind == "union" and keys <= {"choices", "custom_error_type", "custom_error_message"}:
        choices = [plain_facts(c[0] if isinstance(c, list) else c) for c in schema["choices"]]
        return None if None in choices else {"any_of": choices}
    if kind == "function-before":
        return _before(schema)
    if kind == "lax-or-strict" and _is_path(schema):
        return {"type": "string", "converted": True}
    return None


_ANY: dict[str, Any] = {"type": "any"}


def _choice(values: list[Any]) -> dict[str, Any] | None:
    """A fixed set of words or of ints (not of bools, not mixed)."""
    if values and all(type(value) is str for value in values):
        return {"type": "string", "enum": list(values)}
    if values and all(type(value) is int for value in values):
        return {"type": "integer", "enum": list(values)}
    return None


def _types_of(fact: dict[str, Any]) -> set[str]:
    if "any_of" in fact:
        return set().union(*(_types_of(choice) for choice in fact["any_of"]))
    return {fact["type"]} | ({"null"} if fact.get("nullable") else set())


def _before(schema: dict[str, Any]) -> dict[str, Any] | None:
    """dsref's own functions run before a type (:mod:`dsref.schema._coerce`) leave each plainly valid value of the
    type as it is, each on its own condition: the type takes no value the function changes or refuses."""
    function = schema.get("function")
    if set(schema) != {"type", "function", "schema"} or not isinstance(function, dict):
        return None
    named = function.get("function") if function.get("type") == "no-info" else None
    name = named.get("$fn") if isinstance(named, dict) and set(named) == {"$fn"} else None
    inner = plain_facts(schema["schema"])
    if inner is None or name is None:
        return None
    types = _types_of(inner)
    if name == "dsref.schema._coerce:reject_bool" and not types & {"boolean", "any"}:
        return inner
    if name in ("dsref.schema._coerce:reject_str", "dsref.schema._coerce:one_string_is_a_list"):
        return inner if not types & {"string", "any"} else None
    if name == "dsref.schema._coerce:upper_case" and "enum" in inner:
        return inner if all(word == word.upper() for word in inner["enum"]) else None
    return None


def _is_path(schema: dict[str, Any]) -> bool:
    """pydantic's schema of a ``pathlib.Path`` field: any string, kept as a path."""
    strict = schema.get("strict_schema") or {}
    json_form = strict.get("json_schema") or {}
    function = (json_form.get("function") or {}).get("function") or {}
    return (
        strict.get("type") == "json-or-python"
        and "$path_validator" in function
        and json_form.get("schema") == {"type": "str"}
    )


_LEFT_OUT = frozenset({"description", "summary", "annotation", "field_info", "model"})
"""Fields of an option that the check tree leaves out (None there; ``related`` is empty)."""


def row(opt: Option) -> tuple[Any, ...]:
    """The check tree's row of one option: each field of :class:`~dsref.tree.options.Option`, in its order, as
    :func:`dsref.check.validate.checktree.option_from_row` passes it to ``Option``, then whether the option has a
    default, then what makes its value plainly valid (:func:`plain_facts`).
    ``default`` is None where it has none, ``meta`` holds the facts that differ from their defaults
    (:func:`_meta_record`), and ``validator_spec`` the option's encoded core schema."""
    values: list[Any] = []
    facts = None
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
            facts = plain_facts(value)
        elif name == "bounds":
            value = dict(opt.bounds)
        else:
            value = getattr(opt, name)
        values.append(value)
    return (*values, opt.default is not UNSET, facts)


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
                out[name]["changes"] = tuple(_change(c) for c in value.changes)
        else:
            out[name] = value
    if unset:
        out["$unset"] = tuple(unset)
    return out


def _change(change: HfChange) -> dict[str, Any]:
    """An ``HfChange`` as the keyword arguments that build it again: the fields not at their default."""
    return {f.name: getattr(change, f.name) for f in fields(change) if getattr(change, f.name) != f.default}


def rows(tree: OptionTree | None = None) -> list[tuple[Any, ...]]:
    return [row(opt) for opt in tree or option_tree()]


def check_tree_files() -> dict[pathlib.Path, bytes]:
    """``dsref/generated/check_tree.py``: the rows (:func:`row`) as ``ROWS`` of JSON data, one option per line
    (so that a diff shows which options changed). A module rather than JSON: importing its compiled form is a
    third of the time ``json.load`` takes, at every start of ``dsref check``."""
    import pydantic
    import pydantic_core

    from ..tree.versions import DEEPSPEED_VERSION, DSREF_VERSION
    from .index import python_literal

    every = rows()
    for one in every:
        json.dumps(one, allow_nan=False)  # JSON data only: the module holds what the JSON file held
    body = "".join(f"    {python_literal(one)},\n" for one in every)
    text = (
        f'"""The check tree, generated from the schema by scripts/generate.py: do not edit.\n\n'
        f'See dsref/check/validate/checktree.py for how it is read.\n"""\n\n'
        f"DSREF = {python_literal(DSREF_VERSION)}\nDEEPSPEED = {python_literal(DEEPSPEED_VERSION)}\n"
        f"# the schemas below are pydantic-core's of this release; another one builds validators from the models\n"
        f"PYDANTIC = {python_literal(pydantic.VERSION)}\n"
        f"PYDANTIC_CORE = {python_literal(pydantic_core.__version__)}\n\n"
        f"FIELDS = {python_literal(ROW_FIELDS)}\n\nROWS = (\n{body})\n"
    )
    return {pathlib.Path(CHECK_TREE_FILE): text.encode("utf-8")}
