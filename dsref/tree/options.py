"""The schema walked into a flat tree of options, addressed by dotted path.

Every consumer (``explain``, ``check``, the site generator, the editor schema)
reads options from here rather than from the pydantic models directly. An
option's canonical path uses the key DeepSpeed reads (the alias where a model
field has one); other accepted spellings resolve to the same option.

>>> tree = option_tree()
>>> opt = tree.get("zero_optimization.stage3_prefetch_bucket_size")
>>> opt.default, opt.unit, opt.stages
(50000000, 'elements', (3,))
>>> tree.resolve("zero_optimization.prefetch_bucket_size").option.path
'zero_optimization.stage3_prefetch_bucket_size'
>>> tree.resolve("bfloat16.enabled").via
'deprecated_alias'
>>> [o.key for o in tree.children("zero_optimization.offload_param")][:3]
['device', 'nvme_path', 'buffer_count']
"""

from __future__ import annotations

import builtins
import re
import types
from collections.abc import Iterator, Mapping
from dataclasses import field
from enum import Enum
from functools import cache
from pathlib import PurePath
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from ..records import record
from ..schema import UNSET, Meta, meta_of
from .paths import Via, resolve_steps, split_path
from .record import BOUND_NAMES, OptionType, child_parent_path
from .versions import parse_version

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

    from ..schema import Section, UnknownKeys
    from .record import Container, Kind

__all__ = [
    "Option",
    "OptionTree",
    "Resolution",
    "is_model",
    "option_tree",
    "option_type",
    "strip_annotated",
    "type_name",
    "union_args",
]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]")
_QUOTED = re.compile(r"`([^`]+)`")


@record(eq=False)
class Option:
    """One option (a leaf value or a section) of ``ds_config.json``.

    ``default`` is the value DeepSpeed 0.19.8 uses when the key is absent, in
    JSON form (sections that DeepSpeed fills with their own defaults show
    ``{}``); :data:`~dsref.schema._meta.UNSET` when there is none.
    """

    path: str
    key: str
    parent: str | None
    kind: Kind
    type: str
    default: Any
    description: str | None
    """The full English description (for a section: its own paragraph)."""
    summary: str | None
    """One line: the field's short description, or the first sentence of the section's paragraph."""
    meta: Meta
    field_name: str
    annotation: Any = field(repr=False)
    """The field's type (None in the check tree, see :mod:`dsref.check.validate.checktree`)."""
    field_info: FieldInfo = field(repr=False)
    """The pydantic field (None in the check tree)."""
    allowed: tuple[Any, ...] | None = None
    bounds: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    deprecated_aliases: tuple[str, ...] = ()
    container: Container | None = None
    model: builtins.type[Section] | None = field(default=None, repr=False)
    nullable: bool = False
    since: str | None = None
    removed_in: str | None = None
    stages: tuple[int, ...] | None = None
    hf_auto: bool = False
    validated_by_deepspeed: bool = False
    """True when DeepSpeed's own pydantic model validates this option's value."""
    related: tuple[str, ...] = ()
    """Other options this one's texts name or point to (filled in when the tree is built)."""
    unknown_keys: UnknownKeys | None = None
    """For a section: what DeepSpeed does with keys it does not know there."""
    validator_spec: Any = field(default=None, repr=False)
    """In the check tree only: the generated validator of the value (see :mod:`dsref.check.validate.checktree`)."""

    @property
    def depth(self) -> int:
        return self.path.count(".") + 1

    @property
    def unit(self) -> str | None:
        return self.meta.unit

    @property
    def deprecated(self) -> bool:
        return self.meta.deprecated

    def removed_for(self, version: str) -> bool:
        """Whether DeepSpeed ``version`` has removed this option."""
        return self.removed_in is not None and parse_version(version) >= parse_version(self.removed_in)

    def to_json(self) -> dict[str, Any]:
        """This option's facts as JSON data: the record of ``dsref options --format json`` less the fields written
        per language (``default_human``, ``docs_default_human``) and the whole example config (``example_config``),
        which :func:`dsref.generator.index.dump_record` adds."""
        m = self.meta
        record: dict[str, Any] = {
            "path": self.path,
            "key": self.key,
            "parent": self.parent,
            "kind": self.kind,
            "container": self.container,
            "map_key": m.map_key if self.container == "map" else None,
            "nullable": self.nullable,
            "type": self.type,
            "default": None if self.default is UNSET else _jsonable(self.default),
            "has_default": self.default is not UNSET,
            "allowed": None if self.allowed is None else [_jsonable(v) for v in self.allowed],
            "bounds": {k: _jsonable(v) for k, v in self.bounds.items()},
            "unit": m.unit,
            "stages": None if self.stages is None else list(self.stages),
            "aliases": list(self.aliases),
            "deprecated_aliases": list(self.deprecated_aliases),
            "deprecated": m.deprecated,
            "use_instead": m.use_instead,
            "since": self.since,
            "removed_in": self.removed_in,
            "hf_auto": self.hf_auto,
            "hf_auto_source": m.hf_auto.source if m.hf_auto else None,
            "docs_default": None if m.docs_default is UNSET else _jsonable(m.docs_default),
            "docs_default_differs": m.docs_default is not UNSET,
            "docs_names": list(m.docs_names),
            "docs_only": m.docs_only,
            "parsed_unused": m.parsed_unused,
            "unknown_keys": self.unknown_keys,
            "validated_by_deepspeed": self.validated_by_deepspeed,
            "example": None if m.example is UNSET else _jsonable(m.example),
            "has_example": m.example is not UNSET,
            "enum_docs": [[_jsonable(value), text] for value, text in m.enum_docs],
            "default_note": m.default_note,
            "removal_note": m.removal_note,
            "hf_auto_by": list(m.hf_auto.by) if m.hf_auto else [],
            "related": list(self.related),
            "summary": self.summary,
            "summary_is_own": self.kind == "section"
            and bool(self.field_info.description)
            and self.field_info.description != self.description,
            "description": self.description,
        }
        return record


