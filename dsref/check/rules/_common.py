"""Helpers the rule modules share: what DeepSpeed will see for a few values that many rules depend on.

Under the ``hf`` profile an ``"auto"`` that Hugging Face fills is a value nobody knows yet; the helpers return
:data:`UNKNOWN` (or ``None`` for the stage) for it, and rules that depend on it stay silent.

>>> from dsref.check.rules import Context
>>> from dsref.check.settings import CheckSettings
>>> from dsref.check.validate.effective import effective
>>> from dsref.tree.options import option_tree
>>> def ctx(config, profile="deepspeed"):
...     return Context(config, effective(config), option_tree(), CheckSettings(profile))
>>> zero_stage(ctx({"zero_optimization": {"stage": 2}})), zero_stage(ctx({}))
(2, 0)
>>> zero_stage(ctx({"zero_optimization": {"stage": "auto"}}, "hf")) is None
True
>>> offloaded = {"offload_optimizer": {"device": "cpu"}}
>>> built_optimizer(ctx({"optimizer": {"type": "adamw"}, "zero_optimization": offloaded}))
'DeepSpeedCPUAdam'
>>> built_optimizer(ctx({"optimizer": {"type": "SGD"}}))
'torch.optim.SGD'
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from ...tree.options import Option
from ..positions import Location
from . import Context

__all__ = [
    "DEEPSPEED_OPTIMIZERS",
    "DEEPSPEED_SCHEDULERS",
    "REMOVED_OPTIMIZERS",
    "REMOVED_OPTIMIZERS_IN",
    "TORCH_LR_SCHEDULERS",
    "TORCH_OPTIMIZERS",
    "UNKNOWN",
    "ZERO_TESTED_OPTIMIZERS",
    "auto_paths",
    "built_optimizer",
    "fmt_bytes",
    "fmt_count",
    "is_true",
    "known",
    "mapping",
    "offload_device",
    "optimizer_name",
    "per_file",
    "related",
    "written",
    "zero_stage",
]


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"

    def __bool__(self) -> bool:
        return False


UNKNOWN: Any = _Unknown()
"""A value Hugging Face fills in later (``"auto"`` under the ``hf`` profile)."""

# Names DeepSpeed 0.19.8 matches without regard to case (deepspeed/runtime/config.py DEEPSPEED_OPTIMIZERS).
DEEPSPEED_OPTIMIZERS = frozenset({"adagrad", "adam", "adamw", "lamb", "muadam", "muadamw", "musgd", "lion", "muon"})
# The 1-bit optimizers 0.19.7 deleted; their names are neither DeepSpeed names nor torch.optim classes any more.
REMOVED_OPTIMIZERS = frozenset({"onebitadam", "zerooneadam", "onebitlamb"})
REMOVED_OPTIMIZERS_IN = "0.19.7"
"""The release that deleted them (``deepspeed/runtime/config.py`` of 0.19.6 still lists them)."""
# Optimizer classes of torch.optim (torch 2.x), which DeepSpeed looks up by exact name for any other type.
TORCH_OPTIMIZERS = frozenset(
    {
        "ASGD",
        "Adadelta",
        "Adafactor",
        "Adagrad",
        "Adam",
        "AdamW",
        "Adamax",
        "LBFGS",
        "Muon",
        "NAdam",
        "RAdam",
        "RMSprop",
        "Rprop",
        "SGD",
        "SparseAdam",
    }
)
# Classes ZeRO accepts without zero_allow_untested_optimizer (deepspeed/runtime/zero/utils.py
# ZERO_SUPPORTED_OPTIMIZERS, Muon added in is_zero_supported_optimizer), named as built_optimizer() names them.
ZERO_TESTED_OPTIMIZERS = frozenset(
    {
        "torch.optim.Adam",
        "torch.optim.AdamW",
        "torch.optim.Adagrad",
        "FusedAdam",
        "DeepSpeedCPUAdam",
        "ZenFlowCPUAdam",
        "DeepSpeedCPUAdagrad",
        "DeepSpeedCPULion",
        "FusedLion",
        "MuonWithAuxAdam",
    }
)
# Scheduler classes of deepspeed.runtime.lr_schedules (looked up first, by exact name).
DEEPSPEED_SCHEDULERS = frozenset({"LRRangeTest", "OneCycle", "WarmupLR", "WarmupDecayLR", "WarmupCosineLR"})
# Scheduler classes of torch.optim.lr_scheduler (torch 2.x), looked up next, by exact name.
TORCH_LR_SCHEDULERS = frozenset(
    {
        "LambdaLR",
        "MultiplicativeLR",
        "StepLR",
        "MultiStepLR",
        "ConstantLR",
        "LinearLR",
        "ExponentialLR",
        "SequentialLR",
        "CosineAnnealingLR",
        "ChainedScheduler",
        "ReduceLROnPlateau",
        "CyclicLR",
        "CosineAnnealingWarmRestarts",
        "OneCycleLR",
        "PolynomialLR",
        "LRScheduler",
    }
)


_P = ParamSpec("_P")
_MISSING: Any = object()
_T = TypeVar("_T")


def per_file(helper: Callable[Concatenate[Context, _P], _T]) -> Callable[Concatenate[Context, _P], _T]:
    """Work ``helper(ctx, ...)`` out once per file and keep the answer in :attr:`Context.memo`.

    For the helpers many rules ask (the ZeRO stage, the optimizer DeepSpeed builds, ...): their answer depends on
    nothing but the file and the run's settings, which a :class:`Context` never changes, and on the arguments, which
    are part of the key. Every caller gets the same answer, so a helper returns nothing a caller could change (a
    frozenset, a tuple, a string). A helper that raises keeps nothing, so it raises again on the next call.
    """
    name = f"{helper.__module__}.{helper.__qualname__}"

    @wraps(helper)
    def memoized(ctx: Context, /, *args: _P.args, **kwargs: _P.kwargs) -> _T:
        key = (name, args, tuple(kwargs.items())) if args or kwargs else name
        answer: _T = ctx.memo.get(key, _MISSING)
        if answer is _MISSING:
            answer = ctx.memo[key] = helper(ctx, *args, **kwargs)
        return answer

    return memoized


def _walk_autos(ctx: Context, parent: str | None, value: Mapping[Any, Any], out: set[str]) -> None:
    for key, item in value.items():
        if not isinstance(key, str):
            continue
        hit = ctx.tree.lookup_key(parent, key)
        if hit is None or hit[1] == "docs_name":
            continue
        opt = hit[0]
        if isinstance(item, str) and item == "auto":
            out.add(opt.path)
        elif opt.kind == "section" and opt.container is None and isinstance(item, Mapping):
            _walk_autos(ctx, ctx.tree.child_parent(opt), item, out)


@per_file
def auto_paths(ctx: Context) -> frozenset[str]:
    """Canonical paths of the options the file writes as ``"auto"`` (under any spelling).

    Not :attr:`Effective.autos`: this walk also enters a section DeepSpeed skips (a deprecated alias written after
    the current name)."""
    found: set[str] = set()
    if isinstance(ctx.config, Mapping):
        _walk_autos(ctx, None, ctx.config, found)
    return frozenset(found)


def known(ctx: Context, path: str) -> Any:
    """The value DeepSpeed uses for ``path``, or :data:`UNKNOWN` when Hugging Face fills it (``hf`` profile)."""
    seen = ctx.effective  # asked dozens of times per file: one call, no helpers in between
    if path in seen.filled and ctx.profile == "hf":
        return UNKNOWN
    return seen.get(path)


def is_true(ctx: Context, path: str) -> bool:
    """Whether DeepSpeed ends up with ``True`` here (coerced like DeepSpeed does; unknown counts as not)."""
    return known(ctx, path) is True


def written(ctx: Context, path: str) -> bool:
    """Whether the file sets ``path`` to a value DeepSpeed keeps (not a dropped ``"auto"``)."""
    return ctx.is_set(path)


def mapping(ctx: Context, path: str) -> Mapping[str, Any] | None:
    """The section at ``path`` when the file writes it as an object; None otherwise."""
    value = ctx.effective.values.get(path)  # what the file writes (ctx.is_set); None for the rest
    if value is None or type(value) is dict:  # (the usual answers, asked before the slower abstract Mapping)
        return value
    return value if isinstance(value, Mapping) else None


@per_file
def zero_stage(ctx: Context) -> int | None:
    """The ZeRO stage DeepSpeed runs (0 when unset), or None when it is not known yet."""
    value = known(ctx, "zero_optimization.stage")
    if value is UNKNOWN or isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        return None
    return value


@per_file
def offload_device(ctx: Context, which: str) -> Any:
    """Device of ``zero_optimization.offload_<which>``: ``none``/``cpu``/``nvme``, None when the section is absent
    (or null), :data:`UNKNOWN` when Hugging Face fills it."""
    section = f"zero_optimization.offload_{which}"
    if mapping(ctx, section) is None:
        return None
    device = known(ctx, f"{section}.device")
    if device is UNKNOWN:
        return UNKNOWN
    return device if device in ("none", "cpu", "nvme") else None


@per_file
def optimizer_name(ctx: Context) -> str | None:
    """``optimizer.type`` as DeepSpeed keeps it: lower-cased when it is one of DeepSpeed's names."""
    value = ctx.get("optimizer.type") if mapping(ctx, "optimizer") is not None else None
    if not isinstance(value, str):
        return None
    return value.lower() if value.lower() in DEEPSPEED_OPTIMIZERS else value


