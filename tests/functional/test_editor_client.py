"""dsref's JSON Schema in a real editor client: VS Code's JSON language service (npm), run with node.

``tests/editor/client.mjs`` opens ds_config.json documents with the committed schemas, as VS Code does (by
``fileMatch`` and by the ``$schema`` key, the schema URL answered from ``schemas/``), and reports completions, hovers
and diagnostics; Ajv compiles the schemas in strict mode, as SchemaStore does. The npm packages are pinned in
``tests/editor/package-lock.json``; when ``tests/editor/node_modules`` is missing, ``npm ci`` installs them.
Without node and npm the tests skip, except in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from dsref.tree.links import option_url, schema_url
from dsref.tree.options import OptionTree
from tests import needs

# node runs VS Code's JSON language service and Ajv on the committed schemas, a process a test; what the schemas say
# (keywords declared, snippets, defaults, deprecations, the rules) is held in the fast tier by
# tests/unit/editor/test_jsonschema.py with Python's jsonschema
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EDITOR = ROOT / "tests" / "editor"
SCHEMAS = ROOT / "schemas"
DEPRECATED = 2  # vscode-json-languageservice ErrorCode.Deprecated


@pytest.fixture(scope="module")
def node() -> str:
    exe = needs.program("node")
    packages = ("vscode-json-languageservice", "ajv", "prettier")
    if not all((EDITOR / "node_modules" / package).is_dir() for package in packages):
        npm = needs.program("npm")
        proc = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=EDITOR, capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0:
            pytest.fail(f"npm ci in tests/editor failed:\n{proc.stderr[-2000:]}")
    return exe


def _client(node: str, *args: str) -> Any:
    proc = subprocess.run(
        [node, "client.mjs", *args], cwd=EDITOR, capture_output=True, text=True, encoding="utf-8", timeout=300
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _schemas() -> list[dict[str, Any]]:
    served = []
    for lang in ("en", "zh"):
        for profile in ("deepspeed", "hf"):
            url = schema_url(lang, profile)
            entry: dict[str, Any] = {"url": url, "file": str(SCHEMAS / url.rsplit("/", 1)[1])}
            if (lang, profile) == ("en", "deepspeed"):
                entry["fileMatch"] = ["ds_config*.json"]  # as in the docs' json.schemas example
            served.append(entry)
    return served


def _at(text: str, needle: str, after: int = 0) -> dict[str, int]:
    """The (line, character) of ``needle`` in ``text``, moved ``after`` characters on."""
    offset = text.index(needle) + after
    line = text.count("\n", 0, offset)
    return {"line": line, "character": offset - (text.rfind("\n", 0, offset) + 1)}


COMPLETE = '{\n  "zero_optimization": {\n    "stage": 3,\n    \n  }\n}\n'
VALUE = '{\n  "zero_optimization": {"stage": }\n}\n'
BROKEN = """{
  "zero_optimization": {
    "stage": 4,
    "stgae": 2,
    "cpu_offload": true
  },
  "amp": {"enabled": false},
  "train_batch_size": "auto"
}
"""
RULES = '{"gradient_allreduce_op": "sum", "zero_optimization": {"stage": 3, "compute_grad_norm": false}}\n'
HF = f"""{{
  "$schema": "{schema_url("en", "hf")}",
  "train_batch_size": "auto",
  "gradient_clipping": "auto",
  "zero_optimization": {{"stage": 3, "stage3_prefetch_bucket_size": "auto", "overlap_comm": "auto"}}
}}
"""
ZH = json.dumps({"$schema": schema_url("zh", "deepspeed"), "zero_optimization": {"stage": 2}}, indent=2) + "\n"
LEGACY = '{"zero_optimization": true}\n'
SKELETON = '{\n  "zero_optimization": {\n    \n  },\n  \n}\n'


@pytest.fixture(scope="module")
def session(node: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    documents = [
        # completions on the blank line inside zero_optimization
        {"uri": "file:///work/ds_config.json", "text": COMPLETE, "complete": [_at(COMPLETE, "\n  }")]},
        {"uri": "file:///work/ds_config_value.json", "text": VALUE, "complete": [_at(VALUE, '": }', 3)]},
        {"uri": "file:///work/ds_config_new.json", "text": "", "complete": [{"line": 0, "character": 0}]},
        {
            "uri": "file:///work/ds_config_hover.json",
            "text": COMPLETE.replace("    \n", ""),
            "hover": [_at(COMPLETE, '"stage"', 2), _at(COMPLETE, '"zero_optimization"', 2)],
        },
        {"uri": "file:///work/ds_config_broken.json", "text": BROKEN},
        {"uri": "file:///work/ds_config_rules.json", "text": RULES},
        {"uri": "file:///work/trainer/hf_config.json", "text": HF},
        {"uri": "file:///work/zh.json", "text": ZH, "hover": [_at(ZH, '"stage"', 2)]},
        {"uri": "file:///work/ds_config_legacy.json", "text": LEGACY},
        # every key of an empty section, and every top-level key
        {
            "uri": "file:///work/ds_config_skeleton.json",
            "text": SKELETON,
            "complete": [_at(SKELETON, "    \n", 4), _at(SKELETON, "  \n}", 2)],
        },
    ]
    request = tmp_path_factory.mktemp("editor") / "request.json"
    request.write_text(json.dumps({"schemas": _schemas(), "documents": documents}), encoding="utf-8")
    results = _client(node, "session", str(request))
    return {Path(r["uri"]).name: r for r in results}


def _messages(result: dict[str, Any]) -> dict[str, str]:
    return {d["text"]: d["message"] for d in result["diagnostics"]}


def test_completions_inside_zero_optimization(session: dict[str, Any], tree: OptionTree) -> None:
    [items] = session["ds_config.json"]["completions"]
    labels = {item["label"] for item in items}
    assert {"offload_optimizer", "offload_param", "overlap_comm", "stage3_prefetch_bucket_size"} <= labels
    assert "stage" not in labels  # already there
    assert not {"cpu_offload", "mics_shard_size", "grad_hooks", "prefetch_bucket_size"} & labels  # old, gone, alias
    by_label = {item["label"]: item for item in items}
    described = tree.get("zero_optimization.offload_optimizer").description
    assert described is not None and by_label["offload_optimizer"]["documentation"].startswith(described[:60])
    assert "500000000" in by_label["reduce_bucket_size"]["insertText"]  # the real default is inserted


def test_value_completions_carry_what_each_stage_does(session: dict[str, Any], tree: OptionTree) -> None:
    [items] = session["ds_config_value.json"]["completions"]
    docs = {item["label"]: item["documentation"] for item in items}
    assert set(docs) == {"0", "1", "2", "3"}
    assert docs["3"] == dict(tree.get("zero_optimization.stage").meta.enum_docs)[3]


def test_a_new_file_offers_the_starting_points(session: dict[str, Any]) -> None:
    [items] = session["ds_config_new.json"]["completions"]
    labels = [item["label"] for item in items]
    assert labels == ["ZeRO-2", "ZeRO-3 with CPU offload", "bf16 mixed precision"]
    zero3 = json.loads(next(i["insertText"] for i in items if i["label"] == "ZeRO-3 with CPU offload"))
    assert zero3["zero_optimization"]["offload_param"]["device"] == "cpu"


def test_hover_shows_dsref_description_and_link(session: dict[str, Any], tree: OptionTree) -> None:
    stage, section = session["ds_config_hover.json"]["hovers"]
    description = tree.get("zero_optimization.stage").description
    assert description is not None and description in stage
    assert option_url("zero_optimization.stage", "en") in stage
    assert "**Default:** `0`" in stage
    assert option_url("zero_optimization", "en") in section


def test_hover_in_chinese_through_the_schema_key(session: dict[str, Any]) -> None:
    from dsref.text.i18n import option_text

    [hover] = session["zh.json"]["hovers"]
    english = "How much of the model state ZeRO partitions"
    chinese = option_text("zero_optimization.stage", _description("zero_optimization.stage"), "zh")
    assert chinese is not None and chinese in hover
    assert option_url("zero_optimization.stage", "zh") in hover
    if chinese != _description("zero_optimization.stage"):
        assert english not in hover


def _description(path: str) -> str:
    from dsref.tree.options import option_tree

    text = option_tree().get(path).description
    assert text is not None
    return text


def test_diagnostics_for_wrong_values(session: dict[str, Any]) -> None:
    result = session["ds_config_broken.json"]
    messages = _messages(result)
    assert messages["4"] == "Value is not accepted. Valid values: 0, 1, 2, 3."
    assert messages['"stgae"'] == "Property stgae is not allowed."
    assert messages['"auto"'] == 'Incorrect type. Expected "integer".'  # no Hugging Face: auto is not a number
    removed = messages['{"enabled": false}']
    assert "removed in DeepSpeed 0.19.8" in removed and "`bf16`" in removed
    deprecated = [d for d in result["diagnostics"] if d["text"] == '"cpu_offload": true']
    assert deprecated and deprecated[0]["code"] == DEPRECATED  # VS Code strikes it through, as a warning
    assert "offload_optimizer" in deprecated[0]["message"]


def test_stage_rules_are_reported_on_the_key(session: dict[str, Any]) -> None:
    messages = _messages(session["ds_config_rules.json"])
    assert messages["false"] == "compute_grad_norm false works only at ZeRO stage 1 or 2."
    assert messages['"sum"'] == 'gradient_allreduce_op "sum" does not work with ZeRO stage 3.'


def test_hf_profile_through_the_schema_key(session: dict[str, Any]) -> None:
    messages = _messages(session["hf_config.json"])
    assert messages == {'"auto"': 'Incorrect type. Expected "boolean".'}  # overlap_comm: HF does not fill it


def test_old_boolean_zero_optimization_is_a_deprecation(session: dict[str, Any]) -> None:
    [diagnostic] = session["ds_config_legacy.json"]["diagnostics"]
    assert diagnostic["code"] == DEPRECATED and diagnostic["text"] == '"zero_optimization": true'


def test_ajv_strict_mode_compiles_every_schema(node: str, tmp_path: Path) -> None:
    """SchemaStore lints schemas with Ajv in strict mode; VS Code's keywords are declared, nothing else is."""
    files = sorted(str(p) for p in SCHEMAS.glob("*.schema.json"))
    assert len(files) == 4
    control = tmp_path / "control.json"  # proves strict mode is on: an unknown keyword must fail
    control.write_text(json.dumps({"type": "object", "x-unknown": 1}), encoding="utf-8")
    results = _client(node, "ajv", *files, str(control))
    assert [r for r in results[:-1] if not r["ok"]] == []
    assert results[-1]["ok"] is False and "x-unknown" in results[-1]["error"]


