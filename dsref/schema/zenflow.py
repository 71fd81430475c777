"""`zero_optimization.zenflow`: ZenFlow, stall-free optimizer offload that updates important gradients first."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._base import StrictSection
from ._meta import option
from ._types import IntNotStr


class ZenFlowConfig(StrictSection):
    """ZenFlow keeps the most important gradient columns on the GPU and applies them every step, while the rest are
    accumulated and applied asynchronously on the CPU, so offloaded training stalls less. It works with ZeRO stages 1,
    2 and 3 together with optimizer offload.
    """

    ds_class = "deepspeed.runtime.zenflow.zenflow_config.ZenFlowConfig"

    topk_ratio: float = option(
        0.1,
        gt=0.0,
        lt=1.0,
        unit="ratio",
        description="Share of gradient columns treated as important and updated on the GPU every step.",
    )
    select_strategy: Literal["auto", "step", "epoch"] = option(
        "auto",
        description="Whether the important columns are chosen again every few steps, every few epochs, or "
        "automatically.",
    )
    select_interval: IntNotStr | Literal["auto"] = option(
        "auto", description="How often the important columns are chosen again, in steps or epochs, or auto."
    )
    update_interval: Annotated[IntNotStr, Field(ge=1)] | Literal["auto"] = option(
        "auto",
        description="How often, in steps, the accumulated unimportant gradients are applied; at least 1, or auto.",
    )
    overlap_step: bool = option(
        False, description="Runs the CPU optimizer step in parallel with the next forward and backward pass."
    )
    offload: bool = option(False, description="Offloads the optimizer states of the unimportant columns to the CPU.")
    auto_ratio: float = option(
        0.99,
        ge=0.0,
        le=1.0,
        unit="ratio",
        description="Threshold the auto strategy uses to decide when to apply the accumulated gradients.",
    )
    full_warm_up_rounds: int = option(
        0,
        unit="steps",
        description="Number of first steps in which all gradients are applied, before selection starts.",
    )
    pt_reserved_cores_perc: float = option(
        0.5,
        ge=0.0,
        le=1.0,
        since="0.17.6",
        unit="ratio",
        description="Share of CPU cores left to PyTorch threads; ZenFlow's optimizer workers use the rest.",
    )
    steps_per_epoch: int | None = option(
        None,
        description="Set by DeepSpeed at run time from the data loader; leave it out of the config.",
    )
