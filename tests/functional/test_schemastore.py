"""The SchemaStore submission (editors/schemastore/) passes what SchemaStore's CI runs on it, and stays in step.

Ajv compiles the schema in strict mode with only the keywords the submission declares (and fails without them);
the positive test files validate, the negative ones do not, and dsref check agrees with both; Prettier finds
nothing to reformat in the submission or in the committed schemas. The files themselves are generated
(dsref/editor/schemastore.py) and kept current by tests/unit/generator/test_generated.py.
"""

from __future__ import annotations

import fnmatch
import json
import subprocess
from typing import Any

import pytest

from dsref.check.findings import Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.editor.schemastore import FILE_MATCH, SCHEMA_NAME, SCHEMA_URL, VSCODE_KEYWORDS
from tests import needs
from tests.functional.test_editor_client import EDITOR, ROOT, SCHEMAS, node  # noqa: F401  (the fixture)

# Ajv, Prettier and the SchemaStore catalog's own checks run in node; the schema's keywords and its file match are
# held in the fast tier by tests/unit/editor/test_jsonschema.py
pytestmark = pytest.mark.slow

jsonschema = needs.module("jsonschema")  # the reference validator (the test extra)

SUBMISSION = ROOT / "editors" / "schemastore"


@pytest.fixture(scope="module")
def schemastore(node: str) -> dict[str, Any]:  # noqa: F811
    schemas = [str(p) for p in sorted(SCHEMAS.glob("*.json"))]
    proc = subprocess.run(
        [node, "schemastore.mjs", str(SUBMISSION), *schemas],
        cwd=EDITOR,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_ajv_strict_compiles_it_with_the_declared_keywords_only(schemastore: dict[str, Any]) -> None:
    assert schemastore["compiled"] == "ok"
    assert "strict mode: unknown keyword" in schemastore["undeclared"]
    assert any(keyword in schemastore["undeclared"] for keyword in VSCODE_KEYWORDS)


def test_positive_files_validate_and_negative_files_do_not(schemastore: dict[str, Any]) -> None:
    assert len(schemastore["positive"]) >= 3 and len(schemastore["negative"]) >= 4
    assert [t["file"] for t in schemastore["positive"] if not t["valid"]] == []
    assert [t["file"] for t in schemastore["negative"] if t["valid"]] == []


def test_prettier_finds_nothing_to_reformat(schemastore: dict[str, Any]) -> None:
    assert schemastore["unformatted"] == []


@pytest.mark.parametrize("kind", ["test", "negative_test"])
def test_dsref_check_agrees_with_the_test_files(kind: str) -> None:
    files = sorted((SUBMISSION / "src" / kind / SCHEMA_NAME).glob("*.json"))
    assert files
    for path in files:
        report = check_text(path.read_text(encoding="utf-8"), path.name, settings=CheckSettings(profile="hf"))
        errors = [f.code for f in report.findings if f.severity is Severity.error]
        assert bool(errors) == (kind == "negative_test"), (path.name, errors)


def _sorted_everywhere(value: Any) -> bool:
    if isinstance(value, dict):
        return list(value) == sorted(value) and all(_sorted_everywhere(v) for v in value.values())
    if isinstance(value, list):
        return all(_sorted_everywhere(v) for v in value)
    return True


# SchemaStore's rules for a catalog entry, as its repository states them (facts, written here in our own form):
# `cli.js check` looks for each schema file's entry by `url`, which must be one of these prefixes followed by the
# file's name; `src/schemas/json/schema-catalog.json` is the schema of the catalog file the entry joins.
SCHEMASTORE_URL_PREFIXES = (
    "https://www.schemastore.org/",
    "https://raw.githubusercontent.com/SchemaStore/schemastore/master/src/schemas/json/",
)
CATALOG_SCHEMA: dict[str, Any] = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "required": ["schemas", "version", "$schema"],
    "additionalProperties": False,
    "properties": {
        "$schema": {
            "type": "string",
            "enum": [
                "https://www.schemastore.org/schema-catalog.json",
                "https://json.schemastore.org/schema-catalog.json",
            ],
        },
        "version": {"type": "number"},
        "schemas": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["name", "url", "description"],
                "additionalProperties": False,
                "properties": {
                    "fileMatch": {"type": "array", "uniqueItems": True, "items": {"type": "string"}},
                    "url": {"type": "string", "format": "uri"},
                    "name": {"type": "string"},
                    "description": {"type": "string"},
                    "versions": {"type": "object", "additionalProperties": {"type": "string", "format": "uri"}},
                },
            },
        },
    },
}