@record
class Resolution:
    """The option a written path resolved to, and how."""

    option: Option
    via: Via
    written: str


class OptionTree:
    """All options of the schema, by canonical path, with alias lookup."""

    def __init__(self, root: type[Section] | None = None) -> None:
        """Walk the models from ``root`` (the whole config, :class:`~dsref.schema.config.DeepSpeedConfig`)."""
        if root is None:
            from ..schema.config import DeepSpeedConfig

            root = DeepSpeedConfig
        self._start(root)
        self._walk(root, None, strict_parent=False, inherited=_Inherited())
        self._link_related()

    @classmethod
    def from_options(cls, options: Iterable[Option]) -> OptionTree:
        """A tree of options made elsewhere (the generated check tree), parents before children, in schema order."""
        tree = cls.__new__(cls)
        tree._start(None)
        for opt in options:
            tree._add(opt)
            if opt.kind == "section" and opt.container is not None:
                tree._children.setdefault(cls.child_parent(opt), [])
        return tree

    def _start(self, root: type[Section] | None) -> None:
        self._root = root
        self._by_path: dict[str, Option] = {}
        self._children: dict[str | None, list[Option]] = {}
        # (parent path, written key) -> (option, via)
        self._keys: dict[tuple[str | None, str], tuple[Option, Via]] = {}
        self._by_key: dict[str, list[Option]] | None = None
        self._flat: tuple[Option, ...] | None = None
        self._subtrees: dict[str, tuple[Option, ...]] = {}

    # -- building ---------------------------------------------------------
    def _walk(self, model: type[BaseModel], parent: str | None, *, strict_parent: bool, inherited: _Inherited) -> None:
        strict = getattr(model, "unknown_keys", "ignore") == "reject" and bool(getattr(model, "drops_auto", False))
        for name, info in model.model_fields.items():
            opt = self._make(name, info, parent, strict=strict, inherited=inherited)
            self._add(opt)
            if opt.model is not None:
                child_parent = self.child_parent(opt)
                if child_parent != opt.path:
                    # The pattern step is addressable too, as an alias of the container.
                    self._children.setdefault(child_parent, [])
                self._walk(
                    opt.model,
                    child_parent,
                    strict_parent=strict,
                    inherited=_Inherited(
                        since=opt.since, removed_in=opt.removed_in, stages=opt.stages, hf_parent=opt.hf_auto
                    ),
                )

    def _make(self, name: str, info: FieldInfo, parent: str | None, *, strict: bool, inherited: _Inherited) -> Option:
        key = info.alias or name
        path = key if parent is None else f"{parent}.{key}"
        meta = meta_of(info)
        annotation = info.annotation
        model, container, nullable = _section_model(annotation)
        default = _default_of(info, model)
        allowed = _allowed_values(annotation)
        aliases = (name,) if info.alias and info.alias != name else ()
        return Option(
            path=path,
            key=key,
            parent=parent,
            kind="section" if model is not None else "leaf",
            type=type_name(annotation),
            default=default,
            description=_description(info.description, _doc_of(model) if model is not None else None, container),
            summary=_summary(info.description, _doc_of(model) if model is not None else None),
            meta=meta,
            field_name=name,
            annotation=annotation,
            field_info=info,
            allowed=allowed,
            bounds=_bounds_of(info),
            aliases=aliases,
            deprecated_aliases=meta.deprecated_aliases,
            container=container,
            model=model,
            nullable=nullable,
            since=meta.since or inherited.since,
            removed_in=meta.removed_in or inherited.removed_in,
            stages=meta.stages if meta.stages is not None else inherited.stages,
            hf_auto=meta.hf_auto is not None and bool(meta.hf_auto.by),  # filled by the newest releases
            validated_by_deepspeed=strict,
            unknown_keys=model.unknown_keys if model is not None else None,
        )

    def _add(self, opt: Option) -> None:
        if opt.path in self._by_path:
            raise ValueError(f"duplicate option path {opt.path!r}")
        self._by_path[opt.path] = opt
        self._children.setdefault(opt.parent, []).append(opt)
        self._register(opt.parent, opt.key, opt, "path")
        for alias in opt.aliases:
            self._register(opt.parent, alias, opt, "alias")
        for alias in opt.deprecated_aliases:
            self._register(opt.parent, alias, opt, "deprecated_alias")
        for alias in opt.meta.docs_names:
            self._register(opt.parent, alias, opt, "docs_name")

    def _register(self, parent: str | None, key: str, opt: Option, via: Via) -> None:
        existing = self._keys.get((parent, key))
        if existing is not None and existing[0] is not opt:
            raise ValueError(f"key {key!r} under {parent!r} names both {existing[0].path} and {opt.path}")
        self._keys[(parent, key)] = (opt, via)

    def _link_related(self) -> None:
        """Fill ``related``: options a text names (a sibling's key, or a full path) or points to."""
        for opt in list(self._by_path.values()):
            related: list[str] = []
            if opt.meta.use_instead and opt.meta.use_instead in self._by_path:
                related.append(opt.meta.use_instead)
            texts = " ".join(t for t in (opt.description, opt.meta.default_note, opt.meta.removal_note) if t)
            quoted = set(_QUOTED.findall(texts))
            for word in dict.fromkeys(_WORD.findall(texts)):
                target = self._keys.get((opt.parent, word))
                if target is not None and target[0] is not opt:
                    related.append(target[0].path)
                elif word in self._by_path and ("." in word or word in quoted):
                    related.append(word)
            unique = tuple(dict.fromkeys(p for p in related if p != opt.path))
            object.__setattr__(opt, "related", unique)

    # -- queries ----------------------------------------------------------
    @property
    def root_model(self) -> type[Section]:
        """The root model (imported on first use for a tree made from generated options)."""
        if self._root is None:
            from ..schema.config import DeepSpeedConfig

            self._root = DeepSpeedConfig
        return self._root

    def __len__(self) -> int:
        return len(self._by_path)

    def __iter__(self) -> Iterator[Option]:
        """All options, depth first, in schema order."""
        if self._flat is None:
            self._flat = tuple(self._iter(None))
        return iter(self._flat)

    def _iter(self, parent: str | None) -> Iterator[Option]:
        for opt in self._children.get(parent, ()):
            yield opt
            yield from self._iter(self.child_parent(opt))

    def iter_subtree(self, path: str) -> Iterator[Option]:
        """Every option below ``path`` (not including it)."""
        subtree = self._subtrees.get(path)
        if subtree is None:
            subtree = self._subtrees[path] = tuple(self._iter(self.child_parent(self.get(path))))
        yield from subtree

    @staticmethod
    def child_parent(opt: Option) -> str:
        """The parent key under which ``opt``'s children are registered."""
        return child_parent_path(opt.path, opt.container, opt.meta.map_key)

    def get(self, path: str) -> Option:
        """The option at canonical ``path``; ``KeyError`` when there is none."""
        return self._by_path[path]

    def __contains__(self, path: object) -> bool:
        return path in self._by_path

    def top_level(self) -> list[Option]:
        return list(self._children.get(None, ()))

    def children(self, path: str | None) -> list[Option]:
        """Direct children of the section at ``path`` (``None``: the top level)."""
        if path is None:
            return self.top_level()
        return list(self._children.get(self.child_parent(self.get(path)), ()))

    def under(self, parent: str | None) -> list[Option]:
        """Options registered directly under a child-parent path (``a.b``, ``a.<name>``, ``a[]``)."""
        return list(self._children.get(parent, ()))

    def lookup_key(self, parent: str | None, key: str) -> tuple[Option, Via] | None:
        """The option a key written under ``parent`` (a canonical child-parent path) names."""
        return self._keys.get((parent, key))

    def resolve(self, written: str) -> Resolution | None:
        """Resolve a dotted path written with any accepted spelling of each step.

        Steps inside a map of user-named entries may be any name (or the
        ``<placeholder>``); ``name[]`` or ``name[3]`` steps into a list of objects.
        """
        hit = resolve_steps(
            split_path(written),
            lambda parent, key: self._keys.get((parent, key)),
            self.child_parent,
            lambda opt: opt.container == "map",
        )
        if hit is None:
            return None
        return Resolution(hit[0], hit[1], written)  # type: ignore[arg-type]

    def by_key(self) -> dict[str, list[Option]]:
        """Options grouped by their last key (and aliases), for "did you mean" across sections."""
        if self._by_key is None:
            index: dict[str, list[Option]] = {}
            for opt in self:
                for name in (opt.key, *opt.aliases, *opt.deprecated_aliases):
                    index.setdefault(name, []).append(opt)
            self._by_key = index
        return self._by_key


