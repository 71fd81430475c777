"""The editor JSON Schema (draft-07) of ``ds_config.json``, generated from the option tree.

Editors read it to complete keys, show descriptions and defaults on hover and
underline mistakes as they are typed. Every fact comes from
:func:`~dsref.tree.options.option_tree`: the value type of a leaf is pydantic's JSON
Schema of the field's annotation and constraints, cleaned into plain draft-07;
everything else (defaults, allowed values and their meanings, aliases,
deprecations, removals, which sections reject unknown keys, Hugging Face
``"auto"``) is written from the option's own facts. Texts go through
:func:`~dsref.text.i18n.option_text` and this module's message table, so the Chinese
schema is the same schema with Chinese words.

Two profiles: ``deepspeed`` accepts what DeepSpeed itself accepts;
``hf`` also accepts ``"auto"`` where Hugging Face Transformers or Accelerate
fill it in before DeepSpeed sees the file.

Besides draft-07, the schema uses only the keywords of VS Code's JSON language
service listed in :data:`EDITOR_KEYWORDS`.

>>> schema = build_schema("en", "deepspeed")
>>> schema["$schema"]
'http://json-schema.org/draft-07/schema#'
>>> stage = schema["properties"]["zero_optimization"]["anyOf"][0]["properties"]["stage"]
>>> stage["enum"], stage["default"]
([0, 1, 2, 3], 0)
>>> schema["properties"]["zero_optimization"]["anyOf"][0]["additionalProperties"]
False
>>> "auto" in json.dumps(build_schema("en", "hf")["properties"]["train_batch_size"])
True
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Iterator, Mapping, Sequence
from functools import reduce
from typing import TYPE_CHECKING, Annotated, Any, Union, get_args, get_origin

from ..records import record
from ..schema import UNSET, Meta
from ..text.i18n import messages, option_text
from ..tree.links import option_url, page_url, schema_file, schema_url
from ..tree.options import Option, OptionTree, option_tree
from ..tree.profiles import PROFILES, Profile
from ..tree.values import json_type
from ..tree.versions import DEEPSPEED_VERSION

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = [
    "DRAFT_07",
    "DRAFT_07_KEYWORDS",
    "EDITOR_KEYWORDS",
    "RULES",
    "SNIPPETS",
    "Rule",
    "Snippet",
    "build_schema",
    "option_schemas",
    "render",
    "schema_files",
    "snippet_body",
]

DRAFT_07 = "http://json-schema.org/draft-07/schema#"

DRAFT_07_KEYWORDS = frozenset(
    {
        "$schema", "$id", "$ref", "$comment", "title", "description", "default", "readOnly", "writeOnly",
        "examples", "definitions", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum",
        "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "items", "additionalItems",
        "maxItems", "minItems", "uniqueItems", "contains", "maxProperties", "minProperties", "required",
        "properties", "patternProperties", "additionalProperties", "dependencies", "propertyNames", "if",
        "then", "else", "allOf", "anyOf", "oneOf", "not", "format", "contentMediaType", "contentEncoding",
    }
)  # fmt: skip
"""Every keyword of JSON Schema draft-07 (validation and annotation vocabularies)."""

EDITOR_KEYWORDS = frozenset(
    {
        "markdownDescription",
        "enumDescriptions",
        "deprecationMessage",
        "errorMessage",
        "doNotSuggest",
        "defaultSnippets",
    }
)
"""VS Code's extensions to JSON Schema that dsref uses (``vscode-json-languageservice``'s ``JSONSchema``).

