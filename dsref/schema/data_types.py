"""`data_types`: data types of gradient accumulation, parameters and buffers."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, Section
from ._meta import option

_CONSTANTS = "deepspeed.runtime.constants"

FloatDtypeName = Literal[
    "fp32",
    "float32",
    "float",
    "torch.float32",
    "fp16",
    "float16",
    "half",
    "torch.float16",
    "bf16",
    "bfloat16",
    "torch.bfloat16",
]
"""Names of the floating-point types as DeepSpeed's `DtypeEnum` accepts them (case-sensitive)."""

DtypeName = Literal[FloatDtypeName, "int8", "torch.int8"]
"""Every name `DtypeEnum` accepts, int8 included."""


class DataTypesConfig(DictSection):
    """Data types that differ from the training precision set by `fp16` / `bf16`.

    Covers the buffers gradients are accumulated in, a check on the parameter type, and the type of the model's
    buffers, including which buffers stay fp32. The names are resolved with DeepSpeed's `DtypeEnum` only when the
    engine starts, so a misspelt name passes config parsing and fails then.
    """

    grad_accum_dtype: DtypeName | None = option(
        None,
        requires=(("bf16.enabled", True), ("zero_optimization.stage", 2)),
        enforced=True,
        description="Data type of the buffers in which gradients are summed over micro batches before the optimizer "
        "step; null uses the training precision. fp32 with bf16 avoids the rounding error that builds up over many "
        "gradient_accumulation_steps, at the cost of an extra fp32 gradient buffer. A type other than the training "
        "precision needs ZeRO (the engine refuses it without), and with bf16 at ZeRO stage 1 without offload fp32 "
        "switches to DeepSpeed's bf16 optimizer, which reads bf16.immediate_grad_update.",
        ds_constant=f"{_CONSTANTS}.GRAD_ACCUM_DTYPE_DEFAULT",
        example="fp32",
    )
    param_dtype: FloatDtypeName | None = option(
        None,
        requires=(("bf16.enabled", True),),
        example="bf16",
        enforced=True,
        since="0.19.2",
        description="Declares the parameter data type you expect; it only acts as a check when the engine starts. "
        "Parameters always follow the fp16/bf16 mode (fp32 when neither is enabled), and a value that disagrees stops "
        "the engine with an error; null skips the check.",
        ds_constant=f"{_CONSTANTS}.PARAM_DTYPE_DEFAULT",
    )
    buffer_dtype: DtypeName | None = option(
        None,
        requires=(("bf16.enabled", True),),
        example="fp32",
        enforced=True,
        since="0.19.2",
        description="Data type to cast the model's floating-point buffers to when fp16 or bf16 is enabled; null leaves "
        "buffers in the type they were loaded with, which is usually right (fp32 rotary-embedding tables, for example, "
        "keep their precision). Buffers matched by keep_in_fp32_modules stay fp32 regardless, and in fp32 training the "
        "setting has no effect.",
        ds_constant=f"{_CONSTANTS}.BUFFER_DTYPE_DEFAULT",
    )
    keep_in_fp32_modules: list[str] | Literal["auto"] = option(
        "auto",
        enforced=True,
        since="0.19.8",
        description="Name patterns of buffers that stay in fp32 under fp16 or bf16 training, such as MoE routing "
        "biases whose values bf16 cannot tell apart. auto uses the lists a Hugging Face transformers model declares "
        "(_keep_in_fp32_modules_strict, plus _keep_in_fp32_modules under fp16), [] keeps nothing, and in your own list "
        "* matches any characters and a pattern may match anywhere in the full buffer name. Only buffers are kept "
        "(parameters follow the training precision), both when the engine casts the model and inside zero.Init for "
        "ZeRO stage 3; anything but auto or a list of strings is a config error.",
        ds_constant=f"{_CONSTANTS}.KEEP_IN_FP32_MODULES_DEFAULT",
        example=["rotary_emb"],
    )


class DataTypesOptions(Section):
    """Top-level field contributed by this module."""

    data_types: DataTypesConfig = option(
        default_factory=DataTypesConfig,
        since="0.7.6",
    )
