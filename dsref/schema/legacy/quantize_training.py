"""`quantize_training`: the removed Mixture-of-Quantization (MoQ) block."""

from __future__ import annotations

from .._base import DictSection, Section
from .._meta import option
from .eigenvalue import EigenvalueConfig


class QuantizeTrainingConfig(DictSection):
    """Mixture-of-Quantization (MoQ): quantization-aware training that lowered the weight precision step by step.

    Its bit-width keys moved to `compression_training.weight_quantization` in DeepSpeed 0.7.0; afterwards only
    the `eigenvalue` sub-block was read here, and only while compression weight quantization was enabled.
    Removed in DeepSpeed 0.19.7.
    """

    eigenvalue: EigenvalueConfig = option(
        default_factory=EigenvalueConfig,
        parsed_unused=True,
    )


class QuantizeTrainingOptions(Section):
    """Top-level field contributed by this module."""

    quantize_training: QuantizeTrainingConfig | None = option(
        None,
        since="0.4.0",
        removed_in="0.19.7",
        removal_note="Mixture-of-Quantization was dropped in DeepSpeed 0.19.7 without a replacement; delete this "
        "block.",
    )
