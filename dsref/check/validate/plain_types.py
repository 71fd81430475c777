"""Whether a value is of an option's type, as written or once converted, for the plain types, without pydantic-core.

Most values a config writes are plain: ``true`` for a bool, ``2`` for an int of at least 0, ``"cpu"`` for one of a
few words, ``5e8`` for an int. Their option's pydantic-core schema (the encoded one of
``dsref/generated/check_tree.py``, see :mod:`dsref.check.validate.checktree`) is plain too. :func:`plain_type` reads
such
a schema once and gives a :class:`PlainType` that answers what pydantic-core would, in a few comparisons: whether
its strict JSON validation accepts a value as written (:meth:`PlainType.strict`), and what its lax Python
validation (the one DeepSpeed's models run) makes of it (:meth:`PlainType.lax`): the value it keeps (``5`` of
``5e8`` or ``"5"``, ``true`` of ``1``, an enum member's value, a ``pathlib.Path`` of a string), or
:class:`Refused` with pydantic-core's error types and the bounds its errors state, which
:mod:`dsref.check.validate.validation` turns into a finding (:meth:`Refused.kind`). For a schema or a value it cannot be
sure of (a validator function, a string with a lone surrogate, a float that is not finite, a string that may or may
not read as a number, a value failing two bounds at once) it answers :data:`UNSURE`, and the caller asks
pydantic-core. So a file of plain values, and of the usual mistakes, is checked without importing pydantic-core (a
fifth of the start of ``dsref check``) or building a validator.

``tests/test_plain_types.py`` holds every answer against pydantic-core's, for every option of the check tree and
values of every JSON type.
"""

from __future__ import annotations

import math
import operator
import pathlib
from typing import Any, Final, NamedTuple

from ..findings import Kind

__all__ = ["UNSURE", "PlainType", "Refused", "plain_type"]


class _Unsure:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSURE"


UNSURE: Final[Any] = _Unsure()
"""The answer where pydantic-core must be asked."""


class Refused(NamedTuple):
    """Lax validation refuses the value: the types of pydantic-core's errors, and the bounds they state (the first
    of each name, in the order of the errors, as :func:`dsref.check.validate.validation._bounds_of` reads them)."""

    errors: frozenset[str]
    bounds: dict[str, Any]

    def kind(self, value: Any) -> Kind:
        """The finding ``value`` gets, by the rule of :func:`dsref.check.validate.validation._classify`: out of range
        when a
        bound failed on a value that is not a boolean, not allowed when only a fixed set of values was missed."""
        if self.errors & _RANGE_ERRORS and not isinstance(value, bool):
            return Kind.out_of_range
        if self.errors and self.errors <= _CHOICE_ERRORS:
            return Kind.not_allowed
        return Kind.wrong_type


# Refused is a named tuple, not a dataclass: making a frozen dataclass costs about 3 M instructions at each start
# of dsref, about what checking a file costs.
_RANGE_ERRORS = frozenset(
    {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "string_too_short", "string_too_long"}
)
"""The range errors (of ``validation._RANGE_ERRORS``) these answers give."""
_CHOICE_ERRORS = frozenset({"literal_error", "enum"})


def _refused(error: str) -> Refused:
    return Refused(frozenset((error,)), {})


def _joined(answers: list[Any], make: Any) -> Any:
    """The answer for a list or an object from its members' (in order): unsure if one is, refused with all their
    errors if one is refused, else the container ``make`` builds of the kept values."""
    errors: set[str] = set()
    bounds: dict[str, Any] = {}
    for answer in answers:
        if answer is UNSURE:
            return UNSURE
        if type(answer) is Refused:
            errors |= answer.errors
            for name, bound in answer.bounds.items():
                bounds.setdefault(name, bound)
    return Refused(frozenset(errors), bounds) if errors else make(answers)


