"""`zero_optimization`: the ZeRO redundancy optimizer, stages 0 to 3, and its tuning knobs."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from pydantic import field_validator, model_validator

from ._base import Section, StrictSection
from ._meta import HfAuto, option
from ._types import StrOrStrList
from .offload import OffloadOptimizerConfig, OffloadParamConfig
from .zenflow import ZenFlowConfig

_MOE_LEAF_CLASSES = [
    "transformers.models.mixtral.modeling_mixtral.MixtralSparseMoeBlock",
    "transformers.models.qwen2_moe.modeling_qwen2_moe.Qwen2MoeSparseMoeBlock",
    "transformers.models.qwen3_moe.modeling_qwen3_moe.Qwen3MoeSparseMoeBlock",
]


class ZeroStage(IntEnum):
    """What each ZeRO stage partitions across the data-parallel ranks."""

    disabled = 0
    optimizer_states = 1
    gradients = 2
    weights = 3


class LeafModuleConfig(StrictSection):
    """Modules that ZeRO stage 3 treats as leaves: their parameters are fetched all at once when the module runs,
    instead of through hooks on each submodule. This suits mixture-of-experts blocks, where only some experts run for
    a given batch and per-expert hooks would hang or slow down. Each key takes a list of strings or a single string.
    """

    ds_class = "deepspeed.runtime.zero.leaf_module_config.DeepSpeedZeroLeafModuleConfig"

    classes: StrOrStrList = option(
        default_factory=lambda: list(_MOE_LEAF_CLASSES),
        description="Fully qualified class names whose instances become leaf modules; by default the MoE blocks of "
        "Mixtral, Qwen2-MoE and Qwen3-MoE.",
    )
    names: StrOrStrList = option(
        default_factory=list, description="Module names, as named_modules() reports them, to treat as leaves."
    )
    name_suffixes: StrOrStrList = option(
        default_factory=list, description="Module name endings; every module whose name ends so becomes a leaf."
    )


_STAGE_DOCS = (
    (0, "ZeRO off: every rank keeps full parameters, gradients and optimizer states (plain data parallelism)."),
    (1, "Partitions the optimizer states across data-parallel ranks."),
    (2, "Partitions the optimizer states and the gradients."),
    (3, "Partitions optimizer states, gradients and the parameters themselves; parameters are gathered per layer."),
)


class ZeroConfig(StrictSection):
    """ZeRO removes the memory redundancy of data parallelism: instead of every GPU holding a full copy of the
    optimizer states, gradients and parameters, each GPU keeps a slice and the slices are exchanged when needed.
    `stage` chooses how much is partitioned; the other keys size the communication buckets, control overlap with
    computation, offload to CPU or NVMe (`offload_optimizer`, `offload_param`) and turn on ZeRO++ (hpZ, qwZ, qgZ).
    Many keys apply only to some stages; at other stages DeepSpeed accepts them and ignores them.
    """

    ds_class = "deepspeed.runtime.zero.config.DeepSpeedZeroConfig"

    stage: ZeroStage = option(
        ZeroStage.disabled,
        since="0.2.0",
        enum_docs=_STAGE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="zero_stage of the accelerate config"),
        description="How much of the model state ZeRO partitions across data-parallel GPUs: 0 nothing, 1 optimizer "
        "states, 2 also gradients, 3 also parameters. Higher stages save more memory and communicate more.",
        example=2,
    )
    contiguous_gradients: bool = option(
        True,
        since="0.2.0",
        stages=(1, 2, 3),
        description="Copies gradients into one contiguous buffer as they are produced, which avoids memory "
        "fragmentation during the backward pass.",
    )
    reduce_scatter: bool = option(
        True,
        stages=(1, 2, 3),
        description="Averages gradients with reduce or reduce-scatter instead of all-reduce, so each rank receives "
        "only its own partition.",
    )
    reduce_bucket_size: int = option(
        500_000_000,
        gt=0,
        stages=(1, 2, 3),
        unit="elements",
        hf_auto=HfAuto(by=("transformers", "accelerate"), source="hidden_size * hidden_size"),
        description="Number of gradient elements reduced in one collective. Larger buckets use bandwidth better and "
        "cost more temporary memory (elements, not bytes: 5e8 fp16 elements take 1 GB).",
        example=500_000_000,
    )
    use_multi_rank_bucket_allreduce: bool = option(
        True,
        since="0.12.4",
        stages=(1, 2),
        description="Merges the reduce buckets of different ranks into one all-reduce, which helps small models "
        "spread over many GPUs.",
    )
    allgather_partitions: bool = option(
        True,
        since="0.2.0",
        stages=(1, 2),
        parsed_unused=True,
        description="Chooses all-gather over a series of broadcasts to collect updated parameters after each "
        "step. DeepSpeed 0.19.8 reads the key but no code uses it.",
    )
    allgather_bucket_size: int = option(
        500_000_000,
        ge=0,
        stages=(0, 1, 2),
        unit="elements",
        description="Bucket size for gathering the updated parameters after the optimizer step at stages 1-2. With "
        "PyTorch 2 DeepSpeed gathers each parameter group in one call and only checks that this value is even.",
        example=500_000_000,
    )
    overlap_comm: bool | None = option(
        None,
        since="0.2.0",
        stages=(1, 2, 3),
        docs_default=False,
        default_note="Unset means true at stage 3 and false at stages 0-2.",
        description="Overlaps gradient reduction with the backward pass. Usually faster; at stages 1-2 it keeps a "
        "second reduce bucket (reduce_bucket_size elements) alive while the first is being reduced.",
        example=True,
    )
    compute_grad_norm: bool = option(
        True,
        since="0.19.7",
        stages=(1, 2),
        description="Computes the global gradient norm at each step. False saves time but is accepted only at stages "
        "1-2, and only works with gradient_clipping 0 and without optimizer offload or ZenFlow.",
    )
    load_from_fp32_weights: bool = option(
        True,
        since="0.3.0",
        stages=(1, 2, 3),
        description="When loading a checkpoint, rebuilds the fp32 master weights from the saved fp32 copies (exact) "
        "instead of from the 16-bit model weights (lossy).",
    )
    elastic_checkpoint: bool = option(
        False,
        since="0.3.3",
        stages=(1, 2, 3),
        description="Legacy checkpoint layout that can be loaded on a different number of GPUs; prefer universal "
        "checkpoints (checkpoint.load_universal). Ignored with a warning at stage 3.",
    )
    offload_param: OffloadParamConfig | None = option(
        None,
        since="0.3.15",
        stages=(3,),
        description="Offloads parameters to CPU or NVMe (ZeRO-Infinity). Only stage 3 reads it.",
    )
    offload_optimizer: OffloadOptimizerConfig | None = option(
        None,
        since="0.3.15",
        stages=(1, 2, 3),
        description="Offloads optimizer states and the optimizer step to CPU or NVMe (ZeRO-Offload).",
    )
    zenflow: ZenFlowConfig | None = option(
        None,
        since="0.17.5",
        stages=(1, 2, 3),
        description="Turns on ZenFlow, which updates important gradients on the GPU and the rest asynchronously on "
        "the CPU.",
    )
    sub_group_size: int = option(
        1_000_000_000,
        ge=0,
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="Parameters are stepped by the optimizer in groups of this many elements; lower it when "
        "offloaded optimizer steps run out of CPU or GPU memory.",
    )
    cpu_offload_param: bool | None = option(
        None,
        since="0.7.0",
        stages=(3,),
        deprecated=True,
        use_instead="zero_optimization.offload_param",
        description="Old switch for parameter offload to CPU: true means offload_param with device cpu. Cannot be "
        "combined with offload_param.",
    )
    cpu_offload_use_pin_memory: bool | None = option(
        None,
        since="0.3.12",
        deprecated=True,
        use_instead="zero_optimization.offload_optimizer.pin_memory",
        parsed_unused=True,
        description="Old pinned-memory switch for CPU offload; DeepSpeed only warns and ignores the value. Use "
        "pin_memory inside the offload sections.",
    )
    cpu_offload: bool | None = option(
        None,
        since="0.3.0",
        stages=(1, 2, 3),
        deprecated=True,
        use_instead="zero_optimization.offload_optimizer",
        description="Old switch for optimizer offload to CPU: true means offload_optimizer with device cpu. Cannot "
        "be combined with offload_optimizer.",
    )
    prefetch_bucket_size: int = option(
        50_000_000,
        ge=0,
        alias="stage3_prefetch_bucket_size",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        docs_default=500_000_000,
        hf_auto=HfAuto(by=("transformers", "accelerate"), source="0.9 * hidden_size * hidden_size"),
        description="Number of parameter elements fetched ahead of the layer that needs them. Larger hides more "
        "communication and costs more memory.",
        example=50_000_000,
    )
    param_persistence_threshold: int = option(
        100_000,
        ge=0,
        alias="stage3_param_persistence_threshold",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        hf_auto=HfAuto(by=("transformers", "accelerate"), source="10 * hidden_size"),
        description="Parameters smaller than this stay whole on every GPU instead of being partitioned, which saves "
        "many small collectives at some memory cost.",
    )
    model_persistence_threshold: int = option(
        9_223_372_036_854_775_807,
        ge=0,
        alias="stage3_model_persistence_threshold",
        since="0.7.0",
        stages=(3,),
        unit="elements",
        description="Upper limit on the total elements kept whole because of param_persistence_threshold; the "
        "default (sys.maxsize) means no limit.",
    )
    max_live_parameters: int = option(
        1_000_000_000,
        ge=0,
        alias="stage3_max_live_parameters",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="How many gathered parameter elements each GPU may hold before it releases some. Lower saves "
        "memory and costs more communication.",
    )
    max_reuse_distance: int = option(
        1_000_000_000,
        ge=0,
        alias="stage3_max_reuse_distance",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="A gathered parameter is kept if it will be used again within this many elements of "
        "computation, instead of being released and fetched again.",
    )
    gather_16bit_weights_on_model_save: bool = option(
        False,
        alias="stage3_gather_16bit_weights_on_model_save",
        since="0.6.0",
        stages=(3,),
        deprecated_aliases=("stage3_gather_fp16_weights_on_model_save",),
        hf_auto=HfAuto(by=("accelerate",), source="zero3_save_16bit_model of the accelerate config"),
        description="Gathers the partitioned 16-bit weights onto one rank when the model is saved, so the saved "
        "file is a complete model. Needed to save a usable model with Hugging Face at stage 3.",
        example=True,
    )
    module_granularity_threshold: int = option(
        0,
        alias="stage3_module_granularity_threshold",
        since="0.16.0",
        stages=(3,),
        description="Modules with fewer parameters per descendant than this are fetched as one unit, which cuts hook "
        "overhead for models with many tiny layers; 0 turns it off.",
    )
    use_all_reduce_for_fetch_params: bool = option(
        False,
        alias="stage3_use_all_reduce_for_fetch_params",
        since="0.14.3",
        stages=(3,),
        description="Fetches module parameters with all-reduce instead of all-gather, which saves host-side "
        "copying and slicing.",
    )
    allgather_sequential: bool = option(
        False,
        alias="stage3_allgather_sequential",
        since="0.18.5",
        stages=(3,),
        description="Gathers parameters one by one instead of in buckets, avoiding large temporary buffers; useful "
        "under memory pressure. DeepSpeed then sets the prefetch bucket size to 1.",
    )
    ignore_unused_parameters: bool = option(
        True,
        since="0.4.0",
        stages=(1, 2),
        description="Carries on when some parameters get no gradient (normal in dynamic networks); false stops with "
        "an error instead.",
    )
    legacy_stage1: bool = option(
        False,
        since="0.4.0",
        stages=(1,),
        description="Asks for the old ZeRO stage 1 implementation, which no longer exists: true makes engine "
        "start-up fail.",
    )
    round_robin_gradients: bool = option(
        False,
        since="0.4.4",
        stages=(1, 2),
        description="With CPU offload at stages 1-2, spreads the copying of gradients to CPU over the ranks in finer "
        "pieces; pays off with many accumulation steps or many GPUs.",
    )
    parameter_alignment: bool = option(
        False,
        since="0.19.7",
        stages=(1, 2),
        description="Pads the flat buffers of stages 1-2 so that every parameter starts on a 16-byte boundary, at "
        "the cost of some memory.",
    )
    zero_hpz_partition_size: int = option(
        1,
        ge=0,
        since="0.10.0",
        stages=(3,),
        unit="ranks",
        description="ZeRO++ hierarchical partitioning (hpZ): keeps a secondary copy of the parameters within groups "
        "of this many GPUs (usually one node) so gathers stay on the fast link; 1 turns it off.",
        example=8,
    )
    zero_quantized_weights: bool = option(
        False,
        since="0.10.0",
        stages=(3,),
        description="ZeRO++ qwZ: quantizes weights to int8 for the all-gather, halving its traffic.",
    )
    zero_quantized_nontrainable_weights: bool = option(
        False,
        since="0.10.2",
        stages=(3,),
        description="Stores frozen (non-trainable) weights quantized, saving memory and traffic; useful for LoRA.",
    )
    zero_quantized_gradients: bool = option(
        False,
        since="0.10.0",
        stages=(3,),
        description="ZeRO++ qgZ: quantizes gradients for an all-to-all reduction, cutting gradient traffic.",
    )
    memory_efficient_linear: bool = option(
        True,
        since="0.9.0",
        stages=(3,),
        description="Uses DeepSpeed's linear layer that does not keep gathered weights alive for the backward pass.",
    )
    pipeline_loading_checkpoint: bool = option(
        False,
        since="0.10.1",
        stages=(3,),
        description="Loads the checkpoint of a pipeline-parallel module in pipeline mode.",
    )
    override_module_apply: bool = option(
        True,
        since="0.10.1",
        stages=(3,),
        description="Lets zero.Init patch nn.Module.apply so that functions applied to a partitioned model see "
        "whole parameters.",
    )
    log_trace_cache_warnings: bool = option(
        False,
        since="0.16.4",
        stages=(3,),
        description="Logs warnings from the parameter-fetch trace cache, such as when the recorded order is "
        "invalidated.",
    )
    enable_sanity_checks: bool = option(
        False, since="0.17.6", stages=(3,), description="Runs extra internal consistency checks; for debugging."
    )
    save_muon_momentum_buffer_in_memory: bool = option(
        False,
        since="0.18.9",
        stages=(3,),
        description="With Muon and NVMe offload, keeps Muon's momentum buffer in memory instead of swapping it.",
    )
    leaf_module: LeafModuleConfig | None = option(
        default_factory=LeafModuleConfig,
        since="0.18.0",
        default_note="null is read as an empty section, so the default classes apply.",
    )

    @field_validator("leaf_module", mode="before")
    @classmethod
    def _null_leaf_module(cls, value: Any) -> Any:
        return {} if value is None else value

    zeropp_loco_param: dict[str, Any] | None = option(
        None,
        since="0.16.2",
        removed_in="0.19.8",
        removal_note="LoCo error feedback for ZeRO++ was removed; delete the key and qgZ runs without it.",
        use_instead="zero_optimization.zero_quantized_gradients",
        description="Settings of LoCo, an error-feedback scheme for ZeRO++ quantized gradients.",
    )
    mics_shard_size: int = option(
        -1,
        since="0.9.2",
        stages=(3,),
        removed_in="0.19.7",
        removal_note="MiCS sharding was removed; use plain stage 3, or zero_hpz_partition_size for node-local gathers.",
        use_instead="zero_optimization.zero_hpz_partition_size",
        description="MiCS: number of GPUs in a parameter shard group; -1 disabled it.",
    )
    mics_hierarchical_params_gather: bool = option(
        False,
        since="0.9.2",
        stages=(3,),
        removed_in="0.19.7",
        removal_note="MiCS sharding was removed along with this option.",
        description="MiCS: gathered parameters hierarchically, within and then across nodes.",
    )
    grad_hooks: bool | None = option(
        None,
        docs_only=True,
        docs_default=True,
        description="Listed in DeepSpeed's documentation, but DeepSpeed 0.19.8 rejects the key; remove it.",
    )


class ZeroOptions(Section):
    """Top-level fields contributed by this module."""

    zero_optimization: ZeroConfig = option(
        default_factory=ZeroConfig,
        deprecated_forms=("bool",),
        description="ZeRO settings. The old form true (stage 1) or false (stage 0) still works but is deprecated.",
    )
    allgather_size: int = option(
        500_000_000,
        enforced=True,
        ge=0,
        unit="elements",
        deprecated=True,
        use_instead="zero_optimization.allgather_bucket_size",
        description="Old all-gather bucket size, read only when zero_optimization is written as true.",
    )

    @model_validator(mode="before")
    @classmethod
    def _legacy_bool(cls, data: Any) -> Any:
        # DeepSpeed still maps `"zero_optimization": true/false` to stage 1/0, taking
        # the bucket size from the top-level `allgather_size`.
        if isinstance(data, dict) and isinstance(data.get("zero_optimization"), bool):
            data = dict(data)
            if data["zero_optimization"]:
                bucket = data.get("allgather_size", 500_000_000)
                data["zero_optimization"] = {"stage": 1, "allgather_bucket_size": bucket}
            else:
                data["zero_optimization"] = {"stage": 0}
        return data
