"""Whether a value is of an option's type as written, for the plain types, without pydantic-core.

Most values a config writes are plain: ``true`` for a bool, ``2`` for an int of at least 0, ``"cpu"`` for one of a
few words, ``5e8`` for an int. Their option's pydantic-core schema (the encoded one of
``dsref/generated/check_tree.py``, see :mod:`dsref.check.checktree`) is plain too. :func:`plain_type` reads such
a schema once and gives a :class:`PlainType` that answers what pydantic-core would, in a few comparisons: whether
its strict JSON validation accepts a value as written (:meth:`PlainType.strict`), what its lax validation keeps of
an accepted one (:meth:`PlainType.kept`), and which int it makes of a float written for an int
(:meth:`PlainType.integral`). For a schema or a value it cannot be sure of (a validator function, a string with a
lone surrogate, a float that is not finite) it answers :data:`UNSURE`, and the caller asks pydantic-core. So a file
of plain values is checked without importing pydantic-core (a fifth of the start of ``dsref check``) or building a
validator.

``tests/test_plain_types.py`` holds every answer against pydantic-core's, for every option of the check tree and
values of every JSON type.
"""

from __future__ import annotations

import math
from typing import Any, Final

__all__ = ["UNSURE", "PlainType", "plain_type"]


class _Unsure:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSURE"


UNSURE: Final[Any] = _Unsure()
"""The answer where pydantic-core must be asked."""


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
_PLAIN_KEYS = frozenset({"type", "metadata", "ref", "strict"})
_SAFE_INT = 2**53
"""Ints and integral floats beyond this are left to pydantic-core (float rounding, big ints)."""
_JSON_TYPES = (bool, int, float, str, list, dict, type(None))


class PlainType:
    """A schema's answers; this base knows nothing and is unsure of everything."""

    __slots__ = ()

    def strict(self, value: Any) -> Any:
        """True: strict JSON validation accepts ``value`` as written; False: it refuses it; :data:`UNSURE`."""
        return UNSURE

    def kept(self, value: Any) -> Any:
        """What lax validation keeps of ``value``, which :meth:`strict` accepted (an enum's member as its value)."""
        return UNSURE

    def integral(self, value: Any) -> Any:
        """The int lax validation makes of a float written for an int within bounds (``5e8``); :data:`UNSURE`."""
        return UNSURE


_UNKNOWN_TYPE = PlainType()


def plain_type(schema: Any) -> PlainType:
    """The answers for an encoded core schema (None, a section that takes only an object: unsure of all)."""
    made = _read(schema) if isinstance(schema, dict) else None
    return made if made is not None else _UNKNOWN_TYPE


def _read(schema: dict[str, Any]) -> PlainType | None:
    if "$enum" in schema:
        return _Enum.read(schema)
    maker = _MAKERS.get(schema.get("type"))  # type: ignore[arg-type]
    return maker(schema) if maker is not None else None


def _keys_within(schema: dict[str, Any], *allowed: str) -> bool:
    return set(schema) <= _PLAIN_KEYS.union(allowed)


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

    def kept(self, value: Any) -> Any:
        return None if value is None else self.inner.kept(value)

    def integral(self, value: Any) -> Any:
        return self.inner.integral(value)


class _None(PlainType):
    __slots__ = ()

    def strict(self, value: Any) -> Any:
        return value is None if type(value) in _JSON_TYPES else UNSURE

    def kept(self, value: Any) -> Any:
        return value


class _Bool(PlainType):
    __slots__ = ()

    def strict(self, value: Any) -> Any:
        return type(value) is bool if type(value) in _JSON_TYPES else UNSURE

    def kept(self, value: Any) -> Any:
        return value


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


class _Int(_Number):
    __slots__ = ()

    @classmethod
    def read(cls, schema: dict[str, Any]) -> PlainType | None:
        return cls(schema) if _keys_within(schema, *_BOUNDS) else None

    def strict(self, value: Any) -> Any:
        kind = type(value)
        if kind is int:
            return self.within(value) if -_SAFE_INT <= value <= _SAFE_INT else UNSURE
        if kind is float or kind not in _JSON_TYPES:
            return UNSURE  # strict refuses a float, in words pydantic-core's error gives
        return False

    def kept(self, value: Any) -> Any:
        return value

    def integral(self, value: Any) -> Any:
        if type(value) is float and math.isfinite(value) and value.is_integer() and abs(value) <= _SAFE_INT:
            whole = int(value)
            return whole if self.within(whole) else UNSURE
        return UNSURE


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

    def kept(self, value: Any) -> Any:
        return float(value)


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

    def kept(self, value: Any) -> Any:
        return value


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

    def kept(self, value: Any) -> Any:
        return value


class _Enum(PlainType):
    """An enum of words or of ints (``str`` or ``int`` mixed in): a member's value, written as that type, is accepted
    and kept as that value. Anything else is left to pydantic-core, which also takes ``true`` and ``2.0`` for the
    members 1 and 2 of an int enum."""

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
        return cls(kind, frozenset(values))

    def strict(self, value: Any) -> Any:
        return True if type(value) is self.kind and value in self.values else UNSURE

    def kept(self, value: Any) -> Any:
        return value


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
        answer: Any = True
        for item_type, item in zip(types, value, strict=True):
            verdict = item_type.strict(item)
            if verdict is UNSURE:
                answer = UNSURE
            elif not verdict:
                return UNSURE  # refused: pydantic-core says which item and how
        return answer

    def kept(self, value: Any) -> Any:
        types = self._types(value)
        assert types is not None
        items = [item_type.kept(item) for item_type, item in zip(types, value, strict=True)]
        if any(item is UNSURE for item in items):
            return UNSURE
        return tuple(items) if self.tuple else items


class _Union(PlainType):
    """Accepted as written where one choice accepts it, refused where every choice refuses it; what lax validation
    keeps of it is left to pydantic-core (its smart mode picks among the choices)."""

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

    def kept(self, value: Any) -> Any:
        return self.inner.kept(value)

    def integral(self, value: Any) -> Any:
        return self.inner.integral(value)


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
    "union": _Union.read,
}
