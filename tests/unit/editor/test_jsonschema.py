"""The editor JSON Schema: committed copies current, pure draft-07, faithful to the option tree and to validate().

The agreement tests put the exported schema (run by the ``jsonschema`` library) and
:func:`dsref.check.validate.validation.validate` side by side, on the real configs of ``../shared/corpus/real/`` and on
a grid of
probe values for every option, and require the same verdict at the same place; the differences that remain are
listed below, each with its reason.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import itertools
import json
import logging
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

import hjson
import pytest

from dsref.check.findings import Severity
from dsref.check.settings import CheckSettings
from dsref.check.validate.validation import validate
from dsref.editor.jsonschema import (
    DRAFT_07_KEYWORDS,
    EDITOR_KEYWORDS,
    RULES,
    SNIPPETS,
    _matches,
    build_schema,
    option_schemas,
    schema_files,
    snippet_body,
)
from dsref.editor.schemastore import catalog_entry
from dsref.schema import UNSET, option
from dsref.schema.config import DeepSpeedConfig
from dsref.tree.links import option_url, schema_url
from dsref.tree.options import Option, OptionTree
from dsref.tree.profiles import PROFILES, Profile
from dsref.tree.versions import DEEPSPEED_VERSION
from tests import needs
from tests.cli import run_dsref
from tests.conftest import require_deepspeed, shared_path

jsonschema = needs.module("jsonschema")  # the reference validator (the test extra)

ROOT = Path(__file__).resolve().parents[3]
SCHEMAS = ROOT / "schemas"
Verdict = tuple[str, tuple[str | int, ...]]


@cache
def schema(lang: str = "en", profile: Profile = "deepspeed") -> dict[str, Any]:
    return build_schema(lang, profile)  # type: ignore[arg-type]


@cache
def subschemas(lang: str = "en", profile: Profile = "deepspeed") -> dict[str, dict[str, Any]]:
    return option_schemas(lang, profile)  # type: ignore[arg-type]


@cache
def validator(profile: Profile) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(schema("en", profile))


def live(opt: Option) -> bool:
    return not opt.removed_for(DEEPSPEED_VERSION) and not opt.meta.docs_only


# -- the committed files ----------------------------------------------------------------------------------------


def test_committed_schemas_are_current() -> None:
    stale = [
        name
        for name, text in schema_files().items()
        if not (SCHEMAS / name).exists() or (SCHEMAS / name).read_text(encoding="utf-8") != text
    ]
    assert not stale, f"stale editor schemas {stale}: run python scripts/generate.py"


def test_committed_schemas_name_their_own_url() -> None:
    for lang, profile in itertools.product(("en", "zh"), PROFILES):
        data = json.loads((SCHEMAS / Path(schema_url(lang, profile)).name).read_text(encoding="utf-8"))  # type: ignore[arg-type]
        assert data["$id"] == schema_url(lang, profile)  # type: ignore[arg-type]


@pytest.mark.slow
def test_generate_script_check_mode() -> None:
    proc = subprocess.run([sys.executable, "scripts/generate.py", "--check"], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cli_prints_the_committed_schema() -> None:
    proc = run_dsref("schema", "--lang", "zh", "--profile", "hf")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (SCHEMAS / "ds_config.hf.zh.schema.json").read_text(encoding="utf-8")


def test_cli_bad_language_is_one_line() -> None:
    proc = run_dsref("schema", "--lang", "fr")
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "--lang en" in proc.stderr


def test_cli_writes_a_file(tmp_path: Path) -> None:
    target = tmp_path / "ds_config.schema.json"
    proc = run_dsref("schema", "--lang", "en", "-o", str(target))
    assert proc.returncode == 0, proc.stderr
    assert target.read_text(encoding="utf-8") == (SCHEMAS / "ds_config.schema.json").read_text(encoding="utf-8")


# -- pure draft-07 ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(schema_files()))
def test_metaschema_with_the_jsonschema_library(name: str) -> None:
    jsonschema.Draft7Validator.check_schema(json.loads((SCHEMAS / name).read_text(encoding="utf-8")))


@pytest.mark.slow
def test_check_jsonschema_check_metaschema() -> None:
    exe = shutil.which("check-jsonschema") or str(Path(sys.executable).with_name("check-jsonschema"))
    if not Path(exe).exists():
        pytest.fail("check-jsonschema is not installed; pip install -e '.[test]'")
    proc = subprocess.run(
        [exe, "--check-metaschema", *sorted(str(SCHEMAS / n) for n in schema_files())], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


_SUBSCHEMA = ("additionalProperties", "additionalItems", "contains", "propertyNames", "if", "then", "else", "not")
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "definitions")
_SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf")


def keywords(node: Any, where: str = "#") -> Iterator[tuple[str, str]]:
    """Every (keyword, JSON pointer) of a schema, descending only where draft-07 puts subschemas."""
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        yield key, where
        if key in _SUBSCHEMA:
            yield from keywords(value, f"{where}/{key}")
        elif key in _SUBSCHEMA_MAPS:
            for name, sub in value.items():
                yield from keywords(sub, f"{where}/{key}/{name}")
        elif key in _SUBSCHEMA_LISTS:
            for i, sub in enumerate(value):
                yield from keywords(sub, f"{where}/{key}/{i}")
        elif key == "items":
            for i, sub in enumerate(value if isinstance(value, list) else [value]):
                yield from keywords(sub, f"{where}/items/{i}")
        elif key == "dependencies":
            for name, sub in value.items():
                yield from keywords(sub, f"{where}/dependencies/{name}")


@pytest.mark.parametrize("profile", PROFILES)
def test_only_draft07_and_vscode_keywords(profile: Profile) -> None:
    allowed = DRAFT_07_KEYWORDS | EDITOR_KEYWORDS
    odd = sorted({(key, where) for key, where in keywords(schema("zh", profile)) if key not in allowed})
    assert not odd, odd[:10]
    used = {key for key, _ in keywords(schema("en", profile))}
    assert used >= EDITOR_KEYWORDS, EDITOR_KEYWORDS - used  # every extension we declare is used
    assert not {"$ref", "definitions", "prefixItems", "$defs"} & used


def test_formats_are_draft07_only() -> None:
    formats = {sub["format"] for sub in _all_nodes(schema()) if "format" in sub}
    assert formats <= {"uri", "uri-reference", "regex"}, formats


def _all_nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for key, value in node.items():
            if key in ("default", "const", "enum", "defaultSnippets", "examples"):
                continue
            yield from _all_nodes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _all_nodes(item)


# -- what editors use -------------------------------------------------------------------------------------------


def _section(profile: Profile, *steps: str) -> dict[str, Any]:
    node = schema("en", profile)
    for step in steps:
        node = node["properties"][step]
        if "properties" not in node:
            node = next(b for b in node["anyOf"] if b.get("type") == "object" and "properties" in b)
    return node


def test_root_is_open_and_nested_sections_close_where_deepspeed_does(tree: OptionTree) -> None:
    root = schema()
    assert root["additionalProperties"] is True and root["type"] == "object"
    assert "$schema" in root["properties"]
    assert jsonschema.Draft7Validator(root).is_valid({"$schema": schema_url("en"), "my_own_key": 1})
    for opt in tree:
        if opt.kind != "section" or opt.container or not live(opt) or (opt.parent and "<" in opt.parent):
            continue
        if opt.parent is not None and tree.get(opt.parent.rstrip("[]")).removed_for(DEEPSPEED_VERSION):
            continue
        section = _section("deepspeed", *opt.path.split("."))
        closed = section.get("additionalProperties") is False
        assert closed == (opt.unknown_keys == "reject"), opt.path


def test_zero_stage_has_defaults_enum_descriptions_and_link(tree: OptionTree) -> None:
    stage = subschemas("en")["zero_optimization.stage"]
    assert stage["default"] == 0
    assert stage["enum"] == [0, 1, 2, 3]
    texts = dict(tree.get("zero_optimization.stage").meta.enum_docs)
    assert stage["enumDescriptions"] == [texts[v] for v in (0, 1, 2, 3)]
    assert option_url("zero_optimization.stage", "en") in stage["markdownDescription"]
    assert option_url("zero_optimization.stage", "en") in stage["description"]
    assert tree.get("zero_optimization.stage").description in stage["description"]
    zh = subschemas("zh")["zero_optimization.stage"]
    assert option_url("zero_optimization.stage", "zh") in zh["markdownDescription"]


def test_every_live_option_has_texts_and_its_real_default(tree: OptionTree) -> None:
    schemas = subschemas("en")
    for opt in tree:
        if opt.path not in schemas:
            continue  # below a removed section: the section itself is refused
        sub = schemas[opt.path]
        assert sub["description"] and sub["markdownDescription"], opt.path
        representable = sub.get("not") != {} and (opt.default is not None or opt.nullable)
        if live(opt) and opt.default is not UNSET and representable:
            assert "default" in sub and sub["default"] == opt.default, opt.path
        else:
            assert "default" not in sub, opt.path


def default_violations(schemas: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """Options whose ``default`` does not validate against their own schema, each named with the reason."""
    problems = []
    for path, sub in schemas.items():
        if "default" not in sub:
            continue
        errors = list(jsonschema.Draft7Validator(sub).iter_errors(sub["default"]))
        if errors:
            problems.append(f"{path}: default {json.dumps(sub['default'])} fails its own schema ({errors[0].message})")
    return problems


@pytest.mark.parametrize("profile", PROFILES)
def test_every_default_validates_against_its_own_type(profile: Profile) -> None:
    assert default_violations(subschemas("en", profile)) == []


def test_a_default_that_fails_its_type_is_named() -> None:
    class Broken(DeepSpeedConfig):
        my_bucket_size: int = option("big", ge=0, description="A bucket size whose default is not an int.")

    problems = default_violations(option_schemas("en", "deepspeed", tree=OptionTree(Broken)))
    assert len(problems) == 1 and problems[0].startswith('my_bucket_size: default "big"'), problems


def test_absent_but_not_null_shows_no_json_default(tree: OptionTree) -> None:
    """DeepSpeed reads an absent torch_autocast.dtype as unset but refuses null: no "default": null to insert."""
    dtype = subschemas("en")["torch_autocast.dtype"]
    assert tree.get("torch_autocast.dtype").default is None and "default" not in dtype
    assert "**Default:** not set" in dtype["markdownDescription"]
    assert not jsonschema.Draft7Validator(dtype).is_valid(None)


def test_unrepresentable_defaults_are_left_out(tree: OptionTree) -> None:
    """A default only Python can hold (a torch.dtype) is not claimed as a JSON default."""
    dtype = subschemas("en")["tensor_parallel.dtype"]
    assert "default" not in dtype and dtype["not"] == {} and dtype["errorMessage"]
    assert "torch.float16" in dtype["markdownDescription"]  # still shown as text


def test_deprecations_and_aliases(tree: OptionTree) -> None:
    zero = _section("deepspeed", "zero_optimization")["properties"]
    assert "offload_optimizer" in zero["cpu_offload"]["deprecationMessage"]
    old = zero["stage3_gather_fp16_weights_on_model_save"]
    assert "stage3_gather_16bit_weights_on_model_save" in old["deprecationMessage"]
    assert zero["prefetch_bucket_size"]["doNotSuggest"] is True  # another accepted name, not offered
    assert "deprecationMessage" in schema()["properties"]["bfloat16"]
    aio = _section("deepspeed", "aio")["properties"]
    assert "intra_op_parallelism" in aio["thread_count"]["deprecationMessage"]  # a name only the docs use
    legacy = schema()["properties"]["zero_optimization"]
    assert legacy["if"] == {"type": "boolean"} and legacy["then"]["deprecationMessage"]


def test_removed_options_are_flagged_and_refused(tree: OptionTree) -> None:
    root = validator("deepspeed")
    removed = [o for o in tree if o.removed_in and o.meta.removed_in]  # the removals themselves, not inherited
    assert len(removed) >= 10
    for opt in removed:
        sub = subschemas("en")[opt.path]
        assert sub["not"] == {} and sub["doNotSuggest"] is True, opt.path
        assert opt.removed_in in sub["errorMessage"], opt.path
        if opt.meta.use_instead:
            assert opt.meta.use_instead in sub["errorMessage"], opt.path
    assert not root.is_valid({"amp": {"enabled": False}})
    assert not root.is_valid({"zero_optimization": {"mics_shard_size": -1}})


@pytest.mark.parametrize("profile", PROFILES)
def test_auto_only_where_hugging_face_fills_it(tree: OptionTree, profile: Profile) -> None:
    """The value "auto" validates where validate() takes it: HF keys in profile hf, or an own literal."""
    schemas = subschemas("en", profile)
    for opt in tree:
        if not live(opt) or opt.path not in schemas:
            continue
        takes = jsonschema.Draft7Validator(schemas[opt.path]).is_valid("auto")
        findings = [
            f
            for f in validate(_place(tree, opt, "auto"), settings=CheckSettings(profile=profile))
            if f.location[-1] == opt.key
        ]
        assert takes == (not findings), (opt.path, findings)
        if profile == "hf" and opt.hf_auto:
            assert takes, opt.path


def test_snippets_are_valid_starting_points() -> None:
    labels = [s["label"] for s in schema()["defaultSnippets"]]
    assert labels == ["ZeRO-2", "ZeRO-3 with CPU offload", "bf16 mixed precision"]
    zero = schema()["properties"]["zero_optimization"]["defaultSnippets"]
    assert [s["body"]["stage"] for s in zero] == [2, 3]
    assert schema()["properties"]["bf16"]["defaultSnippets"][0]["body"] == {"enabled": True}
    for profile in PROFILES:
        for snippet in SNIPPETS:
            body = snippet_body(snippet, profile)
            assert validator(profile).is_valid(body), (profile, snippet.name)
            assert [
                f for f in validate(body, settings=CheckSettings(profile=profile)) if f.severity is not Severity.info
            ] == []
    hf = snippet_body(SNIPPETS[1], "hf")
    assert hf["train_micro_batch_size_per_gpu"] == "auto" and hf["zero_optimization"]["stage"] == 3


@pytest.mark.slow
def test_deepspeed_snippets_load_in_deepspeed() -> None:
    require_deepspeed()
    from deepspeed.runtime.config import DeepSpeedConfig as DSConfig

    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    for snippet in SNIPPETS:
        config = DSConfig(snippet_body(snippet, "deepspeed"))
        assert config.bfloat16_config.enabled


# -- rules: if/then, checked against DeepSpeed itself --------------------------------------------------------------

ABSENT = object()


def _place(tree: OptionTree, opt: Option, value: Any, into: dict[str, Any] | None = None) -> dict[str, Any]:
    """A config with ``value`` at ``opt``'s path (map entries named ``entry``, lists of one)."""
    chain = [opt]
    while chain[0].parent is not None:
        parent = chain[0].parent
        base = parent.split(".<")[0] if ".<" in parent else parent.removesuffix("[]")
        chain.insert(0, tree.get(base))
    node: Any = value
    for child, holder in zip(reversed(chain[1:]), reversed(chain[:-1]), strict=True):
        node = {child.key: node}
        if holder.container == "map":
            node = {"entry": node}
        elif holder.container == "list":
            node = [node]
    config = into if into is not None else {}
    _merge(config, {chain[0].key: node})
    return config


