"""`pipeline`: settings of DeepSpeed's pipeline-parallel engine."""

from __future__ import annotations

from typing import Literal

from ._base import PassthroughSection, Section
from ._meta import option


class PipelineConfig(PassthroughSection):
    """Options of the pipeline-parallel engine (`PipelineModule` / `PipelineEngine`).

    They matter only when the model passed to `deepspeed.initialize` is a `PipelineModule`; that engine supports ZeRO
    stage 0 and 1 only. DeepSpeed merges this dict over its built-in defaults, so unknown keys are kept but nothing
    reads them. The number of stages and the partitioning come from the `PipelineModule` arguments, not from here.
    """

    stages: int | Literal["auto"] = option(
        "auto",
        parsed_unused=True,
        description="Number of pipeline stages; parsed but ignored, since the `num_stages` (or `topology`) argument "
        "of `PipelineModule` decides.",
    )
    partition: str = option(
        "best",
        parsed_unused=True,
        description="How layers are split among stages; parsed but ignored, since the `partition_method` argument of "
        "`PipelineModule` decides (parameters by default, uniform, or type:<regex>).",
    )
    seed_layers: bool = option(
        False,
        parsed_unused=True,
        description="Whether each layer gets its own random seed when built; parsed but ignored, since the "
        "`seed_layers` argument of `PipelineModule` decides.",
    )
    activation_checkpoint_interval: int = option(
        0,
        unit="layers",
        description="Checkpoints activations in blocks of this many consecutive layers of each stage: only a block's "
        "input is kept, and the block is recomputed during backward. A value above 0 overrides the "
        "`activation_checkpoint_interval` argument of `PipelineModule`; 0 keeps the module's own setting, which is "
        "off unless set there. 1 is the usual choice for transformer layers, while larger values keep fewer inputs "
        "but need more memory while a block is recomputed. By default blocks without parameters are not checkpointed, "
        "and the `activation_checkpointing` settings apply only after `deepspeed.checkpointing.configure`.",
        example=1,
    )
    pipe_partitioned: bool = option(
        True,
        strict=True,
        since="0.12.3",
        description="With tensor parallelism inside the pipeline (model axis of the topology above 1), each "
        "tensor-parallel rank sends only its share of the activation passed to the next stage, which rebuilds it with "
        "an all-gather. This cuts pipeline traffic and the memory held for backward by the tensor-parallel degree; "
        "only the first output tensor of a stage may require grad. Must be a JSON boolean, and has no effect without "
        "tensor parallelism.",
    )
    grad_partitioned: bool = option(
        True,
        strict=True,
        since="0.12.3",
        description="With tensor parallelism inside the pipeline, each tensor-parallel rank sends only its share of "
        "the gradient passed back to the previous stage, which rebuilds it with an all-gather. This cuts backward "
        "pipeline traffic by the tensor-parallel degree; it is normally kept on together with `pipe_partitioned`. "
        "Must be a JSON boolean, and has no effect without tensor parallelism.",
    )
    use_reentrant: bool | None = option(
        True,
        requires=(("pipeline.activation_checkpoint_interval", 1),),
        since="0.10.3",
        description="Chooses the activation-checkpoint function the pipeline uses: true keeps DeepSpeed's reentrant "
        "`checkpoint`, false switches to its non-reentrant variant built on torch's saved-tensor hooks. The "
        "non-reentrant one also works when no input of a block requires grad, such as the token ids entering an "
        "embedding layer, so such blocks can be checkpointed too. It matters only when "
        "`activation_checkpoint_interval` is on; null counts as true.",
    )


class PipelineOptions(Section):
    """Top-level field contributed by this module."""

    pipeline: PipelineConfig = option(
        default_factory=PipelineConfig,
        since="0.3.0",
    )
