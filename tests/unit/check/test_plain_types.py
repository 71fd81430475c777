"""dsref.check.validate.plain_types says "plainly valid" only where pydantic-core accepts the value as written.

For every option of the check tree and values of every JSON type (the option's own words and bounds among them,
strings that may or may not read as numbers or booleans, huge ints, nested arrays), a value :func:`judge` finds
plainly valid must be accepted by pydantic-core's strict JSON validation, and one it finds kept as written must be
kept, equal and of the same type, by pydantic-core's lax Python validation (the one DeepSpeed's models run).
Everything else is pydantic-core's to judge: checking with the plain facts must find what checking without them
finds, and a plain config is checked without importing pydantic-core at all.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Iterator
from enum import Enum
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_core import SchemaValidator, ValidationError

from dsref.check.settings import CheckSettings
from dsref.check.validate.checktree import check_tree
from dsref.check.validate.effective import effective
from dsref.check.validate.plain_types import AS_WRITTEN, CONVERTED, NOT_PLAIN, judge
from dsref.check.validate.validation import validate
from dsref.check.validate.values import accepts, coerce
from dsref.tree.options import Option
from tests import needs

_VALUES: list[Any] = [
    None, True, False, 0, 1, 2, 3, 4, -1, -2, 5, 10**9, 2**53, 2**53 + 1, 2**63 - 1, 2**63, -(2**63), 2**64, 2**70,
    10**30, -(10**30),
    0.0, -0.0, 0.5, 1.0, -1.0, 2.0, 0.1, 1e-10, 1e-300, 1e9, 5e8, 2.5e9, 2.0**53, 2.0**63, 2.0**64, 1e20, 1e300,
    math.nan, math.inf, -math.inf,
    "", " ", "auto", "cpu", "none", "nvme", "bf16", "BF16", "fp16", "bfp16", "/nvme", "x" * 300, "\ud800",
    "0", "1", "2", "-1", "+1", "-0", "007", " 1 ", "\t2\n", "\x0b3\x0c", "\r4\r", "+-1", "--1", "+", "-",
    "1_000", "_1", "1.0", "1.00", "1.5", "1e3", "0x10",
    "12345678901234567890", "9" * 18, "9" * 19, "\u0663", "\u00a01", "inf", "-inf", "nan", "Infinity",
    "true", "True", "TRUE", "false", "yes", "Yes", "no", "on", "off", "y", "n", "t", "f", " true", "yes ", "nope",
    [], [0], [1], [True], [1.0], [0.5, 1], ["1"], [1, "x"], [None], ["a"], [0.9, 0.999], [0.9, "auto"], [1, 2],
    [1, 2, 3], [[1]], [[]], [[0.9, 0.999]], [0, -1, "x"],
    {}, {"a": 1}, {"a": "b"}, {"a": None}, {"a": ["b"]}, {"": ""}, {"a": "b", "c": 1, "d": True},
]  # fmt: skip


def _own_values(schema: Any) -> list[Any]:
    """Words, enum values and bounds the schema names, and each bound's neighbours (as ints, floats and strings)."""
    found: list[Any] = []
    if isinstance(schema, dict):
        for key, item in schema.items():
            if key == "expected" and isinstance(item, list):
                found.extend(item)
            elif key == "$enum":
                found.extend(value for _name, value in item["members"])
                found.extend(str(value) for _name, value in item["members"])
            elif key in ("gt", "ge", "lt", "le") and isinstance(item, (int, float)):
                near = [item, item - 1, item + 1, item - 0.5, item + 0.5, float(item)]
                found.extend([*near, *(str(n) for n in near), [item - 1]])
            elif key in ("min_length", "max_length") and isinstance(item, int):
                found.extend("x" * n for n in (max(item - 1, 0), item, item + 1))
            else:
                found.extend(_own_values(item))
    elif isinstance(schema, list):
        for item in schema:
            found.extend(_own_values(item))
    return found


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _disagreements(where: str, fact: Any, validator: SchemaValidator, value: Any) -> Iterator[str]:
    """Where ``judge`` finds ``value`` plainly valid and pydantic-core does not agree."""
    verdict = judge(fact, value)
    if verdict == NOT_PLAIN:
        return
    try:
        validator.validate_json(json.dumps(value, allow_nan=True), strict=True)
    except ValidationError as exc:
        yield f"{where}: {value!r} plainly valid, strict pydantic-core: {exc.errors(include_url=False)}"
    try:
        kept: Any = _plain(validator.validate_python(value))
    except ValidationError as exc:
        yield f"{where}: {value!r} plainly valid, lax pydantic-core: {exc.errors(include_url=False)}"
        return
    if verdict == AS_WRITTEN and not _same(kept, value):
        yield f"{where}: {value!r} said kept as written, pydantic-core keeps {kept!r}"


def _facts() -> list[tuple[str, Any, SchemaValidator, Any]]:
    return [
        (opt.path, opt.validator_spec.plain, opt.validator_spec.build(), opt.validator_spec.schema)
        for opt in check_tree()
        if opt.validator_spec is not None and opt.validator_spec.plain is not None
    ]