def _merge(into: dict[str, Any], extra: Mapping[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _domain(tree: OptionTree, path: str) -> list[Any]:
    opt = tree.get(path)
    if opt.allowed:
        values: list[Any] = list(opt.allowed)
    elif opt.kind == "section":
        values = [{}, None] if opt.nullable else [{}]
    else:
        values = [True, False]
    return [ABSENT, *values]


def _refused_samples(tree: OptionTree, rule: Any) -> list[Any]:
    opt = tree.get(rule.target)
    candidates: list[Any] = [True, False, 0.0, 0.5, 1.0]
    for value in opt.allowed or ():
        candidates += [value, value.upper()] if isinstance(value, str) else [value]
    own = jsonschema.Draft7Validator(subschemas("en")[rule.target])
    return [v for v in candidates if _matches(v, rule.refused) and own.is_valid(v)]


def _rule_configs(tree: OptionTree, rule: Any) -> Iterator[dict[str, Any]]:
    when = [path for path, _ in rule.when]
    legacy_ok = not rule.target.startswith("zero_optimization.")
    for target in _refused_samples(tree, rule):
        for combo in itertools.product(*(_domain(tree, p) for p in when)):
            config: dict[str, Any] = {"train_batch_size": 8}
            for path, value in zip(when, combo, strict=True):
                if value is not ABSENT:
                    _place(tree, tree.get(path), value, config)
            _place(tree, tree.get(rule.target), target, config)
            yield config
            for key in list(config):  # the same under another spelling of a top-level key (bfloat16 for bf16)
                top = tree.get(key) if key in tree else None
                for other in (*top.aliases, *top.deprecated_aliases) if top else ():
                    yield {other if k == key else k: v for k, v in config.items()}
            if legacy_ok and "zero_optimization" not in config and any(p.startswith("zero_optimization") for p in when):
                for flag in (True, False):
                    yield {**config, "zero_optimization": flag}


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
@pytest.mark.slow
def test_rule_fires_exactly_when_deepspeed_refuses(tree: OptionTree, rule: Any) -> None:
    require_deepspeed()
    from deepspeed.runtime.config import DeepSpeedConfig as DSConfig

    logging.getLogger("DeepSpeed").setLevel(logging.ERROR)
    assert not _matches(tree.get(rule.target).default, rule.refused), "an absent target must never be refused"
    index = RULES.index(rule)
    own = jsonschema.Draft7Validator(schema("en", "deepspeed")["allOf"][index])
    everything = validator("deepspeed")
    checked = 0
    for config in _rule_configs(tree, rule):
        try:
            DSConfig(json.loads(json.dumps(config)))
            refused = False
        except Exception:
            refused = True
        if own.is_valid(config):  # DeepSpeed may refuse it for another rule of ours, never for one we miss
            assert refused == (not everything.is_valid(config)), config
            continue
        assert refused, config
        [error] = [e for e in everything.iter_errors(config) if list(e.absolute_schema_path)[:2] == ["allOf", index]]
        assert error.schema["errorMessage"] and list(error.absolute_path)[-1] == rule.target.rsplit(".", 1)[-1]
        checked += 1
    assert checked >= 2


def test_rules_name_options_that_exist(tree: OptionTree) -> None:
    for rule in RULES:
        assert rule.target in tree
        for path, _ in rule.when:
            assert path in tree, path


def test_rule_messages_reach_the_target_key() -> None:
    errors = list(validator("deepspeed").iter_errors({"zero_optimization": {"stage": 3, "compute_grad_norm": False}}))
    assert len(errors) == 1
    assert list(errors[0].absolute_path) == ["zero_optimization", "compute_grad_norm"]
    assert errors[0].schema["errorMessage"] == "compute_grad_norm false works only at ZeRO stage 1 or 2."
    assert validator("hf").is_valid({"zero_optimization": {"stage": "auto", "compute_grad_norm": False}})


# -- agreement with validate() --------------------------------------------------------------------------------------

_RANGE = {
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minItems",
    "maxItems",
    "minLength",
    "maxLength",
}
_CHOICE = {"enum", "const", "pattern"}
_PRIORITY = ("enum", "type", "range")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, Mapping) else "array"


def _type_fits(sub: Any, value: Any) -> bool:
    kind = sub.get("type") if isinstance(sub, dict) else None
    return kind is None or _json_type(value) == kind or (_json_type(value) == "integer" and kind == "number")


def _is_auto_branch(sub: Any) -> bool:
    return isinstance(sub, dict) and sub.get("const") == "auto"


def _schema_error_verdicts(error: jsonschema.ValidationError, tree: OptionTree) -> list[Verdict]:
    """What an error of the jsonschema library says, in validate()'s terms."""
    loc = tuple(error.absolute_path)
    kind = error.validator
    if list(error.absolute_schema_path)[:1] == ["allOf"]:
        return [("rule", loc)]
    if kind == "additionalProperties":
        known = error.schema.get("properties", {})
        return [("unknown_key", (*loc, key)) for key in error.instance if key not in known]
    if kind == "not":  # a removed option, a docs-only key or name, or a type no JSON value has
        hit = tree.resolve(".".join(str(step) for step in loc if isinstance(step, str)))
        if hit is not None and hit.via == "docs_name":
            return [("unknown_key", loc)]
        if hit is not None and hit.option.removed_for(DEEPSPEED_VERSION):
            return [("removed", loc)]
        if hit is not None and hit.option.meta.docs_only:
            return [("docs_only", loc)]
    if error.instance == "auto" and kind in ("type", "enum", "const", "anyOf", "pattern", "not"):
        return [("auto", loc)]
    if kind in ("type", "not"):
        return [("type", loc)]
    if kind in _CHOICE:
        return [("enum", loc)]
    if kind in _RANGE:
        return [("range", loc)]
    assert kind == "anyOf", kind
    branches = error.schema["anyOf"]
    fitting = {i for i, sub in enumerate(branches) if _type_fits(sub, error.instance) and not _is_auto_branch(sub)}
    if not fitting:
        choices = any(("enum" in sub or "const" in sub) and not _is_auto_branch(sub) for sub in branches)
        return [("enum" if choices else "type", loc)]
    out: list[Verdict] = []
    for sub_error in error.context or ():
        if sub_error.relative_schema_path and sub_error.relative_schema_path[0] in fitting:
            out.extend(_schema_error_verdicts(sub_error, tree))
    return out or [("type", loc)]


def _option_location(loc: tuple[str | int, ...], tree: OptionTree) -> tuple[str | int, ...]:
    """Cut a location to the option it is in (an error inside a list value belongs to the option)."""
    parent: str | None = None
    i = 0
    while i < len(loc):
        step = loc[i]
        if isinstance(step, int):
            i += 1
            continue
        hit = tree.lookup_key(parent, step)
        if hit is None:
            return loc
        if hit[0].kind == "leaf":
            return loc[: i + 1]
        parent = tree.child_parent(hit[0])
        i += 2 if hit[0].container == "map" else 1
    return loc


def schema_verdicts(config: Any, profile: Profile, tree: OptionTree) -> set[Verdict]:
    found: set[Verdict] = set()
    for error in validator(profile).iter_errors(config):
        for kind, loc in _schema_error_verdicts(error, tree):
            found.add((kind, loc if kind in ("unknown_key", "rule") else _option_location(loc, tree)))
    best: dict[tuple[str | int, ...], str] = {}
    for kind, loc in found:
        if kind in _PRIORITY and (loc not in best or _PRIORITY.index(kind) < _PRIORITY.index(best[loc])):
            best[loc] = kind
    return {v for v in found if v[0] not in _PRIORITY} | {(kind, loc) for loc, kind in best.items()}


_DSREF_KINDS = {
    "wrong_type": "type",
    "coerced": "coerced",
    "not_allowed": "enum",
    "out_of_range": "range",
    "auto_dropped": "auto",
    "auto_unfilled": "auto",
    "removed": "removed",
    "docs_only": "docs_only",
}


def dsref_verdicts(config: Any, profile: Profile) -> set[Verdict]:
    """validate()'s findings on type, allowed values, ranges, "auto", removals and keys DeepSpeed rejects."""
    out: set[Verdict] = set()
    for finding in validate(config, settings=CheckSettings(profile=profile)):
        if finding.kind is None:
            continue  # a cross-field rule (dsref check), compared with DeepSpeed itself above
        name = finding.kind.name
        if name == "unknown_key" and finding.severity is Severity.error:
            out.add(("unknown_key", tuple(finding.location)))
        elif name in _DSREF_KINDS:
            out.add((_DSREF_KINDS[name], tuple(finding.location)))
    return out


class Differences:
    """The differences between the two verdicts that are understood, each with its reason."""

    REASONS: ClassVar[dict[str, str]] = {
        "coerced": 'DeepSpeed\'s pydantic model coerces the value ("2" for 2, 1 for true) and dsref warns (DS202); '
        "JSON Schema has no coercion, so editors underline it as a type error.",
        "bool_for_int_enum": "true/false for an int enum (zero_optimization.stage): pydantic's JSON mode reads it as "
        "1/0 and validate() accepts it silently; the schema refuses a boolean.",
        "coerced_then_range": "a boolean or a numeric string for a bounded number: validate() judges the value after "
        "pydantic's lax coercion (false becomes 0, then out of range); the schema says the type is wrong.",
        "tuple_length": "a list of the wrong length for a fixed pair (optimizer.params.betas): pydantic reports a "
        "missing item (type), the schema minItems/maxItems (range).",
    }

    @staticmethod
    def reason(opt: Option | None, value: Any, ours: set[Verdict], theirs: set[Verdict]) -> str | None:
        """Why the schema's verdicts ``ours`` and validate()'s ``theirs`` differ at one location, if understood."""
        mine = {kind for kind, _ in ours}
        dsref = {kind for kind, _ in theirs}
        if dsref == {"coerced"} and mine <= {"type", "enum", "range"} and mine:
            return "coerced"
        if opt is None:
            return None
        if not dsref and mine == {"enum"} and isinstance(value, bool) and opt.type in ("enum", "enum | null"):
            return "bool_for_int_enum"
        if dsref == {"range"} and mine == {"type"} and (isinstance(value, (bool, str))):
            return "coerced_then_range"
        if dsref == {"type"} and mine == {"range"} and isinstance(value, list) and opt.type.startswith("list"):
            return "tuple_length" if "maxItems" in json.dumps(subschemas("en")[opt.path]) else None
        return None


def compare(config: Any, profile: Profile, tree: OptionTree) -> tuple[list[str], dict[str, int], int]:
    """(unexplained differences, explained ones by reason, rule errors) for one config."""
    ours = schema_verdicts(config, profile, tree)
    rules = {v for v in ours if v[0] == "rule"}
    ours -= rules
    theirs = dsref_verdicts(config, profile)
    unexplained: list[str] = []
    explained: dict[str, int] = {}
    for loc in sorted({loc for _, loc in ours ^ theirs}, key=str):
        mine = {v for v in ours if v[1] == loc}
        dsref = {v for v in theirs if v[1] == loc}
        if mine == dsref:
            continue
        hit = tree.resolve(".".join(str(s) for s in loc if isinstance(s, str)))
        value: Any = config
        for step in loc:
            value = value[step] if isinstance(value, (dict, list)) else None  # type: ignore[index]
        why = Differences.reason(hit.option if hit else None, value, mine, dsref)
        if why is None:
            unexplained.append(
                f"{'.'.join(map(str, loc))} = {json.dumps(value)}: schema {sorted(mine)}, dsref {sorted(dsref)}"
            )
        else:
            explained[why] = explained.get(why, 0) + 1
    return unexplained, explained, len(rules)


def _corpus() -> list[tuple[str, Any]]:
    folder = shared_path("corpus", "real")
    configs = []
    for path in sorted(p for p in folder.iterdir() if p.suffix == ".json"):
        try:
            config = hjson.loads(path.read_text(encoding="utf-8-sig"))
        except Exception:
            continue  # not parsable by DeepSpeed either
        if isinstance(config, dict):
            configs.append((path.name, json.loads(json.dumps(config))))
    return configs


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILES)
def test_schema_and_validate_agree_on_real_configs(tree: OptionTree, profile: Profile) -> None:
    configs = _corpus()
    assert len(configs) > 300
    problems: list[str] = []
    explained: dict[str, int] = {}
    for name, config in configs:
        unexplained, known, _ = compare(config, profile, tree)
        problems += [f"{name}: {line}" for line in unexplained]
        for why, n in known.items():
            explained[why] = explained.get(why, 0) + n
    assert problems == [], "\n".join(problems[:20])
    assert set(explained) <= set(Differences.REASONS)
    # what the corpus has in it: both judge the same thousands of places
    flagged = sum(len(dsref_verdicts(config, profile)) for _, config in configs)
    assert flagged > (1000 if profile == "deepspeed" else 200)