Other validators ignore them: they are annotations, they change no verdict."""

_FORMATS_07 = frozenset(
    {"date-time", "date", "time", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri",
     "uri-reference", "iri", "iri-reference", "uri-template", "json-pointer", "relative-json-pointer", "regex"}
)  # fmt: skip
_PYDANTIC_BOUNDS = {"ge": "minimum", "gt": "exclusiveMinimum", "le": "maximum", "lt": "exclusiveMaximum"}
_DROPPED = frozenset({"title", "description", "examples"})
"""Keywords pydantic writes that dsref replaces with its own texts."""

M = messages(
    "jsonschema",
    title="DeepSpeed configuration (ds_config.json)",
    root="The DeepSpeed {version} configuration file, as the dsref reference describes it.",
    root_hf='The DeepSpeed {version} configuration file as Hugging Face Transformers and Accelerate read it: "auto" '
    "is accepted where they fill in the value.",
    schema_key="The JSON Schema this file follows. DeepSpeed ignores this key.",
    default="Default",
    unset="not set",
    unit="Unit",
    stages="ZeRO stages",
    since="Since",
    docs_default="DeepSpeed's documentation says {value}; DeepSpeed {version} uses the default above.",
    hf_auto='Hugging Face fills "auto" here ({who}): {source}.',
    hf_auto_plain='Hugging Face fills "auto" here ({who}).',
    auto_value="Filled in by Hugging Face ({who}) before DeepSpeed reads the file.",
    parsed_unused="DeepSpeed reads this key, but nothing uses its value.",
    reference="dsref reference",
    alias="Another accepted name of `{key}`.",
    deprecated="Deprecated: use `{use_instead}` instead.",
    deprecated_plain="Deprecated: still accepted, but superseded.",
    deprecated_alias="`{alias}` is an old name of `{key}`; DeepSpeed still maps it, with a warning.",
    deprecated_form="Writing `{key}` as a {form} value is deprecated; write the section instead.",
    docs_name="`{name}` is named in DeepSpeed's documentation, but DeepSpeed does not read it; the key is `{key}`.",
    docs_only="`{key}` is listed in DeepSpeed's documentation, but DeepSpeed {version} rejects it: remove it.",
    docs_only_ignored="`{key}` is listed in DeepSpeed's documentation, but DeepSpeed {version} ignores it.",
    removed="`{key}` was removed in DeepSpeed {removed_in}; DeepSpeed {version} refuses the file while it is there.",
    removed_use="Use `{use_instead}` instead.",
    unrepresentable="Only Python code can set this option: no JSON value is accepted.",
    rule_compute_grad_norm="compute_grad_norm false works only at ZeRO stage 1 or 2.",
    rule_offload_ratio="An offload_optimizer ratio below 1 (partial offload) needs ZeRO stage 3.",
    rule_fp16_master="fp16_master_weights_and_grads needs ZeRO stage 1, 2 or 3.",
    rule_bf16_master="bf16_master_weights_and_grads needs ZeRO stage 1, 2 or 3.",
    rule_bf16_states_stage="bf16_optimizer_states needs ZeRO stage 1, 2 or 3.",
    rule_bf16_states_master="bf16_optimizer_states needs bf16_master_weights_and_grads set to true.",
    rule_fp16_and_bf16="fp16 and bf16 cannot both be enabled.",
    rule_sum_stage3='gradient_allreduce_op "sum" does not work with ZeRO stage 3.',
    rule_sum_zenflow='gradient_allreduce_op "sum" does not work with ZenFlow.',
    rule_sum_deepcompile='gradient_allreduce_op "sum" does not work with DeepCompile.',
    snippet_zero2="ZeRO-2",
    snippet_zero2_about="ZeRO stage 2 (optimizer states and gradients partitioned), bf16, no offload.",
    snippet_zero3_offload="ZeRO-3 with CPU offload",
    snippet_zero3_offload_about="ZeRO stage 3 with optimizer states and parameters offloaded to CPU memory, bf16.",
    snippet_bf16="bf16 mixed precision",
    snippet_bf16_about="bf16 mixed-precision training without ZeRO.",
)


# -- rules that JSON Schema can express (if/then) ------------------------------


@record
class Rule:
    """A value DeepSpeed refuses while building its config, given other options.

    ``target`` is refused when it matches ``refused`` and every ``(path, schema)``
    of ``when`` holds. An absent key holds or not according to its default (and,
    for ``zero_optimization``, its old ``true``/``false`` form). Each rule has a
    message ``rule_<name>`` in this module's table.
    """

    name: str
    target: str
    refused: Mapping[str, Any]
    when: tuple[tuple[str, Mapping[str, Any]], ...]


_TRUE: Mapping[str, Any] = {"const": True}
_STAGE = "zero_optimization.stage"


def _ci_pattern(words: Sequence[str]) -> str:
    r"""A regex matching any of ``words`` whatever its case, written with character classes (any regex dialect).

    >>> _ci_pattern(["fp16", "bf16"])
    '^([fF][pP]16|[bB][fF]16)$'
    """

    def one(word: str) -> str:
        return "".join(f"[{c.lower()}{c.upper()}]" if c.lower() != c.upper() else re.escape(c) for c in word)

    return "^(" + "|".join(one(w) for w in words) + ")$"


def _ci(word: str) -> Mapping[str, Any]:
    """A string equal to ``word`` ignoring case (DeepSpeed lower-cases the value first)."""
    return {"type": "string", "pattern": _ci_pattern([word])}


RULES: tuple[Rule, ...] = (
    # deepspeed/runtime/zero/config.py: compute_grad_norm_valid, offload_ratio_check (pydantic, config time)
    Rule("compute_grad_norm", "zero_optimization.compute_grad_norm", {"const": False}, ((_STAGE, {"enum": [0, 3]}),)),
    Rule(
        "offload_ratio",
        "zero_optimization.offload_optimizer.ratio",
        {"type": "number", "exclusiveMaximum": 1},
        ((_STAGE, {"enum": [0, 1, 2]}),),
    ),
    # deepspeed/runtime/config.py: DeepSpeedConfig.__init__ and _do_error_check (config time)
    Rule("fp16_master", "fp16.fp16_master_weights_and_grads", _TRUE, ((_STAGE, {"enum": [0]}),)),
    Rule("bf16_master", "bf16.bf16_master_weights_and_grads", _TRUE, ((_STAGE, {"enum": [0]}),)),
    Rule("bf16_states_stage", "bf16.bf16_optimizer_states", _TRUE, ((_STAGE, {"enum": [0]}),)),
    Rule(
        "bf16_states_master",
        "bf16.bf16_optimizer_states",
        _TRUE,
        (("bf16.bf16_master_weights_and_grads", {"const": False}),),
    ),
    Rule("fp16_and_bf16", "bf16.enabled", _TRUE, (("fp16.enabled", _TRUE),)),
    Rule("sum_stage3", "gradient_allreduce_op", _ci("sum"), ((_STAGE, {"enum": [3]}),)),
    Rule("sum_zenflow", "gradient_allreduce_op", _ci("sum"), (("zero_optimization.zenflow", {"type": "object"}),)),
    Rule("sum_deepcompile", "gradient_allreduce_op", _ci("sum"), (("compile.deepcompile", _TRUE),)),
)
"""Cross-option checks DeepSpeed 0.19.8 makes while it builds its config, as JSON Schema can state them."""


# -- starting points for a new file -------------------------------------------


class _Fill:
    """Snippet value markers: the option's own example or default (``"auto"`` in the hf profile, where HF fills it)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