def test_every_plainly_valid_value_is_valid_to_pydantic_core() -> None:
    checked = plain = 0
    wrong: list[str] = []
    for path, fact, validator, schema in _facts():
        for value in [*_VALUES, *_own_values(schema)]:
            checked += 1
            plain += judge(fact, value) != NOT_PLAIN
            wrong.extend(_disagreements(path, fact, validator, value))
    assert not wrong, "\n".join(wrong[:40])
    # the facts must say something of what configs write, or they are not worth having
    assert plain > checked // 10, (plain, checked)


def test_most_options_state_their_facts() -> None:
    """An option whose schema the generator cannot state plainly has every value built a validator for."""
    options = [opt for opt in check_tree() if opt.validator_spec is not None and opt.validator_spec.schema]
    stated = [opt for opt in options if opt.validator_spec.plain is not None]
    assert len(stated) > 0.95 * len(options), sorted({opt.path for opt in options} - {opt.path for opt in stated})


@pytest.mark.parametrize(
    ("fact", "value", "verdict"),
    [
        ({"type": "integer", "ge": 1}, 1, AS_WRITTEN),
        ({"type": "integer", "ge": 1}, 0, NOT_PLAIN),
        ({"type": "integer", "gt": 0, "le": 3}, 3, AS_WRITTEN),
        ({"type": "integer", "gt": 0, "le": 3}, 4, NOT_PLAIN),
        ({"type": "integer", "gt": 0}, True, NOT_PLAIN),  # a JSON boolean is not a number
        ({"type": "integer"}, 5.0, NOT_PLAIN),  # nor is 5.0 an integer as written
        ({"type": "integer"}, 2**63, NOT_PLAIN),
        ({"type": "number", "lt": 1}, 0.999, AS_WRITTEN),
        ({"type": "number", "lt": 1}, 1.0, NOT_PLAIN),
        ({"type": "number", "lt": 1}, 0, CONVERTED),
        ({"type": "number"}, math.nan, NOT_PLAIN),
        ({"type": "number"}, "1", NOT_PLAIN),
        ({"type": "string", "enum": ["cpu", "nvme"]}, "cpu", AS_WRITTEN),
        ({"type": "string", "enum": ["cpu", "nvme"]}, "CPU", NOT_PLAIN),
        ({"type": "string", "min_length": 1}, "", NOT_PLAIN),
        ({"type": "string"}, "\ud800", NOT_PLAIN),
        ({"type": "string", "converted": True}, "/nvme", CONVERTED),
        ({"type": "boolean"}, 1, NOT_PLAIN),
        ({"type": "boolean", "nullable": True}, None, AS_WRITTEN),
        ({"type": "boolean"}, None, NOT_PLAIN),
        ({"any_of": [{"type": "integer"}, {"type": "string", "enum": ["auto"]}]}, "auto", AS_WRITTEN),
        ({"any_of": [{"type": "integer"}, {"type": "string", "enum": ["auto"]}]}, "x", NOT_PLAIN),
        ({"type": "array", "items": {"type": "number"}}, [0.9, 0.95], AS_WRITTEN),
        ({"type": "array", "items": {"type": "number"}}, [0.9, "x"], NOT_PLAIN),
        ({"type": "array", "prefix_items": [{"type": "number"}]}, [0.9], CONVERTED),
        ({"type": "array", "prefix_items": [{"type": "number"}]}, [0.9, 0.9], NOT_PLAIN),
        ({"type": "object", "values": {"type": "string"}}, {"a": "b"}, AS_WRITTEN),
        ({"type": "object", "values": {"type": "string"}}, {"a": 1}, NOT_PLAIN),
        ({"type": "any"}, {"a": [1, None, "b"]}, AS_WRITTEN),
        (None, 1, NOT_PLAIN),
        ({"type": "array", "items": {"type": "any"}}, [[[]]], AS_WRITTEN),
        ({"type": "any"}, json.loads("[" * 40 + "]" * 40), NOT_PLAIN),  # deep values are the validator's
    ],
)
def test_judge(fact: Any, value: Any, verdict: int) -> None:
    assert judge(fact, value) == verdict


@cache
def _distinct_facts() -> list[tuple[str, Any, SchemaValidator, Any]]:
    found: dict[str, tuple[str, Any, SchemaValidator, Any]] = {}
    for entry in _facts():
        found.setdefault(json.dumps(entry[1], sort_keys=True), entry)
    return list(found.values())


