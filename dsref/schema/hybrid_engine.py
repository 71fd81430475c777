"""`hybrid_engine`: the RLHF engine that switches one model between training and fast generation."""

from __future__ import annotations

from ._base import Section, StrictSection
from ._meta import option


class HybridEngineConfig(StrictSection):
    """Lets one DeepSpeed engine both train the model and generate text with DeepSpeed's inference kernels,
    as in DeepSpeed-Chat's RLHF stage.

    For generation the engine swaps in inference containers (gathering ZeRO-3 parameters as needed) and
    switches back for training. Only takes effect with `enabled` true.
    """

    ds_class = "deepspeed.runtime.config.HybridEngineConfig"

    enabled: bool = option(
        False,
        description="Build a hybrid engine that can both train the model and generate text with DeepSpeed's inference "
        "kernels (`engine.generate()`), as the actor model does in RLHF; false builds a plain training engine. "
        "Ignored for pipeline-parallel (PipelineModule) models.",
        example=True,
    )
    max_out_tokens: int = option(
        512,
        gt=0,
        unit="tokens",
        description="Token capacity the inference workspace (KV cache) is sized for, prompt plus generated "
        "tokens; must be > 0 (checked since 0.19.7).",
        example=1024,
    )
    inference_tp_size: int = option(
        1,
        requires=(("zero_optimization.stage", 3),),
        unit="ranks",
        description="Tensor-parallel degree used during generation: consecutive ranks form groups of this size that "
        "split each layer between them and generate for the whole group's prompts together. It takes effect with "
        "ZeRO-3 and `pin_parameters`, where it cuts the memory each rank needs for the gathered weights; 1 lets every "
        "rank generate on its own.",
    )
    release_inference_cache: bool = option(
        False,
        description="Give the inference workspace back after each generation and take it again for the next, "
        "freeing memory for training at some cost in speed.",
    )
    pin_parameters: bool = option(
        True,
        requires=(("zero_optimization.stage", 3),),
        description="With ZeRO-3, gather all layers' parameters once for the whole generation instead of layer "
        "by layer; faster but needs the memory for the full model.",
    )
    tp_gather_partition_size: int = option(
        8,
        unit="layers",
        description="With ZeRO-3, pin_parameters and inference_tp_size > 1, how many layers are gathered and "
        "re-split for inference at a time.",
    )
    enable_cuda_graph: bool = option(
        False,
        since="0.19.6",
        description="Replay the decode steps of generation as CUDA graphs to cut launch overhead; ignored with a "
        "warning under ZeRO-3, release_inference_cache or inference_tp_size > 1.",
    )


class HybridEngineOptions(Section):
    """Top-level field contributed by this module."""

    hybrid_engine: HybridEngineConfig = option(
        default_factory=HybridEngineConfig,
        since="0.9.0",
    )
