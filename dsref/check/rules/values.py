"""Values that are always mistakes, even where DeepSpeed does not look: a learning rate below zero, Adam betas
outside [0, 1), a warmup that lowers the rate.

The optimizer classes of ``torch.optim`` refuse some of them when DeepSpeed builds the optimizer (DS585, an error);
DeepSpeed's own optimizers and schedulers take every one of them without a word, and training then goes wrong in
a way the finding names (DS586, DS587). ``tests/unit/check/test_value_rules.py`` builds the real classes with each
value.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..findings import Example, Severity
from ..validate.validation import short_repr
from . import Context, Hit, rule
from ._common import known, mapping, related
from .optimizer import optimizer_calls, section_type

OPTIMIZER_PARAMS = ("lr", "eps", "weight_decay", "betas", "momentum")
"""The ``optimizer.params`` whose impossible values these rules know."""

# What each torch.optim class checks in its constructor (torch 2.13, torch/optim/*.py: ``raise ValueError("Invalid
# learning rate ...")`` and the like). DeepSpeed's FusedAdam, DeepSpeedCPUAdam, ZenFlowCPUAdam, FusedLamb,
# FusedLion, DeepSpeedCPULion and DeepSpeedCPUAdagrad check none of these.
TORCH_CHECKS: dict[str, frozenset[str]] = {
    "torch.optim.ASGD": frozenset({"lr", "weight_decay"}),
    "torch.optim.Adadelta": frozenset({"lr", "eps", "weight_decay"}),
    "torch.optim.Adafactor": frozenset({"lr", "weight_decay"}),
    "torch.optim.Adagrad": frozenset({"lr", "eps", "weight_decay"}),
    "torch.optim.Adam": frozenset({"lr", "eps", "weight_decay", "betas"}),
    "torch.optim.AdamW": frozenset({"lr", "eps", "weight_decay", "betas"}),
    "torch.optim.Adamax": frozenset({"lr", "eps", "weight_decay", "betas"}),
    "torch.optim.NAdam": frozenset({"lr", "eps", "weight_decay", "betas"}),
    "torch.optim.RAdam": frozenset({"lr", "eps", "weight_decay", "betas"}),
    "torch.optim.RMSprop": frozenset({"lr", "eps", "weight_decay", "momentum"}),
    "torch.optim.Rprop": frozenset({"lr"}),
    "torch.optim.SGD": frozenset({"lr", "weight_decay", "momentum"}),
    "torch.optim.SparseAdam": frozenset({"lr", "eps", "betas"}),
}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _problem(key: str, value: Any) -> str | None:
    """What is wrong with ``optimizer.params.<key>``: a name for the message table, or None."""
    if key == "betas":
        if isinstance(value, list) and len(value) == 2 and all(_number(b) for b in value):
            return "betas_range" if any(not 0 <= b < 1 for b in value) else None
        return None
    if not _number(value):
        return None  # "auto", a string, a list: the schema or another rule says so
    if value < 0:
        return f"{key}_negative"
    if value == 0 and key in ("lr", "eps"):
        return f"{key}_zero"
    return None


TORCH_REFUSES_ZERO: dict[str, frozenset[str]] = {"torch.optim.SparseAdam": frozenset({"lr", "eps"})}
"""The classes whose check is ``0 < value`` rather than ``0 <= value``."""


def _refused_by_torch(cls: str, key: str, problem: str) -> bool:
    """Whether ``cls``'s constructor refuses the value (``0 <= value``, ``0 <= beta < 1``; zero passes most)."""
    if key not in TORCH_CHECKS.get(cls, ()):
        return False
    return not problem.endswith("_zero") or key in TORCH_REFUSES_ZERO.get(cls, ())


