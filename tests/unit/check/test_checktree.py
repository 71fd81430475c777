"""The generated check tree gives what the model-built option tree gives: the same options and the same validators.

(``tests/unit/generator/test_generated.py`` keeps ``dsref/generated/check_tree.py`` itself in sync with the schema.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic_core import ValidationError

from dsref.check.pipeline import check_file
from dsref.check.rules import run_rules
from dsref.check.settings import CheckSettings
from dsref.check.validate.checktree import check_tree, stored_schemas_usable
from dsref.check.validate.validation import validate
from dsref.check.validate.values import accepts, plain_value
from dsref.generator.check_tree import validator_of
from dsref.tree.options import Option, option_tree

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "real"
_NOT_KEPT = {"description", "summary", "related", "annotation", "field_info", "model", "validator_spec"}
PROBES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 4, 7, 1.0, 0.5, -2.5, 1e9, 5e8, 10**20, "", "auto", "AUTO", "cpu", "none",
    "nvme", "2", "1e3", "true", "warn", "fp16", "bfloat16", "torch.float16", "adamw", "x" * 70, [], [1], ["a", "b"],
    {}, {"a": 1}, "/local_nvme", "ring",
]  # fmt: skip


def _normalized(text: str) -> list[str]:
    """A validator's repr with addresses dropped and lines sorted (its hash maps print in any order)."""
    return sorted(re.sub(r"0x[0-9a-f]+", "0x", text).splitlines())


def _outcome(validator: Any, value: Any) -> tuple[Any, ...]:
    try:
        validator.validate_json(json.dumps(value), strict=True)
        strict: Any = "ok"
    except ValidationError as exc:
        strict = sorted(e["type"] for e in exc.errors())
    except NotImplementedError:  # pydantic 2.7's core, for an is-instance type
        strict = "not an instance"
    try:
        lax: Any = ("ok", repr(plain_value(validator.validate_python(value))))
    except ValidationError as exc:
        lax = sorted(e["type"] for e in exc.errors())
    return strict, lax


def test_every_option_has_the_same_facts() -> None:
    full, light = option_tree(), check_tree()
    assert [o.path for o in full] == [o.path for o in light]
    for opt in full:
        mine = light.get(opt.path)
        for name in Option.__dataclass_fields__:
            if name not in _NOT_KEPT:
                assert getattr(mine, name) == getattr(opt, name), (opt.path, name)
        assert mine.meta == opt.meta, opt.path


def test_a_stale_check_tree_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows written for another ``Option`` would set the wrong fields: the tree is not read from them."""
    import importlib

    from dsref.check.validate import checktree

    module = importlib.import_module(checktree.CHECK_TREE_MODULE)
    monkeypatch.setattr(module, "FIELDS", module.FIELDS[1:])
    checktree.check_tree.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=r"scripts/generate\.py"):
            checktree.check_tree()
    finally:
        checktree.check_tree.cache_clear()


def test_every_validator_is_pydantics_own() -> None:
    light = check_tree()
    for opt in option_tree():
        expected = validator_of(opt)
        mine = light.get(opt.path).validator_spec.build()
        if expected is None or mine is None:
            assert expected is mine is None, opt.path
            continue
        mine_core = getattr(mine, "validator", mine)  # a TypeAdapter where another pydantic-core rebuilt it
        assert _normalized(repr(mine_core)) == _normalized(repr(expected.validator)), opt.path
        for value in PROBES:
            assert _outcome(mine, value) == _outcome(expected, value), (opt.path, value)


def test_sections_accept_the_same_plain_values() -> None:
    light = check_tree()
    for opt in option_tree():
        if opt.kind == "section" and opt.container != "list":
            for value in PROBES:
                if not isinstance(value, dict):
                    assert accepts(light.get(opt.path), value, scalar=True) == accepts(opt, value, scalar=True)


def _corpus() -> list[Path]:
    files = sorted(CORPUS.glob("*.json"))
    if not files:
        pytest.skip(f"no corpus at {CORPUS}")
    return files


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["deepspeed", "hf"])
def test_real_configs_get_the_same_findings_from_both_trees(profile: str) -> None:
    full = option_tree()
    for path in _corpus():
        report = check_file(str(path), settings=CheckSettings(profile=profile))  # type: ignore[arg-type]
        if report.loaded is None or not isinstance(report.loaded.data, dict):
            continue
        data = report.loaded.data
        assert validate(data, settings=CheckSettings(profile=profile), tree=full) == validate(
            data, settings=CheckSettings(profile=profile)
        ), path  # type: ignore[arg-type]
        assert (
            run_rules(data, settings=CheckSettings(profile=profile, world_size=8), tree=full).findings
            == run_rules(data, settings=CheckSettings(profile=profile, world_size=8)).findings
        ), path


def test_checking_imports_neither_pydantic_nor_the_models() -> None:
    files = [str(p) for p in _corpus()]
    code = (
        "import sys\nfrom dsref.cli.main import main\n"
        f"main(['check', '--format', 'json', *{files!r}])\n"
        "print(sorted(sys.modules))"
    )
    env = {**os.environ, "LANG": "C.UTF-8"}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    loaded = set(json.loads(proc.stdout.strip().splitlines()[-1].replace("'", '"')))
    heavy = ["pydantic.main", "pydantic.type_adapter", "pydantic.fields", "dsref.schema.config"]
    heavy += ["jsonschema", "dsref.editor.jsonschema", "dsref.estimate.table", "dsref.site", "dsref.explain.render"]
    if not stored_schemas_usable():  # another pydantic-core: validators are built from the models, on purpose
        assert "pydantic.type_adapter" in loaded
        return
    assert sorted(loaded & set(heavy)) == []
    assert [m for m in loaded if m.startswith("dsref.schema.")] == ["dsref.schema._meta"] or sorted(
        m for m in loaded if m.startswith("dsref.schema.")
    ) == ["dsref.schema._coerce", "dsref.schema._meta"]
