"""Rules about the `optimizer` and `scheduler` sections: types DeepSpeed can build, and what ZeRO accepts."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from ...records import record
from ...tree.releases import type_introduced_in
from ...tree.versions import parse_version
from ..findings import Example, Severity
from . import Context, Hit, rule
from ._common import (
    DEEPSPEED_OPTIMIZERS,
    DEEPSPEED_SCHEDULERS,
    REMOVED_OPTIMIZERS,
    REMOVED_OPTIMIZERS_IN,
    TORCH_LR_SCHEDULERS,
    TORCH_OPTIMIZERS,
    UNKNOWN,
    ZERO_TESTED_OPTIMIZERS,
    built_optimizer,
    known,
    mapping,
    offload_device,
    optimizer_name,
    per_file,
    related,
    zero_stage,
)
from ._signatures import CONSTRUCTOR_KEYWORDS, MUON_CONFIG_KEYS


def section_type(ctx: Context, section: str) -> str | None:
    value = ctx.get(f"{section}.type") if mapping(ctx, section) is not None else None
    return value if isinstance(value, str) else None


def _display_names(ctx: Context, path: str) -> list[str]:
    """The type names the schema documents for ``path`` (as DeepSpeed's docs spell them)."""
    return [str(value) for value, _text in ctx.tree.get(path).meta.enum_docs]


def suggest(value: str, names: Iterable[str]) -> list[str]:
    """Names close to ``value``: the same name in another case, a name it ends with, or a near spelling.

    >>> suggest("sgd", ["SGD", "Adam"]), suggest("FusedAdam", ["Adam", "AdamW", "SGD"])
    (['SGD'], ['Adam'])
    """
    pool = list(dict.fromkeys(names))
    lowered = {n.lower(): n for n in pool}
    low = value.lower()
    if low in lowered:
        return [lowered[low]]
    ending = [n for n in pool if len(n) >= 3 and low.endswith(n.lower())]
    if ending:
        return [max(ending, key=len)]
    close = difflib.get_close_matches(low, list(lowered), n=3, cutoff=0.7)
    return [lowered[c] for c in close]


@rule(
    "DS540",
    "max-grad-norm-in-optimizer",
    Severity.error,
    message="optimizer.params.max_grad_norm is refused when DeepSpeed builds the optimizer; use gradient_clipping",
    explanation=(
        "DeepSpeed clips gradients itself, with the top-level `gradient_clipping`. When it builds the optimizer "
        "from the config it raises ValueError if `max_grad_norm` is among the optimizer's params, whatever its "
        'value (a value above 0 also gets a warning while the config is read, and a string such as "auto" '
        "fails right there with a TypeError). Move the value to `gradient_clipping` and delete `max_grad_norm`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "max_grad_norm": 1.0}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_clipping": 1.0,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=("optimizer",),
)
def max_grad_norm_in_optimizer(ctx: Context) -> Iterator[Hit]:
    params = mapping(ctx, "optimizer.params")
    if ctx.get("optimizer.type") is not None and params is not None and "max_grad_norm" in params:
        path = "optimizer.params.max_grad_norm"
        yield Hit(ctx.where(path), path)


_REMOVED_IN = parse_version(REMOVED_OPTIMIZERS_IN)


@rule(
    "DS541",
    "removed-optimizer-type",
    Severity.error,
    message="optimizer type {value} was removed in DeepSpeed 0.19.7; the engine refuses to start with it",
    explanation=(
        "The 1-bit optimizers (OneBitAdam, ZeroOneAdam, OneBitLamb) and their compressed communication were "
        'deleted in 0.19.7. The config still accepts the name, but the engine stops at start-up with "... is not '
        'a supported DeepSpeed Optimizer". Use Adam or AdamW (or Lamb for very large batches) and remove the '
        "1-bit parameters (freeze_step, cuda_aware, comm_backend_name, …) from `params`. Checked for an older "
        "release with `--deepspeed-version`, the rule stays silent."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "OneBitAdam", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "Adam", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=("optimizer",),
)
def removed_optimizer_type(ctx: Context) -> Iterator[Hit]:
    value = section_type(ctx, "optimizer")
    if ctx.version < _REMOVED_IN:
        return  # the release checked for still has them
    if value is not None and value.lower() in REMOVED_OPTIMIZERS:
        yield Hit(ctx.where("optimizer.type"), "optimizer.type", {"value": value})


@rule(
    "DS542",
    "unknown-optimizer-type",
    Severity.error,
    message="optimizer type {value} is neither one of DeepSpeed's optimizers nor a torch.optim class{absent}",
    phrases={"not_in_release": " (DeepSpeed {since} brought it; DeepSpeed {release} does not have it)"},
    explanation=(
        "DeepSpeed builds its own optimizers by name, without regard to case (Adam, AdamW, Adagrad, Lamb, Lion, "
        "Muon, MuAdam, MuAdamW, MuSGD); any other name must be the exact, case-sensitive name of a class in "
        'torch.optim, such as SGD or RMSprop. Otherwise the engine stops at start-up ("... is not a supported '
        'DeepSpeed Optimizer"). Names from other libraries (FusedAdam, adamw_torch) are not understood: '
        "DeepSpeed's Adam already is its fused Adam, and its CPU Adam when the optimizer is offloaded. Older "
        "releases know fewer of their own: MuAdam, MuAdamW and MuSGD came with 0.10.2, Lion with 0.11.0 and Muon "
        "with 0.17.6 (as each release's own list says), and a release without the name looks for a torch.optim "
        "class of that name instead."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamWeightDecay", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=("optimizer",),
)
def unknown_optimizer_type(ctx: Context) -> Iterator[Hit]:
    value = section_type(ctx, "optimizer")
    absent = ctx.release.optimizers_absent if ctx.release is not None else frozenset()
    own = DEEPSPEED_OPTIMIZERS - absent  # the release's own names
    if value is None or value.lower() in own | REMOVED_OPTIMIZERS or value in TORCH_OPTIMIZERS:
        return
    known_names = [n for n in _display_names(ctx, "optimizer.type") if n.lower() in own]
    names = known_names + sorted(TORCH_OPTIMIZERS)
    args: dict[str, Any] = {"value": value, "suggestions": suggest(value, names), "absent": ""}
    if value.lower() in absent and ctx.release is not None:
        since = type_introduced_in("optimizer", value)
        args.update(absent="not_in_release", since=since, release=ctx.release.release)
    yield Hit(ctx.where("optimizer.type"), "optimizer.type", args)


@rule(
    "DS543",
    "untested-zero-optimizer",
    Severity.error,
    message="ZeRO refuses optimizer {optimizer} unless zero_allow_untested_optimizer is true",
    explanation=(
        "ZeRO is tested with a fixed set of optimizer classes: torch's Adam, AdamW and Adagrad, DeepSpeed's fused "
        "Adam and Lion, its CPU Adam, Adagrad and Lion, and Muon. With ZeRO on (stage 1-3), any other optimizer "
        "(Lamb, the mup optimizers, torch's SGD, RMSprop, …) makes the engine stop with an assertion unless "
        "`zero_allow_untested_optimizer` is true. Set it if you accept the risk, or switch to a tested optimizer. "
        "(Hugging Face sets the flag itself only when the config has no optimizer section.)"
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true},
          "optimizer": {"type": "SGD", "params": {"lr": 0.01, "momentum": 0.9}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true},
          "zero_allow_untested_optimizer": true,
          "optimizer": {"type": "SGD", "params": {"lr": 0.01, "momentum": 0.9}}
        }
        """,
    ),
    needs=("optimizer",),
)
def untested_zero_optimizer(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    built = built_optimizer(ctx)
    if not stage or built is None or built in ZERO_TESTED_OPTIMIZERS:
        return
    if known(ctx, "zero_allow_untested_optimizer") is not True:
        yield Hit(
            ctx.where("optimizer.type"),
            "optimizer.type",
            {"optimizer": built},
            related(ctx, "zero_allow_untested_optimizer"),
        )


@rule(
    "DS544",
    "lamb-needs-dynamic-loss-scale",
    Severity.error,
    message="the Lamb optimizer needs dynamic loss scaling, but fp16.loss_scale is {value}",
    explanation=(
        "DeepSpeed's Lamb works only with dynamic loss scaling: at engine start it asserts that "
        "`fp16.loss_scale` is 0. The check looks at the value even when fp16 is off. Set `fp16.loss_scale` to 0 "
        "(or remove it) to use Lamb."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "fp16": {"enabled": true, "loss_scale": 1024},
          "optimizer": {"type": "Lamb", "params": {"lr": 1e-3}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "fp16": {"enabled": true, "loss_scale": 0},
          "optimizer": {"type": "Lamb", "params": {"lr": 1e-3}}
        }
        """,
    ),
    needs=("optimizer",),
)
def lamb_needs_dynamic_scale(ctx: Context) -> Iterator[Hit]:
    value = known(ctx, "fp16.loss_scale")
    if optimizer_name(ctx) == "lamb" and isinstance(value, (int, float)) and value != 0:
        yield Hit(ctx.where("fp16.loss_scale"), "fp16.loss_scale", {"value": value}, related(ctx, "optimizer.type"))


@rule(
    "DS545",
    "muon-zero3-conflict",
    Severity.error,
    message="the Muon optimizer cannot run at ZeRO stage 3 with {other} on",
    explanation=(
        "Muon orthogonalises each weight matrix as a whole, which the ZeRO-3 optimizer cannot do on gradients "
        "that are reduce-scattered or reduced through the ZeRO++ all-to-all. When it is built with Muon it raises "
        "ValueError if `reduce_scatter` is on (it is by default) or if `zero_quantized_gradients` (qgZ) is on. "
        "Set `zero_optimization.reduce_scatter` to false and leave qgZ off, or use stage 1 or 2."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3},
          "optimizer": {"type": "Muon", "params": {"lr": 0.02}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "reduce_scatter": false},
          "optimizer": {"type": "Muon", "params": {"lr": 0.02}}
        }
        """,
    ),
    needs=("optimizer",),
)
def muon_zero3_conflict(ctx: Context) -> Iterator[Hit]:
    if optimizer_name(ctx) != "muon" or zero_stage(ctx) != 3:
        return
    for other in ("zero_optimization.reduce_scatter", "zero_optimization.zero_quantized_gradients"):
        if known(ctx, other) is True:
            yield Hit(ctx.where("optimizer.type"), "optimizer.type", {"other": other}, related(ctx, other))


@rule(
    "DS546",
    "scheduler-without-params",
    Severity.error,
    message="scheduler type {value} has no params; DeepSpeed needs a params object, even an empty one",
    explanation=(
        "DeepSpeed creates the scheduler as `Scheduler(optimizer, **params)` and takes `params` from the config "
        "without a fallback, so a `scheduler` section with a `type` but no `params` (or `params: null`) makes "
        "the engine fail at start-up with a TypeError. Add an empty `params` object to use the scheduler's "
        "defaults, or give the values you want."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR", "params": {}}
        }
        """,
    ),
    needs=("scheduler",),
)
def scheduler_without_params(ctx: Context) -> Iterator[Hit]:
    value = section_type(ctx, "scheduler")
    if value is not None and mapping(ctx, "scheduler.params") is None:
        yield Hit(ctx.where("scheduler.type"), "scheduler.params", {"value": value})


