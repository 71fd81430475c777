"""dsref.records against dataclasses: every record of dsref, and records declared here with each option, behave as
the dataclass ``dataclasses`` makes from the same declaration."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import inspect
import pickle
import pkgutil
from collections.abc import Callable
from dataclasses import FrozenInstanceError, InitVar, field
from typing import Any

import pytest

import dsref
from dsref.records import Params, record


def _every_record() -> list[type]:
    """Every record dsref declares (at the top of a module, or in a class there)."""
    found: dict[str, type] = {}
    for info in pkgutil.walk_packages(dsref.__path__, "dsref."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        pending = [value for value in vars(module).values() if isinstance(value, type)]
        while pending:
            cls = pending.pop()
            if cls.__module__ == info.name:
                pending.extend(value for value in vars(cls).values() if isinstance(value, type))
                if "__record_params__" in cls.__dict__:
                    found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[name] for name in sorted(found)]


RECORDS = _every_record()


def _twin(cls: type) -> type:
    """The dataclass ``dataclasses`` makes from the record's declaration: its fields and options."""
    params: Params = cls.__dict__["__record_params__"]
    specs = []
    for f in dataclasses.fields(cls):
        options: dict[str, Any] = {
            "init": f.init,
            "repr": f.repr,
            "hash": f.hash,
            "compare": f.compare,
            "kw_only": f.kw_only,
        }
        if f.default is not dataclasses.MISSING:
            options["default"] = f.default
        if f.default_factory is not dataclasses.MISSING:
            options["default_factory"] = f.default_factory
        specs.append((f.name, f.type, field(**options)))
    namespace = {
        name: value
        for name, value in cls.__dict__.items()
        if name in ("__eq__", "__hash__", "__repr__", "__post_init__") and _declared(cls, name)
    }
    twin = dataclasses.make_dataclass(
        cls.__name__,
        specs,
        namespace=namespace,
        frozen=params.frozen,
        eq=params.eq,
        order=params.order,
        slots=params.slots,
    )
    twin.__qualname__ = cls.__qualname__
    return twin


def _declared(cls: type, name: str) -> bool:
    """Whether the class body itself wrote this method (not ``record``)."""
    return getattr(cls.__dict__[name], "__module__", None) not in (None, "dsref.records")


def _arguments(cls: type, *, every: bool) -> tuple[list[Any], dict[str, Any]]:
    """Distinct values for the parameters ``__init__`` requires (and, with ``every``, for all of them)."""
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for n, f in enumerate(dataclasses.fields(cls)):
        needed = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if f.init and (needed or every):
            value = 1000 + n + (500 if every else 0)
            if f.kw_only:
                kwargs[f.name] = value
            else:
                args.append(value)
    return args, kwargs