def _lone_surrogate(text: str) -> bool:
    """Whether ``text`` holds one (``json.dumps`` writes it as an escape that pydantic-core's JSON parser refuses)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


_BOUNDS = ("gt", "ge", "lt", "le")
_HOLDS = {"gt": operator.gt, "ge": operator.ge, "lt": operator.lt, "le": operator.le}
_BOUND_ERRORS = {"gt": "greater_than", "ge": "greater_than_equal", "lt": "less_than", "le": "less_than_equal"}
_PLAIN_KEYS = frozenset({"type", "metadata", "ref", "strict"})
_SAFE_INT = 2**53
"""Ints beyond this are left to pydantic-core where a float is involved (float rounding)."""
_I64 = 2**63
"""Ints beyond a 64-bit int are left to pydantic-core (it holds them otherwise)."""
_JSON_TYPES = (bool, int, float, str, list, dict, type(None))
_CONTAINERS = (list, dict, type(None))
"""JSON types that no scalar type converts from."""

_DIGITS = frozenset("0123456789")
_LONGEST_NUMBER_TEXT = 4300
"""pydantic-core refuses longer strings for a number with another error (``int_parsing_size``)."""
_TRUE_WORDS = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE_WORDS = frozenset({"0", "off", "f", "false", "n", "no"})
"""The strings lax validation reads as a bool, in any case (and no others: not with blanks around)."""


def _int_text(text: str) -> int | None:
    """The int of a string lax validation surely reads as Python's ``int()`` does: up to 18 ASCII digits, a sign,
    blanks around (pydantic-core also reads ``1_000`` and ``1.0``; those, and longer numbers, are left to it)."""
    body = text.strip(" \t\n\r\f\v")
    digits = body[1:] if body[:1] in ("+", "-") else body
    return int(body) if 0 < len(digits) <= 18 and digits.isascii() and digits.isdigit() else None


def _without_digits(text: str) -> bool:
    """An ASCII string of no digit, short enough for pydantic-core to try reading as a number."""
    return text.isascii() and len(text) <= _LONGEST_NUMBER_TEXT and not _DIGITS.intersection(text)


def _int_of(value: Any) -> Any:
    """The int lax validation makes of ``value`` for an int, or its error (:class:`Refused`), or :data:`UNSURE`."""
    kind = type(value)
    if kind is int:
        return value if -_I64 < value < _I64 else UNSURE
    if kind is bool:
        return int(value)
    if kind is float:
        if not math.isfinite(value):
            return UNSURE
        if not value.is_integer():
            return _refused("int_from_float")
        return int(value) if abs(value) <= _SAFE_INT else UNSURE
    if kind is str:
        number = _int_text(value)
        if number is not None:
            return number
        return _refused("int_parsing") if _without_digits(value) else UNSURE
    return _refused("int_type") if kind in _CONTAINERS else UNSURE


class PlainType:
    """A schema's answers; this base knows nothing and is unsure of everything."""

    __slots__ = ()

    def strict(self, value: Any) -> Any:
        """True: strict JSON validation accepts ``value`` as written; False: it refuses it; :data:`UNSURE`."""
        return UNSURE

    def lax(self, value: Any) -> Any:
        """What lax Python validation keeps of ``value``, as JSON data (an enum member as its value); :class:`Refused`
        where it refuses it; :data:`UNSURE`."""
        return UNSURE


_UNKNOWN_TYPE = PlainType()


def plain_type(schema: Any) -> PlainType:
    """The answers for an encoded core schema (None, a section that takes only an object: unsure of all)."""
    made = _read(schema) if isinstance(schema, dict) else None
    return made if made is not None else _UNKNOWN_TYPE


def _read(schema: dict[str, Any]) -> PlainType | None:
    if "$enum" in schema:
        made = _Enum.read(schema)
    else:
        maker = _MAKERS.get(schema.get("type"))  # type: ignore[arg-type]
        made = maker(schema) if maker is not None else None
    return _StrictAlways(made) if made is not None and schema.get("strict") else made


