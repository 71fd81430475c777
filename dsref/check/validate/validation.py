"""Validate a config dict against the schema, the way DeepSpeed reads it.

:func:`validate` walks the input and the option tree side by side and returns
a list of :class:`~dsref.check.findings.Finding`. It never raises: a value of any
type, at any depth, is either matched to an option or reported.

>>> [f.code for f in validate({"zero_optimization": {"stage": 4}})]
['DS204']
>>> f = validate({"zero_optimization": {"stgae": 2}})[0]
>>> f.kind.name, f.severity.value, f.args["suggestions"]
('unknown_key', 'error', ['stage'])
>>> validate({"train_batch_size": 8, "bf16": {"enabled": True}})
[]
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from functools import cache, lru_cache
from typing import Any

from ...schema import UNSET, Meta
from ...text.spelling import Spellings
from ...tree.options import Option, OptionTree
from ...tree.profiles import NEWEST, HfReleases, Profile, hugging_face_fills, hugging_face_unfilled
from ...tree.releases import (
    COVERED,
    ReleaseFacts,
    ignored_until,
    last_before,
    last_reading,
    missing_in,
    release_facts,
)
from ...tree.values import json_type
from ...tree.versions import parse_version as _parse_version
from ..edits import Applicability
from ..findings import Finding, Kind, Severity
from ..positions import Location
from ..repairs import Repair
from ..settings import DEFAULT_SETTINGS, CheckSettings
from . import schema_repairs as repairs
from .near_miss import by_design_ignored, meaning_kept, option_words
from .values import accepts, coerce, plain_value, plainly_valid, remember, scalar_key, value_validator

__all__ = ["validate", "value_validator"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pydantic_core import ValidationError


_RANGE_ERRORS = frozenset(
    {
        "greater_than",
        "greater_than_equal",
        "less_than",
        "less_than_equal",
        "finite_number",
        "too_short",
        "too_long",
        "multiple_of",
        "string_too_short",
        "string_too_long",
    }
)
_CHOICE_ERRORS = frozenset({"literal_error", "enum"})
EDITOR_SCHEMA_KEY = "$schema"
"""A top-level key editors read to find the JSON Schema; DeepSpeed ignores top-level keys it does not know."""


def validate(
    config: Any, settings: CheckSettings = DEFAULT_SETTINGS, *, tree: OptionTree | None = None
) -> list[Finding]:
    """Everything the schema finds wrong in ``config`` (a parsed ``ds_config.json``).

    ``settings.deepspeed_version`` is the release to judge removed and new options by; ``settings.profile="hf"``
    accepts ``"auto"`` on the keys Hugging Face fills, as the ``settings.hugging_face`` releases fill them
    (:func:`~dsref.tree.profiles.hugging_face_fills`); a profile of None is read as DeepSpeed's. ``tree`` defaults
    to the generated check tree (:func:`dsref.check.validate.checktree.check_tree`), which gives the same findings
    as the model-built one.
    """
    if tree is None:
        from .checktree import check_tree

        tree = check_tree()
    release = settings.deepspeed_version
    profile = settings.profile or "deepspeed"
    walker = _Walker(tree, parse_version(release), profile, settings.hugging_face, release_facts(release))
    if not isinstance(config, Mapping):
        return [Finding(Kind.not_a_mapping, Severity.error, (), None, {"got": json_type(config), "expected": "object"})]
    walker.root = config
    walker.section(None, config, (), strict=False, policy="ignore")
    return written_for(walker.findings, walker.release_name)


def written_for(findings: list[Finding], target: str) -> list[Finding]:
    """``findings`` with the release the file was written for added to each that carries it forward (an upgrade:
    ``former_last``, the newest release that read what it writes as written): the oldest of those releases, and
    where the file says so. A file with no such finding is returned as it is."""
    evidence = [(parse_version(f.args["former_last"]), f) for f in findings if f.args.get("former_last")]
    if not evidence:
        return findings
    _, oldest = min(evidence, key=lambda item: item[0])
    said = {
        "written_for": oldest.args["former_last"],
        "written_for_by": ".".join(str(step) for step in oldest.location),
        "written_for_target": target,
    }
    return [dataclasses.replace(f, args={**f.args, **said}) if f.args.get("former_last") else f for f in findings]


parse_version = lru_cache(maxsize=256)(_parse_version)
"""Release numbers of the schema are few and compared for every option written: parse each once."""


SHORT_ITEMS = 4
"""Members of an array or object shown in a message before ``…``."""
SHORT_STRING = 60
"""Characters of a string shown in a message."""


def short_repr(value: Any, depth: int = 3) -> str:
    """A value as JSON, bounded for a message: long strings, long arrays and objects, deep nesting and
    integers of thousands of digits are shortened with ``…``.

    >>> short_repr(None), short_repr([True, {"x": 1}]), short_repr("a" * 70)[-5:]
    ('null', '[true, {"x": 1}]', 'aaa…"')
    >>> short_repr(list(range(9))), short_repr({"a": {"b": {"c": {"d": 1}}}})
    ('[0, 1, 2, 3, …]', '{"a": {"b": {"c": …}}}')
    >>> short_repr(-(10**5000)), short_repr(float("inf"))
    ('≈-1.0e+5000', 'Infinity')
    """
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return _short_int(value)
    if isinstance(value, float):
        return json.dumps(value)
    if isinstance(value, str):
        return json.dumps(value if len(value) <= SHORT_STRING else value[: SHORT_STRING - 1] + "…", ensure_ascii=False)
    if isinstance(value, (list, tuple, Mapping)):
        if not value:
            return "{}" if isinstance(value, Mapping) else "[]"
        if depth <= 0:
            return "…"
        if isinstance(value, Mapping):
            items = [f"{short_repr(str(k))}: {short_repr(v, depth - 1)}" for k, v in list(value.items())[:SHORT_ITEMS]]
        else:
            items = [short_repr(v, depth - 1) for v in value[:SHORT_ITEMS]]
        if len(value) > SHORT_ITEMS:
            items.append("…")
        opening, closing = ("{", "}") if isinstance(value, Mapping) else ("[", "]")
        return opening + ", ".join(items) + closing
    return f"<{json_type(value)}>"


def _short_int(value: int) -> str:
    """An integer as written, or, past a hundred digits, its magnitude (Python refuses to print an integer of more
    than 4,300 digits, and nobody reads one)."""
    if value.bit_length() < 330:  # about a hundred digits
        return str(value)
    import math

    exponent = math.log10(abs(value))
    digits, fraction = int(exponent) + 1, exponent - int(exponent)
    mantissa = round(10**fraction, 1)
    if mantissa >= 10:
        mantissa, digits = 1.0, digits + 1
    sign = "-" if value < 0 else ""
    return f"≈{sign}{mantissa}e+{digits - 1}"


class _Walker:
    def __init__(
        self,
        tree: OptionTree,
        version: tuple[int, int, int],
        profile: Profile,
        hugging_face: HfReleases = NEWEST,
        release: ReleaseFacts | None = None,
    ) -> None:
        self.tree = tree
        self.version = version
        self.release = release
        """How the release checked for differs from 0.19.8 (recorded from it); None for 0.19.8 itself."""
        self.release_name = ".".join(map(str, version))
        self.profile = profile
        self.hugging_face = hugging_face
        self.findings: list[Finding] = []
        self.root: Any = None
        self.former_names = _former_names(tree)
        """The keys earlier releases called an option, by where they stand (looked up for every key written)."""

    def refuses(self, opt: Option) -> bool:
        """Whether DeepSpeed itself refuses a wrong value here: its pydantic model does, or its own checks do
        (for some options only while the feature they belong to is switched on)."""
        if self.read_leniently(opt.path):
            return False
        if opt.validated_by_deepspeed:
            return True
        if not opt.meta.enforced:
            return False
        return opt.meta.enforced_when is None or bool(self.switch(opt.meta.enforced_when))

    def read_leniently(self, path: str) -> bool:
        """The release checked for reads a section above ``path`` with ``dict.get`` where 0.19.8 validates it."""
        if self.release is None:
            return False
        parts = path.split(".")
        return any(self.release.reads_leniently(".".join(parts[:depth])) for depth in range(1, len(parts)))

    def ignores_new_key(self, opt: Option) -> bool:
        """Whether the release checked for silently ignores ``opt``, an option it does not have: its section there
        takes unknown keys (the top level always does)."""
        if opt.parent is None:
            return True
        if self.release is not None:
            refuses = self.release.refuses_unknown(opt.parent)
            if refuses is not None:
                return not refuses
        return opt.parent not in self.tree or self.tree.get(opt.parent).unknown_keys != "reject"

    def too_new(self, opt: Option) -> str | None:
        """The release ``opt`` appeared in, when the release checked for does not have it yet."""
        if self.release is None:  # 0.19.8 or later: the schema's own record
            return opt.since if opt.since is not None and self.version < parse_version(opt.since) else None
        compared = opt.validated_by_deepspeed or opt.unknown_keys == "reject"
        return missing_in(self.release_name, opt.path, opt.since, compared=compared, removed_in=opt.removed_in)

    def switch(self, path: str) -> Any:
        """The value written at canonical ``path`` (any accepted spelling of each step), or None."""
        node: Any = self.root
        parent: str | None = None
        for step in path.split("."):
            if not isinstance(node, Mapping):
                return None
            value = None
            for key, item in node.items():
                hit = self.tree.lookup_key(parent, key) if isinstance(key, str) else None
                if hit is not None and hit[0].key == step:
                    value = item
                    parent = self.tree.child_parent(hit[0])
            node = value
        return node

    def add(
        self,
        kind: Kind,
        severity: Severity,
        loc: Location,
        opt: Option | None,
        *,
        repair: Repair | None = None,
        **args: Any,
    ) -> None:
        self.findings.append(Finding(kind, severity, loc, opt.path if opt else None, args, repair=repair))

    # -- sections -----------------------------------------------------------
    def section(
        self, parent: str | None, value: Mapping[Any, Any], loc: Location, *, strict: bool, policy: str
    ) -> None:
        seen: dict[str, list[str]] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                self.add(Kind.key_not_string, Severity.error, loc, None, key=short_repr(key), got=json_type(key))
                continue
            if parent is None and key == EDITOR_SCHEMA_KEY:
                continue  # the editor's schema pointer; DeepSpeed ignores it, and dsref's docs recommend it
            hit = self.tree.lookup_key(parent, key)
            upgrade: dict[str, Any] = {}
            if (parent, key) in self.former_names:  # most keys are not an option's former name: no call for them
                former = self.former_name(parent, key)
                if former is not None and former[1] is None:
                    continue  # the release checked for reads this key: it is the option there, under its old name
                if former is not None:
                    upgrade = {"former_last": former[1], "former_new": former[0]}
            here = (*loc, key)
            if hit is None:
                self.unknown(parent, key, here, strict=strict, policy=policy, upgrade=upgrade)
                continue
            opt, via = hit
            if via == "docs_name":
                self.add(
                    Kind.unknown_key,
                    Severity.error if strict else Severity.warning,
                    here,
                    opt,
                    repair=repairs.unknown_key(here, strict, [opt.key], [], self.root),
                    key=key,
                    policy=policy,
                    suggestions=[opt.key],
                    elsewhere=[],
                    docs_name=True,
                    **upgrade,
                )
                continue
            seen.setdefault(opt.path, []).append(key)
            if via == "deprecated_alias":
                repair = repairs.deprecated(opt, here, None, opt.path, self.root)
                if repair is not None and self.profile == "hf" and _holds_auto(item):
                    # Hugging Face fills "auto" only under the new name: the rename changes what it builds
                    repair = dataclasses.replace(repair, applicability=Applicability.unsafe)
                self.add(Kind.deprecated, Severity.warning, here, opt, repair=repair, key=key, use_instead=opt.path)
            self.option(opt, item, here)
        for path, keys in seen.items():
            if len(keys) > 1:
                opt = self.tree.get(path)
                self.add(
                    Kind.alias_conflict,
                    Severity.error if strict else Severity.warning,
                    (*loc, keys[-1]),
                    opt,
                    keys=keys,
                    used=opt.key if not strict else None,
                )

    def former_name(self, parent: str | None, key: str) -> tuple[str, str | None] | None:
        """When ``key`` under ``parent`` is what earlier releases called an option (the schema's ``former_names``)
        and a covered release read it: the option's key now, and the newest release that read the old one (None
        when the release checked for reads it itself). None for any other key, and for a release older than every
        one that read it."""
        opt = self.former_names.get((parent, key))
        if opt is None:
            return None
        old = key if parent is None else f"{parent}.{key}"
        last = last_reading(old)
        if last is None:
            return None
        if self.release is not None and old in self.release.dict_only_here:
            return opt.key, None
        return (opt.key, last) if self.version > parse_version(last) else None

    def unknown(
        self,
        parent: str | None,
        key: str,
        loc: Location,
        *,
        strict: bool,
        policy: str,
        upgrade: Mapping[str, Any] | None = None,
    ) -> None:
        suggestions, elsewhere = _near_misses(self.tree, parent, key, self.version)
        if upgrade and upgrade.get("former_new"):  # what earlier releases called the option: not a guess
            suggestions, elsewhere = (upgrade["former_new"],), ()
        if policy == "reject":
            severity = Severity.error
        elif policy == "passthrough":
            severity = Severity.info
        else:
            severity = Severity.warning
        upgrade = dict(upgrade or {})
        repair = repairs.unknown_key(loc, severity is Severity.error, list(suggestions), list(elsewhere), self.root)
        lenient = None
        if parent is not None and severity is Severity.error and not suggestions and repair is None:
            lenient = _ignored_until(parent, f"{parent}.{key}", self.release_name)
        if lenient is not None:
            # an earlier release read this section key by key and never looked this one up: without it, the file
            # does there what it did; the release checked for refuses it
            repair = repairs.removed(loc, self.release_name, safe=True)
            upgrade = {"former_last": lenient, "former_lenient": True}
        self.add(
            Kind.unknown_key,
            severity,
            loc,
            None,
            repair=repair,
            key=key,
            policy=policy,
            suggestions=list(suggestions),
            elsewhere=list(elsewhere),
            section=parent,
            **upgrade,
        )

    # -- one option ---------------------------------------------------------
    def option(self, opt: Option, value: Any, loc: Location) -> None:
        meta: Meta = opt.meta
        if meta.docs_only:
            self.add(Kind.docs_only, Severity.error if self.refuses(opt) else Severity.warning, loc, opt)
            return
        if opt.removed_in is not None and self.version >= parse_version(opt.removed_in):
            unused = self.did_nothing(opt, value)
            upgrade = {"former_last": last_before(opt.removed_in)} if unused else {}
            self.add(
                Kind.removed,
                Severity.error,
                loc,
                opt,
                repair=repairs.removed(loc, opt.removed_in, safe=unused),
                removed_in=opt.removed_in,
                use_instead=_removal_target(self.tree, opt),
                **upgrade,
            )
            return
        since = self.too_new(opt)
        if since is not None:
            if self.ignores_new_key(opt):
                self.add(Kind.too_new, Severity.warning, loc, opt, since=since, ignored=True)
            else:
                self.add(Kind.too_new, Severity.error, loc, opt, since=since)
            return  # that release never reads the value
        if meta.deprecated:
            extra = _replacement(opt, value)
            repair = repairs.deprecated(opt, loc, extra.get("replacement"), meta.use_instead, self.root)
            self.add(
                Kind.deprecated, Severity.warning, loc, opt, repair=repair, key=opt.key, use_instead=meta.use_instead,
                **extra,
            )  # fmt: skip
        if isinstance(value, str) and value == "auto" and not accepts(opt, value):
            self.auto(opt, loc)
            return
        if opt.kind == "section":
            self.section_value(opt, value, loc)
        else:
            self.leaf(opt, value, loc)

    def did_nothing(self, opt: Option, value: Any) -> bool:
        """Whether ``value``, written for a removed option, made the releases that still read it do nothing: a
        section switched off (its ``enabled`` false as those releases read it, with ``dict.get`` and the default
        recorded in the schema) or a value equal to the default. Removing it then keeps what the file did there."""
        if opt.kind == "section":
            switch = f"{opt.path}.enabled"
            if not isinstance(value, Mapping) or switch not in self.tree:
                return False
            default = self.tree.get(switch).default
            return value.get("enabled", default) is False
        parent = self.tree.get(opt.parent) if opt.parent is not None and opt.parent in self.tree else None
        if parent is not None and parent.unknown_keys == "passthrough":
            return False  # handed to a constructor as written (optimizer params): the key itself matters there
        default = opt.default
        return default is not UNSET and type(value) is type(default) and value == default

    def auto(self, opt: Option, loc: Location) -> None:
        filled = _hugging_face_fills(self.tree, loc, self.hugging_face)
        if self.profile == "hf" and filled:
            return
        named: dict[str, Any] = {}
        unfilled = None if filled else hugging_face_unfilled(self.tree, loc, self.hugging_face)
        if unfilled is not None:  # another release of the installed integration fills it: say which
            named = {
                "hf_library": unfilled.by,
                "hf_installed": unfilled.installed,
                "hf_release": unfilled.release,
                "hf_since": unfilled.since,
            }
        elif not filled and hugging_face_fills(self.tree, opt.path.split("."), self.hugging_face):
            named = {"hf_name": opt.path}  # an option Hugging Face fills, written under another name
        if opt.kind == "leaf" and self.read_leniently(opt.path):
            # the release checked for reads this section with dict.get: "auto" stays a string, and a true one
            self.add(Kind.auto_dropped, Severity.warning, loc, opt, repair=None, kept=True, hf_fills=filled, **named)
        elif opt.validated_by_deepspeed:
            # DeepSpeed's pydantic base drops "auto" values (sections too) before validation.
            default = None if opt.default is UNSET else opt.default
            repair = repairs.auto_dropped(loc)
            self.add(
                Kind.auto_dropped, Severity.warning, loc, opt, repair=repair, default=default, hf_fills=filled, **named
            )
        else:
            repair = repairs.auto_unfilled(opt, loc)
            self.add(Kind.auto_unfilled, Severity.error, loc, opt, repair=repair, hf_fills=filled, **named)

    def section_value(self, opt: Option, value: Any, loc: Location) -> None:
        assert opt.unknown_keys is not None  # every section has a policy
        child_parent = self.tree.child_parent(opt)
        strict = opt.unknown_keys == "reject"
        policy: str = opt.unknown_keys
        refuses = None if self.release is None else self.release.refuses_unknown(opt.path)
        if refuses is not None and refuses != strict:  # the release checked for reads this section otherwise
            strict, policy = refuses, "reject" if refuses else "ignore"
        if value is None and opt.nullable:
            return
        if opt.container == "list":
            if not isinstance(value, list):
                self.wrong_type(opt, value, loc)
                return
            for index, item in enumerate(value):
                if isinstance(item, Mapping):
                    self.section(child_parent, item, (*loc, index), strict=strict, policy=policy)
                else:
                    self.wrong_type(opt, item, (*loc, index), expected="object")
            return
        if isinstance(value, Mapping):
            if opt.container == "map":
                for name, entry in value.items():
                    if not isinstance(name, str):
                        self.add(
                            Kind.key_not_string, Severity.error, loc, opt, key=short_repr(name), got=json_type(name)
                        )
                    elif isinstance(entry, Mapping):
                        self.section(child_parent, entry, (*loc, name), strict=strict, policy=policy)
                    else:
                        self.wrong_type(opt, entry, (*loc, name), expected="object")
            else:
                self.section(child_parent, value, loc, strict=strict, policy=policy)
            return
        if accepts(opt, value, scalar=True):
            return  # the section may also be written as a plain value (e.g. datastates_ckpt: true)
        if json_type(value) in _json_kinds(opt.meta.deprecated_forms):
            extra = _replacement(opt, value)
            self.add(
                Kind.deprecated,
                Severity.warning,
                loc,
                opt,
                repair=repairs.deprecated(opt, loc, extra.get("replacement"), None, self.root),
                key=opt.key,
                form=json_type(value),
                use_instead=None,
                **extra,
            )
            return
        self.wrong_type(opt, value, loc)

    def leaf(self, opt: Option, value: Any, loc: Location) -> None:
        verdict = None if self.release is None else self.release.accepts_value(opt.path, value)
        if verdict is not None and self.release is not None:  # a spelling the release checked for judges otherwise
            if not verdict:
                spellings = self.release.spellings(opt.path, opt.allowed or ())
                self.add(Kind.not_allowed, Severity.error, loc, opt, value=short_repr(value), allowed=spellings)
            return
        # from here on the value is judged by 0.19.8's type, whatever the release
        if plainly_valid(opt, value):
            return
        key = scalar_key(opt, value)
        if key is not None and key in _STRICTLY_VALID:
            return
        strict = self.refuses(opt)
        try:  # a value JSON cannot write is of the wrong type
            text = json.dumps(value, allow_nan=True)
        except (TypeError, ValueError, RecursionError):
            self.wrong_type(opt, value, loc)
            return
        adapter = value_validator(opt)
        from pydantic_core import ValidationError

        assert adapter is not None  # every leaf has a type
        try:  # pydantic-core's strict JSON validation: accepted as written
            adapter.validate_json(text, strict=True)
            if key is not None:
                remember(_STRICTLY_VALID, key, True)
            return
        except (ValidationError, NotImplementedError):  # (pydantic 2.7's core: "cannot check isinstance" from JSON)
            pass
        except RecursionError:
            self.wrong_type(opt, value, loc)
            return
        if (
            opt.meta.case_insensitive
            and isinstance(value, str)
            and opt.allowed is not None
            and any(isinstance(a, str) and a.lower() == value.lower() for a in opt.allowed)
        ):
            return
        refusal: tuple[Kind, dict[str, Any]] | None = None
        try:  # what DeepSpeed's lax validation makes of it
            answer = adapter.validate_python(value)
        except ValidationError as exc:
            if not opt.validated_by_deepspeed and _integral_beyond_int64(exc, value):
                return  # read with dict.get, the number stays as written: DeepSpeed takes 1e19 as it takes 1e18
            refusal = _classify(exc, value), _bounds_of(exc)
        except RecursionError:
            self.wrong_type(opt, value, loc)
            return
        if refusal is not None:
            kind, failed = refusal
            recorded = self.release_refuses(opt, _probed_as(kind, value, opt))
            strict = strict if recorded is None else recorded
            severity = Severity.error if strict else Severity.warning
            if kind is Kind.out_of_range:
                bounds = dict(opt.bounds) or failed
                self.add(kind, severity, loc, opt, value=short_repr(value), bounds=bounds)
            elif kind is Kind.not_allowed:
                allowed = None if opt.allowed is None else [plain_value(a) for a in opt.allowed]
                former = former_spelling(opt, value)
                if former is not None:  # an earlier release's spelling of an allowed value: carry it forward
                    new, last = former
                    repair = repairs.coerced(loc, new)
                    extra = {"former_new": new, "former_last": last}
                    self.add(kind, severity, loc, opt, repair=repair, value=short_repr(value), allowed=allowed, **extra)
                else:
                    self.add(kind, severity, loc, opt, value=short_repr(value), allowed=allowed)
            else:
                self.wrong_type(opt, value, loc, strict=strict)
            return
        coerced = answer
        if _integral_float(value, coerced):
            return
        if type(plain_value(coerced)) is type(value) and plain_value(coerced) == value:
            return  # kept as written (strict JSON refused only its spelling, e.g. a lone surrogate escape)
        python = repairs.python_literal(value)
        if opt.validated_by_deepspeed:  # only DeepSpeed's pydantic models coerce; dict sections keep the value
            self.add(
                Kind.coerced,
                Severity.warning,
                loc,
                opt,
                repair=repairs.coerced(loc, plain_value(coerced)),
                value=short_repr(value),
                got=json_type(value),
                expected=opt.type,
                result=short_repr(plain_value(coerced)),
                **({} if python is None else {"python": python.word, "python_json": python.json, "comma": False}),
            )
        else:
            self.wrong_type(opt, value, loc)

    def release_refuses(self, opt: Option, kind: Kind) -> bool | None:
        """Whether the release checked for refuses a value of the wrong type (or out of range) at ``opt``, where
        the battery run on it tells otherwise than 0.19.8's rules; None where it does not."""
        if self.release is None or kind not in (Kind.wrong_type, Kind.out_of_range):
            return None
        return self.release.refuses_wrong(opt.path, "out_of_range" if kind is Kind.out_of_range else "wrong_type")

    def wrong_type(
        self, opt: Option, value: Any, loc: Location, expected: str | None = None, *, strict: bool | None = None
    ) -> None:
        # A section DeepSpeed reads as a mapping fails on anything else, wherever it sits.
        if strict is None:
            strict = self.refuses(opt)
        strict = strict or opt.kind == "section"
        severity = Severity.error if strict else Severity.warning
        python = repairs.python_literal(value)
        self.add(
            Kind.wrong_type,
            severity,
            loc,
            opt,
            repair=repairs.retyped(opt, loc, value, refused=strict),
            value=short_repr(value),
            got=json_type(value),
            expected=expected or opt.type,
            **({} if python is None else {"python": python.word, "python_json": python.json, "comma": python.comma}),
        )


