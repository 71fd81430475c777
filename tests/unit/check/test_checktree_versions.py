"""The check tree's stored schemas are used only by the pydantic-core release that wrote them.

``dsref/generated/check_tree.py`` records the pydantic and pydantic-core releases that wrote its core schemas.
Where the installed pydantic-core is another release, or a function a schema names cannot be imported (one of
pydantic's private helpers, say), an option's validator is built from its field in the models instead: the
verdicts must be the same either way.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic_core import ValidationError

from dsref.check.validate import checktree, values
from dsref.check.validate.checktree import CHECK_TREE_MODULE, ValidatorSpec, check_tree, stored_schemas_usable
from dsref.check.validate.validation import validate

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "real"
PROBES: list[Any] = [
    None, True, False, 0, 1, -1, 2, 3, 7, 1.0, 0.5, -2.5, 5e8, 10**20, "", "auto", "cpu", "nvme", "2", "1e3",
    "true", "WARN", "warn", "fp16", "bf16", [], [1], ["a"], [0.9, 0.99], {}, {"a": "b"}, "/local_nvme",
]  # fmt: skip
_WRITTEN_BY = importlib.import_module(CHECK_TREE_MODULE)


def _outcome(validator: Any, value: Any) -> tuple[Any, Any]:
    try:
        validator.validate_json(json.dumps(value), strict=True)
        strict: Any = "ok"
    except ValidationError as exc:
        strict = sorted((e["type"], repr(e.get("ctx"))) for e in exc.errors(include_url=False))
    except NotImplementedError:  # pydantic 2.7's core, for an is-instance type: no JSON value is an instance
        strict = "not an instance"
    try:
        lax: Any = repr(values.plain_value(validator.validate_python(value)))
    except ValidationError as exc:
        lax = sorted((e["type"], repr(e.get("ctx"))) for e in exc.errors(include_url=False))
    return strict, lax


@pytest.fixture
def fresh() -> Iterator[None]:
    """Forget what was worked out under the real versions (and again after the test)."""

    def forget() -> None:
        stored_schemas_usable.cache_clear()
        check_tree.cache_clear()
        values.value_validator.cache_clear()

    forget()
    yield
    forget()


def _rebuilt(opt: Any) -> ValidatorSpec:
    spec = opt.validator_spec
    return ValidatorSpec(spec.schema, spec.plain, opt.path)


def test_the_tree_records_the_releases_that_wrote_it() -> None:
    import pydantic
    import pydantic_core

    assert re.fullmatch(r"2\.\d+\.\d+", _WRITTEN_BY.PYDANTIC)
    assert re.fullmatch(r"2\.\d+\.\d+", _WRITTEN_BY.PYDANTIC_CORE)
    assert stored_schemas_usable() is (pydantic_core.__version__ == _WRITTEN_BY.PYDANTIC_CORE)
    # the lock installs the releases that wrote the tree (scripts/generate.py writes them)
    assert pydantic.VERSION == _WRITTEN_BY.PYDANTIC or not stored_schemas_usable()


def test_the_release_that_wrote_the_schemas_uses_them(fresh: None) -> None:
    built = [_rebuilt(opt) for opt in check_tree() if opt.validator_spec.schema is not None]
    for spec in built:
        spec.build()
    from_model = [spec.path for spec in built if spec.from_model]
    if stored_schemas_usable():  # only the schemas naming something of another release (none on the lock)
        assert from_model == []
    else:
        assert len(from_model) == len(built)


def test_another_pydantic_core_rebuilds_from_the_models(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    stored = {opt.path: opt.validator_spec.build() for opt in check_tree()}
    monkeypatch.setattr(_WRITTEN_BY, "PYDANTIC_CORE", "0.0.1")
    stored_schemas_usable.cache_clear()
    assert not stored_schemas_usable()
    checked = 0
    for opt in check_tree():
        if opt.validator_spec.schema is None:
            continue
        spec = _rebuilt(opt)
        rebuilt = spec.build()
        assert spec.from_model, opt.path
        for value in PROBES:
            assert _outcome(rebuilt, value) == _outcome(stored[opt.path], value), (opt.path, value)
            checked += 1
    assert checked > 10_000


def test_a_function_that_is_gone_rebuilds_from_the_models(fresh: None) -> None:
    """The stored schema of ``update_interval`` names pydantic's private ``greater_than_or_equal_validator``; a
    release without it (here: the same schema naming a function no release has) builds from the model."""
    opt = check_tree().get("zero_optimization.zenflow.update_interval")
    named = "pydantic._internal._validators:greater_than_or_equal_validator"
    assert named in json.dumps(opt.validator_spec.schema)
    stored = _rebuilt(opt)
    stored_validator = stored.build()
    assert stored.from_model is not stored_schemas_usable()
    gone = json.loads(json.dumps(opt.validator_spec.schema).replace(named, f"{named}_gone"))
    spec = ValidatorSpec(gone, opt.validator_spec.plain, opt.path)
    validator = spec.build()
    assert spec.from_model
    for value in [*PROBES, 0, 1, 2, "3", 1.5]:
        assert _outcome(validator, value) == _outcome(stored_validator, value), value


def test_a_function_of_another_pydantic_rebuilds_from_the_models(monkeypatch: pytest.MonkeyPatch) -> None:
    opt = check_tree().get("zero_optimization.zenflow.update_interval")
    monkeypatch.setattr(_WRITTEN_BY, "PYDANTIC", "2.0.0")
    spec = _rebuilt(opt)
    spec.build()
    assert spec.from_model


def test_a_schema_pydantic_core_cannot_read_rebuilds_from_the_models(fresh: None) -> None:
    opt = check_tree().get("zero_optimization.stage")
    spec = ValidatorSpec({"type": "no-such-schema"}, None, opt.path)
    validator = spec.build()
    assert spec.from_model
    assert validator is not None
    assert _outcome(validator, 2) == _outcome(opt.validator_spec.build(), 2)
    assert _outcome(validator, 4) == _outcome(opt.validator_spec.build(), 4)


def test_configs_get_the_same_findings_from_rebuilt_validators(monkeypatch: pytest.MonkeyPatch, fresh: None) -> None:
    files = sorted(CORPUS.glob("*.json"))[:120]
    if not files:
        pytest.skip(f"no corpus at {CORPUS}")
    configs = []
    for path in files:
        try:
            configs.append(json.loads(path.read_text(encoding="utf-8")))
        except ValueError:
            continue
    mistakes = {
        "train_micro_batch_size_per_gpu": "4",
        "zero_optimization": {"stage": 4, "overlap_comm": "yes", "reduce_bucket_size": 5e8, "zenflow": {}},
        "fp16": {"enabled": 1, "loss_scale": -1},
        "gradient_clipping": "x",
        "tensor_parallel": {"dtype": "fp16"},  # an is-instance type: pydantic 2.7's core raises from JSON
    }
    configs.append(mistakes)
    before = [validate(config) for config in configs]
    assert any(before), "no finding to compare"
    monkeypatch.setattr(_WRITTEN_BY, "PYDANTIC_CORE", "0.0.1")
    stored_schemas_usable.cache_clear()
    check_tree.cache_clear()
    values.value_validator.cache_clear()
    after = [validate(config) for config in configs]
    assert after == before
    rebuilt = [opt.validator_spec for opt in checktree.check_tree() if opt.validator_spec._built is not None]
    assert rebuilt and all(spec.from_model for spec in rebuilt)