def _entry() -> dict[str, Any]:
    return json.loads((SUBMISSION / "src" / "api" / "json" / "catalog-entry.json").read_text("utf-8"))


def test_the_catalog_entry_has_the_url_schemastores_check_looks_for() -> None:
    """cli.js check fails with "Expected schema file ... to have a corresponding entry" unless the entry's url is a
    SchemaStore prefix followed by the schema's file name (json.schemastore.org is no longer one)."""
    url = _entry()["url"]
    schema_file = f"{SCHEMA_NAME}.json"
    assert (SUBMISSION / "src" / "schemas" / "json" / schema_file).is_file()
    assert any(url == prefix + schema_file for prefix in SCHEMASTORE_URL_PREFIXES), url
    assert not url.startswith("https://json.schemastore.org/")


def test_the_catalog_entry_is_valid_in_schemastores_catalog() -> None:
    catalog = {"$schema": "https://www.schemastore.org/schema-catalog.json", "version": 1, "schemas": [_entry()]}
    validator = jsonschema.Draft7Validator(CATALOG_SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    assert [error.message for error in validator.iter_errors(catalog)] == []
    broken = {**catalog, "schemas": [{**_entry(), "fileMatch": ["a.json", "a.json"], "homepage": "x"}]}
    assert len(list(validator.iter_errors(broken))) == 2  # the rules above can fail: a repeated match, a stray key


def test_it_follows_schemastore_conventions() -> None:
    schema = json.loads((SUBMISSION / "src" / "schemas" / "json" / f"{SCHEMA_NAME}.json").read_text("utf-8"))
    assert list(schema)[:2] == ["$schema", "$id"]
    assert schema["$id"] == _entry()["url"] == SCHEMA_URL
    assert list(_entry()) == ["name", "description", "fileMatch", "url"]
    # every description of the root ends with a line holding the documentation's address
    for path in [*SCHEMAS.glob("*.json"), SUBMISSION / "src" / "schemas" / "json" / f"{SCHEMA_NAME}.json"]:
        last = json.loads(path.read_text("utf-8"))["description"].splitlines()[-1]
        assert last.startswith("https://dsref.github.io/dsref/"), path.name
    # SchemaStore's formatter sorts the keys of test files
    for path in (SUBMISSION / "src").rglob("*test/**/*.json"):
        assert _sorted_everywhere(json.loads(path.read_text("utf-8"))), path


def test_the_file_names_it_claims() -> None:
    names = ("ds_config.json", "ds_config_zero3.json", "ds-config-offload.json", "deepspeed_config.json")
    for name in names:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in FILE_MATCH), name
    for name in ("package.json", "config.json", "tsconfig.json"):
        assert not any(fnmatch.fnmatch(name, pattern) for pattern in FILE_MATCH), name
    extension = json.loads((ROOT / "editors" / "vscode" / "package.json").read_text("utf-8"))
    (validation,) = extension["contributes"]["jsonValidation"]
    assert tuple(validation["fileMatch"]) == FILE_MATCH  # the VS Code extension claims the same files


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_editor_page_shows_the_entry_submitted(lang: str) -> None:
    import re

    from dsref.editor.schemastore import catalog_entry

    page = (ROOT / "docs" / lang / "editor-schema.md").read_text("utf-8")
    section = page[page.index("## SchemaStore") :]
    shown = re.search(r"```json\n(.*?)```", section, re.S)
    assert shown is not None and json.loads(shown.group(1)) == catalog_entry()
