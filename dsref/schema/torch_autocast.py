"""`torch_autocast`: mixed precision through PyTorch's native `torch.autocast`."""

from __future__ import annotations

from enum import Enum

from ._base import DictSection, Section
from ._meta import option


class AutocastDtype(str, Enum):
    """The spellings DeepSpeed's `DtypeEnum` accepts (case-sensitive), each naming one torch dtype."""

    FP16 = "fp16"
    FLOAT16 = "float16"
    HALF = "half"
    TORCH_FLOAT16 = "torch.float16"
    BF16 = "bf16"
    BFLOAT16 = "bfloat16"
    TORCH_BFLOAT16 = "torch.bfloat16"
    FP32 = "fp32"
    FLOAT32 = "float32"
    FLOAT = "float"
    TORCH_FLOAT32 = "torch.float32"
    INT8 = "int8"
    TORCH_INT8 = "torch.int8"


_F16 = "torch.float16 (half precision); DeepSpeed then also scales the loss with a torch GradScaler."
_BF16 = "torch.bfloat16."
_F32 = "torch.float32: torch.autocast does not support it and switches itself off, so nothing is cast."
_I8 = "torch.int8: accepted by the config, but torch.autocast does not support it and switches itself off."


class TorchAutocastConfig(DictSection):
    """Runs the model's forward pass under `torch.autocast`, so PyTorch picks the precision per operation, while
    the weights stay in their own (usually fp32) dtype.

    An alternative to the `fp16`/`bf16` sections, which are normally left disabled with it. At ZeRO stages the
    gradients of parameters in `lower_precision_safe_modules` are reduced in the autocast dtype and all others in
    their own dtype, in place of `communication_data_type`; ZeRO stage 3 also gathers those parameters in the
    autocast dtype. Cannot be combined with ZeRO++ quantized weights (`zero_optimization.zero_quantized_weights`).
    """

    enabled: bool = option(
        False,
        ds_constant="deepspeed.runtime.constants.TORCH_AUTOCAST_ENABLED_DEFAULT",
        description="Runs the engine's forward pass inside torch.autocast with the configured dtype. With a float16 "
        "dtype DeepSpeed also scales the loss with a torch GradScaler; bfloat16 needs none. If your code already calls "
        "the engine inside torch.autocast, this section's settings take over for the forward pass, and when it is "
        "false DeepSpeed switches autocast off there (with a warning) so that the fp16/bf16 settings govern.",
        example=True,
    )
    dtype: AutocastDtype = option(
        None,
        enforced=True,
        docs_default="bfloat16",
        default_note="When absent, torch.autocast uses the device's default lower-precision dtype (float16 on "
        "CUDA, bfloat16 on CPU).",
        description="Lower-precision dtype in which autocast runs eligible operations such as matrix multiplications; "
        "bfloat16 is the simpler choice where the hardware supports it, float16 adds loss scaling. It is also the "
        "dtype in which the parameters of lower_precision_safe_modules are communicated. The spellings are "
        "case-sensitive; an unknown value, or an explicit null, raises ValueError.",
        example="bfloat16",
        enum_docs=(
            ("fp16", _F16),
            ("float16", _F16),
            ("half", _F16),
            ("torch.float16", _F16),
            ("bf16", _BF16),
            ("bfloat16", _BF16),
            ("torch.bfloat16", _BF16),
            ("fp32", _F32),
            ("float32", _F32),
            ("float", _F32),
            ("torch.float32", _F32),
            ("int8", _I8),
            ("torch.int8", _I8),
        ),
    )
    lower_precision_safe_modules: list[str] = option(
        None,
        enforced=True,
        default_note="When absent, DeepSpeed uses torch.nn.Linear, torch.nn.Conv1d, torch.nn.Conv2d and "
        "torch.nn.Conv3d.",
        description="Module classes, as full import paths ('package.module.Class'), whose parameters ZeRO communicates "
        "in the autocast dtype rather than their own (usually fp32) dtype, halving that traffic. The list replaces the "
        "default, so name torch.nn.Linear yourself if you still want it; classes match exactly (subclasses are not "
        "included) and each must be importable. An explicit null is rejected.",
        example=["torch.nn.Linear", "torch.nn.Conv2d"],
    )


class TorchAutocastOptions(Section):
    """Top-level fields contributed by this module."""

    torch_autocast: TorchAutocastConfig = option(
        default_factory=TorchAutocastConfig,
        since="0.17.2",
    )