@record
class _Inherited:
    since: str | None = None
    removed_in: str | None = None
    stages: tuple[int, ...] | None = None
    hf_parent: bool = False


# -- annotations ------------------------------------------------------------


def strip_annotated(tp: Any) -> Any:
    """A type without its ``Annotated[...]`` wrapping."""
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    return tp


def union_args(tp: Any) -> tuple[Any, ...]:
    """The members of a union type (a type that is no union: itself alone), without ``Annotated``."""
    tp = strip_annotated(tp)
    if get_origin(tp) in (Union, types.UnionType):
        return tuple(strip_annotated(a) for a in get_args(tp))
    return (tp,)


def is_model(tp: Any) -> bool:
    """Whether ``tp`` is a pydantic model (a section)."""
    from pydantic import BaseModel

    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _section_model(annotation: Any) -> tuple[type[Section] | None, Container | None, bool]:
    """(model, container, nullable) for a section-typed annotation; (None, None, nullable) for a leaf."""
    args = union_args(annotation)
    nullable = type(None) in args
    for arg in args:
        if is_model(arg):
            return arg, None, nullable
        origin = get_origin(arg)
        if origin is dict:
            _key_t, val_t = get_args(arg)
            if is_model(strip_annotated(val_t)):
                return strip_annotated(val_t), "map", nullable
        if origin is list:
            (item_t,) = get_args(arg) or (Any,)
            if is_model(strip_annotated(item_t)):
                return strip_annotated(item_t), "list", nullable
    return None, None, nullable