EXAMPLE = _Fill("EXAMPLE")
DEFAULT = _Fill("DEFAULT")


@record
class Snippet:
    """A starting point offered by editors (``defaultSnippets``), for a whole file and for ``sections``."""

    name: str
    values: tuple[tuple[str, Any], ...]
    """(option path, value), a value being explicit, :data:`EXAMPLE` or :data:`DEFAULT`."""
    sections: tuple[str, ...] = ()


_BATCH: tuple[tuple[str, Any], ...] = (
    ("train_micro_batch_size_per_gpu", EXAMPLE),
    ("gradient_accumulation_steps", EXAMPLE),
    ("gradient_clipping", EXAMPLE),
)

SNIPPETS: tuple[Snippet, ...] = (
    Snippet(
        "zero2",
        (
            *_BATCH,
            ("bf16.enabled", EXAMPLE),
            (_STAGE, 2),
            ("zero_optimization.overlap_comm", True),
            ("zero_optimization.contiguous_gradients", DEFAULT),
            ("zero_optimization.reduce_bucket_size", DEFAULT),
            ("zero_optimization.allgather_bucket_size", DEFAULT),
        ),
        sections=("zero_optimization",),
    ),
    Snippet(
        "zero3_offload",
        (
            *_BATCH,
            ("bf16.enabled", EXAMPLE),
            (_STAGE, 3),
            ("zero_optimization.offload_optimizer.device", "cpu"),
            ("zero_optimization.offload_optimizer.pin_memory", DEFAULT),
            ("zero_optimization.offload_param.device", "cpu"),
            ("zero_optimization.offload_param.pin_memory", DEFAULT),
            ("zero_optimization.overlap_comm", True),
            ("zero_optimization.reduce_bucket_size", DEFAULT),
            ("zero_optimization.stage3_prefetch_bucket_size", DEFAULT),
            ("zero_optimization.stage3_param_persistence_threshold", DEFAULT),
            ("zero_optimization.stage3_max_live_parameters", DEFAULT),
            ("zero_optimization.stage3_gather_16bit_weights_on_model_save", True),
        ),
        sections=("zero_optimization",),
    ),
    Snippet("bf16", (*_BATCH, ("bf16.enabled", EXAMPLE)), sections=("bf16",)),
)
"""The starting points the issue asks for: ZeRO-2, ZeRO-3 with CPU offload, bf16."""


def snippet_body(snippet: Snippet, profile: Profile = "deepspeed", tree: OptionTree | None = None) -> dict[str, Any]:
    """The config a snippet inserts, in ``profile``: markers become the option's example/default, or ``"auto"``.

    >>> snippet_body(SNIPPETS[2], "hf")["bf16"]
    {'enabled': 'auto'}
    >>> snippet_body(SNIPPETS[2])["bf16"]
    {'enabled': True}
    """
    tree = tree or option_tree()
    body: dict[str, Any] = {}
    for path, value in snippet.values:
        opt = tree.get(path)
        if isinstance(value, _Fill):
            if profile == "hf" and opt.meta.hf_auto is not None and "transformers" in opt.meta.hf_auto.by:
                value = "auto"
            elif value is EXAMPLE and opt.meta.example is not UNSET:
                value = opt.meta.example
            else:
                value = opt.default
        node = body
        steps = path.split(".")
        for step in steps[:-1]:
            node = node.setdefault(step, {})
        node[steps[-1]] = value
    return body


