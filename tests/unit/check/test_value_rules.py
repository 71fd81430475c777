"""DS585, DS586 and DS587: values that are always mistakes, each claim checked against the real class."""

from __future__ import annotations

import inspect
import logging
from typing import Any

import pytest

from dsref.check.rules import get_rule, run_rules
from dsref.check.rules.values import OPTIMIZER_PARAMS, TORCH_CHECKS, TORCH_REFUSES_ZERO
from tests import needs
from tests.conftest import require_deepspeed

BAD = {"lr": -1e-3, "eps": -1e-8, "weight_decay": -0.01, "betas": [0.9, 1.5], "momentum": -0.9}


def codes(config: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(f.code, f.option) for f in run_rules(config, select={"DS585", "DS586", "DS587"}).findings]


def torch_refuses(cls_name: str, key: str, value: Any) -> bool:
    torch = needs.module("torch")

    cls = getattr(torch.optim, cls_name.rsplit(".", 1)[1])
    if key not in inspect.signature(cls).parameters:
        return False
    try:
        cls([torch.nn.Parameter(torch.zeros(2))], **{key: tuple(value) if key == "betas" else value})
    except ValueError:
        return True
    except TypeError:  # Adafactor's eps is a pair: a float fails otherwise, and no value of it is checked here
        return False
    return False


@pytest.mark.slow  # a fuzzer or a cross-check of seconds; the fast tier has the plain cases
def test_the_table_of_torch_checks_is_what_torch_does() -> None:
    for cls_name, checked in TORCH_CHECKS.items():
        for key in OPTIMIZER_PARAMS:
            assert torch_refuses(cls_name, key, BAD[key]) == (key in checked), (cls_name, key)
        for key in ("lr", "eps"):  # zero passes torch's 0 <= value, not SparseAdam's 0 < value
            refused = key in TORCH_REFUSES_ZERO.get(cls_name, ())
            assert torch_refuses(cls_name, key, 0.0) == refused, (cls_name, key)


@pytest.mark.parametrize("key", OPTIMIZER_PARAMS)
@pytest.mark.slow
def test_torch_optimizers_refuse_and_ds585_says_so(key: str) -> None:
    config = {"train_batch_size": 8, "optimizer": {"type": "SGD" if key == "momentum" else "AdamW", "params": {}}}
    if key != "momentum":
        config["optimizer"]["params"]["torch_adam"] = True
    config["optimizer"]["params"][key] = BAD[key]
    found = run_rules(config, select={"DS585", "DS586"}).findings
    checker = "torch.optim.SGD" if key == "momentum" else "torch.optim.AdamW"
    assert torch_refuses(checker, key, BAD[key])
    assert [(f.code, f.option) for f in found] == [("DS585", f"optimizer.params.{key}")]
    assert found[0].args["optimizer"] == checker
    text = get_rule("DS585").text("message", "en", **found[0].args)
    assert f"{checker} refuses it (ValueError)" in text


@pytest.mark.parametrize("key", ["lr", "eps", "weight_decay", "betas"])
@pytest.mark.slow
def test_deepspeeds_own_optimizers_take_them_and_ds586_says_what_follows(key: str) -> None:
    config = {"train_batch_size": 8, "optimizer": {"type": "AdamW", "params": {key: BAD[key]}}}
    assert codes(config) == [("DS586", f"optimizer.params.{key}")]
    (finding,) = run_rules(config, select={"DS586"}).findings
    assert finding.args["optimizer"] == "FusedAdam"
    english = get_rule("DS586").text("message", "en", **finding.args)
    chinese = get_rule("DS586").text("message", "zh", **finding.args)
    assert "FusedAdam takes it without a word, and then" in english and chinese != english
    # FusedAdam needs CUDA to be built; its constructor's source shows it checks nothing
    require_deepspeed()
    from deepspeed.ops.adam import FusedAdam

    assert "ValueError" not in inspect.getsource(FusedAdam.__init__)