_STRICTLY_VALID: dict[tuple[Option, type, Any], bool] = {}
"""Scalar values already found valid as written for an option (the same ``true``, ``2`` or ``"cpu"`` recurs in
file after file); :func:`scalar_key` says which values are remembered."""


def former_spelling(opt: Option, value: Any) -> tuple[Any, str] | None:
    """``value`` as an earlier DeepSpeed release wrote an allowed value (the schema's ``former_values``): what to
    write now, and the last covered release recorded accepting the old spelling; None for any other value."""
    for written, now in opt.meta.former_values:
        same = written == value or (
            opt.meta.case_insensitive and isinstance(value, str) and written.lower() == value.lower()
        )
        if same:
            last = _last_accepting(opt.path, written)
            return (now, last) if last is not None else None
    return None


@lru_cache(maxsize=64)
def _last_accepting(path: str, written: Any) -> str | None:
    """The newest covered release recorded accepting ``path`` written as ``written``."""
    label = f"{path}={written}"
    accepting = [release for release in COVERED if (facts := release_facts(release)) and facts.accepts_probe(label)]
    return accepting[-1] if accepting else None


def successor(opt: Option, value: Any) -> str | None:
    """What DeepSpeed maps a deprecated ``value`` of ``opt`` to, as the schema records it (``replacement=``): JSON
    text to write instead, ``""`` for nothing; None when the schema knows no successor of this value. Compared as
    DeepSpeed converts the value (``"true"``, ``"yes"`` and ``1`` are ``true`` to a boolean option)."""
    if not opt.meta.replacement:
        return None
    try:
        converted = coerce(opt, value)
    except ValueError:
        converted = value
    for written, instead in opt.meta.replacement:
        if type(written) is type(converted) and written == converted:
            return instead
    return None