# -- building -----------------------------------------------------------------


class _Builder:
    def __init__(self, tree: OptionTree, lang: Lang, profile: Profile) -> None:
        self.tree = tree
        self.lang = lang
        self.profile = profile
        self.by_path: dict[str, dict[str, Any]] = {}
        self.filled = True
        """Whether Hugging Face fills the ``"auto"`` of the options being built: not under an alias, where it does
        not look (:func:`~dsref.tree.profiles.hugging_face_fills`)."""

    def text(self, name: str, /, **args: Any) -> str:
        return M.text(name, self.lang, **args)

    # -- objects ------------------------------------------------------------
    def properties(self, parent: str | None) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for opt in self.tree.under(parent):
            schema = self.option(opt)
            props[opt.key] = schema
            aliased = schema
            if (opt.aliases or opt.deprecated_aliases) and self.profile == "hf" and self.filled:
                aliased = self.unfilled(opt)
            for alias in opt.aliases:
                props[alias] = {**aliased, "markdownDescription": self.alias_text(opt, aliased), "doNotSuggest": True}
                props[alias]["description"] = self.text("alias", key=opt.key) + "\n" + aliased["description"]
            for alias in opt.deprecated_aliases:
                props[alias] = {
                    **aliased,
                    "deprecationMessage": self.text("deprecated_alias", alias=alias, key=opt.key),
                }
            for name in opt.meta.docs_names:
                props[name] = self.docs_name(opt, name)
        return props

    def unfilled(self, opt: Option) -> dict[str, Any]:
        """``opt``'s schema where Hugging Face fills no ``"auto"`` (under an alias, for the ``hf`` profile)."""
        self.filled = False
        try:
            return self.option(opt, record=False)
        finally:
            self.filled = True

    def object_schema(self, parent: str | None, reject_unknown: bool) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object", "properties": self.properties(parent)}
        if reject_unknown:
            schema["additionalProperties"] = False
        return schema

    def alias_text(self, opt: Option, schema: Mapping[str, Any]) -> str:
        return self.text("alias", key=opt.key) + "\n\n" + str(schema.get("markdownDescription", ""))

    def docs_name(self, opt: Option, name: str) -> dict[str, Any]:
        message = self.text("docs_name", name=name, key=opt.key)
        url = option_url(opt.path, self.lang)
        schema: dict[str, Any] = {
            "description": f"{message}\n{url}",
            "markdownDescription": f"{message}\n\n[{self.text('reference')}]({url})",
            "doNotSuggest": True,
        }
        if opt.validated_by_deepspeed:
            schema.update({"not": {}, "errorMessage": message})  # DeepSpeed's pydantic model rejects the key
        else:
            schema["deprecationMessage"] = message  # read with dict.get: silently ignored
        return schema

    # -- one option -----------------------------------------------------------
    def option(self, opt: Option, *, record: bool = True) -> dict[str, Any]:
        """``opt``'s schema; ``record``: remember it as the option's own (:func:`option_schemas`)."""
        if not record:
            saved = self.by_path
            self.by_path = {}
            try:
                return self.option(opt)
            finally:
                self.by_path = saved
        schema = self.texts(opt)
        if opt.removed_for(DEEPSPEED_VERSION):
            message = self.text("removed", key=opt.key, removed_in=opt.removed_in, version=DEEPSPEED_VERSION)
            if opt.meta.use_instead:
                message += " " + self.text("removed_use", use_instead=opt.meta.use_instead)
            schema.update({"not": {}, "errorMessage": message, "doNotSuggest": True})
            self.by_path[opt.path] = schema
            return schema
        if opt.meta.docs_only:
            if opt.validated_by_deepspeed:
                message = self.text("docs_only", key=opt.key, version=DEEPSPEED_VERSION)
                schema.update({"not": {}, "errorMessage": message, "doNotSuggest": True})
            else:
                message = self.text("docs_only_ignored", key=opt.key, version=DEEPSPEED_VERSION)
                schema.update({"deprecationMessage": message, "doNotSuggest": True})
            self.by_path[opt.path] = schema
            return schema
        body = self.section(opt) if opt.kind == "section" else self.leaf(opt)
        if self.profile == "hf" and self.filled and opt.hf_auto and not _accepts_auto(body):
            body = _with_alternative(body, self.auto_value(opt))
        schema.update(body)
        if _json_default(opt) and not _unrepresentable(body):
            schema["default"] = opt.default
        if opt.meta.deprecated:
            use = opt.meta.use_instead
            schema["deprecationMessage"] = (
                self.text("deprecated", use_instead=use) if use else self.text("deprecated_plain")
            )
        snippets = [s for s in SNIPPETS if opt.path in s.sections]
        if snippets:
            schema["defaultSnippets"] = [self.snippet(s, opt.path) for s in snippets]
        self.by_path[opt.path] = schema
        return schema

    def auto_value(self, opt: Option) -> dict[str, Any]:
        assert opt.meta.hf_auto is not None
        return {
            "type": "string",
            "const": "auto",
            "description": self.text("auto_value", who=", ".join(opt.meta.hf_auto.by)),
        }

    def section(self, opt: Option) -> dict[str, Any]:
        assert opt.model is not None
        entry = self.object_schema(self.tree.child_parent(opt), opt.model.unknown_keys == "reject")
        if opt.container == "map":
            main: dict[str, Any] = {"type": "object", "additionalProperties": entry}
        elif opt.container == "list":
            main = {"type": "array", "items": entry}
        else:
            main = entry
        alternatives: list[dict[str, Any]] = []
        scalars = [arg for arg in _union_args(opt.annotation) if not _is_section_type(arg) and arg is not type(None)]
        if scalars:
            alternatives.append(_type_schema(reduce(lambda a, b: Union[a, b], scalars)))  # noqa: UP007
        old_forms = [_JSON_KINDS[form] for form in opt.meta.deprecated_forms]
        alternatives.extend({"type": kind} for kind in old_forms)
        if opt.nullable:
            alternatives.append({"type": "null"})
        body: dict[str, Any] = {"anyOf": [main, *alternatives]} if alternatives else main
        # The warning of an old form sits in an if/then, not in the alternative itself: VS Code counts a
        # deprecation as a problem of the alternative and would then report the section's type error instead.
        warnings = [
            {"if": {"type": kind}, "then": {"deprecationMessage": self.text("deprecated_form", key=opt.key, form=kind)}}
            for kind in old_forms
        ]
        if len(warnings) == 1:
            body.update(warnings[0])
        elif warnings:
            body["allOf"] = warnings
        return body

    def leaf(self, opt: Option) -> dict[str, Any]:
        constraints = tuple(item for item in opt.field_info.metadata if not isinstance(item, Meta))
        parts = (opt.annotation, *constraints)
        annotation = Annotated[parts] if constraints else opt.annotation
        body = _type_schema(annotation)
        if opt.meta.case_insensitive:
            body = _case_insensitive(body)
        if opt.meta.enum_docs:
            _attach_enum_docs(body, self.enum_texts(opt))
        if _unrepresentable(body):
            body["errorMessage"] = self.text("unrepresentable")
        return body

    def enum_texts(self, opt: Option) -> dict[Any, str]:
        return {
            _plain(value): option_text(opt.path, text, self.lang, note=f"enum:{value}") or text
            for value, text in opt.meta.enum_docs
        }

    # -- texts ----------------------------------------------------------------
    def texts(self, opt: Option) -> dict[str, Any]:
        """``description`` (plain text, then the reference URL) and ``markdownDescription`` (with the facts)."""
        lang = self.lang
        meta = opt.meta
        own = _unwrap(option_text(opt.path, opt.description, lang) or "")
        url = option_url(opt.path, lang)
        facts: list[str] = []
        if opt.default is not UNSET and not opt.removed_for(DEEPSPEED_VERSION) and not meta.docs_only:
            shown = f"`{_json(opt.default)}`" if _json_default(opt) else self.text("unset")
            facts.append(f"**{self.text('default')}:** {shown}")
        if meta.unit:
            from ..text.units import UNITS

            facts.append(f"**{self.text('unit')}:** {UNITS.text(meta.unit, lang)}")
        if opt.stages is not None:
            facts.append(f"**{self.text('stages')}:** {', '.join(str(s) for s in opt.stages)}")
        if opt.since:
            facts.append(f"**{self.text('since')}:** {opt.since}")
        notes: list[str] = []
        if meta.default_note:
            notes.append(option_text(opt.path, meta.default_note, lang, note="default_note") or meta.default_note)
        if meta.docs_default is not UNSET:
            notes.append(self.text("docs_default", value=f"`{_json(meta.docs_default)}`", version=DEEPSPEED_VERSION))
        if meta.removal_note and opt.removed_for(DEEPSPEED_VERSION):
            notes.append(option_text(opt.path, meta.removal_note, lang, note="removal_note") or meta.removal_note)
        if meta.parsed_unused:
            notes.append(self.text("parsed_unused"))
        if meta.hf_auto is not None:
            who = ", ".join(meta.hf_auto.by)
            if meta.hf_auto.source:
                source = option_text(opt.path, meta.hf_auto.source, lang, note="hf_source") or meta.hf_auto.source
                notes.append(self.text("hf_auto", who=who, source=f"`{source}`"))
            else:
                notes.append(self.text("hf_auto_plain", who=who))
        markdown = [own] if own else []
        if facts:
            markdown.append(" · ".join(facts))
        markdown.extend(notes)
        markdown.append(f"[{self.text('reference')}]({url})")
        facts_line = _unmark(" · ".join(facts))
        plain = "\n".join(part for part in (own, facts_line, *[_unmark(n) for n in notes], url) if part)
        return {"description": plain, "markdownDescription": "\n\n".join(markdown)}

    # -- snippets and rules ---------------------------------------------------
    def snippet(self, snippet: Snippet, section: str | None = None) -> dict[str, Any]:
        body: Any = snippet_body(snippet, self.profile, self.tree)
        if section is not None:
            body = body[section]
        return {
            "label": self.text(f"snippet_{snippet.name}"),
            "description": self.text(f"snippet_{snippet.name}_about"),
            "body": body,
        }

    def rule(self, rule: Rule) -> dict[str, Any]:
        target = self.tree.get(rule.target)
        refused = dict(rule.refused)
        if self.profile == "hf" and target.hf_auto:
            refused = {"allOf": [refused, {"not": {"const": "auto"}}]}
        conditions = [self.holds(rule.target, refused, absent_holds=False)]
        conditions += [self.holds(path, cond) for path, cond in rule.when]
        message = self.text(f"rule_{rule.name}")
        then = self.at(rule.target, {"not": refused, "errorMessage": message})
        return {"if": {"allOf": conditions}, "then": then}

    def spellings(self, parent: str | None, key: str) -> list[str]:
        hit = self.tree.lookup_key(parent, key)
        assert hit is not None, f"no key {key!r} under {parent!r}"
        opt = hit[0]
        return [opt.key, *opt.aliases, *opt.deprecated_aliases]

    def holds(self, path: str, cond: Mapping[str, Any], absent_holds: bool | None = None) -> dict[str, Any]:
        """A schema for the root object that holds when the option at ``path`` has a value matching ``cond``."""
        opt = self.tree.get(path)
        if absent_holds is None:
            absent_holds = opt.default is not UNSET and _matches(opt.default, cond)
        steps = path.split(".")
        chain = [self.tree.get(".".join(steps[: i + 1])) for i in range(len(steps))]
        node: dict[str, Any] = dict(cond)
        for depth in range(len(steps) - 1, -1, -1):
            parent = chain[depth].parent
            names = self.spellings(parent, steps[depth])
            branches: list[dict[str, Any]] = []
            for i, name in enumerate(names):
                # doNotSuggest: VS Code's JSON service also proposes the properties of a rule's `if`, with the value
                # the rule tests for as what to insert (stage 3, compute_grad_norm false) instead of the default
                branch: dict[str, Any] = {
                    "type": "object",
                    "properties": {name: {**node, "doNotSuggest": True}},
                    "required": [name],
                }
                if i:
                    branch["not"] = {"type": "object", "required": names[:i]}
                branches.append(branch)
            section = chain[depth]
            if depth < len(steps) - 1 and "bool" in section.meta.deprecated_forms:
                for flag in (True, False):
                    legacy = _legacy_value(self.tree, section, steps[depth + 1 :], flag)
                    if legacy is not UNSET and _matches(legacy, cond):
                        branches.extend(
                            {"type": "object", "properties": {name: {"const": flag}}, "required": [name]}
                            for name in names
                        )
            if absent_holds:
                present = [{"required": [name]} for name in names]
                branches.append({"type": "object", "not": present[0] if len(present) == 1 else {"anyOf": present}})
            node = branches[0] if len(branches) == 1 else {"anyOf": branches}
        return node

    def at(self, path: str, schema: Mapping[str, Any]) -> dict[str, Any]:
        """A schema for the root object that applies ``schema`` to the option at ``path``, under every spelling."""
        steps = path.split(".")
        node: dict[str, Any] = dict(schema)
        for depth in range(len(steps) - 1, -1, -1):
            parent = self.tree.get(".".join(steps[: depth + 1])).parent
            spellings = self.spellings(parent, steps[depth])
            node = {"type": "object", "properties": {name: {**node, "doNotSuggest": True} for name in spellings}}
        return node

    # -- the whole schema -------------------------------------------------------
    def build(self) -> dict[str, Any]:
        lang, profile = self.lang, self.profile
        properties: dict[str, Any] = {"$schema": {"type": "string", "description": self.text("schema_key")}}
        properties.update(self.properties(None))
        return {
            "$schema": DRAFT_07,
            "$id": schema_url(lang, profile),
            "title": self.text("title"),
            # SchemaStore's convention: the description, then a line with the documentation's address
            "description": self.text("root_hf" if profile == "hf" else "root", version=DEEPSPEED_VERSION)
            + "\n"
            + page_url("guides/huggingface/" if profile == "hf" else "", lang),
            "type": "object",
            "properties": properties,
            "additionalProperties": True,
            "allOf": [self.rule(rule) for rule in RULES],
            "defaultSnippets": [self.snippet(snippet) for snippet in SNIPPETS],
        }