@rule(
    "DS547",
    "unknown-scheduler-type",
    Severity.error,
    message="scheduler type {value} is neither one of DeepSpeed's schedulers nor a torch.optim.lr_scheduler "
    "class{absent}",
    phrases={"not_in_release": " (DeepSpeed {since} brought it; DeepSpeed {release} does not have it)"},
    explanation=(
        "DeepSpeed looks the scheduler up by exact, case-sensitive name, first among its own (WarmupLR, "
        "WarmupDecayLR, WarmupCosineLR, OneCycle, LRRangeTest), then in torch.optim.lr_scheduler (StepLR, "
        'CosineAnnealingLR, …). Any other name stops the engine at start-up ("DeepSpeed does not recognize LR '
        'scheduler"). Names used by other libraries, such as Hugging Face\'s "cosine" or "linear", do not '
        "work here. WarmupCosineLR came with DeepSpeed 0.12.3: older releases do not know it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "cosine", "params": {}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupCosineLR", "params": {"total_num_steps": 10000}}
        }
        """,
    ),
    needs=("scheduler",),
)
def unknown_scheduler_type(ctx: Context) -> Iterator[Hit]:
    value = section_type(ctx, "scheduler")
    absent = ctx.release.schedulers_absent if ctx.release is not None else frozenset()
    if value is None or value in DEEPSPEED_SCHEDULERS - absent or value in TORCH_LR_SCHEDULERS:
        return
    names = [*(n for n in _display_names(ctx, "scheduler.type") if n not in absent), *sorted(TORCH_LR_SCHEDULERS)]
    args: dict[str, Any] = {"value": value, "suggestions": suggest(value, names), "absent": ""}
    if value in absent and ctx.release is not None:
        args.update(absent="not_in_release", since=type_introduced_in("scheduler", value), release=ctx.release.release)
    yield Hit(ctx.where("scheduler.type"), "scheduler.type", args)


@rule(
    "DS548",
    "params-without-type",
    Severity.warning,
    message="{section}.params is ignored because {section}.type is not set",
    explanation=(
        "DeepSpeed reads `params` of the optimizer or scheduler section only together with `type`. Without a "
        "type it builds nothing from the section and the parameters are silently unused (the optimizer or "
        "scheduler then has to come from code). Add the `type` you meant, or remove the section."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=("optimizer", "scheduler"),
)
def params_without_type(ctx: Context) -> Iterator[Hit]:
    for section in ("optimizer", "scheduler"):
        if mapping(ctx, f"{section}.params") is not None and ctx.get(f"{section}.type") is None:
            yield Hit(ctx.where(f"{section}.params"), f"{section}.params", {"section": section})


# -- optimizer params against the constructor DeepSpeed calls ------------------------------------------------------

_ADAM_POPPED = frozenset({"adam_w_mode", "torch_adam", "fp32_optimizer_states"})
"""Keys engine._configure_basic_optimizer and get_optimizer_configuration pop from params for Adam and AdamW."""


@record
class _Call:
    """One constructor call DeepSpeed may make for the section: the class, what it pops, what it passes itself."""

    cls: str
    popped: frozenset[str] = frozenset()
    """params keys DeepSpeed consumes before the call."""
    passed: frozenset[str] = frozenset()
    """Keyword arguments DeepSpeed passes itself; the same key in params is a second value (TypeError)."""

    def accepts(self, key: str) -> bool:
        return key in self.popped or (key in CONSTRUCTOR_KEYWORDS[self.cls] and key not in self.passed)

    def names(self) -> list[str]:
        return sorted(self.popped | (CONSTRUCTOR_KEYWORDS[self.cls] - self.passed))


def _call(ctx: Context, cpu: bool) -> _Call | None:
    built = built_optimizer(ctx, cpu=cpu)
    if built is None or built not in CONSTRUCTOR_KEYWORDS:
        return None  # no type, a type DeepSpeed cannot build, the mup optimizers, or Muon (DS581)
    if optimizer_name(ctx) not in ("adam", "adamw"):
        return _Call(built)
    if built.startswith("torch.optim."):  # torch_adam: foreach is popped and passed again
        return _Call(built, _ADAM_POPPED | {"foreach"}, frozenset({"foreach"}))
    if built == "FusedAdam":
        return _Call(built, _ADAM_POPPED, frozenset({"adam_w_mode"}))
    passed = {"adamw_mode", "fp32_optimizer_states"} | ({"overlap_step"} if built == "ZenFlowCPUAdam" else set())
    return _Call(built, _ADAM_POPPED, frozenset(passed))


@per_file
def optimizer_calls(ctx: Context) -> tuple[_Call, ...]:
    """The constructor calls the section can lead to: one, or two while Hugging Face still fills the offload device."""
    device = offload_device(ctx, "optimizer")
    choices = (False, True) if device is UNKNOWN else (device in ("cpu", "nvme"),)
    calls = [_call(ctx, cpu) for cpu in choices]
    return tuple(dict.fromkeys(c for c in calls if c is not None))


def _params_keys(ctx: Context) -> Iterator[tuple[str, str | None]]:
    """Each params key another rule or the schema does not already report, with its option path if dsref knows it."""
    params = mapping(ctx, "optimizer.params")
    if params is None:
        return
    for key in params:
        if not isinstance(key, str) or key == "max_grad_norm":  # DS540
            continue
        path = f"optimizer.params.{key}"
        opt = ctx.tree.get(path) if path in ctx.tree else None
        if opt is not None and opt.removed_in is not None:
            continue  # the schema reports the removed 1-bit parameters (DS302)
        yield key, (path if opt is not None else None)


def _param_hit(ctx: Context, key: str, option: str | None, args: dict[str, Any]) -> Hit:
    return Hit((*ctx.where("optimizer.params"), key), option, args, related(ctx, "optimizer.type"))


@rule(
    "DS549",
    "optimizer-param-not-accepted",
    Severity.error,
    message="optimizer.params.{key} cannot be passed to {optimizer}; the engine fails with a TypeError when it builds "
    "the optimizer",
    explanation=(
        "DeepSpeed builds the optimizer as `Class(parameters, **params)`, so every key of `optimizer.params` must "
        "be a keyword argument of the class it picks: for Adam and AdamW its fused Adam, its CPU Adam when the "
        "optimizer is offloaded (cpu or nvme), or torch's Adam/AdamW with `torch_adam`; for Adagrad and Lion "
        "torch's Adagrad or the fused Lion, or their CPU versions when offloaded; for Lamb the fused Lamb; and "
        "for any other type the torch.optim class of that name. DeepSpeed first takes out `adam_w_mode`, "
        "`torch_adam` and `fp32_optimizer_states` (for Adam and AdamW only) and passes a few arguments itself, "
        "such as the CPU Adam's `adamw_mode`, which therefore cannot appear in `params` as well. Any other key "
        "stops the engine at start-up with a TypeError (unexpected keyword argument, or multiple values). Typical "
        "causes are a misspelling, `momentum` for Adam, `eps` for Lion, or `foreach` for DeepSpeed's own "
        "optimizers. Remove the key or use the spelling the class accepts. dsref checks against the signatures of "
        "DeepSpeed 0.19.8 and torch 2.13; it does not check the mup optimizers, and Muon is DS581."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "momentum": 0.9}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
    ),
    needs=("optimizer",),
)
def optimizer_param_not_accepted(ctx: Context) -> Iterator[Hit]:
    calls = optimizer_calls(ctx)
    if not calls:
        return
    for key, option in _params_keys(ctx):
        if not any(call.accepts(key) for call in calls):
            names = sorted({n for call in calls for n in call.names()})
            optimizer = " / ".join(call.cls for call in calls)
            args = {"optimizer": optimizer, "key": key, "suggestions": suggest(key, names)}
            yield _param_hit(ctx, key, option, args)


@rule(
    "DS581",
    "muon-param-ignored",
    Severity.warning,
    message="the Muon optimizer does not read params.{key}; DeepSpeed ignores it",
    explanation=(
        "For type Muon, DeepSpeed builds the parameter groups itself and takes only some keys from `params`: "
        "`lr`, `momentum`, `weight_decay` and `ns_method` for the matrices Muon updates; `lr`, `betas`, `eps` and "
        "`weight_decay` for its auxiliary Adam; `muon_lr` and `adam_lr` to give each half its own rate; and "
        "`adam_w_mode`, `torch_adam`, `fp32_optimizer_states` (and with `torch_adam` also `foreach`) to choose the "
        "auxiliary Adam. Every other key is dropped without a message, so the run does not use it. Remove it, or "
        "check the spelling."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "Muon", "params": {"lr": 0.02, "nesterov": true}},
          "zero_optimization": {"stage": 2, "overlap_comm": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "optimizer": {"type": "Muon", "params": {"lr": 0.02}},
          "zero_optimization": {"stage": 2, "overlap_comm": true}
        }
        """,
    ),
    needs=("optimizer",),
)
def muon_param_ignored(ctx: Context) -> Iterator[Hit]:
    if optimizer_name(ctx) != "muon":
        return
    params = mapping(ctx, "optimizer.params") or {}
    read = MUON_CONFIG_KEYS | ({"foreach"} if params.get("torch_adam") else set())
    for key, option in _params_keys(ctx):
        if key not in read:
            yield _param_hit(ctx, key, option, {"key": key, "suggestions": suggest(key, sorted(read))})