def _keys_within(schema: dict[str, Any], *allowed: str) -> bool:
    return set(schema) <= _PLAIN_KEYS.union(allowed)


class _StrictAlways(PlainType):
    """A type whose schema says ``strict``: lax validation is strict there too, which is left to pydantic-core."""

    __slots__ = ("inner",)

    def __init__(self, inner: PlainType) -> None:
        self.inner = inner

    def strict(self, value: Any) -> Any:
        return self.inner.strict(value)


class _Nullable(PlainType):
    __slots__ = ("inner",)

    def __init__(self, inner: PlainType) -> None:
        self.inner = inner

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        if schema.get("type") == "default":  # the default fills a missing value: a written one meets the inner type
            ok = _keys_within(schema, "schema", "default", "validate_default")
            return _read(schema["schema"]) if ok else None
        inner = _read(schema["schema"]) if _keys_within(schema, "schema") else None
        return cls(inner) if inner is not None else None

    def strict(self, value: Any) -> Any:
        return True if value is None else self.inner.strict(value)

    def lax(self, value: Any) -> Any:
        return None if value is None else self.inner.lax(value)


class _None(PlainType):
    __slots__ = ()

    def strict(self, value: Any) -> Any:
        return value is None if type(value) in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        if value is None:
            return None
        return _refused("none_required") if type(value) in _JSON_TYPES else UNSURE


class _Bool(PlainType):
    __slots__ = ()

    def strict(self, value: Any) -> Any:
        return type(value) is bool if type(value) in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        kind = type(value)
        if kind is bool:
            return value
        if kind is int:
            if value in (0, 1):
                return value == 1
            return _refused("bool_parsing") if -_I64 < value < _I64 else UNSURE
        if kind is float:  # 0.0 and 1.0 are read; other floats fail in ways left to pydantic-core
            return value == 1 if value in (0, 1) else UNSURE
        if kind is str:
            if not value.isascii():
                return UNSURE
            word = value.lower()
            if word in _TRUE_WORDS or word in _FALSE_WORDS:
                return word in _TRUE_WORDS
            return _refused("bool_parsing")
        return _refused("bool_type") if kind in _CONTAINERS else UNSURE


class _Number(PlainType):
    __slots__ = ("ge", "gt", "le", "lt")

    def __init__(self, schema: dict[str, Any]) -> None:
        self.gt, self.ge, self.lt, self.le = (schema.get(name) for name in _BOUNDS)

    def within(self, number: float) -> bool:
        return (
            (self.gt is None or number > self.gt)
            and (self.ge is None or number >= self.ge)
            and (self.lt is None or number < self.lt)
            and (self.le is None or number <= self.le)
        )

    def bounded(self, number: Any, as_bound: Any) -> Any:
        """``number`` where it is within the bounds, else refused by the one bound it fails (stated as ``as_bound``
        makes it); unsure when it fails more than one (pydantic-core states only the first it checks)."""
        if self.within(number):
            return number
        failed = [
            name
            for name in _BOUNDS
            if getattr(self, name) is not None and not _HOLDS[name](number, getattr(self, name))
        ]
        if len(failed) != 1:
            return UNSURE
        name = failed[0]
        return Refused(frozenset((_BOUND_ERRORS[name],)), {name: as_bound(getattr(self, name))})


class _Int(_Number):
    __slots__ = ()

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        if not _keys_within(schema, *_BOUNDS) or not all(type(schema.get(b, 0)) is int for b in _BOUNDS):
            return None
        return cls(schema)

    def strict(self, value: Any) -> Any:
        kind = type(value)
        if kind is int:
            return self.within(value) if -_I64 < value < _I64 else UNSURE
        return False if kind in _JSON_TYPES else UNSURE  # strict JSON refuses a float, even 5.0

    def lax(self, value: Any) -> Any:
        number = _int_of(value)
        return self.bounded(number, int) if type(number) is int else number


