"""`zero_optimization.zenflow`: ZenFlow, stall-free optimizer offload that updates important gradients first."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ._base import StrictSection
from ._meta import option
from ._types import IntNotStr


class ZenFlowConfig(StrictSection):
    """ZenFlow makes optimizer offload stall the GPU less. In each weight matrix it picks the gradient columns with the
    largest magnitude (the top `topk_ratio`) and updates them on the GPU at every step, while the gradients of the other
    columns are accumulated and applied by the CPU optimizer every `update_interval` steps, optionally in parallel with
    training (`overlap_step`). It is used together with `offload_optimizer` (stages 1-2 refuse to start without it),
    works at ZeRO stages 1, 2 and 3, needs PyTorch 2.1 or later, and takes over `gradient_accumulation_steps`.
    """

    ds_class = "deepspeed.runtime.zenflow.zenflow_config.ZenFlowConfig"

    topk_ratio: float = option(
        0.1,
        gt=0.0,
        lt=1.0,
        unit="ratio",
        description="Share of each weight matrix's gradient columns, those with the largest gradient magnitude, that "
        "count as important and are updated on the GPU at every step; at least one column per matrix is chosen. "
        "Higher values track the full update more closely but cost more GPU time and memory for the selective "
        "optimizer.",
        example=0.05,
    )
    select_strategy: Literal["auto", "step", "epoch"] = option(
        "auto",
        description="How the re-selection of important columns is scheduled: step re-chooses them every "
        "`select_interval` steps, epoch every `select_interval` epochs, and auto means epoch with an interval of 1. "
        "Epoch-based selection takes the epoch length from the data loader of the training data passed to "
        "deepspeed.initialize; without one, columns are chosen only once, when selection starts after "
        "`full_warm_up_rounds`.",
        example="step",
    )
    select_interval: IntNotStr | Literal["auto"] = option(
        "auto",
        description="The re-selection period for `select_strategy`: a number of steps with step, a number of epochs "
        "with epoch. It must stay auto when `select_strategy` is auto (a number is an error there) and be a number "
        "otherwise; with a numeric `update_interval` it must be at least that many steps.",
    )
    update_interval: Annotated[IntNotStr, Field(ge=1)] | Literal["auto"] = option(
        "auto",
        description="How many steps the gradients of the unimportant columns accumulate before the CPU optimizer "
        "applies them; auto lets ZenFlow decide from the gradients (see `auto_ratio`). Longer intervals mean fewer "
        "CPU steps and less stalling but staler updates for those columns; DeepSpeed uses this value in place of "
        "`gradient_accumulation_steps`.",
    )
    overlap_step: bool = option(
        False,
        description="Runs the CPU optimizer step for the accumulated gradients in a separate worker process while "
        "the GPU carries on with the next steps, instead of waiting for it. Hides the CPU step time, at the cost of "
        "those updates landing one interval later; `pt_reserved_cores_perc` splits the CPU cores between training "
        "and the worker.",
    )
    offload: bool = option(
        False,
        description="Keeps the optimizer states (Adam moments) of the important columns in CPU memory instead of GPU "
        "memory, saving GPU memory at some speed cost. Requires `overlap_comm` true.",
    )
    auto_ratio: float = option(
        0.99,
        ge=0.0,
        le=1.0,
        unit="ratio",
        description="With `update_interval` auto, the share of weight matrices whose accumulated unimportant "
        "gradients must have grown past their important-gradient level before ZenFlow triggers a CPU update. Lower "
        "values update more often (fresher weights, more CPU work); higher values update less often.",
        example=0.95,
    )
    full_warm_up_rounds: int = option(
        0,
        unit="steps",
        description="Number of first training steps in which ZenFlow selects nothing and the whole model is updated "
        "by the CPU optimizer at every step. A few warm-up steps let the gradients settle before column selection "
        "starts; 0 starts selecting at once.",
        example=10,
    )
    pt_reserved_cores_perc: float = option(
        0.5,
        requires=(("zero_optimization.zenflow.overlap_step", True),),
        ge=0.0,
        le=1.0,
        since="0.17.6",
        unit="ratio",
        description="With `overlap_step`, the share of each rank's CPU cores reserved for the PyTorch training "
        "process; ZenFlow's optimizer worker process is pinned to the rest. Raise it if data loading or the training "
        "loop starves, lower it if the CPU optimizer step is the bottleneck.",
        example=0.25,
    )
    steps_per_epoch: int | None = option(
        None,
        no_example="filled_in",
        description="Filled in by DeepSpeed with the length of the training data loader, to turn epoch-based "
        "selection into steps; leave it out of the config.",
    )
