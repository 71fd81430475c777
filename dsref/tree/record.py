"""What dsref knows about one option, as a typed, frozen record: the records of the option index and of
``dsref options --format json``.

:class:`OptionRecord` holds an option's facts as the generator wrote them (:func:`dsref.generator.index.dump_record`),
with the type as an :class:`OptionType` and the bounds as :class:`Bounds`; :meth:`OptionRecord.to_json` gives back
the documented JSON record. How a fact is written for a reader (the summary in a language, the default, the range)
is :mod:`dsref.text.facts`. Reading a record needs neither pydantic nor the models.

>>> OptionType.parse("list[int | list[int]] | null").members
('list[int | list[int]]', 'null')
>>> OptionType.parse("bool | null").is_bool, str(OptionType(("int", '"auto"')))
(True, 'int | "auto"')
>>> Bounds.from_json({"ge": 1, "le": 3}).items()
(('ge', 1), ('le', 3))
"""

from __future__ import annotations

from dataclasses import fields

from ..records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, Literal

    from ..schema import UnknownKeys

    Kind = Literal["section", "leaf"]
    Container = Literal["map", "list"]
    BoundName = Literal["gt", "ge", "lt", "le", "min_length", "max_length"]
else:
    Kind = Container = BoundName = str

__all__ = [
    "BOUND_NAMES",
    "RECORD_FIELDS",
    "BoundName",
    "Bounds",
    "Container",
    "Kind",
    "OptionRecord",
    "OptionType",
    "child_parent_path",
    "top_of",
]

_UNION = " | "

BOUND_NAMES: tuple[BoundName, ...] = ("gt", "ge", "lt", "le", "min_length", "max_length")
"""The limits an option's value may have, in the order they are written."""


def top_of(path: str) -> str:
    """The top-level key an option path starts with (the shard of the index its record is in)."""
    return path.split(".", 1)[0].split("[", 1)[0]


def child_parent_path(path: str, container: Container | None, map_key: str | None) -> str:
    """The parent path of a section's children: the section's path, ``path.<name>`` for the entries of a map,
    ``path[]`` for the items of a list."""
    if container == "map":
        return f"{path}.<{map_key}>"
    if container == "list":
        return f"{path}[]"
    return path


@record(slots=True)
class OptionType:
    """An option's type: the members of its union in the order the schema declares them, each a name such as
    ``int``, ``null``, ``"auto"``, ``enum``, ``list[str]`` or ``section``; written ``int | null``."""

    members: tuple[str, ...]

    @classmethod
    def parse(cls, written: str) -> OptionType:
        """The type as :meth:`__str__` writes it (a member may hold a union in brackets: ``list[int | str]``)."""
        members: list[str] = []
        depth = start = 0
        for i, char in enumerate(written):
            if char == "[":
                depth += 1
            elif char == "]":
                depth -= 1
            elif depth == 0 and written.startswith(_UNION, i):
                members.append(written[start:i])
                start = i + len(_UNION)
        members.append(written[start:])
        return cls(tuple(members))

    def __str__(self) -> str:
        return _UNION.join(self.members)

    @property
    def is_bool(self) -> bool:
        """True for a switch: ``true`` or ``false`` (or ``null``, where the option takes it)."""
        return tuple(member for member in self.members if member != "null") == ("bool",)


@record(slots=True)
class Bounds:
    """The limits on an option's value (None: no such limit): ``gt``/``ge``/``lt``/``le`` on a number,
    ``min_length``/``max_length`` on a list or a string."""

    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    min_length: int | None = None
    max_length: int | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bounds:
        return cls(**data)

    def items(self) -> tuple[tuple[BoundName, float], ...]:
        """The limits that are set, as (name, value), in the order of :data:`BOUND_NAMES`."""
        return tuple((name, value) for name in BOUND_NAMES if (value := getattr(self, name)) is not None)

    def __bool__(self) -> bool:
        return bool(self.items())

    def to_json(self) -> dict[str, float]:
        return dict(self.items())