class _Float(_Number):
    __slots__ = ()

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        return cls(schema) if _keys_within(schema, *_BOUNDS, "allow_inf_nan") else None

    def strict(self, value: Any) -> Any:
        kind = type(value)
        if kind is float:
            return self.within(value) if math.isfinite(value) else UNSURE
        if kind is int:
            return self.within(value) if -_SAFE_INT <= value <= _SAFE_INT else UNSURE
        return False if kind in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        kind = type(value)
        if kind is float:
            return self.bounded(value, float) if math.isfinite(value) else UNSURE
        if kind is int:
            return self.bounded(float(value), float) if -_SAFE_INT <= value <= _SAFE_INT else UNSURE
        if kind is bool:
            return self.bounded(float(value), float)
        if kind is str:  # refused only where no float can be read: no digit, no "inf" or "nan"
            lowered = value.lower()
            if not _without_digits(value) or "inf" in lowered or "nan" in lowered:
                return UNSURE
            return _refused("float_parsing")
        return _refused("float_type") if kind in _CONTAINERS else UNSURE


class _Str(PlainType):
    __slots__ = ("longest", "shortest")

    def __init__(self, schema: dict[str, Any]) -> None:
        self.shortest, self.longest = schema.get("min_length"), schema.get("max_length")

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        return cls(schema) if _keys_within(schema, "min_length", "max_length") else None

    def strict(self, value: Any) -> Any:
        if type(value) is str:
            if _lone_surrogate(value):
                return UNSURE
            size = len(value)
            return (self.shortest is None or size >= self.shortest) and (self.longest is None or size <= self.longest)
        return False if type(value) in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        if type(value) is str:
            if _lone_surrogate(value):
                return UNSURE
            if self.shortest is not None and len(value) < self.shortest:
                return Refused(frozenset(("string_too_short",)), {"min_length": self.shortest})
            if self.longest is not None and len(value) > self.longest:
                return Refused(frozenset(("string_too_long",)), {"max_length": self.longest})
            return value
        return _refused("string_type") if type(value) in _JSON_TYPES else UNSURE


class _Path(PlainType):
    """A ``pathlib.Path`` option, as pydantic's schema for one (the string goes through
    :func:`dsref.check.validate.checktree.path_validator`): any string, kept as a ``Path``."""

    __slots__ = ()

    _PATH_FUNCTION: Final = {
        "type": "function-after",
        "function": {"type": "no-info", "function": {"$path_validator": "pathlib:Path"}},
        "schema": {"type": "str"},
    }
    _PYTHON_PATH: Final = {
        "type": "json-or-python",
        "json_schema": _PATH_FUNCTION,
        "python_schema": {"type": "is-instance", "cls": {"$class": "pathlib:Path"}},
    }
    SCHEMA: Final = {
        "type": "lax-or-strict",
        "lax_schema": {
            "type": "union",
            "choices": [_PYTHON_PATH, {**_PATH_FUNCTION, "schema": {"type": "str", "strict": True}}],
            "custom_error_type": "path_type",
            "custom_error_message": "Input is not a valid path for <class 'pathlib.Path'>",
        },
        "strict_schema": _PYTHON_PATH,
    }
    """The encoded schema, exactly: any other is left to pydantic-core."""

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        return cls() if schema == cls.SCHEMA else None

    def strict(self, value: Any) -> Any:
        if type(value) is str:
            return UNSURE if _lone_surrogate(value) else True
        return False if type(value) in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        if type(value) is str:
            return UNSURE if _lone_surrogate(value) else pathlib.Path(value)
        return _refused("path_type") if type(value) in _JSON_TYPES else UNSURE


class _Literal(PlainType):
    """Words only (``"cpu"``, ``"nvme"``): a literal of other values is left to pydantic-core."""

    __slots__ = ("words",)

    def __init__(self, words: frozenset[str]) -> None:
        self.words = words

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        expected = schema.get("expected", ())
        if not _keys_within(schema, "expected") or not all(type(item) is str for item in expected):
            return None
        return cls(frozenset(expected))

    def strict(self, value: Any) -> Any:
        if type(value) is str:
            return value in self.words
        return False if type(value) in _JSON_TYPES else UNSURE

    def lax(self, value: Any) -> Any:
        if type(value) is str and value in self.words:
            return value
        if type(value) not in _JSON_TYPES or (type(value) is str and _lone_surrogate(value)):
            return UNSURE
        return _refused("literal_error")