@pytest.mark.slow
def test_zero_lr_and_eps_pass_torch_but_not_dsref() -> None:
    for key in ("lr", "eps"):
        config = {"train_batch_size": 8, "optimizer": {"type": "SGD" if key == "lr" else "Adagrad", "params": {key: 0}}}
        if key == "lr":
            assert not torch_refuses("torch.optim.SGD", "lr", 0.0)
        assert codes(config) == [("DS586", f"optimizer.params.{key}")], key


@pytest.mark.parametrize(
    "config",
    [
        {
            "optimizer": {
                "type": "AdamW",
                "params": {"lr": 3e-4, "betas": [0.9, 0.95], "eps": 1e-8, "weight_decay": 0.1},
            }
        },
        {"optimizer": {"type": "SGD", "params": {"lr": "auto", "momentum": 0.9}}},
        {"optimizer": {"type": "Adam", "params": {"betas": "auto"}}},
        {"scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 3e-4}}},
        {"scheduler": {"type": "WarmupDecayLR", "params": {"total_num_steps": 5000, "warmup_num_steps": 500}}},
    ],
)
def test_quiet_on_sane_values(config: dict[str, Any]) -> None:
    assert codes({"train_batch_size": 8, **config}) == []


@pytest.fixture(scope="module")
def schedule() -> Any:
    """``lrs(type, params, steps)``: the learning rates DeepSpeed's scheduler sets, step by step, and its warnings."""
    require_deepspeed()
    import torch
    from deepspeed.runtime import lr_schedules
    from deepspeed.utils import logger

    def lrs(kind: str, params: dict[str, Any], steps: int) -> tuple[list[float], list[str]]:
        optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=1e-3)
        said: list[str] = []
        handler = logging.Handler()
        handler.emit = lambda record: said.append(record.getMessage())  # type: ignore[method-assign]
        logger.addHandler(handler)
        level = logger.level
        logger.setLevel(logging.WARNING)  # other tests quiet DeepSpeed's logger; its warnings are what is checked
        try:
            scheduler = getattr(lr_schedules, kind)(optimizer, **params)
            rates = []
            for _ in range(steps):
                scheduler.step()
                rates.append(optimizer.param_groups[0]["lr"])
        finally:
            logger.removeHandler(handler)
            logger.setLevel(level)
        return rates, said

    return lrs


@pytest.mark.slow
def test_a_falling_warmup(schedule: Any) -> None:
    params = {"warmup_min_lr": 1e-3, "warmup_max_lr": 1e-5, "warmup_num_steps": 10}
    rates, _ = schedule("WarmupLR", params, 12)
    assert rates[-1] < rates[0]  # what DS587 says: the rate falls during warmup
    config = {"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": params}}
    assert codes(config) == [("DS587", "scheduler.params.warmup_max_lr")]


@pytest.mark.slow
def test_a_negative_rate_reaches_the_optimizer(schedule: Any) -> None:
    params = {"warmup_min_lr": -1e-4, "warmup_max_lr": 1e-3, "warmup_num_steps": 10}
    rates, _ = schedule("WarmupLR", params, 1)
    assert rates[0] < 0
    config = {"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": params}}
    assert codes(config) == [("DS587", "scheduler.params.warmup_min_lr")]


@pytest.mark.slow
def test_warmup_longer_than_training(schedule: Any) -> None:
    params = {"total_num_steps": 100, "warmup_num_steps": 500, "warmup_max_lr": 1e-3, "warmup_type": "linear"}
    rates, said = schedule("WarmupDecayLR", params, 100)
    assert max(rates) < 1e-3 * 0.5  # the peak is never reached
    assert any("is less than warmup_num_steps" in s for s in said)  # and DeepSpeed only logs it
    config = {"train_batch_size": 8, "scheduler": {"type": "WarmupDecayLR", "params": params}}
    assert codes(config) == [("DS587", "scheduler.params.total_num_steps")]
    finding = run_rules(config, select={"DS587"}).findings[0]
    text = get_rule("DS587").text("message", "en", **finding.args)
    assert "100" in text and "500" in text
