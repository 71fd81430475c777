"""`optimizer`: the optimizer DeepSpeed builds, plus the top-level clipping and optimizer-policy keys."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, PassthroughSection, Section
from ._meta import HfAuto, option

_ONE_BIT_REMOVAL = (
    "The 1-bit optimizers (OneBitAdam, ZeroOneAdam, OneBitLamb) were deleted, so no optimizer "
    "accepts this parameter any more; drop it and pick a supported optimizer type."
)


_ADAM = (("optimizer.type", "Adam"),)
_MUON = (("optimizer.type", "Muon"),)
_LAMB = (("optimizer.type", "Lamb"),)
_CPU_OPTIMIZER = (
    ("optimizer.type", "AdamW"),
    ("zero_optimization.stage", 2),
    ("zero_optimization.offload_optimizer.device", "cpu"),
)
"""What a key read by one optimizer needs beside it: that optimizer (with offload, DeepSpeed's CPU AdamW)."""


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
        description="Base learning rate, used by every parameter group that does not set its own. Adam-family "
        "optimizers commonly train with values from 1e-5 to 1e-3; for Muon, `muon_lr` and `adam_lr` override it for "
        "their halves. With a `scheduler` it changes every step: WarmupLR without `warmup_max_lr` and WarmupCosineLR "
        "scale from it, while WarmupDecayLR, OneCycle and LRRangeTest set the rate from their own keys.",
        hf_auto=HfAuto(
            compared="learning_rate",
            source="TrainingArguments.learning_rate (transformers); the DummyOptim lr (accelerate)",
        ),
        default_note="Each optimizer has its own default: 1e-3 for Adam, AdamW, Lamb and Lion, 1e-2 for Adagrad, "
        "0.02 for Muon's matrix groups and 3e-4 for its auxiliary Adam groups.",
        example=0.0001,
    )
    betas: tuple[float, float] = option(
        (0.9, 0.999),
        description="Decay rates (beta1, beta2) of the optimizer's running averages; for Adam-style optimizers, of "
        "the gradient (momentum) and of its square (variance). Lowering beta2 to 0.95–0.98 is common in large-model "
        "training for stability. Used by Adam, AdamW, Lamb, Lion and Muon's auxiliary Adam; a OneCycle `scheduler` "
        "with `cycle_momentum` overwrites both values every step.",
        hf_auto=HfAuto(
            compared="adam_beta1+adam_beta2",
            by=("transformers",),
            source="[TrainingArguments.adam_beta1, TrainingArguments.adam_beta2]",
        ),
        default_note="Muon's auxiliary Adam groups default to (0.9, 0.95).",
        example=[0.9, 0.95],
    )
    eps: float = option(
        1e-8,
        example=1e-06,
        description="Small constant added to the denominator of Adam-style updates so that parameters with a "
        "near-zero variance estimate do not take huge steps. The default rarely needs changing; some low-precision "
        "runs raise it to about 1e-6 for stability. Lion takes no `eps` and rejects it; under Muon it applies only to "
        "the auxiliary Adam.",
        hf_auto=HfAuto(compared="adam_epsilon", by=("transformers",), source="TrainingArguments.adam_epsilon"),
        default_note="Adagrad and Muon's auxiliary Adam groups default to 1e-10.",
    )
    weight_decay: float = option(
        0.0,
        description="Strength of the weight decay that pulls weights toward zero at every step; 0 disables it, and "
        "0.01 to 0.1 are common with AdamW. Adam, AdamW and Muon apply it decoupled from the gradient (AdamW style), "
        "unless `adam_w_mode` is false for type Adam or for Muon's auxiliary Adam. To exempt biases and norm weights, "
        "pass parameter groups with their own `weight_decay` to `deepspeed.initialize`.",
        hf_auto=HfAuto(
            compared="weight_decay",
            source="TrainingArguments.weight_decay (transformers); the DummyOptim weight_decay (accelerate)",
        ),
        default_note="torch.optim.AdamW, used with torch_adam, defaults to 0.01.",
        example=0.01,
    )
    bias_correction: bool = option(
        True,
        description="Corrects the zero-initialised moment estimates of Adam-style optimizers during the first steps; "
        "keep it true, the standard behaviour. Only DeepSpeed's own Adam (fused and CPU) and Lamb accept it; torch "
        "optimizers (including Adam with `torch_adam`) and Lion reject it with a TypeError, and Muon ignores it.",
    )
    adam_w_mode: bool = option(
        True,
        requires=_ADAM,
        description="For type Adam and Muon's auxiliary Adam: true applies weight decay decoupled from the gradient, "
        "as AdamW does; false adds it to the gradient as a classic L2 penalty. Leave it true unless you need to "
        "reproduce original-Adam results; it only matters when `weight_decay` is non-zero, and type AdamW ignores it.",
        ds_constant="deepspeed.runtime.config.ADAM_W_MODE_DEFAULT",
    )
    torch_adam: bool = option(
        False,
        requires=_ADAM,
        description="For type Adam, AdamW and Muon's auxiliary Adam: builds torch.optim.Adam or AdamW instead of "
        "DeepSpeed's fused GPU Adam or, with ZeRO optimizer offload, its CPU Adam. Useful when DeepSpeed's Adam "
        "extension cannot be built on your system; with optimizer offload the torch version runs the step on the CPU "
        "much more slowly. It rejects `bias_correction` and accepts `foreach`.",
    )
    foreach: bool | None = option(
        None,
        requires=(*_ADAM, ("optimizer.params.torch_adam", True)),
        example=True,
        description="Chooses torch's multi-tensor (foreach) implementation for torch optimizers: Adam or AdamW with "
        "`torch_adam`, or a torch.optim class named in `type` such as SGD. null leaves the choice to torch, which "
        "uses foreach on GPUs; false forces the per-parameter loop, which needs less temporary memory. DeepSpeed's "
        "own fused and CPU optimizers reject the key.",
    )
    fp32_optimizer_states: bool = option(
        True,
        requires=_CPU_OPTIMIZER,
        description="With ZeRO optimizer offload, keeps the CPU optimizer's states (Adam's moments, Lion's momentum, "
        "Adagrad's sums) in fp32; false stores them in the dtype of the weights the optimizer updates. That only "
        "saves memory when those weights are 16-bit (`bf16.bf16_master_weights_and_grads` or "
        "`fp16.fp16_master_weights_and_grads`); `bf16.bf16_optimizer_states` forces false for Adam and AdamW. Without "
        "offload, Adam and AdamW drop the key and other GPU optimizers reject it.",
    )
    max_grad_norm: float | None = option(
        None,
        no_example="refused",
        use_instead="gradient_clipping",
        description="Refused: DeepSpeed raises an error when it builds the optimizer with this key present; clip "
        "with the top-level gradient_clipping instead.",
    )
    momentum: float = option(
        0.95,
        requires=_MUON,
        description="Momentum coefficient: for Muon, the decay of the momentum buffer its orthogonalised updates are "
        "built from, where 0.95 usually works; for a torch.optim class named in `type`, such as SGD or RMSprop, "
        "passed on unchanged. Adam, AdamW, Lamb, Lion and Adagrad reject the key; Adam-style optimizers take their "
        "momentum from `betas`.",
        default_note="0.95 is Muon's default; torch.optim.SGD defaults to 0.",
        example=0.9,
    )
    muon_lr: float | None = option(
        None,
        requires=_MUON,
        example=0.02,
        description="For Muon: learning rate of the parameters Muon itself updates, the weights with two or more "
        'dimensions whose names contain neither "embed" nor "lm_head". Muon\'s orthogonalised steps need a much '
        "larger rate than Adam's (its own defaults are 0.02 against 3e-4), so set both `muon_lr` and `adam_lr` rather "
        "than one shared `lr`. A parameter group passed with its own `lr` overrides it.",
        default_note="When absent, lr is used.",
    )
    adam_lr: float | None = option(
        None,
        requires=_MUON,
        example=0.0003,
        description="For Muon: learning rate of the parameters its auxiliary Adam updates, every tensor with fewer "
        'than two dimensions (biases, norm weights) and the weights whose names contain "embed" or "lm_head". '
        "Usually far smaller than `muon_lr` (Muon's own defaults are 3e-4 against 0.02); a parameter group passed "
        "with its own `lr` overrides it.",
        default_note="When absent, lr is used.",
    )
    ns_method: Literal["gram", "standard"] = option(
        "gram",
        requires=_MUON,
        description="For Muon: which Newton-Schulz iteration orthogonalises each matrix update. gram, the default, is "
        "about twice as fast on rectangular matrices and normally computes in fp16; standard is the original quintic "
        "iteration, normally computed in bf16. Any other value stops Muon with an assertion error.",
        enum_docs=(
            ("gram", "Gram-matrix Newton-Schulz iteration (faster)."),
            ("standard", "The original quintic Newton-Schulz iteration."),
        ),
        example="standard",
    )
    max_coeff: float = option(
        10.0,
        requires=_LAMB,
        description="For Lamb: upper limit of the per-layer trust ratio, the factor (weight norm over update norm) by "
        "which Lamb rescales each layer's step. Together with `min_coeff` it bounds how far a layer's effective "
        "learning rate can move from `lr`; lower it if some layers take too large steps.",
        example=5.0,
    )
    min_coeff: float = option(
        0.01,
        requires=_LAMB,
        description="For Lamb: lower limit of the per-layer trust ratio, so that layers with very small weights still "
        "move by at least this fraction of the plain step. See `max_coeff` for the upper limit.",
        example=0.05,
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

    DeepSpeed reads only `type`, `params` and `legacy_fusion` here and ignores other keys; `params` is used only when
    `type` is set. An optimizer passed in code takes precedence over this section. With ZeRO optimizer offload
    (`zero_optimization.offload_optimizer`), DeepSpeed builds its CPU implementation for Adam, AdamW, Adagrad and Lion.
    ZeRO stages 1 and 2 refuse to start without an optimizer, from here or from code; stage 3 can run without one, for
    inference.
    """

    type: str | None = option(
        None,
        enforced=True,
        description="Optimizer to build: one of DeepSpeed's names, matched without regard to case, or the exact name "
        "of any torch.optim class such as SGD. AdamW is the usual choice for training transformers; with ZeRO "
        "optimizer offload DeepSpeed builds its CPU version of Adam, AdamW, Adagrad or Lion instead. Under ZeRO, "
        "Lamb, the mup optimizers and torch classes other than Adam, AdamW and Adagrad also need "
        "`zero_allow_untested_optimizer`; Lamb also refuses a static `fp16.loss_scale`.",
        enum_docs=_OPTIMIZER_TYPES,
        example="AdamW",
        ds_constant="deepspeed.runtime.constants.OPTIMIZER_TYPE_DEFAULT",
    )
    params: OptimizerParams | None = option(
        None,
        requires=(("optimizer.type", "AdamW"),),
        description="Keyword arguments for the optimizer named in `type`, such as `lr`, `betas` and `weight_decay`; "
        "each optimizer accepts its own set, and an unknown key stops the engine at start-up with a TypeError.",
        default_note="When absent, the optimizer is built with its own defaults.",
    )
    legacy_fusion: bool = option(
        False,
        no_example="refused",
        description="Makes the fp16 optimizer wrapper take an old fused-Adam code path that hands gradients and the "
        "loss scale to the optimizer's step; leave it false. It only matters without ZeRO, in fp16 or bf16 mixed "
        "precision with a fused Adam, and DeepSpeed's current FusedAdam raises an error on that path.",
        ds_constant="deepspeed.runtime.constants.LEGACY_FUSION_DEFAULT",
    )


class OptimizerOptions(Section):
    """Top-level fields contributed by this module."""

    optimizer: OptimizerConfig | None = option(
        None,
        description="The optimizer DeepSpeed builds from `type` and `params`; leave it out when you pass an optimizer "
        "object to `deepspeed.initialize`, which takes precedence.",
    )
    gradient_clipping: float = option(
        1.0,
        description="Caps the global L2 norm of all gradients at this value before each optimizer step, scaling them "
        "down proportionally when it is exceeded; 0 turns clipping off. 1.0 is the usual choice for transformer "
        "training (the default was 0 before 0.19.3). The norm covers the whole model across all ranks, and "
        "`zero_optimization.compute_grad_norm: false` (ZeRO stage 1 and 2) requires 0 here. When ZeRO stage 1 or 2 or "
        "the bf16 and fused fp16 wrappers load optimizer state from a checkpoint, the value saved in it replaces this "
        "one.",
        hf_auto=HfAuto(
            compared="max_grad_norm",
            source="TrainingArguments.max_grad_norm (transformers); DeepSpeedPlugin.gradient_clipping, "
            "1.0 if unset (accelerate)",
        ),
        example=0.5,
        ds_constant="deepspeed.runtime.constants.GRADIENT_CLIPPING_DEFAULT",
    )
    zero_allow_untested_optimizer: bool = option(
        False,
        description="Lets ZeRO (stage 1 to 3) run with an optimizer outside its tested list; without it the engine "
        "refuses to start. The tested ones are torch Adam, AdamW and Adagrad, DeepSpeed's fused Adam and Lion, its "
        "CPU Adam, Adagrad and Lion, and Muon, so type Lamb, torch classes such as SGD and the mup optimizers need "
        "this flag. The check compares exact classes, so a subclass of a tested optimizer counts as untested; with "
        "the flag on, DeepSpeed only logs a warning.",
        ds_constant="deepspeed.runtime.constants.ZERO_ALLOW_UNTESTED_OPTIMIZER_DEFAULT",
    )
    zero_force_ds_cpu_optimizer: bool = option(
        True,
        since="0.8.3",
        description="With ZeRO optimizer offload (`zero_optimization.offload_optimizer.device` cpu or nvme), refuses "
        "an optimizer object passed in code unless it is DeepSpeed's CPU Adam or CPU Lion. Any other optimizer would "
        "run its step on the CPU in plain PyTorch, usually several times slower; set false only if you accept that. "
        "Optimizers built from the `optimizer` section are not affected, since DeepSpeed picks its CPU versions for "
        "them itself.",
        ds_constant="deepspeed.runtime.constants.ZERO_FORCE_DS_CPU_OPTIMIZER_DEFAULT",
    )