@per_file
def built_optimizer(ctx: Context, *, cpu: bool | None = None) -> str | None:
    """The optimizer class DeepSpeed builds from the ``optimizer`` section (``engine._configure_basic_optimizer``).

    None when the section names no type (the optimizer then comes from code) or a type DeepSpeed cannot build.
    ``cpu`` overrides whether the optimizer is offloaded (for an offload device Hugging Face fills in later).
    """
    name = optimizer_name(ctx)
    if name is None:
        return None
    params = mapping(ctx, "optimizer.params") or {}
    if cpu is None:
        cpu = offload_device(ctx, "optimizer") in ("cpu", "nvme")  # engine.zero_use_cpu_optimizer(), any stage
    zenflow = mapping(ctx, "zero_optimization.zenflow") is not None
    if name in ("adam", "adamw"):
        if params.get("torch_adam"):
            adam_w = name == "adamw" or params.get("adam_w_mode", True)
            return "torch.optim.AdamW" if adam_w else "torch.optim.Adam"
        if cpu:
            return "ZenFlowCPUAdam" if zenflow else "DeepSpeedCPUAdam"
        return "FusedAdam"
    simple = {
        "adagrad": "DeepSpeedCPUAdagrad" if cpu else "torch.optim.Adagrad",
        "lamb": "FusedLamb",
        "lion": "DeepSpeedCPULion" if cpu else "FusedLion",
        "muadam": "mup.MuAdam",
        "muadamw": "mup.MuAdamW",
        "musgd": "mup.MuSGD",
        "muon": "MuonWithAuxAdam",
    }
    if name in simple:
        return simple[name]
    if name in TORCH_OPTIMIZERS:
        return f"torch.optim.{name}"
    return None