_PROBES: tuple[Any, ...] = (
    None,
    True,
    False,
    0,
    1,
    -1,
    3,
    4,
    0.5,
    -0.5,
    10**12,
    5e8,
    "",
    "auto",
    "x",
    "1",
    [],
    ["a"],
    [1],
    {},
    {"a": 1},
)


def _probes(opt: Option) -> list[Any]:
    values = list(_PROBES)
    for allowed in opt.allowed or ():
        values += [allowed, allowed.upper(), allowed.lower()] if isinstance(allowed, str) else [allowed]
    for bound in opt.bounds.values():
        if isinstance(bound, (int, float)) and not isinstance(bound, bool):
            values += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5]
    return values


@pytest.mark.slow
@pytest.mark.parametrize("profile", PROFILES)
def test_schema_and_validate_agree_on_every_option(tree: OptionTree, profile: Profile) -> None:
    """Every live leaf, a grid of values: same verdict, or a listed reason."""
    problems: list[str] = []
    explained: dict[str, int] = {}
    for opt in tree:
        if opt.kind == "section" or not live(opt) or opt.path not in subschemas("en", profile):
            continue
        for value in _probes(opt):
            unexplained, known, _ = compare(_place(tree, opt, value), profile, tree)
            problems += unexplained
            for why, n in known.items():
                explained[why] = explained.get(why, 0) + n
    assert problems == [], "\n".join(sorted(set(problems))[:30])
    assert set(explained) == set(Differences.REASONS), explained  # each listed difference still happens