_NUMBER_TEXT = st.from_regex(r"[ \t\n]?[+-]?[0-9_]{0,5}(\.[0-9]{0,2})?([eE][+-]?[0-9]{1,2})?[ \t]?", fullmatch=True)
_WORDS = st.sampled_from(
    ["true", "True", "FALSE", "yes", "No", "on", "OFF", "t", "F", "y", "N", "1", "0", "", "auto", "none", "cpu",
     "nvme", "fp16", "bf16", "fp32", "inf", "NaN", "-Infinity", "/nvme", "warn", "WARN"]
)  # fmt: skip
_INTS = st.one_of(
    st.integers(-5, 5), st.integers(), st.integers(2**52, 2**54), st.integers(2**62, 2**65).map(lambda n: -n)
)
_SCALARS = st.one_of(
    st.none(), st.booleans(), _INTS, st.integers(2**62, 2**65), st.floats(), st.integers(-3, 3).map(float),
    st.text(max_size=6), _NUMBER_TEXT, _WORDS,
)  # fmt: skip
JSON = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_WORDS | st.text(max_size=3), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=needs.examples(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=JSON)
def test_plainly_valid_is_valid_to_pydantic_core_for_any_json_value(data: st.DataObject, value: Any) -> None:
    facts = _distinct_facts()
    path, fact, validator, _schema = facts[data.draw(st.integers(0, len(facts) - 1), label="facts")]
    wrong = list(_disagreements(path, fact, validator, value))
    assert not wrong, "\n".join(wrong)


def _nested(opt: Option) -> bool:
    """Whether ``opt`` is written as ``{"a": {"b": value}}`` by its path: every section above it a plain object."""
    parts = opt.path.split(".")
    tree = check_tree()
    for depth in range(1, len(parts)):
        above = ".".join(parts[:depth])
        if above not in tree or tree.get(above).container is not None or tree.get(above).key != parts[depth - 1]:
            return False
    return opt.key == parts[-1]


def _everything_said(opt: Option, value: Any) -> list[str]:
    """What checking, reading and converting ``value`` at ``opt`` says."""
    config: Any = value
    for step in reversed(opt.path.split(".")):
        config = {step: config}
    said = []
    for release in ("0.19.8", "0.16.0"):
        try:
            said += [repr(finding) for finding in validate(config, settings=CheckSettings(deepspeed_version=release))]
        except TypeError as exc:  # a path of a lone surrogate: the same either way (a known fault, not this test's)
            said.append(f"raises {exc}")
    said.append(repr(sorted(effective(config).values.items())))
    try:
        said.append(f"coerce: {_plain(coerce(opt, value))!r}")
    except ValueError:
        said.append("coerce refuses")
    said.append(f"accepts: {accepts(opt, value, scalar=True)}")
    return said


@pytest.mark.slow
def test_checking_with_plain_facts_finds_what_pydantic_core_alone_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    options = [opt for opt in check_tree() if opt.kind == "leaf" and opt.validator_spec is not None]
    options = [opt for opt in options if opt.validator_spec.plain is not None and _nested(opt)]
    assert len(options) > 100, len(options)
    cases = [(opt, value) for opt in options for value in [*_VALUES, *_own_values(opt.validator_spec.schema)]]
    fast = [_everything_said(opt, value) for opt, value in cases]
    for opt in check_tree():  # no facts: every value goes to pydantic-core
        if opt.validator_spec is not None:
            monkeypatch.setattr(opt.validator_spec, "plain", None)
    wrong = []
    for (opt, value), said in zip(cases, fast, strict=True):
        slow = _everything_said(opt, value)
        if said != slow:
            wrong.append(f"{opt.path} = {value!r}:\n  plain facts: {said}\n  pydantic-core: {slow}")
    assert not wrong, "\n".join(wrong[:10])


_PLAIN_CONFIG = {
    "train_micro_batch_size_per_gpu": 4,
    "gradient_accumulation_steps": 2,
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 3e-5, "betas": [0.9, 0.95], "weight_decay": 0.1}},
    "zero_optimization": {
        "stage": 3,
        "offload_optimizer": {"device": "cpu", "pin_memory": True},
        "reduce_bucket_size": 5e8,
        "stage3_max_live_parameters": 1e9,
    },
}
_USUAL_MISTAKES = {  # what the corpus writes: deprecated options, values DeepSpeed converts or refuses, paths
    "train_micro_batch_size_per_gpu": [8],
    "steps_per_print": 20000000000000000,
    "communication_data_type": "bfp16",
    "prescale_gradients": 1,
    "fp16": {"enabled": 1, "min_loss_scale": 0.5},
    "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 0}},
    "autotuning": {"enabled": True, "results_dir": None, "arg_mappings": {"train_micro_batch_size_per_gpu": "--b"}},
    "zero_optimization": {
        "stage": "1",
        "cpu_offload": True,
        "overlap_comm": [False],
        "reduce_bucket_size": 0,
        "stage3_max_reuse_distance": -1,
        "offload_param": {"device": "auto", "nvme_path": "/nvme"},
        "offload_optimizer": {"device": "nvme", "nvme_path": None},
    },
}


@pytest.mark.parametrize(
    ("config", "status", "imported"), [(_PLAIN_CONFIG, "0", "False"), (_USUAL_MISTAKES, "1", "True")]
)
def test_only_a_value_not_plainly_valid_imports_pydantic_core(
    tmp_path: Any, config: Any, status: str, imported: str
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    probe = (
        "import sys, contextlib, io\n"
        "from dsref.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main(['check', '--format', 'json', '--deepspeed-version', '0.19.8', {str(path)!r}])\n"
        "print(status, 'pydantic_core' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [status, imported], done.stdout + done.stderr