def build_schema(lang: Lang = "en", profile: Profile = "deepspeed", tree: OptionTree | None = None) -> dict[str, Any]:
    """The editor JSON Schema of ``ds_config.json`` in ``lang``, for ``profile``."""
    return _Builder(tree or option_tree(), lang, profile).build()


def option_schemas(
    lang: Lang = "en", profile: Profile = "deepspeed", tree: OptionTree | None = None
) -> dict[str, dict[str, Any]]:
    """Each option's own schema in the built schema, by canonical path (for checks that name the option)."""
    builder = _Builder(tree or option_tree(), lang, profile)
    builder.build()
    return builder.by_path


def schema_files(tree: OptionTree | None = None) -> dict[str, str]:
    """Every committed schema file (``schemas/<name>``): English and Chinese, both profiles, by file name."""
    return {
        schema_file(lang, profile): render(build_schema(lang, profile, tree))
        for profile in PROFILES
        for lang in ("en", "zh")
    }


def render(schema: Mapping[str, Any]) -> str:
    """The schema as the committed files hold it: UTF-8 JSON as Prettier formats it (SchemaStore's CI checks that)."""
    from .prettier_json import format_json

    return format_json(schema)


# -- types --------------------------------------------------------------------

_JSON_KINDS = {"bool": "boolean", "int": "integer", "str": "string", "list": "array", "null": "null"}


