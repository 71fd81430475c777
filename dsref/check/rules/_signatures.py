"""Keyword arguments of the optimizer constructors DeepSpeed 0.19.8 calls for the ``optimizer`` section.

DeepSpeed and torch are not dependencies of dsref at run time, so the signatures are kept here as data: for each
class :func:`dsref.check.rules._common.built_optimizer` can name, the keyword parameters of its ``__init__`` after the
parameters themselves. ``tests/unit/check/test_rules.py`` compares every entry with ``inspect.signature`` of the
installed
DeepSpeed 0.19.8 and torch 2.13 classes, so the table cannot drift from them. ``ZenFlowCPUAdam`` takes
``*args, overlap_step, **kwargs`` and hands the rest to ``DeepSpeedCPUAdam``. The mup optimizers (MuAdam, MuAdamW,
MuSGD) live in a package DeepSpeed does not ship and are left out: dsref cannot know their signatures.
"""

from __future__ import annotations

__all__ = ["CONSTRUCTOR_KEYWORDS", "MUON_CONFIG_KEYS"]


def _kw(*names: str) -> frozenset[str]:
    return frozenset(names)


_CPU_ADAM = _kw(
    "adamw_mode", "amsgrad", "betas", "bias_correction", "eps", "fp32_optimizer_states", "lr", "weight_decay"
)

CONSTRUCTOR_KEYWORDS: dict[str, frozenset[str]] = {
    "FusedAdam": _kw(
        "adam_w_mode", "amsgrad", "betas", "bias_correction", "eps", "lr", "set_grad_none", "weight_decay"
    ),
    "DeepSpeedCPUAdam": _CPU_ADAM,
    "ZenFlowCPUAdam": _CPU_ADAM | {"overlap_step"},
    "DeepSpeedCPUAdagrad": _kw("amsgrad", "eps", "fp32_optimizer_states", "lr", "weight_decay"),
    "FusedLamb": _kw(
        "amsgrad",
        "betas",
        "bias_correction",
        "eps",
        "eps_inside_sqrt",
        "lr",
        "max_coeff",
        "max_grad_norm",
        "min_coeff",
        "weight_decay",
    ),
    "FusedLion": _kw("betas", "lr", "set_grad_none", "weight_decay"),
    "DeepSpeedCPULion": _kw("betas", "fp32_optimizer_states", "lr", "weight_decay"),
    "torch.optim.ASGD": _kw(
        "alpha", "capturable", "differentiable", "foreach", "lambd", "lr", "maximize", "t0", "weight_decay"
    ),
    "torch.optim.Adadelta": _kw(
        "capturable", "differentiable", "eps", "foreach", "lr", "maximize", "rho", "weight_decay"
    ),
    "torch.optim.Adafactor": _kw("beta2_decay", "d", "eps", "foreach", "lr", "maximize", "weight_decay"),
    "torch.optim.Adagrad": _kw(
        "differentiable",
        "eps",
        "foreach",
        "fused",
        "initial_accumulator_value",
        "lr",
        "lr_decay",
        "maximize",
        "weight_decay",
    ),
    "torch.optim.Adam": _kw(
        "amsgrad",
        "betas",
        "capturable",
        "decoupled_weight_decay",
        "differentiable",
        "eps",
        "foreach",
        "fused",
        "lr",
        "maximize",
        "weight_decay",
    ),
    "torch.optim.AdamW": _kw(
        "amsgrad", "betas", "capturable", "differentiable", "eps", "foreach", "fused", "lr", "maximize", "weight_decay"
    ),
    "torch.optim.Adamax": _kw(
        "betas", "capturable", "differentiable", "eps", "foreach", "lr", "maximize", "weight_decay"
    ),
    "torch.optim.LBFGS": _kw(
        "history_size", "line_search_fn", "lr", "max_eval", "max_iter", "tolerance_change", "tolerance_grad"
    ),
    "torch.optim.Muon": _kw(
        "adjust_lr_fn", "eps", "lr", "momentum", "nesterov", "ns_coefficients", "ns_steps", "weight_decay"
    ),
    "torch.optim.NAdam": _kw(
        "betas",
        "capturable",
        "decoupled_weight_decay",
        "differentiable",
        "eps",
        "foreach",
        "lr",
        "maximize",
        "momentum_decay",
        "weight_decay",
    ),
    "torch.optim.RAdam": _kw(
        "betas",
        "capturable",
        "decoupled_weight_decay",
        "differentiable",
        "eps",
        "foreach",
        "lr",
        "maximize",
        "weight_decay",
    ),
    "torch.optim.RMSprop": _kw(
        "alpha",
        "capturable",
        "centered",
        "differentiable",
        "eps",
        "foreach",
        "lr",
        "maximize",
        "momentum",
        "weight_decay",
    ),
    "torch.optim.Rprop": _kw("capturable", "differentiable", "etas", "foreach", "lr", "maximize", "step_sizes"),
    "torch.optim.SGD": _kw(
        "dampening", "differentiable", "foreach", "fused", "lr", "maximize", "momentum", "nesterov", "weight_decay"
    ),
    "torch.optim.SparseAdam": _kw("betas", "eps", "lr", "maximize"),
}

MUON_CONFIG_KEYS = frozenset(
    {"lr", "momentum", "weight_decay", "ns_method", "betas", "eps", "muon_lr", "adam_lr"}
    | {"adam_w_mode", "torch_adam", "fp32_optimizer_states"}
)
"""The ``params`` keys type Muon reads (engine._MUON_HALF_KEYS, _ADAM_HALF_KEYS, muon_lr and adam_lr, and what
get_optimizer_configuration pops); with ``torch_adam`` also ``foreach``. DeepSpeed drops any other key unread."""