def _inserted(insert_text: str) -> Any:
    """The value a key completion inserts (``"stage": ${1:0}`` → 0); None for an object or array placeholder."""
    import re

    value = insert_text.split(":", 1)[1].strip() if ":" in insert_text else ""
    value = re.sub(r"\$\{\d+:([^}]*)\}", r"\1", value)
    value = re.sub(r"\$\d+", "", value)
    try:
        return json.loads(value)
    except ValueError:
        return None


def test_every_key_completion_inserts_its_default(session: dict[str, Any], tree: OptionTree) -> None:
    """VS Code's service also proposes properties from the stage rules' ``if`` schemas: those are marked
    doNotSuggest, so that ``stage`` inserts 0 (its default), not a value a rule tests for."""
    section, top = session["ds_config_skeleton.json"]["completions"]
    wrong = []
    for parent, items in (("zero_optimization", section), (None, top)):
        for item in items:
            path = f"{parent}.{item['label']}" if parent else item["label"]
            if path not in tree or not item["insertText"]:
                continue
            opt = tree.get(path)
            default = opt.to_json()["default"]
            if opt.kind == "section" or isinstance(default, (dict, list)) or not opt.to_json()["has_default"]:
                continue
            inserted = _inserted(item["insertText"])
            if default is None:
                continue
            if inserted is None and opt.allowed is not None and len(opt.allowed) > 1:
                continue  # an enum: VS Code inserts a placeholder and offers the values, the default among them
            if isinstance(default, int) and abs(default) > 2**53:  # past what a JavaScript number holds exactly
                inserted, default = float(inserted or 0), float(default)
            if inserted != default:
                wrong.append(f"{path}: inserts {item['insertText']!r}, default {default!r}")
    assert not wrong, "\n".join(wrong)
    labels = {item["label"] for item in section}
    assert {"stage", "compute_grad_norm", "offload_optimizer"} <= labels
    assert "bfloat16" not in {item["label"] for item in top}  # deprecated: not proposed