def _union_args(tp: Any) -> tuple[Any, ...]:
    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if get_origin(tp) in (Union, types.UnionType):
        return get_args(tp)
    return (tp,)


def _is_section_type(tp: Any) -> bool:
    from pydantic import BaseModel

    while get_origin(tp) is Annotated:
        tp = get_args(tp)[0]
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return True
    origin = get_origin(tp)
    if origin in (list, dict):
        args = get_args(tp)
        return bool(args) and _is_section_type(args[-1])
    return False


def _type_schema(annotation: Any) -> dict[str, Any]:
    """pydantic's JSON Schema of a value type, as plain draft-07 without titles."""
    from pydantic import TypeAdapter

    raw = TypeAdapter(_input_type(annotation)).json_schema(mode="validation")
    return _clean(raw, raw.get("$defs", {}))


def _input_type(annotation: Any) -> Any:
    """The type of the JSON a field accepts, where a before-validator widens it (a single string for a list)."""
    from ..schema import StrOrStrList

    if annotation == StrOrStrList:
        return Union[str, list[str]]  # noqa: UP007
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return Union[tuple(_input_type(arg) for arg in get_args(annotation))]  # noqa: UP007
    if origin is Annotated:
        base, *extra = get_args(annotation)
        widened = _input_type(base)
        parts = (widened, *extra)
        return annotation if widened is base else Annotated[parts]
    return annotation


