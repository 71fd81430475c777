"""`progressive_layer_drop`: the removed Progressive Layer Dropping schedule."""

from __future__ import annotations

from .._base import DictSection, Section
from .._meta import option


class ProgressiveLayerDropConfig(DictSection):
    """Progressive Layer Dropping (PLD) sped up transformer pre-training by skipping layers at random, with a
    keep probability that starts at 1 and decays towards `theta` at a rate set by `gamma`.

    DeepSpeed only computed the schedule and passed the current keep probability to the model's forward; the
    model had to implement the skipping. Removed in DeepSpeed 0.19.8.
    """

    enabled: bool = option(
        False,
        description="Turns the layer-drop schedule on; the key must be present whenever the block is.",
    )
    theta: float | None = option(
        None,
        unit="ratio",
        description="Keep probability the schedule decays towards; required when enabled.",
        example=0.5,
    )
    gamma: float | None = option(
        None,
        description="Per-step decay rate of the keep probability; required when enabled.",
        example=0.001,
    )


class ProgressiveLayerDropOptions(Section):
    """Top-level field contributed by this module."""

    progressive_layer_drop: ProgressiveLayerDropConfig | None = option(
        None,
        since="0.3.1",
        removed_in="0.19.8",
        removal_note="Progressive Layer Dropping was dropped in DeepSpeed 0.19.8 without a replacement; delete "
        "this block.",
    )