@rule(
    "DS585",
    "optimizer-value-refused",
    Severity.error,
    message="optimizer.params.{key} is {value}; {optimizer} refuses it (ValueError) when DeepSpeed builds the "
    "optimizer, and the engine stops at start-up",
    explanation=(
        "DeepSpeed builds the optimizer as `Class(parameters, **params)`. When that class is one of torch.optim's "
        "(SGD, RMSprop, Adagrad with no offload, Adam or AdamW with `torch_adam`, …), its constructor checks the "
        "values: a negative learning rate, eps, weight decay or momentum, or an Adam beta outside [0, 1), "
        'raises ValueError ("Invalid learning rate") before the first step. Write the value you meant; a '
        "typical slip is a minus sign from a log scale (`-4` for 1e-4) or betas written as (0.9, 0.999, 1e-8)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "optimizer": {"type": "SGD", "params": {"lr": -0.01, "momentum": 0.9}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "optimizer": {"type": "SGD", "params": {"lr": 0.01, "momentum": 0.9}}
        }
        """,
    ),
    needs=("optimizer",),
)
def optimizer_value_refused(ctx: Context) -> Iterator[Hit]:
    for key, value, problem, path in _impossible_params(ctx):
        refusing = [c.cls for c in optimizer_calls(ctx) if _refused_by_torch(c.cls, key, problem)]
        if refusing:
            yield Hit(ctx.where(path), path, {"key": key, "value": short_repr(value), "optimizer": refusing[0]})


@rule(
    "DS586",
    "optimizer-value-impossible",
    Severity.warning,
    message="optimizer.params.{key} is {value}: {optimizer} takes it without a word, and then {effect}",
    phrases={
        "lr_negative": "every step moves the weights up the gradient, so the loss grows",
        "lr_zero": "no step changes the weights",
        "eps_negative": "the update divides by a negative number where a gradient is small: NaN, or a step the wrong "
        "way",
        "eps_zero": "the update divides by zero where a gradient vanishes (NaN)",
        "weight_decay_negative": "every step pushes the weights away from zero, so they grow",
        "betas_range": "the moment estimates stop averaging the gradients and grow without bound or change sign",
        "momentum_negative": "each step partly undoes the one before",
    },
    explanation=(
        "Some values are mistakes for every optimizer, yet DeepSpeed's own optimizers (FusedAdam, the CPU Adam "
        "used with offload, FusedLamb, FusedLion, CPU Lion and Adagrad) do not check them, and torch's accept a "
        "learning rate or eps of exactly 0: a learning rate below zero climbs the loss, a rate of 0 never changes "
        "the weights, an eps of 0 or below divides by zero where a gradient vanishes (NaN), a negative weight "
        "decay pushes the weights away from zero, Adam betas outside [0, 1) make the moment estimates grow "
        "without bound, and a negative momentum undoes part of each step. Training then fails late, or quietly "
        "learns nothing. Write the value you meant."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "betas": [0.9, 0.95], "eps": 0}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 3e-4, "betas": [0.9, 0.95], "eps": 1e-8}}
        }
        """,
    ),
    needs=("optimizer",),
)
def optimizer_value_impossible(ctx: Context) -> Iterator[Hit]:
    calls = optimizer_calls(ctx)
    if not calls:
        return
    for key, value, problem, path in _impossible_params(ctx):
        refusing = [c.cls for c in calls if _refused_by_torch(c.cls, key, problem)]
        if refusing:
            continue  # DS585
        unchecked = [c.cls for c in calls if c.cls not in refusing] or [calls[0].cls]
        args = {"key": key, "value": short_repr(value), "optimizer": " / ".join(unchecked), "effect": problem}
        yield Hit(ctx.where(path), path, args)


def _impossible_params(ctx: Context) -> Iterator[tuple[str, Any, str, str]]:
    params = mapping(ctx, "optimizer.params")
    if params is None:
        return
    for key in OPTIMIZER_PARAMS:
        path = f"optimizer.params.{key}"
        value = params.get(key)
        problem = _problem(key, value)
        if problem is not None:
            yield key, value, problem, path


# DeepSpeed's warmup schedulers (deepspeed/runtime/lr_schedules.py) set the optimizer's rate themselves, from
# warmup_min_lr up to warmup_max_lr over warmup_num_steps, then (WarmupDecayLR) down to 0 at total_num_steps.
WARMUP_SCHEDULERS = frozenset({"WarmupLR", "WarmupDecayLR"})
DECAY_SCHEDULERS = frozenset({"WarmupDecayLR", "WarmupCosineLR"})