def _clean(node: Any, defs: Mapping[str, Any]) -> Any:
    """Inline ``$ref``s, turn 2020-12 and pydantic spellings into draft-07, drop titles; refuse anything unknown."""
    if isinstance(node, list):
        return [_clean(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        target = defs[node["$ref"].rsplit("/", 1)[-1]]
        merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
        return _clean(merged, defs)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DROPPED or key == "$defs":
            continue
        if key == "format":
            if value in _FORMATS_07:
                out[key] = value
            continue
        if key == "prefixItems":
            out["items"] = _clean(value, defs)
            out["additionalItems"] = False
            continue
        if key in _PYDANTIC_BOUNDS:
            out[_PYDANTIC_BOUNDS[key]] = value
            continue
        if key not in DRAFT_07_KEYWORDS:
            raise ValueError(f"pydantic wrote the keyword {key!r}, which dsref does not turn into draft-07")
        if key in ("properties", "patternProperties", "definitions"):
            out[key] = {name: _clean(sub, defs) for name, sub in value.items()}
        else:
            out[key] = _clean(value, defs)
    if "anyOf" in out and len(out) == 1 and len(out["anyOf"]) == 1:
        return dict(out["anyOf"][0])
    return out


def _case_insensitive(body: dict[str, Any]) -> dict[str, Any]:
    """Accept any case of the string values of an enum (DeepSpeed lower- or upper-cases them before checking)."""
    for node in _enum_nodes(body):
        words = [v for v in node["enum"] if isinstance(v, str)]
        if not words:
            continue
        alternative = {"type": "string", "pattern": _ci_pattern(words)}
        return _with_alternative(body, alternative)
    return body


def _enum_nodes(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    if "enum" in body:
        yield body
    for branch in body.get("anyOf", ()):
        yield from _enum_nodes(branch)


def _attach_enum_docs(body: dict[str, Any], texts: Mapping[Any, str]) -> None:
    for node in _enum_nodes(body):
        node["enumDescriptions"] = [texts.get(_plain(value), "") for value in node["enum"]]


def _with_alternative(body: dict[str, Any], alternative: dict[str, Any]) -> dict[str, Any]:
    """``body`` or ``alternative``: added to ``body``'s own ``anyOf`` when it has one and nothing else."""
    if set(body) == {"anyOf"}:
        return {"anyOf": [*body["anyOf"], alternative]}
    if "anyOf" in body:
        outer = {k: v for k, v in body.items() if k not in ("type", "anyOf")}
        return {**outer, "anyOf": [{k: v for k, v in body.items() if k not in outer}, alternative]}
    return {"anyOf": [body, alternative]}


def _accepts_auto(body: Mapping[str, Any]) -> bool:
    """Whether the type already takes the string ``"auto"`` (its own literal, as in ``int | "auto"``)."""
    if body.get("const") == "auto" or "auto" in body.get("enum", ()):
        return True
    return any(_accepts_auto(branch) for branch in body.get("anyOf", ()))


def _json_default(opt: Option) -> bool:
    """Whether the option's default is a value one could write: not for ``None`` where ``null`` is refused.

    DeepSpeed reads such an option as "not set" when the key is absent, but refuses an explicit ``null``, so
    ``"default": null`` would offer editors a value that fails.
    """
    return opt.default is not UNSET and (opt.default is not None or opt.nullable)


def _unrepresentable(body: Mapping[str, Any]) -> bool:
    """A type no JSON value satisfies (``{"not": {}}``: e.g. a ``torch.dtype`` only Python code can set)."""
    return body.get("not") == {} and len(body) <= 2


def _legacy_value(tree: OptionTree, section: Option, rest: Sequence[str], flag: bool) -> Any:
    """What the section's old ``true``/``false`` form sets the option ``rest`` below it to (read from the model)."""
    model = tree.root_model.model_validate({section.key: flag})
    value: Any = getattr(model, section.field_name)
    parent = tree.child_parent(section)
    for step in rest:
        hit = tree.lookup_key(parent, step)
        if hit is None or value is None:
            return UNSET  # the old form does not reach that far (e.g. no offload section)
        value = getattr(value, hit[0].field_name)
        parent = tree.child_parent(hit[0])
    return _plain(value)


def _matches(value: Any, cond: Mapping[str, Any]) -> bool:
    """A small evaluator of the condition schemas :data:`RULES` use (const, enum, type, pattern, bounds, allOf, not)."""
    for key, expected in cond.items():
        if key == "const":
            ok = _same(value, expected)
        elif key == "enum":
            ok = any(_same(value, item) for item in expected)
        elif key == "type":
            ok = json_type(value) == expected or (expected == "number" and json_type(value) == "integer")
        elif key == "pattern":
            ok = isinstance(value, str) and re.search(expected, value) is not None
        elif key == "exclusiveMaximum":
            ok = _is_number(value) and value < expected
        elif key == "allOf":
            ok = all(_matches(value, sub) for sub in expected)
        elif key == "not":
            ok = not _matches(value, expected)
        else:
            raise ValueError(f"rule conditions cannot use {key!r}")
        if not ok:
            return False
    return True


def _same(a: Any, b: Any) -> bool:
    """JSON equality: numbers by value (``1 == 1.0``), booleans apart from numbers."""
    if _is_number(a) and _is_number(b):
        return bool(a == b)
    return json_type(a) == json_type(b) and bool(a == b)


def _is_number(value: Any) -> bool:
    return json_type(value) in ("integer", "number")


def _plain(value: Any) -> Any:
    from enum import Enum

    return value.value if isinstance(value, Enum) else value


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _unwrap(text: str) -> str:
    r"""Join the hard-wrapped lines of a paragraph (docstrings are wrapped at 120 columns); keep paragraph breaks.

    >>> _unwrap("one\ntwo\n\nthree")
    'one two\n\nthree'
    """
    return re.sub(r"(?<!\n)\n(?!\n)", " ", text.strip())


def _unmark(text: str) -> str:
    """Markdown emphasis and code marks out of a note, for the plain ``description``."""
    return text.replace("**", "").replace("`", "")