def option_type(annotation: Any) -> OptionType:
    """A field's type as the index records it: the short names of its union's members (``int``, ``null``,
    ``enum``, ``list[str]`` …)."""
    members: list[str] = []
    for arg in union_args(annotation):
        name = _single_type_name(arg)
        if name not in members:
            members.append(name)
    return OptionType(tuple(members))


def type_name(annotation: Any) -> str:
    """A short display name of a field's type: ``int``, ``bool | null``, ``enum``, ``list[str]`` …"""
    return str(option_type(annotation))


def _single_type_name(tp: Any) -> str:
    if tp is type(None):
        return "null"
    if tp is Any:
        return "any"
    shown = getattr(tp, "__dsref_type__", None)
    if isinstance(shown, str):
        return shown
    if get_origin(tp) is Literal:
        values = get_args(tp)
        if values == ("auto",):
            return '"auto"'
        return "enum"
    if isinstance(tp, type):
        if issubclass(tp, bool):
            return "bool"
        if issubclass(tp, Enum):
            return "enum"
        if issubclass(tp, int):
            return "int"
        if issubclass(tp, float):
            return "float"
        if issubclass(tp, str):
            return "str"
        if issubclass(tp, PurePath):
            return "path"
        if is_model(tp):
            return "section"
    origin = get_origin(tp)
    if origin in (list, tuple, set):
        args = [a for a in get_args(tp) if a is not Ellipsis]
        inner = type_name(Union[tuple(args)]) if args else "any"  # noqa: UP007
        if origin is list and args and is_model(strip_annotated(args[0])):
            return "list[section]"
        return f"list[{inner}]"
    if origin is dict:
        key_value = get_args(tp)
        if key_value and is_model(strip_annotated(key_value[1])):
            return "map[str, section]"
        return "dict"
    if tp is dict:
        return "dict"
    if tp is list:
        return "list"
    if origin in (Union, types.UnionType):
        return type_name(tp)
    return getattr(tp, "__name__", str(tp))


