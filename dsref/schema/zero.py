"""`zero_optimization`: the ZeRO redundancy optimizer, stages 0 to 3, and its tuning knobs."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from pydantic import field_validator, model_validator

from ._base import Section, StrictSection
from ._meta import HfAuto, HfChange, option
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
    """Modules that ZeRO stage 3 treats as leaves: DeepSpeed puts no hooks on their submodules and gathers all their
    parameters at once when the module runs. This suits mixture-of-experts blocks, where only some experts run for a
    given batch, so per-expert hooks would see a changing module order and could hang or slow down. A module matching
    any of the three keys becomes a leaf; each key takes a list of strings or a single string, and entries that match
    nothing are not an error. Other stages ignore the section.
    """

    ds_class = "deepspeed.runtime.zero.leaf_module_config.DeepSpeedZeroLeafModuleConfig"

    classes: StrOrStrList = option(
        default_factory=lambda: list(_MOE_LEAF_CLASSES),
        example=["MixtralSparseMoeBlock"],
        description="Class names whose instances become leaves, either fully qualified (module path plus class name) "
        "or just the class name; subclasses do not match. Setting the key replaces the default list (the MoE blocks "
        "of Mixtral, Qwen2-MoE and Qwen3-MoE), so repeat those if you still want them; an empty list turns the "
        "defaults off.",
    )
    names: StrOrStrList = option(
        default_factory=list,
        example=["model.layers.0.mlp"],
        description="Exact module names, as model.named_modules() reports them for the model given to "
        "deepspeed.initialize (for example model.layers.0.mlp), whose modules become leaves. Names that match no "
        "module only log a warning.",
    )
    name_suffixes: StrOrStrList = option(
        default_factory=list,
        example=[".experts"],
        description="Name endings: every module whose named_modules() name ends with one of these strings becomes a "
        "leaf, for example .experts to catch the expert block of every layer. The match is plain string comparison, "
        "so include the leading dot to avoid matching longer names such as shared_experts; suffixes that match "
        "nothing only log a warning.",
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
    A common path is stage 2 while the 16-bit model fits on one GPU, stage 3 once it does not, and offload on top when
    memory is still short. Many keys apply only to some stages; at other stages DeepSpeed accepts them and ignores
    them.
    """

    ds_class = "deepspeed.runtime.zero.config.DeepSpeedZeroConfig"

    stage: ZeroStage = option(
        ZeroStage.disabled,
        since="0.2.0",
        enum_docs=_STAGE_DOCS,
        hf_auto=HfAuto(by=("accelerate",), source="zero_stage of the accelerate config"),
        description="How much of the training state ZeRO partitions across the data-parallel GPUs: 0 nothing, 1 the "
        "optimizer states, 2 also the gradients, 3 also the parameters. Higher stages save more memory per GPU; "
        "stage 3 also has to gather parameters layer by layer in every forward and backward pass, so it communicates "
        "the most and is usually the slowest, but it is the only stage that splits the parameters themselves, which "
        "a model whose 16-bit weights do not fit on one GPU needs. Offload (`offload_optimizer`, `offload_param`) "
        "comes on top of a stage.",
        example=2,
    )
    contiguous_gradients: bool = option(
        True,
        since="0.2.0",
        stages=(1, 2, 3),
        description="Copies each gradient, as soon as it is produced, into a preallocated contiguous buffer of "
        "`reduce_bucket_size` elements, which avoids memory fragmentation in the backward pass and lets a bucket be "
        "reduced in one call. Leave it on: at stages 1-2 optimizer offload turns it on regardless and MoE models at "
        "stage 2 require it, and the choice made by `reduce_scatter` only applies with it. Turn it off only to save "
        "that buffer's memory.",
    )
    reduce_scatter: bool = option(
        True,
        stages=(1, 2, 3),
        description="Reduces each gradient bucket part by part, toward the rank that owns each part, instead of one "
        "plain all-reduce of the whole bucket; leave it on. It applies only with `contiguous_gradients`, and at "
        "stages 1-2 `use_multi_rank_bucket_allreduce` then picks the collective. When on, stages 2 and 3 require "
        "`gradient_predivide_factor` 1.0 and `prescale_gradients` false; MoE models at stages 1-2 and "
        "`zero_quantized_gradients` need it on, and the Muon optimizer at stage 3 needs it off.",
    )
    reduce_bucket_size: int = option(
        500_000_000,
        gt=0,
        stages=(1, 2, 3),
        unit="elements",
        hf_auto=HfAuto(by=("transformers", "accelerate"), source="hidden_size * hidden_size"),
        description="How many gradient elements are collected into one bucket before they are reduced together; the "
        "unit is elements, not bytes. Larger buckets mean fewer, more efficient collectives but bigger buffers: with "
        "`contiguous_gradients` each bucket is preallocated on the GPU (twice at stages 1-2 with `overlap_comm`), "
        "and 5e8 elements of a 16-bit dtype take 0.9 GB. Lower it when GPU memory is short.",
        example=200_000_000,
    )
    use_multi_rank_bucket_allreduce: bool = option(
        True,
        since="0.12.4",
        stages=(1, 2),
        description="At stages 1-2, reduces the slices of a bucket that belong to different ranks with one "
        "all-reduce instead of a separate reduce toward each owner rank. One large all-reduce suits small models "
        "spread over many GPUs, where per-rank reduces would be many tiny messages; false issues one reduce per "
        "owner rank instead. It applies only when `reduce_scatter` and `contiguous_gradients` are on.",
    )
    allgather_partitions: bool = option(
        True,
        since="0.2.0",
        stages=(1, 2),
        parsed_unused=True,
        description="Meant to choose all-gather rather than a series of broadcasts for collecting the updated "
        "parameters after each step at stages 1-2. DeepSpeed 0.19.8 parses the key but no code reads it, so it can "
        "be left out.",
    )
    allgather_bucket_size: int = option(
        500_000_000,
        ge=0,
        stages=(0, 1, 2),
        unit="elements",
        description="Bucket size, in elements, for gathering the updated 16-bit parameters after each optimizer step "
        "at stages 1-2 (also used by DeepSpeed's bf16 optimizer). With any recent PyTorch, DeepSpeed gathers each "
        "parameter group in one all_gather_into_tensor call, so the value only has to be even; it matters only on "
        "old PyTorch versions without that call, and as the batch size of ZenFlow's GPU update when "
        "`zenflow.offload` is on.",
        example=200_000_000,
    )
    overlap_comm: bool | None = option(
        None,
        since="0.2.0",
        stages=(1, 2, 3),
        docs_default=False,
        default_note="Unset means true at stage 3 and false at stages 0-2.",
        description="Runs gradient reduction, and at stage 3 also parameter gathering, on separate streams so that "
        "communication overlaps with computation. Usually faster; at stages 1-2 with `contiguous_gradients` it "
        "allocates a second reduce buffer of `reduce_bucket_size` elements. Pipeline parallelism turns it off at "
        "stages 1-2, and `zenflow.offload` requires it.",
        example=True,
    )
    compute_grad_norm: bool = option(
        True,
        since="0.19.7",
        stages=(1, 2),
        requires=(("gradient_clipping", 0.0),),
        description="Computes the global gradient norm at every optimizer step at stages 1-2, which gradient "
        "clipping and get_global_grad_norm() rely on. False skips that work to save a little time; DeepSpeed rejects "
        "it at stages 0 and 3 and together with `gradient_clipping` above 0, optimizer offload, ZenFlow, or stage 1 "
        "with bf16 and an fp32 `data_types.grad_accum_dtype`.",
    )
    load_from_fp32_weights: bool = option(
        True,
        requires=(("zero_optimization.stage", 2),),
        since="0.3.0",
        stages=(1, 2, 3),
        description="When resuming from a ZeRO checkpoint, restores the fp32 master weights from the fp32 copies "
        "saved in it (exact) instead of re-creating them from the 16-bit model weights (which loses precision). Keep "
        "it true; false is for checkpoints whose fp32 copies are missing or should not be used. At stage 3 ordinary "
        "checkpoints always restore the saved fp32 copies, and the key matters only when loading universal "
        "checkpoints (`checkpoint.load_universal`).",
    )
    elastic_checkpoint: bool = option(
        False,
        since="0.3.3",
        stages=(1, 2, 3),
        description="Saves the stage 1-2 optimizer states in the old elastic layout, which was meant for resuming on "
        "a different number of GPUs. DeepSpeed 0.19.8 still refuses to load optimizer states saved at another "
        "data-parallel size, so use universal checkpoints (`checkpoint.load_universal`) for that. At stage 3 the "
        "config only warns, but saving or loading a checkpoint then fails.",
    )
    offload_param: OffloadParamConfig | None = option(
        None,
        since="0.3.15",
        stages=(3,),
        requires=(("zero_optimization.offload_param.device", "cpu"),),
        description="Moves stage-3 parameter partitions to CPU memory or NVMe (ZeRO-Infinity); lower stages ignore it.",
    )
    offload_optimizer: OffloadOptimizerConfig | None = option(
        None,
        since="0.3.15",
        stages=(1, 2, 3),
        requires=(("zero_optimization.offload_optimizer.device", "cpu"), ("optimizer.type", "AdamW")),
        description="Moves the optimizer states and the optimizer step to the CPU (ZeRO-Offload), or at stage 3 to "
        "NVMe; works at stages 1-3.",
    )
    zenflow: ZenFlowConfig | None = option(
        None,
        since="0.17.5",
        stages=(1, 2, 3),
        requires=(("zero_optimization.offload_optimizer.device", "cpu"), ("optimizer.type", "AdamW")),
        description="Turns on ZenFlow, which applies the most important gradients on the GPU at once and the rest "
        "later on the CPU, so that optimizer offload stalls the GPU less; it is used together with "
        "`offload_optimizer`.",
    )
    sub_group_size: int = option(
        1_000_000_000,
        example=100_000_000,
        ge=0,
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="At stage 3, the optimizer steps this rank's parameter partition in sub-groups of roughly this "
        "many elements, one after another. Smaller sub-groups lower the peak memory of the step and of the NVMe swap "
        "buffers (`offload_optimizer.buffer_count` buffers, each the size of the largest sub-group) but mean more, "
        "smaller optimizer calls; lower it when an offloaded step runs out of CPU or GPU memory. Partial offload "
        "(`offload_optimizer.ratio`) divides the work by sub-groups, so it needs several of them.",
    )
    cpu_offload_param: bool | None = option(
        None,
        since="0.7.0",
        stages=(3,),
        deprecated=True,
        use_instead="zero_optimization.offload_param",
        replacement=((True, '{"offload_param": {"device": "cpu"}}'), (False, "")),
        description="Deprecated switch for parameter offload: true is the same as `offload_param` with device cpu, "
        "false the same as leaving `offload_param` out. DeepSpeed warns when it is used, and setting it together "
        "with `offload_param` is an error.",
    )
    cpu_offload_use_pin_memory: bool | None = option(
        None,
        since="0.3.12",
        deprecated=True,
        use_instead="zero_optimization.offload_optimizer.pin_memory",
        replacement=((True, '{"offload_optimizer": {"pin_memory": true}}'), (False, "")),
        parsed_unused=True,
        description="Deprecated pinned-memory switch for CPU offload; DeepSpeed only warns and ignores the value. "
        "Set `pin_memory` inside `offload_optimizer` or `offload_param` instead.",
    )
    cpu_offload: bool | None = option(
        None,
        since="0.3.0",
        stages=(1, 2, 3),
        deprecated=True,
        use_instead="zero_optimization.offload_optimizer",
        replacement=((True, '{"offload_optimizer": {"device": "cpu"}}'), (False, "")),
        description="Deprecated switch for optimizer offload: true is the same as `offload_optimizer` with device "
        "cpu, false the same as leaving `offload_optimizer` out. DeepSpeed warns when it is used, and setting it "
        "together with `offload_optimizer` is an error.",
    )
    prefetch_bucket_size: int = option(
        50_000_000,
        ge=0,
        alias="stage3_prefetch_bucket_size",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        docs_default=500_000_000,
        hf_auto=HfAuto(
            by=("transformers", "accelerate"),
            source="int(0.9 * hidden_size * hidden_size)",
            changes=(
                # a hidden size of 4096 gives 15099494.4, and most others a fractional number too
                HfChange("transformers", "4.45.0", "0.9 * hidden_size * hidden_size, a float", example=15099494.4),
                HfChange("accelerate", "0.31.0", "0.9 * hidden_size * hidden_size, a float", example=15099494.4),
            ),
        ),
        description="At stage 3, how many parameter elements may be gathered ahead of the modules that will need "
        "them, so that gathering overlaps with computation. Larger hides more communication and costs more GPU "
        "memory; 0 turns prefetching off. Prefetching starts once the first step has recorded the module order, is "
        "limited by `stage3_max_live_parameters`, and `stage3_allgather_sequential` forces this value to 1.",
        example=100_000_000,
    )
    param_persistence_threshold: int = option(
        100_000,
        ge=0,
        alias="stage3_param_persistence_threshold",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        hf_auto=HfAuto(by=("transformers", "accelerate"), source="10 * hidden_size"),
        description="At stage 3, parameters with at most this many elements stay gathered on every GPU after first "
        "use instead of being released, so small tensors such as biases and norm weights need no gather in each "
        "pass. Raising it removes many small latency-bound collectives at the cost of GPU memory; "
        "`stage3_model_persistence_threshold` caps the total kept this way.",
        example=1_000_000,
    )
    model_persistence_threshold: int = option(
        9_223_372_036_854_775_807,
        ge=0,
        alias="stage3_model_persistence_threshold",
        since="0.7.0",
        stages=(3,),
        unit="elements",
        description="At stage 3, a limit on the total elements that `stage3_param_persistence_threshold` may keep "
        "gathered on each GPU; parameters that would push the total past it are partitioned as usual. The default "
        "(sys.maxsize) means no limit; set it when a model has so many small parameters that keeping them whole "
        "costs too much memory.",
    )
    max_live_parameters: int = option(
        1_000_000_000,
        ge=0,
        alias="stage3_max_live_parameters",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="At stage 3, prefetching stops while this many gathered parameter elements are already held on "
        "the GPU; the parameters of the module that is about to run are gathered regardless. Lower it to cap the GPU "
        "memory used by gathered parameters, at the cost of less overlap between communication and computation.",
        example=300_000_000,
    )
    max_reuse_distance: int = option(
        1_000_000_000,
        ge=0,
        alias="stage3_max_reuse_distance",
        since="0.3.12",
        stages=(3,),
        unit="elements",
        description="At stage 3, when a module finishes, its gathered parameters stay on the GPU if the recorded "
        "module order shows them used again within this many parameter elements of the upcoming modules, instead of "
        "being released and gathered again. Larger values avoid re-gathering (for example with activation "
        "checkpointing, which runs modules again in the backward pass) at the cost of memory; 0 always releases.",
        example=300_000_000,
    )
    gather_16bit_weights_on_model_save: bool = option(
        False,
        alias="stage3_gather_16bit_weights_on_model_save",
        since="0.6.0",
        stages=(3,),
        deprecated_aliases=("stage3_gather_fp16_weights_on_model_save",),
        hf_auto=HfAuto(by=("accelerate",), source="zero3_save_16bit_model of the accelerate config"),
        description="At stage 3, lets save_16bit_model() gather the partitioned 16-bit weights into one full state "
        "dict on rank 0 and write it; Hugging Face's Trainer relies on it to save a usable model. Without it "
        "save_16bit_model() writes nothing at stage 3, and the weights must be rebuilt from the ZeRO checkpoint with "
        "zero_to_fp32.py. Gathering takes time and needs CPU memory on rank 0 for the whole 16-bit model; other "
        "stages save full weights anyway.",
        example=True,
    )
    module_granularity_threshold: int = option(
        0,
        alias="stage3_module_granularity_threshold",
        since="0.16.0",
        stages=(3,),
        description="At stage 3, modules whose parameters per layer (all parameter elements in the module divided by "
        "the number of layers it contains) are at most this value become leaves, whose parameters are gathered in "
        "one go without hooks on each submodule. It helps models built from many tiny layers, where hook and "
        "per-layer gather overhead dominate; 0 turns it off. If the value is below the smallest granularity in the "
        "model, DeepSpeed logs that smallest value so you can pick a threshold.",
    )
    use_all_reduce_for_fetch_params: bool = option(
        False,
        alias="stage3_use_all_reduce_for_fetch_params",
        since="0.14.3",
        stages=(3,),
        description="At stage 3, gathers a module's parameters with one all-reduce over a zero-filled full-size "
        "buffer instead of an all-gather, which saves host-side concatenation and slicing. It usually moves more "
        "data over the network, so try it when host overhead rather than bandwidth limits the step; it is bypassed "
        "for quantized weights (`zero_quantized_weights`) and for gathers from the hpZ secondary copy.",
    )
    allgather_sequential: bool = option(
        False,
        alias="stage3_allgather_sequential",
        since="0.18.5",
        stages=(3,),
        description="At stage 3, gathers parameters one at a time with a separate all-gather each instead of packing "
        "them into one flat buffer per fetch, which avoids the copy into that buffer and its large temporary "
        "allocation. Use it under memory pressure; it costs more collective calls, and DeepSpeed then sets "
        "`stage3_prefetch_bucket_size` to 1, so there is almost no prefetching.",
    )
    ignore_unused_parameters: bool = option(
        True,
        since="0.4.0",
        stages=(1, 2),
        description="At stages 1-2 with optimizer offload, decides what happens when a trainable parameter got no "
        "gradient in a step (normal in models with conditional branches): true carries on, false stops with an error "
        "naming the cause. DeepSpeed 0.19.8 checks this nowhere else, so without offload and at stage 3 the key has "
        "no effect.",
    )
    legacy_stage1: bool = option(
        False,
        since="0.4.0",
        stages=(1,),
        no_example="refused",
        description="Asks for the ZeRO stage 1 implementation that DeepSpeed removed in 0.5.9; true makes engine "
        "start-up fail with an error. Leave it false or out.",
    )
    round_robin_gradients: bool = option(
        False,
        since="0.4.4",
        stages=(1, 2),
        description="At stages 1-2, interleaves the parameters round robin before the flat buffer is split among "
        "ranks, so each rank owns gradients from all over the model instead of one contiguous slice and all ranks "
        "copy their gradients to CPU in parallel during the backward pass. Meant for optimizer offload; it pays off "
        "most with many gradient accumulation steps or many GPUs.",
    )
    parameter_alignment: bool = option(
        False,
        since="0.19.7",
        stages=(1, 2),
        description="At stages 1-2, pads the flat parameter buffers so that every parameter starts on a 16-byte "
        "boundary. It costs some memory in the flat buffers and optimizer states, so turn it on only if a kernel or "
        "optimizer you use needs aligned parameter addresses. Optimizer states saved with one setting load only with "
        "the same setting.",
    )
    zero_hpz_partition_size: int = option(
        1,
        ge=0,
        since="0.10.0",
        stages=(3,),
        unit="ranks",
        description="ZeRO++ hpZ, stage 3: besides the normal partition across all ranks, keeps a second copy of the "
        "16-bit parameters partitioned within groups of this many consecutive ranks, so repeated gathers of the same "
        "parameters within a step (those of the backward pass) stay inside the group. Set it to the number of GPUs "
        "per node to keep those gathers on the fast intra-node link; it costs an extra 1/N of the 16-bit parameters "
        "per GPU (N being this value), the world size must be divisible by it, and 1 turns it off.",
        example=8,
    )
    zero_quantized_weights: bool = option(
        False,
        since="0.10.0",
        stages=(3,),
        description="ZeRO++ qwZ, stage 3: quantizes parameter partitions to int8 in blocks before the all-gather, "
        "halving gather traffic compared with 16-bit weights. The gathered weights used in forward and backward "
        "carry the quantization error while the stored weights stay exact; it needs DeepSpeed's CUDA quantizer "
        "kernels.",
    )
    zero_quantized_nontrainable_weights: bool = option(
        False,
        since="0.10.2",
        stages=(3,),
        description="Stage 3: stores the partitions of frozen parameters (requires_grad false) as int8, which cuts "
        "both their memory and their gather traffic; useful for LoRA and other adapter training where most weights "
        "are frozen. Unlike `zero_quantized_weights`, which quantizes only for communication, the stored copies "
        "permanently lose precision.",
    )
    zero_quantized_gradients: bool = option(
        False,
        since="0.10.0",
        stages=(3,),
        description="ZeRO++ qgZ, stage 3: replaces the gradient reduce-scatter with a two-step all-to-all (within "
        "each node, then across nodes) on gradients quantized to 4 bits, cutting inter-node gradient traffic. It "
        "acts only when training spans more than one node and needs `reduce_scatter` on; 1-D tensors and sizes not "
        "divisible by twice the world size fall back to a normal reduce-scatter.",
    )
    memory_efficient_linear: bool = option(
        True,
        since="0.9.0",
        stages=(3,),
        description="Stage 3: replaces torch.nn.functional.linear, for the whole process, with DeepSpeed's "
        "ZeRO-aware linear function, whose backward pass gathers a partitioned weight again by itself. Leave it on; "
        "turn it off only if it clashes with other code that patches linear.",
    )
    pipeline_loading_checkpoint: bool = option(
        False,
        since="0.10.1",
        stages=(3,),
        description="Stage 3: loads a ZeRO checkpoint one rank at a time on each node, each rank waiting for the "
        "previous one to finish and free its copy, which lowers the peak host memory of resuming. Loading takes "
        "longer; at other stages loading a checkpoint with this on fails. Despite the name it has nothing to do with "
        "pipeline parallelism.",
    )
    override_module_apply: bool = option(
        True,
        since="0.10.1",
        stages=(3,),
        description="Stage 3: while a model is built inside zero.Init, makes nn.Module.apply gather each module's "
        "partitioned parameters before the applied function runs and partition them again afterwards, so weight "
        "initialisation done through apply reaches the real weights. Turn it off only to speed up model construction "
        "when the model does not initialise weights through apply.",
    )
    log_trace_cache_warnings: bool = option(
        False,
        since="0.16.4",
        stages=(3,),
        description="Stage 3: logs on rank 0 why the recorded module order (the trace that drives prefetching) was "
        "invalidated, for example when a step runs modules in a different order. Turn it on when stage-3 training is "
        "slower than expected, since an invalidated trace stops prefetching until a new one has been recorded.",
    )
    enable_sanity_checks: bool = option(
        False,
        since="0.17.6",
        stages=(3,),
        description="Stage 3: runs extra consistency checks, such as that all ranks reduce the same parameters in "
        "the same order and that parameters gathered with GatheredParameters without a modifier rank were not "
        "changed. For debugging hangs or wrong results only; the checks add communication and slow training.",
    )
    save_muon_momentum_buffer_in_memory: bool = option(
        False,
        since="0.18.9",
        stages=(3,),
        description="With the Muon optimizer and NVMe optimizer offload at stage 3, keeps Muon's momentum buffer in "
        "memory (CPU memory when offloaded) instead of swapping it to NVMe with the other optimizer states. Faster "
        "steps at the cost of that buffer's memory; without NVMe offload it has no effect.",
    )
    leaf_module: LeafModuleConfig | None = option(
        default_factory=LeafModuleConfig,
        since="0.18.0",
        stages=(3,),
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
        requires=(("zero_optimization.stage", 2),),
        replacement=((True, '{"zero_optimization": {"stage": 1}}'), (False, "")),
        description="The ZeRO optimizer settings; `stage` is the key that matters most. The old form true or false "
        "instead of an object still works but is deprecated: true means stage 1 with the top-level `allgather_size` "
        "as bucket size, false means stage 0.",
    )
    allgather_size: int = option(
        500_000_000,
        enforced=True,
        ge=0,
        unit="elements",
        deprecated=True,
        use_instead="zero_optimization.allgather_bucket_size",
        description="Deprecated top-level all-gather bucket size, in elements. DeepSpeed reads it only when "
        "`zero_optimization` is written as true, and then uses it as `zero_optimization.allgather_bucket_size`; with "
        "a `zero_optimization` object it is ignored.",
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