# -- the docs pages and the site ------------------------------------------------------------------------------------


def _json_blocks(text: str) -> list[str]:
    return re.findall(r"```json\n(.*?)```", text, re.S)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_docs_page_names_every_schema_and_editor(lang: str) -> None:
    text = (ROOT / "docs" / lang / "editor-schema.md").read_text(encoding="utf-8")
    for url_lang, profile in itertools.product(("en", "zh"), PROFILES):
        url = schema_url(url_lang, profile)  # type: ignore[arg-type]
        assert f"[`{url}`]({url})" in text, f"{url} is not a link"
    for needle in ("json.schemas", '"$schema"', "JSON Schema Mappings", "jsonls", "check-jsonschema", "SchemaStore"):
        assert needle in text, needle
    for block in _json_blocks(text):
        data = json.loads(block)
        if "$schema" in data:  # the example config is valid under the schema it names
            name = Path(data["$schema"]).name
            assert jsonschema.Draft7Validator(json.loads((SCHEMAS / name).read_text(encoding="utf-8"))).is_valid(data)


def _catalog_entry(lang: str) -> dict[str, Any]:
    text = (ROOT / "docs" / lang / "editor-schema.md").read_text(encoding="utf-8")
    [entry] = [json.loads(b) for b in _json_blocks(text) if '"fileMatch"' in b and '"name"' in b]
    return entry


def test_schemastore_catalog_entry_is_ready_and_specific() -> None:
    entry = _catalog_entry("en")
    assert entry == _catalog_entry("zh")
    assert set(entry) == {"name", "description", "fileMatch", "url"}
    assert entry == catalog_entry()  # the page shows what is submitted (test_schemastore holds it to SchemaStore)
    names = ["ds_config.json", "ds_config_zero3.json", "deepspeed_config.json", "ds_zero3_offload.json"]
    assert all(any(fnmatch.fnmatch(n, p) for p in entry["fileMatch"]) for n in names)
    generic = ["config.json", "package.json", "tsconfig.json", "settings.json", "zero3.json"]
    assert not any(fnmatch.fnmatch(n, p) for n in generic for p in entry["fileMatch"])


def test_site_hook_publishes_the_schemas(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("site_schemas", ROOT / "scripts" / "site_schemas.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    hook.on_post_build({"config_file_path": str(ROOT / "mkdocs.yml"), "site_dir": str(tmp_path)})
    for name in schema_files():
        assert (tmp_path / "schemas" / name).read_bytes() == (SCHEMAS / name).read_bytes()
