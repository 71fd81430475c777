"""`weight_quantization`: group-wise weight quantization at ZeRO-3 initialization or after model load."""

from __future__ import annotations

from enum import Enum
from typing import Any

from ._base import Section, StrictSection
from ._meta import option


class QuantType(str, Enum):
    """Quantization scheme (mirrors DeepSpeed's `QuantTypeEnum`)."""

    asymmetric = "asymmetric"
    symmetric = "symmetric"


class WeightQuantizationConfig(StrictSection):
    """Stores the weights of linear and embedding layers in 4 or 8 bits to save memory, mainly for inference.

    `quantized_initialization` quantizes each weight as `deepspeed.zero.Init` creates it (ZeRO-3);
    `post_init_quant` names the layers that DeepSpeed's post-initialization quantization helper converts.
    Both hold plain settings objects with the keys `num_bits` (4 or 8), `group_size`, `group_dim` and
    `symmetric` (only false is supported). The section's own `enabled`, `num_bits`, `q_type` and
    `q_groups` are validated but not used. Absent means no quantization; an explicit null makes DeepSpeed fail
    with a TypeError. Undocumented by DeepSpeed.
    """

    ds_class = "deepspeed.inference.config.WeightQuantConfig"

    enabled: bool = option(
        True,
        parsed_unused=True,
        description="Validated but not used: the two settings objects below decide what is quantized. "
        "Defaults to true once the section exists.",
    )
    num_bits: int = option(
        8,
        parsed_unused=True,
        description="Validated but not used; the bit width comes from the num_bits key of the settings objects.",
    )
    q_type: QuantType = option(
        "symmetric",
        parsed_unused=True,
        description="Validated but not used; the scheme comes from the symmetric key of the settings objects.",
    )
    q_groups: int = option(
        1,
        parsed_unused=True,
        description="Validated but not used; grouping comes from the group_size key of the settings objects.",
    )
    quantized_initialization: dict[str, Any] = option(
        default_factory=dict,
        description="Quantize the weight of every nn.Linear and nn.Embedding layer as `deepspeed.zero.Init` builds "
        "the model (ZeRO-3), so the model is held quantized from the start: an object with num_bits, group_size, "
        "group_dim and symmetric. Empty turns it off.",
        example={"num_bits": 8, "group_size": 64, "group_dim": 1, "symmetric": False},
    )
    post_init_quant: dict[str, Any] = option(
        default_factory=dict,
        description="For quantization after loading: maps a substring of module names to the settings object "
        "(num_bits, group_size, group_dim, symmetric) for the matching nn.Linear and nn.Embedding layers. A module "
        "that matches more than one key is an error, and nothing happens unless the script calls DeepSpeed's "
        "post-initialization quantization helper.",
        example={"fc": {"num_bits": 4, "group_size": 64, "group_dim": 1, "symmetric": False}},
    )


class WeightQuantizationOptions(Section):
    """Top-level field contributed by this module."""

    weight_quantization: WeightQuantizationConfig = option(
        None,
        since="0.10.3",
        default_note="Absent means no weight quantization; an explicit null makes DeepSpeed fail.",
    )