def _outcome(action: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """What ``action(*args)`` returns, or the type and words of what it raises."""
    try:
        return "value", action(*args)
    except Exception as exc:  # the exception's type and words are the outcome
        return type(exc).__name__, str(exc)


def _same(record_class: type, twin: type) -> None:
    """Everything a caller can see of instances of the two classes is the same."""
    made: dict[str, list[Any]] = {}
    for kind in (record_class, twin):
        made[kind.__name__ + str(id(kind))] = [
            kind(*args, **kwargs) for every in (False, True) for args, kwargs in [_arguments(kind, every=every)]
        ]
    ours, theirs = made.values()
    assert (
        inspect.signature(record_class.__init__).parameters.keys() == inspect.signature(twin.__init__).parameters.keys()
    )
    for mine, other in zip(
        inspect.signature(record_class.__init__).parameters.values(),
        inspect.signature(twin.__init__).parameters.values(),
        strict=True,
    ):
        assert (mine.name, mine.kind, mine.default is inspect.Parameter.empty) == (
            other.name,
            other.kind,
            other.default is inspect.Parameter.empty,
        )
    assert record_class.__match_args__ == twin.__match_args__
    assert (record_class.__hash__ is None) == (twin.__hash__ is None)
    for a, b in zip(ours, theirs, strict=True):
        assert _outcome(repr, a) == _outcome(repr, b)
        assert _outcome(dataclasses.asdict, a) == _outcome(dataclasses.asdict, b)
        if twin.__dict__.get("__hash__") is not None:  # hashed by value, not by identity
            assert _outcome(hash, a) == _outcome(hash, b)
    for i in range(2):
        for j in range(2):
            for operation in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
                mine = _outcome(getattr(ours[i], operation), ours[j])
                theirs_ = _outcome(getattr(theirs[i], operation), theirs[j])
                assert mine == theirs_, operation
            assert (ours[i] == copy.copy(ours[i])) == (theirs[i] == copy.copy(theirs[i]))
    first = ours[0]
    for f in dataclasses.fields(record_class):
        assert _outcome(setattr, first, f.name, 7) == _outcome(setattr, theirs[0], f.name, 7)
        assert _outcome(delattr, first, f.name) == _outcome(delattr, theirs[0], f.name)
        if f.init:
            changed = _outcome(_replaced, ours[1], f.name)
            assert changed == _outcome(_replaced, theirs[1], f.name)
    elsewhere = _outcome(setattr, theirs[0], "elsewhere", 1)
    if record_class.__record_params__.frozen and record_class.__record_params__.slots:
        # CPython's frozen dataclass with slots raises TypeError here (its __setattr__ names the class as it was
        # before slots were added); a record raises what a frozen dataclass without slots does.
        assert elsewhere[0] == "TypeError"
        elsewhere = ("FrozenInstanceError", "cannot assign to field 'elsewhere'")
    assert _outcome(setattr, ours[0], "elsewhere", 1) == elsewhere
    assert _errors(record_class) == _errors(twin)


def _errors(cls: type) -> list[tuple[str, Any]]:
    """What a wrong call of ``__init__`` raises, with the class's name taken out."""
    args, kwargs = _arguments(cls, every=True)
    calls = [
        lambda: cls(),
        lambda: cls(*args, *args, 9, **kwargs),
        lambda: cls(*args, unknown=1, **kwargs),
        lambda: cls(*args, **kwargs, **{f.name: 1 for f in dataclasses.fields(cls)[:1] if f.init and not f.kw_only}),
    ]
    return [(kind, str(words).replace(cls.__qualname__, "C")) for kind, words in map(_outcome, calls)]


def _replaced(value: Any, name: str) -> dict[str, Any]:
    return dataclasses.asdict(dataclasses.replace(value, **{name: 3}))


@pytest.mark.parametrize("cls", RECORDS, ids=lambda cls: f"{cls.__module__}.{cls.__qualname__}")
def test_every_record_of_dsref_behaves_as_its_dataclass(cls: type) -> None:
    _same(cls, _twin(cls))


def test_the_records_are_found() -> None:
    names = {cls.__qualname__ for cls in RECORDS}
    assert {"Span", "Finding", "Edit", "Fix", "OptionRecord", "Option", "Meta", "ReplaceValue"} <= names
    assert len(RECORDS) >= 100


# Records declared here, each with options and field kinds dsref's own may not use (yet).


def _declarations(decorate: Callable[..., Any], frozen: bool = True) -> list[tuple[type, type]]:
    """Each declaration made twice: with ``record`` and with ``dataclasses.dataclass``."""
    made = []
    for decorator in (lambda **o: record(**o), lambda **o: dataclasses.dataclass(frozen=o.pop("frozen", True), **o)):

        @decorator(order=True)
        class Ordered:
            line: int
            col: int = 1

        @decorator(kw_only=True, slots=True)
        class KeywordsSlots:
            a: int
            b: list[int] = field(default_factory=list)
            c: str = field(default="x", repr=False, compare=False)

        @decorator(frozen=False)
        class Mutable:
            a: int
            b: dict[str, int] = field(default_factory=dict)
            late: int = field(init=False, default=5)
            made: list[int] = field(init=False, default_factory=list)

        @decorator(eq=False)
        class Identity:
            a: int

        @decorator()
        class SelfNamed:
            self: int
            other: int = field(default=2, hash=False)

        @decorator()
        class Derived:
            base: int

            def __post_init__(self) -> None:
                object.__setattr__(self, "base", self.base * 2)

        @decorator()
        class OwnEquality:
            a: int
            b: int

            def __eq__(self, other: object) -> bool:
                return isinstance(other, type(self)) and self.a == other.a

            def __hash__(self) -> int:
                return hash(self.a)

            def __repr__(self) -> str:
                return f"OwnEquality<{self.a}>"

        @decorator(slots=True, order=True)
        class Empty:
            pass

        made.append((Ordered, KeywordsSlots, Mutable, Identity, SelfNamed, Derived, OwnEquality, Empty))
    return list(zip(*made, strict=True))


@pytest.mark.parametrize("pair", _declarations(record), ids=lambda pair: pair[0].__qualname__.split(".")[-1])
def test_each_option_behaves_as_dataclasses(pair: tuple[type, type]) -> None:
    ours, theirs = pair
    _same(ours, theirs)


@record(slots=True)
class _Slotted:
    a: int
    b: tuple[int, ...] = ()


@record
class _Plain:
    a: int
    b: list[int] = field(default_factory=list)


@pytest.mark.parametrize("value", [_Slotted(1, (2, 3)), _Plain(1, [2])])
def test_records_pickle_and_copy(value: Any) -> None:
    for back in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert back == value and type(back) is type(value)
        with pytest.raises(FrozenInstanceError):
            back.a = 2


def test_a_subclass_that_is_no_record_may_add_attributes() -> None:
    class Loose(_Plain):
        pass

    loose = Loose(1)
    loose.extra = 2
    assert loose.extra == 2 and loose == Loose(1) is not None
    with pytest.raises(FrozenInstanceError):
        loose.a = 3


def test_declaration_errors_are_those_of_dataclasses() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class Wrong:
            a: int = 1
            b: int  # type: ignore[misc]  # the error under test

    with pytest.raises(ValueError, match="eq must be true if order is true"):
        record(eq=False, order=True)(type("Unordered", (), {"__annotations__": {"a": "int"}}))
    with pytest.raises(TypeError, match="InitVar"):

        @record
        class Initial:
            a: InitVar[int]


def test_a_record_compiles_its_init_only_when_it_makes_an_instance() -> None:
    @record
    class Lazy:
        a: int

    stand_in = Lazy.__init__
    assert "a" not in inspect.signature(stand_in).parameters
    assert Lazy(1).a == 1
    assert Lazy.__init__ is not stand_in and list(inspect.signature(Lazy.__init__).parameters) == ["self", "a"]