def related(ctx: Context, *paths: str) -> tuple[Location, ...]:
    """Where the other options a finding is about were written (only those the file writes)."""
    return tuple(ctx.where(p) for p in paths if ctx.is_set(p))


def options_under(ctx: Context, path: str) -> Iterator[Option]:
    """The options of the section at ``path`` and below, in schema order."""
    yield from ctx.tree.iter_subtree(path)


def fmt_count(n: int | float) -> str:
    """An element count the way configs write it: ``500000000`` → ``5e8``, ``200000000`` → ``2e8``.

    >>> fmt_count(500_000_000), fmt_count(123_456), fmt_count(1_500_000_000)
    ('5e8', '123456', '1.5e9')
    """
    n = int(n)
    if n < 1_000_000:
        return str(n)
    exponent = len(str(n)) - 1
    mantissa = n / 10**exponent
    text = f"{mantissa:.2f}".rstrip("0").rstrip(".")
    return f"{text}e{exponent}"


def fmt_bytes(n: int | float) -> str:
    """Bytes as every page and message of dsref counts them, GB = 2**30 and MB = 2**20 (as DeepSpeed's estimators
    and GPU makers do): ``1e9`` → ``0.9 GB``.

    >>> fmt_bytes(2**30), fmt_bytes(1_000_000_000), fmt_bytes(400_000_000), fmt_bytes(4_500_000_000)
    ('1.0 GB', '0.9 GB', '381 MB', '4.2 GB')
    """
    if n >= 2**29:
        return f"{n / 2**30:.1f} GB"
    return f"{n / 2**20:.0f} MB"
