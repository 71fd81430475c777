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

    The names are resolved with DeepSpeed's `DtypeEnum` only when the engine starts, so a misspelt name passes
    config parsing and fails then.
    """

    grad_accum_dtype: DtypeName | None = option(
        None,
        enforced=True,
        description="Data type in which gradients are accumulated across micro-batches; null uses the model's "
        "data type. Without ZeRO it must equal the model's type, e.g. fp32 with bf16 needs ZeRO.",
        ds_constant=f"{_CONSTANTS}.GRAD_ACCUM_DTYPE_DEFAULT",
        example="fp32",
    )
    param_dtype: FloatDtypeName | None = option(
        None,
        enforced=True,
        since="0.19.2",
        description="Data type of the parameters; if set it must match the fp16/bf16 mode (checked when the engine "
        "starts), null follows that mode.",
        ds_constant=f"{_CONSTANTS}.PARAM_DTYPE_DEFAULT",
    )
    buffer_dtype: DtypeName | None = option(
        None,
        enforced=True,
        since="0.19.2",
        description="Data type to cast the model's floating-point buffers to; null leaves buffers in the type they "
        "were loaded with (e.g. fp32 rotary tables), which is usually what you want.",
        ds_constant=f"{_CONSTANTS}.BUFFER_DTYPE_DEFAULT",
    )
    keep_in_fp32_modules: list[str] | Literal["auto"] = option(
        "auto",
        enforced=True,
        since="0.19.8",
        description="Name patterns of modules whose buffers stay fp32 under fp16/bf16; auto takes the lists a "
        "transformers model declares, [] keeps nothing. Anything but auto or a list of strings is a config error.",
        ds_constant=f"{_CONSTANTS}.KEEP_IN_FP32_MODULES_DEFAULT",
        example=["rotary_emb"],
    )


class DataTypesOptions(Section):
    """Top-level field contributed by this module."""

    data_types: DataTypesConfig = option(
        default_factory=DataTypesConfig,
        since="0.7.6",
    )