class _Enum(PlainType):
    """An enum of words or of ints (``str`` or ``int`` mixed in): a member's value is accepted and kept as that
    value. Strict JSON validation also takes ``true`` and ``2.0`` for the members 1 and 2 of an int enum (left to
    pydantic-core); lax validation reads for an int enum what it reads for an int (``"2"``, ``2.0``, ``true``)."""

    __slots__ = ("kind", "values")

    def __init__(self, kind: type, values: frozenset[Any]) -> None:
        self.kind, self.values = kind, values

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        spec = schema["$enum"]
        kind = {"str": str, "int": int}.get(spec.get("mixin") or "")
        values = [value for _name, value in spec["members"]]
        if kind is None or schema.get("sub_type") != spec["mixin"] or not all(type(v) is kind for v in values):
            return None
        return cls(kind, frozenset(values)) if _keys_within(schema, "$enum", "sub_type") else None

    def strict(self, value: Any) -> Any:
        kind = type(value)
        if kind is self.kind:
            return value in self.values
        if kind not in _JSON_TYPES or (self.kind is int and kind in (bool, float)):
            return UNSURE
        return False

    def lax(self, value: Any) -> Any:
        if type(value) not in _JSON_TYPES or (type(value) is str and _lone_surrogate(value)):
            return UNSURE
        if self.kind is str:
            return value if type(value) is str and value in self.values else _refused("enum")
        number = _int_of(value)
        if number is UNSURE:
            return UNSURE
        return number if type(number) is int and number in self.values else _refused("enum")


class _Sequence(PlainType):
    """A JSON array of one plain item type (``list``), or of a fixed number of them (``tuple``)."""

    __slots__ = ("items", "tuple")

    def __init__(self, items: list[PlainType], is_tuple: bool) -> None:
        self.items, self.tuple = items, is_tuple

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        if not _keys_within(schema, "items_schema"):
            return None
        raw = schema.get("items_schema")
        if schema["type"] == "list":
            item = _read(raw) if isinstance(raw, dict) else None
            return cls([item], False) if item is not None else None
        items = [_read(each) if isinstance(each, dict) else None for each in raw or ()]
        return cls(items, True) if items and all(items) else None  # type: ignore[arg-type]

    def _types(self, value: list[Any]) -> list[PlainType] | None:
        if self.tuple:
            return self.items if len(value) == len(self.items) else None
        return self.items * len(value)

    def strict(self, value: Any) -> Any:
        if type(value) is not list:
            return False if type(value) in _JSON_TYPES else UNSURE
        types = self._types(value)
        if types is None:
            return False
        verdicts = [item_type.strict(item) for item_type, item in zip(types, value, strict=True)]
        if any(verdict is UNSURE for verdict in verdicts):
            return UNSURE
        return all(verdicts)

    def lax(self, value: Any) -> Any:
        if type(value) is not list:
            return _refused("tuple_type" if self.tuple else "list_type") if type(value) in _JSON_TYPES else UNSURE
        types = self._types(value)
        if types is None:
            return UNSURE  # a tuple of another length: pydantic-core says which items are missing or too many
        answers = [item_type.lax(item) for item_type, item in zip(types, value, strict=True)]
        return _joined(answers, tuple if self.tuple else list)


