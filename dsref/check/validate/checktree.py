"""The option tree for checking, read from a generated file: no pydantic models to import or build.

``dsref check`` needs, for every option, the facts the option tree holds (keys, aliases, defaults, versions,
Meta) and a validator of its value. Building them from the pydantic models costs a quarter of a second at each
start; ``dsref/generated/check_tree.py`` (written by :mod:`dsref.generator.check_tree` from the same models,
kept in sync by ``tests/unit/check/test_checktree.py``) holds them ready: each option's fields, in the order ``Option``
takes them, its pydantic-core schema, the very schema pydantic generates for the field, from which
:class:`pydantic_core.SchemaValidator` builds the same validator pydantic would, and what makes its value plainly
valid (:mod:`dsref.check.validate.plain_types`). Only ``pydantic_core`` is imported, and only the validators of
options a file writes a value that is not plainly valid to are built.

A core schema is pydantic-core's own format, of one release: the file records the pydantic and pydantic-core
releases that wrote it (``PYDANTIC``, ``PYDANTIC_CORE``). With another pydantic-core installed, or where a function
a schema names cannot be imported (one of pydantic's private helpers, of another pydantic release), the option's
validator is built from its field in the models instead (:meth:`ValidatorSpec.build`): slower to start, the same
verdicts (``tests/unit/check/test_checktree_versions.py``).

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
from dataclasses import field, fields
from functools import cache
from typing import Any

from ...records import record
from ...schema import UNSET, HfAuto, HfChange, Meta
from ...tree.options import Option, OptionTree

__all__ = [
    "CHECK_TREE_FILE",
    "CHECK_TREE_MODULE",
    "ROW_FIELDS",
    "ValidatorSpec",
    "check_tree",
    "decode_schema",
    "option_from_row",
    "stored_schemas_usable",
    "stored_validator",
]

CHECK_TREE_MODULE = "dsref.generated.check_tree"
CHECK_TREE_FILE = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "generated", "check_tree.py"
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pydantic_core import SchemaValidator

    from .values import Validator

_SAFE_MODULES = frozenset({"dsref.schema._coerce", "pydantic._internal._validators", "pathlib"})
"""Modules the encoded schemas may name functions and classes of: none of them imports the models."""


@record(frozen=False, eq=False)
class ValidatorSpec:
    """An option's encoded pydantic-core schema, turned into a validator on first use, and what makes its value
    plainly valid (:mod:`dsref.check.validate.plain_types`).

    ``schema`` is None for a section that takes nothing but a JSON object (no plain-value form). The schema is
    pydantic-core's own, of the release the tree records (``PYDANTIC_CORE``): with another release installed, or
    where a function the schema names cannot be imported, the validator is built from the option's field in the
    models instead (:func:`dsref.check.validate.values.validator_from_model`), which pydantic writes anew for the
    release installed.
    """

    schema: Any
    plain: dict[str, Any] | None = None
    path: str = ""
    _built: Any = field(default=None, repr=False)
    from_model: bool = field(default=False, repr=False)
    """Whether :meth:`build` built the validator from the models (after it ran)."""

    def build(self) -> Validator | None:
        if self.schema is None:
            return None
        if self._built is None:
            built: Any = stored_validator(self.schema) if stored_schemas_usable() else None
            if built is None:
                from ...tree.options import option_tree
                from .values import validator_from_model

                self.from_model = True
                built = validator_from_model(option_tree().get(self.path))
            self._built = built
        return self._built


def stored_validator(schema: Any) -> SchemaValidator | None:
    """A validator of an encoded schema, or None where pydantic-core cannot build it: a function or class it names
    is gone (one of pydantic's private helpers, renamed in another release), or the schema is not one this
    pydantic-core reads."""
    from pydantic_core import SchemaError, SchemaValidator

    try:
        return SchemaValidator(decode_schema(schema))
    except (ImportError, AttributeError, SchemaError, TypeError, KeyError):
        return None


@cache
def stored_schemas_usable() -> bool:
    """Whether the installed pydantic-core is the release that wrote the check tree's schemas (they are its own
    format, which another release may read otherwise)."""
    import pydantic_core

    module = importlib.import_module(CHECK_TREE_MODULE)
    return bool(getattr(module, "PYDANTIC_CORE", None) == pydantic_core.__version__)


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
    """The function or class ``module:name``; ``ImportError`` where it is gone, or where it is pydantic's own and
    the installed pydantic is not the release the tree records (its private helpers change without notice)."""
    module, _, name = ref.partition(":")
    if module not in _SAFE_MODULES:
        raise ValueError(f"the check tree names {ref}, outside the modules it may import")
    found = getattr(importlib.import_module(module), name, None)
    if found is None:
        raise ImportError(f"the check tree names {ref}, which the installed release has not")
    if module.startswith("pydantic."):
        import pydantic

        recorded = getattr(importlib.import_module(CHECK_TREE_MODULE), "PYDANTIC", None)
        if recorded != pydantic.VERSION:
            raise ImportError(f"the check tree names {ref} of another pydantic release")
    return found


def path_validator(input_value: Any) -> pathlib.Path:
    """pydantic's validator of a ``pathlib.Path`` field read from a string (``GenerateSchema._path_schema``)."""
    from pydantic_core import PydanticCustomError

    if not isinstance(input_value, str):
        raise PydanticCustomError("path_type", "Input is not a valid path")
    try:
        return pathlib.Path(input_value)
    except TypeError as exc:
        raise PydanticCustomError("path_type", "Input is not a valid path") from exc


_OPTION_FIELDS = tuple(f.name for f in fields(Option))
ROW_FIELDS = (*_OPTION_FIELDS, "has_default", "plain")
"""What each row of the generated check tree holds: the fields of :class:`~dsref.tree.options.Option` in their
order, then whether the option has a default and what makes its value plainly valid
(:func:`dsref.generator.check_tree.row`)."""
_DEFAULT, _META, _VALIDATOR = (_OPTION_FIELDS.index(name) for name in ("default", "meta", "validator_spec"))


def option_from_row(row: tuple[Any, ...]) -> Option:
    """An :class:`~dsref.tree.options.Option` from its row in the check tree file: the row is its fields, in order,
    but for its facts, its validator and the default it may not have."""
    values = list(row[:-2])
    values[_META] = _meta(values[_META])
    values[_VALIDATOR] = ValidatorSpec(values[_VALIDATOR], row[-1], values[0])
    if not row[-2]:
        values[_DEFAULT] = UNSET
    return Option(*values)


def _meta(record: dict[str, Any]) -> Meta:
    if not record:
        return _NO_META
    if "$unset" in record or "hf_auto" in record:
        record = dict(record)
        for name in record.pop("$unset", ()):
            record[name] = UNSET
        hf = record.get("hf_auto")
        if hf is not None:
            changes = tuple(HfChange(**change) for change in hf.get("changes", ()))
            record["hf_auto"] = HfAuto(
                by=hf["by"], source=hf["source"], changes=changes, compared=hf.get("compared", "")
            )
    return Meta(**record)


_NO_META = Meta()
"""The facts of an option dsref says nothing special about (a fifth of them): one record, shared (it is frozen)."""


@cache
def check_tree() -> OptionTree:
    """The option tree read from ``dsref/generated/check_tree.py`` (read once)."""
    module = importlib.import_module(CHECK_TREE_MODULE)
    if module.FIELDS != ROW_FIELDS:  # an edited Option and a file not written again
        raise RuntimeError(f"{CHECK_TREE_FILE} is older than dsref's Option: run python scripts/generate.py")
    return OptionTree.from_options(map(option_from_row, module.ROWS))
