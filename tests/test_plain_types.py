"""dsref.check.plain_types answers as pydantic-core does, for every option of the check tree.

For each option's schema and values of every JSON type (the option's own words and bounds among them), a sure answer
of :class:`~dsref.check.plain_types.PlainType` must be pydantic-core's: ``strict`` its strict JSON validation,
``kept`` what its lax validation keeps (an enum member as its value, of the same Python type), ``integral`` the int
it makes of a float written for an int. And a plain config is checked without importing pydantic-core at all.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from enum import Enum
from typing import Any

import pytest
from pydantic_core import ValidationError

from dsref.check.checktree import check_tree
from dsref.check.plain_types import UNSURE, plain_type

_VALUES: list[Any] = [
    None, True, False, 0, 1, 2, 3, 4, -1, 5, 10**9, 2**53, 2**53 + 1, 2**70,
    0.0, -0.0, 0.5, 1.0, 2.0, 1e-10, 1e9, 5e8, 2.5e9, 1e20, 1e300, math.nan, math.inf, -math.inf,
    "", "auto", "cpu", "none", "nvme", "bf16", "BF16", "fp16", "2", "true", "\ud800", "x" * 300,
    [], [0.9, 0.999], [0.9, "auto"], [1, 2], [1, 2, 3], ["a"], [None], {}, {"a": 1},
]  # fmt: skip


def _own_values(schema: Any) -> list[Any]:
    """Words, enum values and bounds the schema names, and each bound's neighbours."""
    found: list[Any] = []
    if isinstance(schema, dict):
        for key, item in schema.items():
            if key == "expected" and isinstance(item, list):
                found.extend(item)
            elif key == "$enum":
                found.extend(value for _name, value in item["members"])
            elif key in ("gt", "ge", "lt", "le") and isinstance(item, (int, float)):
                found.extend([item, item - 1, item + 1, item - 0.5, item + 0.5, float(item)])
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
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    return value


@pytest.mark.slow
def test_every_sure_answer_is_pydantic_cores() -> None:
    tree = check_tree()
    checked = sure = 0
    wrong: list[str] = []
    for opt in tree:
        spec = opt.validator_spec
        if spec is None or spec.schema is None:
            continue
        plain = plain_type(spec.schema)
        validator = spec.build()
        for value in [*_VALUES, *_own_values(spec.schema)]:
            checked += 1
            verdict = plain.strict(value)
            try:
                validator.validate_json(json.dumps(value, allow_nan=True), strict=True)
                accepted = True
            except ValidationError:
                accepted = False
            if verdict is not UNSURE:
                sure += 1
                if verdict is not accepted:
                    wrong.append(f"{opt.path}: strict({value!r}) = {verdict}, pydantic-core: {accepted}")
            try:
                lax: Any = _plain(validator.validate_python(value))
            except ValidationError:
                lax = UNSURE
            if verdict is True:
                kept = plain.kept(value)
                if kept is not UNSURE and not _same(kept, lax):
                    wrong.append(f"{opt.path}: kept({value!r}) = {kept!r}, pydantic-core keeps {lax!r}")
            integral = plain.integral(value)
            if integral is not UNSURE and not (type(integral) is int and _same(integral, lax)):
                wrong.append(f"{opt.path}: integral({value!r}) = {integral!r}, pydantic-core keeps {lax!r}")
    assert not wrong, "\n".join(wrong[:40])
    # the fast answers must cover most of what configs write, or they are not worth having
    assert sure > checked // 2, (sure, checked)


def test_a_plain_config_is_checked_without_pydantic_core(tmp_path: Any) -> None:
    config = {
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
    assert done.stdout.split() == ["0", "False"], done.stdout + done.stderr
