"""`optimizer`: the optimizer DeepSpeed builds, plus the top-level clipping and optimizer-policy keys."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, PassthroughSection, Section
from ._meta import HfAuto, option

_ONE_BIT_REMOVAL = (
    "The 1-bit optimizers (OneBitAdam, ZeroOneAdam, OneBitLamb) were deleted, so no optimizer "
    "accepts this parameter any more; drop it and pick a supported optimizer type."
)


class OptimizerParams(PassthroughSection):
    """Keyword arguments handed unchanged to the optimizer's constructor.

    Which keys are valid depends on `type`: each optimizer accepts its own set, and a key it does not know makes
    the constructor fail with a TypeError when the engine starts. A few keys (`torch_adam`, `adam_w_mode`,
    `fp32_optimizer_states`, `muon_lr`, `adam_lr`) are consumed by DeepSpeed itself while it picks and sets up
    the implementation. Defaults shown are those of DeepSpeed's Adam; the optimizer's own default applies to any
    key left out.
    """

    lr: float = option(
        0.001,
        description="Learning rate; with a scheduler configured, the scheduler overrides it as training proceeds.",
        hf_auto=HfAuto(source="TrainingArguments.learning_rate (transformers); the DummyOptim lr (accelerate)"),
        default_note="Each optimizer has its own default: 1e-3 for Adam, AdamW, Lamb and Lion, 1e-2 for Adagrad, "
        "0.02 for Muon's matrix groups and 3e-4 for its auxiliary Adam groups.",
        example=0.0001,
    )
    betas: tuple[float, float] = option(
        (0.9, 0.999),
        description="Decay rates of the first- and second-moment running averages (Adam, Lamb, Lion; Muon's "
        "auxiliary Adam).",
        hf_auto=HfAuto(by=("transformers",), source="[TrainingArguments.adam_beta1, TrainingArguments.adam_beta2]"),
        default_note="Muon's auxiliary Adam groups default to (0.9, 0.95).",
        example=[0.9, 0.95],
    )
    eps: float = option(
        1e-8,
        description="Small constant added to the denominator for numerical stability.",
        hf_auto=HfAuto(by=("transformers",), source="TrainingArguments.adam_epsilon"),
        default_note="Adagrad and Muon's auxiliary Adam groups default to 1e-10.",
    )
    weight_decay: float = option(
        0.0,
        description="Weight decay coefficient; Adam applies it decoupled (AdamW style) unless adam_w_mode is false.",
        hf_auto=HfAuto(
            source="TrainingArguments.weight_decay (transformers); the DummyOptim weight_decay (accelerate)"
        ),
        default_note="torch.optim.AdamW, used with torch_adam, defaults to 0.01.",
        example=0.01,
    )
    bias_correction: bool = option(
        True,
        description="Applies Adam's bias correction to the moment estimates (DeepSpeed's fused and CPU Adam, Lamb); "
        "torch optimizers do not accept it.",
    )
    adam_w_mode: bool = option(
        True,
        description="For type Adam: true applies decoupled weight decay (AdamW), false the classic L2 penalty; "
        "type AdamW is always decoupled.",
        ds_constant="deepspeed.runtime.config.ADAM_W_MODE_DEFAULT",
    )
    torch_adam: bool = option(
        False,
        description="For Adam/AdamW: uses torch.optim.Adam/AdamW instead of DeepSpeed's fused or CPU Adam.",
    )
    foreach: bool | None = option(
        None,
        description="With torch_adam only: passed to torch.optim.Adam/AdamW to choose the multi-tensor "
        "implementation; null lets torch decide.",
    )
    fp32_optimizer_states: bool = option(
        True,
        description="For DeepSpeed's CPU optimizers (ZeRO optimizer offload): keeps optimizer states in fp32; "
        "forced to false when bf16.bf16_optimizer_states is on.",
    )
    max_grad_norm: float | None = option(
        None,
        use_instead="gradient_clipping",
        description="Refused: DeepSpeed raises an error when it builds the optimizer with this key present; clip "
        "with the top-level gradient_clipping instead.",
    )
    momentum: float = option(
        0.95,
        description="Momentum coefficient (Muon, and torch SGD-style optimizers).",
        default_note="0.95 is Muon's default; torch.optim.SGD defaults to 0.",
    )
    muon_lr: float | None = option(
        None,
        description="For Muon: learning rate of the parameter groups Muon updates (2-D weight matrices).",
        default_note="When absent, lr is used.",
    )
    adam_lr: float | None = option(
        None,
        description="For Muon: learning rate of the groups its auxiliary Adam updates (biases, norms, embeddings).",
        default_note="When absent, lr is used.",
    )
    ns_method: Literal["gram", "standard"] = option(
        "gram",
        description="For Muon: Newton-Schulz variant used to orthogonalise updates; gram is about twice as fast.",
        enum_docs=(
            ("gram", "Gram-matrix Newton-Schulz iteration (faster)."),
            ("standard", "The original quintic Newton-Schulz iteration."),
        ),
    )
    max_coeff: float = option(
        10.0,
        description="For Lamb: upper bound of the layer-wise trust ratio.",
    )
    min_coeff: float = option(
        0.01,
        description="For Lamb: lower bound of the layer-wise trust ratio.",
    )
    freeze_step: int = option(
        100000,
        unit="steps",
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For OneBitAdam/OneBitLamb: warm-up steps before switching to compressed communication.",
    )
    cuda_aware: bool = option(
        False,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For the 1-bit optimizers: used CUDA-aware MPI for the compressed all-reduce.",
    )
    comm_backend_name: str = option(
        "nccl",
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For the 1-bit optimizers: communication backend of the compressed all-reduce.",
    )
    var_freeze_step: int = option(
        100000,
        unit="steps",
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For ZeroOneAdam: step after which the variance is no longer updated.",
    )
    var_update_scaler: int = option(
        16,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For ZeroOneAdam: growth factor of the interval between variance updates.",
    )
    local_step_scaler: int = option(
        32678,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For ZeroOneAdam: growth factor of the interval between synchronisations once local steps begin.",
    )
    local_step_clipper: int = option(
        16,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For ZeroOneAdam: upper bound of the local-step interval.",
    )
    coeff_beta: float = option(
        0.9,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For OneBitLamb: decay of the running average of the Lamb trust ratio during warm-up.",
    )
    factor_max: float = option(
        4.0,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For OneBitLamb: upper bound of the trust-ratio scaling factor after warm-up.",
    )
    factor_min: float = option(
        0.5,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For OneBitLamb: lower bound of the trust-ratio scaling factor after warm-up.",
    )
    factor_threshold: float = option(
        0.1,
        removed_in="0.19.7",
        removal_note=_ONE_BIT_REMOVAL,
        description="For OneBitLamb: largest change of the scaling factor allowed per step.",
    )


_REMOVED_1BIT = "Removed in 0.19.7: the engine refuses to start with it."

_OPTIMIZER_TYPES: tuple[tuple[str, str], ...] = (
    (
        "Adam",
        "DeepSpeed's fused Adam (CPU Adam with ZeRO optimizer offload); decoupled weight decay unless "
        "params.adam_w_mode is false.",
    ),
    ("AdamW", "Like Adam, always with decoupled weight decay."),
    ("Adagrad", "torch.optim.Adagrad (DeepSpeed's CPU Adagrad with optimizer offload)."),
    ("Lamb", "DeepSpeed's fused Lamb, for very large batches; needs dynamic fp16 loss scaling."),
    ("Lion", "DeepSpeed's fused Lion (CPU Lion with optimizer offload)."),
    ("Muon", "Muon for 2-D weight matrices, with an auxiliary Adam for the remaining parameters."),
    ("MuAdam", "MuAdam from the mup package (must be installed)."),
    ("MuAdamW", "MuAdamW from the mup package (must be installed)."),
    ("MuSGD", "MuSGD from the mup package (must be installed)."),
    ("OneBitAdam", _REMOVED_1BIT),
    ("ZeroOneAdam", _REMOVED_1BIT),
    ("OneBitLamb", _REMOVED_1BIT),
)


class OptimizerConfig(DictSection):
    """The optimizer DeepSpeed creates itself when no optimizer object is passed to `deepspeed.initialize`.

    DeepSpeed reads only `type`, `params` and `legacy_fusion` here and ignores other keys; `params` is used
    only when `type` is set. An optimizer passed in code takes precedence over this section.
    """

    type: str | None = option(
        None,
        enforced=True,
        description="Optimizer to build: one of DeepSpeed's names (matched without regard to case) or, exactly "
        "spelled, the name of any torch.optim class such as SGD.",
        enum_docs=_OPTIMIZER_TYPES,
        example="AdamW",
        ds_constant="deepspeed.runtime.constants.OPTIMIZER_TYPE_DEFAULT",
    )
    params: OptimizerParams | None = option(
        None,
        description="Constructor arguments of the chosen optimizer.",
        default_note="When absent, the optimizer is built with its own defaults.",
    )
    legacy_fusion: bool = option(
        False,
        description="Passed to DeepSpeed's fused fp16 optimizer wrapper to take the old fused-Adam code path; "
        "rarely needed.",
        ds_constant="deepspeed.runtime.constants.LEGACY_FUSION_DEFAULT",
    )


class OptimizerOptions(Section):
    """Top-level fields contributed by this module."""

    optimizer: OptimizerConfig | None = option(
        None,
        description="The optimizer DeepSpeed builds; leave it out when you pass an optimizer to deepspeed.initialize.",
    )
    gradient_clipping: float = option(
        1.0,
        description="Rescales gradients so that their global norm does not exceed this value before each optimizer "
        "step; 0 turns clipping off. The default was 0 before 0.19.3.",
        hf_auto=HfAuto(
            source="TrainingArguments.max_grad_norm (transformers); DeepSpeedPlugin.gradient_clipping, "
            "1.0 if unset (accelerate)"
        ),
        example=1.0,
        ds_constant="deepspeed.runtime.constants.GRADIENT_CLIPPING_DEFAULT",
    )
    zero_allow_untested_optimizer: bool = option(
        False,
        description="Lets ZeRO run with an optimizer outside the ones it is tested with (torch Adam, AdamW and "
        "Adagrad, DeepSpeed's fused Adam and Lion, its CPU optimizers, Muon); without it the engine refuses to start.",
        ds_constant="deepspeed.runtime.constants.ZERO_ALLOW_UNTESTED_OPTIMIZER_DEFAULT",
    )
    zero_force_ds_cpu_optimizer: bool = option(
        True,
        since="0.8.3",
        description="With ZeRO optimizer offload, refuses an optimizer passed in code unless it is DeepSpeed's CPU "
        "Adam or CPU Lion; set false to accept any optimizer at the cost of slow CPU steps.",
        ds_constant="deepspeed.runtime.constants.ZERO_FORCE_DS_CPU_OPTIMIZER_DEFAULT",
    )