# Scheduler params DeepSpeed's schedulers check with isinstance(value, int) in their constructors
# (deepspeed/runtime/lr_schedules.py:370 LRRangeTest, :733 WarmupLR and through it WarmupDecayLR, :874
# WarmupCosineLR); other int params are only used in arithmetic, where 100.0 works like 100.
INTEGER_CHECKED_SCHEDULER_PARAMS: dict[str, frozenset[str]] = {
    "warmup_num_steps": frozenset({"WarmupLR", "WarmupDecayLR", "WarmupCosineLR"}),
    "lr_range_test_step_size": frozenset({"LRRangeTest"}),
}


@rule(
    "DS582",
    "scheduler-steps-not-integer",
    Severity.error,
    message="scheduler.params.{key} is the float {value}; {scheduler} accepts only an integer and the engine stops "
    "at start-up",
    explanation=(
        "WarmupLR, WarmupDecayLR and WarmupCosineLR check that `warmup_num_steps` is an integer, and LRRangeTest "
        "that `lr_range_test_step_size` is, with `isinstance(value, int)`: a float such as 100.0 makes the "
        'constructor raise ValueError ("must be a positive integer") when the engine starts. DeepSpeed\'s own '
        "Hjson reader turns 100.0 into the integer 100, so this hits files read as strict JSON: by Hugging Face "
        "Trainer or Accelerate (`--profile hf`), or loaded with json and passed to `deepspeed.initialize` as a "
        'dict. Write the number without a fraction (100), or "auto" under Hugging Face. A value with a real '
        "fraction (100.5) is reported as a wrong type instead."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100.0}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}}
        }
        """,
        hf=True,
    ),
    needs=("scheduler",),
)
def scheduler_steps_not_integer(ctx: Context) -> Iterator[Hit]:
    scheduler = section_type(ctx, "scheduler")
    if scheduler is None or mapping(ctx, "scheduler.params") is None:
        return
    for key, schedulers in INTEGER_CHECKED_SCHEDULER_PARAMS.items():
        path = f"scheduler.params.{key}"
        value = known(ctx, path)
        if scheduler in schedulers and isinstance(value, float) and value.is_integer():
            yield Hit(ctx.where(path), path, {"key": key, "value": value, "scheduler": scheduler})
