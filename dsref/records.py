"""Records: dataclasses whose methods are shared, not compiled for each class.

``@record`` is declared like ``@dataclasses.dataclass`` (fields, defaults, ``field(...)``, ``kw_only``, ``slots``,
``order``, ``eq``, ``frozen``, ``__post_init__``), is frozen unless told otherwise, and makes a dataclass:
``dataclasses.fields``, ``replace`` and ``asdict`` work on it, it pickles and copies, and mypy reads it as one.
Its instances behave as those of the dataclass ``dataclasses`` would make from the same declaration: the same
``__init__`` parameters and errors, ``repr``, equality, hash, order, and the same ``FrozenInstanceError``.

What differs is how the methods are made. On the Pythons dsref supports before 3.13, ``dataclasses`` writes the
source of ``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and, when frozen, ``__setattr__`` and ``__delattr__``
for each class and compiles each one: about four million instructions a class, which for the 46 records that
``dsref check`` defines before its first file was 226 of the 546 million instructions of its start. Here
``dataclasses`` collects the fields only, and the methods are functions written once in this module, which read
the class's fields from tuples made at its declaration: a class costs about a tenth. An instance is made about as
fast, its attributes are read as fast (they are set in field order, as ``__init__`` sets them), and comparing and
hashing go through :func:`operator.attrgetter`.

``tests/unit/test_records.py`` holds every record of dsref against a dataclass that ``dataclasses`` makes from the same
declaration: the same fields, parameters, repr, equality, hash, order, errors and pickling.

>>> from dataclasses import FrozenInstanceError, fields, replace
>>> @record(order=True)
... class Span:
...     line: int
...     col: int = 1
>>> Span(3), Span(3, 4) < Span(3, 5), [f.name for f in fields(Span)], replace(Span(3), col=9)
(Span(line=3, col=1), True, ['line', 'col'], Span(line=3, col=9))
>>> Span(3).line = 4
Traceback (most recent call last):
  ...
dataclasses.FrozenInstanceError: cannot assign to field 'line'
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, field
from operator import attrgetter
from reprlib import recursive_repr
from typing import Any, NamedTuple, TypeVar, overload

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:  # pragma: no cover - pydantic brings typing_extensions
    from typing_extensions import dataclass_transform

__all__ = ["Params", "record"]

_Class = TypeVar("_Class", bound=type)


class Params(NamedTuple):
    """What a record was declared with (its ``__record_params__``), under ``dataclasses``' names.
    Its ``__dataclass_params__`` say what ``dataclasses`` was asked for (the fields only: nothing frozen, no
    method), which is what a record deriving from it must see there."""

    frozen: bool
    eq: bool
    order: bool
    kw_only: bool
    slots: bool


@overload
def record(cls: _Class, /) -> _Class: ...


@overload
def record(
    *, frozen: bool = True, eq: bool = True, order: bool = False, kw_only: bool = False, slots: bool = False
) -> Callable[[_Class], _Class]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(field, Field))
def record(
    cls: _Class | None = None,
    /,
    *,
    frozen: bool = True,
    eq: bool = True,
    order: bool = False,
    kw_only: bool = False,
    slots: bool = False,
) -> _Class | Callable[[_Class], _Class]:
    """Make ``cls`` a dataclass, frozen unless ``frozen=False``; the other options mean what they mean to
    ``dataclasses.dataclass``."""

    def made(cls: _Class) -> _Class:
        return _record(cls, frozen=frozen, eq=eq, order=order, kw_only=kw_only, slots=slots)

    return made if cls is None else made(cls)


def _record(cls: _Class, *, frozen: bool, eq: bool, order: bool, kw_only: bool, slots: bool) -> _Class:
    if order and not eq:
        raise ValueError("eq must be true if order is true")
    own = cls.__dict__
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))
    for name in ("__setattr__", "__delattr__") if frozen else ():
        if name in own:
            raise TypeError(f"Cannot overwrite attribute {name} in class {cls.__name__}")
    for name in ("__lt__", "__le__", "__gt__", "__ge__") if order else ():
        if name in own:
            raise TypeError(
                f"Cannot overwrite attribute {name} in class {cls.__name__}. Consider using functools.total_ordering"
            )
    made: Any = dataclasses.dataclass(  # fields, defaults, __match_args__ and slots; no method is compiled
        cls, init=False, repr=False, eq=False, order=False, frozen=False, kw_only=kw_only, slots=slots
    )
    if any(_is_init_var(f.type) for f in made.__dataclass_fields__.values()):
        raise TypeError(f"{cls.__name__}: a record takes no InitVar")
    every = dataclasses.fields(made)
    own = made.__dict__
    if "__init__" not in own:
        made.__init__ = _init(made, every, frozen=frozen)
    if "__repr__" not in own:
        made.__repr__ = _repr(tuple(f.name for f in every if f.repr))
    compared = _values(tuple(f.name for f in every if f.compare))
    if eq and "__eq__" not in own:
        made.__eq__ = _compare(compared, "__eq__")
    if order:
        for name in ("__lt__", "__le__", "__gt__", "__ge__"):
            setattr(made, name, _compare(compared, name))
    if frozen:
        made.__setattr__, made.__delattr__ = _frozen(made, frozenset(f.name for f in every))
        if slots:
            made.__getstate__, made.__setstate__ = _slot_state(tuple(f.name for f in every))
    if eq and not explicit_hash:
        hashed = tuple(f.name for f in every if (f.compare if f.hash is None else f.hash))
        made.__hash__ = _hash(_values(hashed)) if frozen else None
    made.__record_params__ = Params(frozen=frozen, eq=eq, order=order, kw_only=kw_only, slots=slots)
    return made


def _init(cls: type, every: tuple[Field[Any], ...], *, frozen: bool) -> Callable[..., None]:
    """A stand-in ``__init__`` that, called first, compiles the real one (:func:`_compiled_init`), puts it on the
    class and runs it: a class that never makes an instance in a run compiles nothing."""
    _check_order(every)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        compiled = _compiled_init(cls, every, frozen=frozen)
        type.__setattr__(cls, "__init__", compiled)
        compiled(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _check_order(every: tuple[Field[Any], ...]) -> None:
    """The error ``dataclasses`` raises at the declaration for a positional field without a default after one
    with."""
    seen_default = False
    for f in every:
        if f.init and not f.kw_only:
            if f.default is not MISSING or f.default_factory is not MISSING:
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")


_FACTORY = object()
"""The default of a parameter whose field has a default factory: the factory is called when it is not given."""


def _compiled_init(cls: type, every: tuple[Field[Any], ...], *, frozen: bool) -> Callable[..., None]:
    """``__init__`` as ``dataclasses`` writes it: a parameter for each field in ``__init__``, in order, the
    keyword-only ones after a ``*``; each field set in declaration order, with ``object.__setattr__`` when frozen;
    then ``__post_init__``, when the class has one. Defaults are read from the namespace the code runs in, so no
    value is written into the source."""
    me = "__dataclass_self__" if "self" in {f.name for f in every} else "self"
    namespace: dict[str, Any] = {"__record_factory__": _FACTORY, "__record_set__": object.__setattr__}
    positional: list[str] = []
    keyword_only: list[str] = []
    body: list[str] = []
    for n, f in enumerate(every):
        value = f.name
        if f.default is not MISSING:
            namespace[f"__record_default_{n}__"] = f.default
            default = f"=__record_default_{n}__"
        elif f.default_factory is not MISSING:
            namespace[f"__record_make_{n}__"] = f.default_factory
            default = "=__record_factory__"
            value = f"__record_make_{n}__() if {f.name} is __record_factory__ else {f.name}"
        else:
            default = ""
        if f.init:
            (keyword_only if f.kw_only else positional).append(f"{f.name}{default}")
        elif f.default is not MISSING:
            value = f"__record_default_{n}__"
        elif f.default_factory is not MISSING:
            value = f"__record_make_{n}__()"
        else:
            continue  # a field outside __init__ with no default is left unset, as dataclasses leaves it
        if frozen:
            body.append(f"    __record_set__({me}, {f.name!r}, {value})")
        else:
            body.append(f"    {me}.{f.name} = {value}")
    if getattr(cls, "__post_init__", None) is not None:
        body.append(f"    {me}.__post_init__()")
    parameters = ", ".join([me, *positional, *(["*", *keyword_only] if keyword_only else [])])
    source = f"def __init__({parameters}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(compile(source, f"<record {cls.__qualname__}>", "exec"), namespace)
    made: Callable[..., None] = namespace["__init__"]
    made.__qualname__ = f"{cls.__qualname__}.__init__"
    made.__module__ = cls.__module__
    return made


def _is_init_var(annotation: Any) -> bool:
    return isinstance(annotation, dataclasses.InitVar) or (isinstance(annotation, str) and "InitVar" in annotation)


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of these fields' values, as ``dataclasses`` compares and hashes them."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda self: (one(self),)
    return lambda self: ()


_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "__eq__": operator.eq,
    "__lt__": operator.lt,
    "__le__": operator.le,
    "__gt__": operator.gt,
    "__ge__": operator.ge,
}


def _compare(values: Callable[[Any], tuple[Any, ...]], name: str) -> Callable[[Any, Any], Any]:
    operation = _OPERATORS[name]

    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return operation(values(self), values(other))
        return NotImplemented

    compare.__name__ = name
    return compare


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen(owner: type[Any], names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    """``dataclasses``' frozen ``__setattr__`` and ``__delattr__``: no attribute of an instance of the class itself
    changes, and no field of an instance of a subclass."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is owner or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__


def _slot_state(names: tuple[str, ...]) -> tuple[Callable[[Any], list[Any]], Callable[[Any, list[Any]], None]]:
    """What pickling and copying a frozen record with slots need (a frozen class refuses ``setattr``)."""

    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    return __getstate__, __setstate__