def _replacement(opt: Option, value: Any) -> dict[str, str]:
    """The finding's ``replacement`` and ``section`` (:func:`successor`); nothing when there is none."""
    instead = successor(opt, value)
    return {} if instead is None else {"replacement": instead, "section": opt.parent or ""}


def _holds_auto(value: Any) -> bool:
    """Whether ``"auto"`` is written in ``value``, at any depth."""
    if isinstance(value, str):
        return value == "auto"
    if isinstance(value, Mapping):
        return any(_holds_auto(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds_auto(item) for item in value)
    return False


@lru_cache(maxsize=4096)
def _near_misses(
    tree: OptionTree, parent: str | None, key: str, version: tuple[int, int, int]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """For an unknown ``key`` under ``parent``: close spellings of its siblings, and up to five other places where
    an option of that name lives (the same typos recur from file to file, hence the cache)."""
    if by_design_ignored(key):
        return (), ()  # a comment, or a key switched off: written for DeepSpeed to ignore, nobody's typo
    candidates, lowered = _siblings(tree, parent, version)
    words = option_words(tree)
    suggestions = [s for s in candidates.close_to(key, n=3, cutoff=0.75) if meaning_kept(key, s, words)]
    normalized = key.lower().replace("-", "_")
    if normalized in lowered and lowered[normalized] not in suggestions:
        suggestions.insert(0, lowered[normalized])
    elsewhere = [
        opt.path
        for opt in tree.by_key().get(key, ())
        if opt.parent != parent and (opt.removed_in is None or parse_version(opt.removed_in) > version)
    ]
    if len(elsewhere) > MAX_ELSEWHERE:
        elsewhere = []  # a word many sections use ("enabled", "type"): where it belongs is no guess to make
    return tuple(suggestions), tuple(elsewhere)


MAX_ELSEWHERE = 3
"""Places an unknown key may belong at most for dsref to name them: a key that more options have says nothing of
which one was meant."""


@lru_cache(maxsize=256)
def _siblings(tree: OptionTree, parent: str | None, version: tuple[int, int, int]) -> tuple[Spellings, dict[str, str]]:
    """The keys an unknown key under ``parent`` may have been meant as, and the same by their lowercased,
    underscored spelling (worked out once per section: a file of many unknown keys asks for them all)."""
    candidates = [
        opt.key for opt in tree.under(parent) if opt.removed_in is None or parse_version(opt.removed_in) > version
    ]
    return Spellings(candidates), {c.lower().replace("-", "_"): c for c in candidates}


_ignored_until = lru_cache(maxsize=256)(ignored_until)
""":func:`~dsref.tree.releases.ignored_until` of an unknown key, worked out once (it reads every covered release's
facts, and the same unknown keys recur from file to file)."""

_hugging_face_fills = lru_cache(maxsize=1024)(hugging_face_fills)
""":func:`~dsref.tree.profiles.hugging_face_fills` of an ``"auto"`` written at a place, worked out once (most files
of Hugging Face's write ``"auto"`` at the same few places)."""


@cache
def _former_names(tree: OptionTree) -> dict[tuple[str | None, str], Option]:
    """The options earlier releases called otherwise (the schema's ``former_names``), by where the old key stands
    and the old key (worked out once: every key of every file is looked up)."""
    return {(opt.parent, name): opt for opt in tree for name in opt.meta.former_names}


def _removal_target(tree: OptionTree, opt: Option) -> str | None:
    """The replacement of a removed option: its own, or its nearest removed ancestor's."""
    current: Option | None = opt
    while current is not None:
        if current.meta.use_instead:
            return current.meta.use_instead
        if current.meta.removed_in:
            return None
        parent = current.parent
        while parent is not None and parent not in tree:
            parent = parent.rsplit(".", 1)[0] if "." in parent else None
            if parent is not None and parent.endswith("[]"):
                parent = parent[:-2]
        current = tree.get(parent) if parent is not None else None
    return None


def _json_kinds(forms: tuple[str, ...]) -> set[str]:
    names = {"bool": "boolean", "int": "integer", "str": "string", "list": "array", "null": "null"}
    return {names[f] for f in forms}


def _integral_float(value: Any, coerced: Any) -> bool:
    """``5e8`` written for an int option: JSON has no other way to write it, and DeepSpeed accepts it."""
    return isinstance(value, float) and isinstance(coerced, int) and not isinstance(coerced, bool)


def _integral_beyond_int64(exc: ValidationError, value: Any) -> bool:
    """``1e19`` written for an int: a whole number, refused by pydantic-core only because a float that large does not
    fit its 64-bit int (``int_parsing_size``), where a smaller one (``1e18``) passes."""
    types = {err["type"] for err in exc.errors(include_url=False, include_input=False)}
    return isinstance(value, float) and math.isfinite(value) and value.is_integer() and types == {"int_parsing_size"}


def _classify(exc: ValidationError, value: Any) -> Kind:
    """Out of range when a bound failed on a value of the right kind; not allowed when every alternative of the
    type is a fixed set of values; otherwise a wrong type."""
    types = {err["type"] for err in exc.errors(include_url=False, include_input=False)}
    if types & _RANGE_ERRORS and not isinstance(value, bool):
        return Kind.out_of_range
    if types and types <= _CHOICE_ERRORS:
        return Kind.not_allowed
    return Kind.wrong_type


def _bounds_of(exc: ValidationError) -> dict[str, Any]:
    """The bounds a value failed, as pydantic states them (for options whose bounds sit inside a union)."""
    bounds: dict[str, Any] = {}
    for err in exc.errors(include_url=False, include_input=False):
        for name, bound in (err.get("ctx") or {}).items():
            if name in ("gt", "ge", "lt", "le", "min_length", "max_length"):
                bounds.setdefault(name, bound)
    return bounds


def _probed_as(kind: Kind, value: Any, opt: Option) -> Kind:
    """The battery variant that speaks for a refused value: a value outside an option's listed values whose JSON
    type none of them has (a list for a mode) is the battery's value of the wrong type. A release that refuses that
    value in a section it reads with ``dict.get`` does so by its own assert of the listed values (compression
    training's ``quantization_type`` up to 0.19.6), and so refuses this one."""
    if kind is not Kind.not_allowed or opt.allowed is None:
        return kind
    types = {json_type(plain_value(allowed)) for allowed in opt.allowed}
    return Kind.wrong_type if json_type(value) not in types else kind