def _allowed_values(annotation: Any) -> tuple[Any, ...] | None:
    """Allowed values when the (non-null) type is made of enums and literals only."""
    values: list[Any] = []
    for arg in union_args(annotation):
        if arg is type(None):
            continue
        if get_origin(arg) is Literal:
            values.extend(get_args(arg))
        elif isinstance(arg, type) and issubclass(arg, Enum):
            values.extend(member.value for member in arg)
        else:
            return None
    return tuple(values) if values else None


def _bounds_of(info: FieldInfo) -> dict[str, Any]:
    import annotated_types

    bounds: dict[str, Any] = {}
    for name in BOUND_NAMES:  # in the order they are written, whatever the order of the field's arguments
        for item in info.metadata:
            if isinstance(item, annotated_types.BaseMetadata):
                value = getattr(item, name, None)
                if value is not None:
                    bounds[name] = value
    return bounds


def _default_of(info: FieldInfo, model: type | None) -> Any:
    if info.is_required():
        return UNSET
    from pydantic import BaseModel

    value = info.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return {}
    return _jsonable(value)


def _jsonable(value: Any) -> Any:
    from pydantic import BaseModel

    if isinstance(value, Enum):
        return value.value
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _description(field_text: str | None, section_text: str | None, container: Container | None) -> str | None:
    """A section's paragraph is its model's docstring; a map or list of entries says what the container holds
    first, then what one entry is."""
    if section_text is None:
        return field_text
    if container is not None and field_text:
        return f"{field_text}\n\n{section_text}"
    return section_text


def _summary(field_text: str | None, section_text: str | None) -> str | None:
    """One line for tables and search results: the first sentence of an option's description. A section's own short
    text (the field's description, apart from the section's paragraph) is its summary, whole."""
    if field_text and section_text:
        return " ".join(field_text.split())
    text = field_text or section_text
    if not text:
        return None
    return first_sentence(" ".join(text.split()))


_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.")


def first_sentence(text: str) -> str:
    """``text`` up to the end of its first sentence: a full stop followed by a space, not one of an abbreviation.

    >>> first_sentence("Bucket size, e.g. 5e8 elements. Larger is faster.")
    'Bucket size, e.g. 5e8 elements.'
    """
    start = 0
    while True:
        end = text.find(". ", start)
        if end < 0:
            return text
        if not text[: end + 1].lower().endswith(_ABBREVIATIONS):
            return text[: end + 1]
        start = end + 2


def _doc_of(model: type | None) -> str | None:
    doc = getattr(model, "__doc__", None)
    if not doc:
        return None
    lines = doc.expandtabs().splitlines()
    first, rest = lines[0].strip(), lines[1:]
    indent = min((len(line) - len(line.lstrip()) for line in rest if line.strip()), default=0)
    text = "\n".join([first, *(line[indent:] for line in rest)]).strip()
    return text or None


@cache
def option_tree() -> OptionTree:
    """The option tree of DeepSpeed's config as dsref models it (built once)."""
    return OptionTree()