class _Dict(PlainType):
    """A JSON object of plain keys and values (``dict[str, str]``)."""

    __slots__ = ("keys", "values")

    def __init__(self, keys: PlainType, values: PlainType) -> None:
        self.keys, self.values = keys, values

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        if not _keys_within(schema, "keys_schema", "values_schema"):
            return None
        raw_keys, raw_values = schema.get("keys_schema"), schema.get("values_schema")
        keys = _read(raw_keys) if isinstance(raw_keys, dict) else None
        values = _read(raw_values) if isinstance(raw_values, dict) else None
        return cls(keys, values) if keys is not None and values is not None else None

    def strict(self, value: Any) -> Any:
        if type(value) is not dict:
            return False if type(value) in _JSON_TYPES else UNSURE
        if not all(type(key) is str for key in value):
            return UNSURE  # json.dumps writes other keys as strings
        verdicts = [self.keys.strict(key) for key in value] + [self.values.strict(item) for item in value.values()]
        if any(verdict is UNSURE for verdict in verdicts):
            return UNSURE
        return all(verdicts)

    def lax(self, value: Any) -> Any:
        if type(value) is not dict:
            return _refused("dict_type") if type(value) in _JSON_TYPES else UNSURE
        if not all(type(key) is str for key in value):
            return UNSURE
        answers = []
        for key, item in value.items():  # pydantic-core's errors come key, value, key, value...
            answers += [self.keys.lax(key), self.values.lax(item)]
        return _joined(answers, lambda kept: dict(zip(kept[::2], kept[1::2], strict=True)))


class _Union(PlainType):
    """Accepted as written where one choice accepts it, refused where every choice refuses it; what lax validation
    makes of it is left to pydantic-core (its smart mode picks among the choices)."""

    __slots__ = ("choices",)

    def __init__(self, choices: list[PlainType]) -> None:
        self.choices = choices

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        if not _keys_within(schema, "choices"):
            return None
        raw = [choice[0] if isinstance(choice, list) else choice for choice in schema["choices"]]
        choices = [_read(choice) if isinstance(choice, dict) else None for choice in raw]
        return cls(choices) if all(choices) else None  # type: ignore[arg-type]

    def strict(self, value: Any) -> Any:
        verdicts = [choice.strict(value) for choice in self.choices]
        if any(verdict is True for verdict in verdicts):
            return True
        return False if all(verdict is False for verdict in verdicts) else UNSURE


class _Refusing(PlainType):
    """A type whose value first goes through one of dsref's own functions that refuse one JSON type
    (:mod:`dsref.schema._coerce`: a boolean or a string where a number belongs), and pass anything else on."""

    __slots__ = ("inner", "refused")

    _FUNCTIONS: Final = {"dsref.schema._coerce:reject_bool": bool, "dsref.schema._coerce:reject_str": str}

    def __init__(self, refused: type, inner: PlainType) -> None:
        self.refused, self.inner = refused, inner

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        function = schema.get("function")
        if not _keys_within(schema, "function", "schema") or not isinstance(function, dict):
            return None
        named = function.get("function")
        if set(function) != {"type", "function"} or function["type"] != "no-info" or not isinstance(named, dict):
            return None
        refused = cls._FUNCTIONS.get(named.get("$fn", ""))
        inner = _read(schema["schema"]) if refused is not None and set(named) == {"$fn"} else None
        return cls(refused, inner) if refused is not None and inner is not None else None

    def strict(self, value: Any) -> Any:
        return False if type(value) is self.refused else self.inner.strict(value)

    def lax(self, value: Any) -> Any:
        return _refused("value_error") if type(value) is self.refused else self.inner.lax(value)


_MAKERS: dict[str, Any] = {
    "function-before": _Refusing.read,
    "nullable": _Nullable.read,
    "default": _Nullable.read,
    "none": lambda schema: _None() if _keys_within(schema) else None,
    "bool": lambda schema: _Bool() if _keys_within(schema) else None,
    "int": _Int.read,
    "float": _Float.read,
    "str": _Str.read,
    "literal": _Literal.read,
    "list": _Sequence.read,
    "tuple": _Sequence.read,
    "dict": _Dict.read,
    "union": _Union.read,
    "lax-or-strict": _Path.read,
}
