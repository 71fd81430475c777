"""`amp`: the removed NVIDIA Apex AMP mixed-precision integration."""

from __future__ import annotations

from typing import Literal

from .._base import DictSection, Section
from .._meta import HfAuto, HfChange, option


class AmpConfig(DictSection):
    """Mixed precision through NVIDIA Apex: every key other than `enabled` was handed unchanged to
    `apex.amp.initialize`, so any of its arguments could be set here.

    It could not be combined with ZeRO. Removed in DeepSpeed 0.19.8; use `bf16` or `fp16` (DeepSpeed's own
    mixed precision) or `torch_autocast` instead, and with the Hugging Face Trainer do not choose the apex
    half-precision backend.
    """

    enabled: bool = option(
        False,
        hf_auto=HfAuto(
            by=(),
            changes=(
                HfChange(
                    "transformers",
                    "5.0.0",
                    'TrainingArguments.fp16 and fp16_backend == "apex"',
                    compared="fp16+fp16_backend(apex)",
                ),
            ),
        ),
        description="Turns Apex AMP on; the key must be present whenever the block is.",
    )
    opt_level: Literal["O0", "O1", "O2", "O3"] | None = option(
        None,
        hf_auto=HfAuto(
            by=(),
            changes=(HfChange("transformers", "5.0.0", "TrainingArguments.fp16_opt_level", compared="fp16_opt_level"),),
        ),
        default_note="When absent, Apex applied its own default, O1.",
        description="Apex optimization level, from O0 (pure fp32) to O3 (pure fp16); the letter O, not zero.",
        example="O1",
    )


class AmpOptions(Section):
    """Top-level field contributed by this module."""

    amp: AmpConfig | None = option(
        None,
        since="0.3.0",
        removed_in="0.19.8",
        use_instead="bf16",
        removal_note="Apex AMP support was dropped in DeepSpeed 0.19.8; delete this block and use DeepSpeed's bf16 "
        "or fp16 mixed precision, or torch_autocast.",
    )