@rule(
    "DS587",
    "scheduler-value-impossible",
    Severity.warning,
    message="{scheduler}: {problem}",
    phrases={
        "negative_lr": "{key} is {value}, so the optimizer gets a negative learning rate, which it no longer checks",
        "falling_warmup": "warmup_max_lr {high} is below warmup_min_lr {low}, so the rate falls during warmup instead "
        "of rising",
        "warmup_too_long": "total_num_steps {total} is less than warmup_num_steps {warmup}: training ends before "
        "warmup does, and DeepSpeed only logs a warning",
    },
    explanation=(
        "DeepSpeed's warmup schedulers set the optimizer's learning rate at every step, overriding "
        "`optimizer.params.lr`, and check almost nothing of what they are given: with `warmup_max_lr` below "
        "`warmup_min_lr`, WarmupLR and WarmupDecayLR lower the rate during warmup instead of raising it; a "
        "negative `warmup_min_lr` or `warmup_max_lr` hands the optimizer a negative rate, which no optimizer "
        "checks once it is built; and with `total_num_steps` below `warmup_num_steps`, WarmupDecayLR and "
        "WarmupCosineLR never finish warming up (DeepSpeed only logs a warning). Swap or correct the numbers."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}},
          "scheduler": {
            "type": "WarmupDecayLR",
            "params": {"warmup_min_lr": 3e-4, "warmup_max_lr": 0, "warmup_num_steps": 500, "total_num_steps": 20000}
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "optimizer": {"type": "AdamW", "params": {"lr": 3e-4}},
          "scheduler": {
            "type": "WarmupDecayLR",
            "params": {"warmup_min_lr": 0, "warmup_max_lr": 3e-4, "warmup_num_steps": 500, "total_num_steps": 20000}
          }
        }
        """,
    ),
    needs=("scheduler",),
)
def scheduler_value_impossible(ctx: Context) -> Iterator[Hit]:
    scheduler = section_type(ctx, "scheduler")
    params = mapping(ctx, "scheduler.params")
    if scheduler is None or params is None:
        return
    base = "scheduler.params"
    if scheduler in WARMUP_SCHEDULERS:
        low, high = known(ctx, f"{base}.warmup_min_lr"), known(ctx, f"{base}.warmup_max_lr")
        low = 0.0 if not ctx.is_set(f"{base}.warmup_min_lr") else low
        for key, value in (("warmup_min_lr", low), ("warmup_max_lr", high)):
            if _number(value) and value < 0 and ctx.is_set(f"{base}.{key}"):
                args = {"scheduler": scheduler, "problem": "negative_lr", "key": key, "value": short_repr(value)}
                yield Hit(ctx.where(f"{base}.{key}"), f"{base}.{key}", args)
        if _number(low) and _number(high) and high < low and ctx.is_set(f"{base}.warmup_max_lr"):
            args = {
                "scheduler": scheduler,
                "problem": "falling_warmup",
                "low": short_repr(low),
                "high": short_repr(high),
            }
            where = related(ctx, f"{base}.warmup_min_lr")
            yield Hit(ctx.where(f"{base}.warmup_max_lr"), f"{base}.warmup_max_lr", args, where)
    if scheduler in DECAY_SCHEDULERS:
        total, warmup = known(ctx, f"{base}.total_num_steps"), known(ctx, f"{base}.warmup_num_steps")
        if not ctx.is_set(f"{base}.warmup_num_steps"):
            warmup = 1000  # the constructors' default
        if _number(total) and _number(warmup) and 0 < total < warmup:
            args = {"scheduler": scheduler, "problem": "warmup_too_long", "total": total, "warmup": warmup}
            where = related(ctx, f"{base}.warmup_num_steps")
            yield Hit(ctx.where(f"{base}.total_num_steps"), f"{base}.total_num_steps", args, where)