@record(slots=True)
class OptionRecord:
    """One option (a leaf value or a section), as the option index holds it.

    ``default``, ``docs_default``, ``example`` and ``example_config`` are JSON values (``default`` is None when
    ``has_default`` is false); ``default_human`` and ``docs_default_human`` hold a large count's short form per
    language (``{"en": "500M", "zh": "5亿"}``). The English texts are ``summary`` and ``description``; the notes
    are ``default_note``, ``removal_note`` and ``enum_docs`` (value, meaning).
    """

    path: str
    key: str
    parent: str | None
    kind: Kind
    container: Container | None
    map_key: str | None
    nullable: bool
    type: OptionType
    default: Any
    has_default: bool
    allowed: tuple[Any, ...] | None
    bounds: Bounds
    unit: str | None
    stages: tuple[int, ...] | None
    aliases: tuple[str, ...]
    deprecated_aliases: tuple[str, ...]
    deprecated: bool
    use_instead: str | None
    since: str | None
    removed_in: str | None
    hf_auto: bool
    hf_auto_source: str | None
    docs_default: Any
    docs_default_differs: bool
    default_human: Mapping[str, str] | None
    docs_default_human: Mapping[str, str] | None
    docs_names: tuple[str, ...]
    docs_only: bool
    parsed_unused: bool
    unknown_keys: UnknownKeys | None
    validated_by_deepspeed: bool
    example: Any
    has_example: bool
    example_config: Mapping[str, Any] | None
    enum_docs: tuple[tuple[Any, str], ...]
    default_note: str | None
    removal_note: str | None
    hf_auto_by: tuple[str, ...]
    related: tuple[str, ...]
    summary: str | None
    """One line in English: the section's own short text (``summary_is_own``), or the description's first
    sentence."""
    summary_is_own: bool
    description: str | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> OptionRecord:
        """The record of a JSON record (``dsref options --format json``, a row of the index)."""
        stages, allowed = data["stages"], data["allowed"]
        return cls(
            path=data["path"],
            key=data["key"],
            parent=data["parent"],
            kind=data["kind"],
            container=data["container"],
            map_key=data["map_key"],
            nullable=data["nullable"],
            type=OptionType.parse(data["type"]),
            default=data["default"],
            has_default=data["has_default"],
            allowed=None if allowed is None else tuple(allowed),
            bounds=Bounds.from_json(data["bounds"]),
            unit=data["unit"],
            stages=None if stages is None else tuple(stages),
            aliases=tuple(data["aliases"]),
            deprecated_aliases=tuple(data["deprecated_aliases"]),
            deprecated=data["deprecated"],
            use_instead=data["use_instead"],
            since=data["since"],
            removed_in=data["removed_in"],
            hf_auto=data["hf_auto"],
            hf_auto_source=data["hf_auto_source"],
            docs_default=data["docs_default"],
            docs_default_differs=data["docs_default_differs"],
            default_human=data["default_human"],
            docs_default_human=data["docs_default_human"],
            docs_names=tuple(data["docs_names"]),
            docs_only=data["docs_only"],
            parsed_unused=data["parsed_unused"],
            unknown_keys=data["unknown_keys"],
            validated_by_deepspeed=data["validated_by_deepspeed"],
            example=data["example"],
            has_example=data["has_example"],
            example_config=data["example_config"],
            enum_docs=tuple((value, text) for value, text in data["enum_docs"]),
            default_note=data["default_note"],
            removal_note=data["removal_note"],
            hf_auto_by=tuple(data["hf_auto_by"]),
            related=tuple(data["related"]),
            summary=data["summary"],
            summary_is_own=data["summary_is_own"],
            description=data["description"],
        )

    def to_json(self) -> dict[str, Any]:
        """The documented JSON record (``dsref options --format json``), a fresh copy."""
        record: dict[str, Any] = {}
        for name in RECORD_FIELDS:
            value = getattr(self, name)
            if isinstance(value, OptionType):
                record[name] = str(value)
            elif isinstance(value, Bounds):
                record[name] = value.to_json()
            else:
                record[name] = _plain(value)
        return record

    @property
    def top(self) -> str:
        """The top-level key the option is under (itself, for a top-level key)."""
        return top_of(self.path)

    @property
    def is_section(self) -> bool:
        return self.kind == "section"

    @property
    def child_parent(self) -> str:
        """The parent path of this section's children (:func:`child_parent_path`)."""
        return child_parent_path(self.path, self.container, self.map_key)


def _plain(value: Any) -> Any:
    """A record's value as JSON data: tuples as lists, every list and dict a copy."""
    if isinstance(value, (tuple, list)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


RECORD_FIELDS: tuple[str, ...] = tuple(field.name for field in fields(OptionRecord))
"""The fields of a record, in the order of the JSON record and of the index's rows."""
