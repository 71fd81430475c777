"""`tensor_parallel`: automatic tensor parallelism (AutoTP) for training."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema

from ._base import DictSection, Section, StrictSection
from ._meta import option


class TorchDtype(str):
    """The name of a `torch.dtype` (e.g. `torch.float16`), standing in for a field DeepSpeed types as
    `torch.dtype`.

    DeepSpeed accepts only a real dtype object there, which no JSON value can be, so this type accepts only its
    own instances (the documented default) and rejects every value a config file can hold.
    """

    __dsref_type__ = "torch.dtype"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.is_instance_schema(cls, serialization=core_schema.to_string_ser_schema())

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        return {"not": {}}


class TPGroupConfig(StrictSection):
    """Settings of the tensor-parallel process group that AutoTP shards the model over.

    Mostly filled in by DeepSpeed itself: when AutoTP is on, the engine replaces `tp_size` with
    `autotp_size` and creates the process group, so a JSON config rarely needs this block.
    """

    ds_class = "deepspeed.runtime.tensor_parallel.config.TPConfig"

    tp_size: int = option(
        1,
        unit="ranks",
        description="Tensor-parallel degree of the group; must be 1 or equal to autotp_size, and the engine "
        "then sets it to autotp_size.",
    )
    tp_grain_size: int = option(
        1,
        description="Where a dimension is not split by attention heads (MLP, lm_head), each rank's share is "
        "made a multiple of this many rows; the last rank takes the remainder.",
    )
    mpu: Any = option(
        None,
        parsed_unused=True,
        description="A model-parallel unit object that only Python code can supply; in a JSON config leave it "
        "out or null (DeepSpeed accepts any value here and AutoTP training never reads it).",
    )
    tp_group: Any = option(
        None,
        no_example="set_in_code",
        description="The torch process group to shard over, a Python object set by DeepSpeed or tp_model_init; "
        "in a JSON config leave it out or null, as any other value breaks AutoTP set-up.",
    )


class TPLayerSpecConfig(DictSection):
    """One partitioning rule: the parameters whose names match `patterns` are split as `partition_type` says.

    Rules are tried in order and the first match wins. `shape` lets a fused weight (for example packed
    Q/K/V or gate/up projections) be viewed as several sub-parameters that are each split separately.
    """

    patterns: list[str] = option(
        default_factory=list,
        description="Regular expressions matched (from the start) against full parameter names such as "
        "'model.layers.0.self_attn.o_proj.weight'.",
        example=[r".*\.self_attn\.o_proj\.weight$"],
    )
    partition_type: Literal["column", "row", "skip"] = option(
        "column",
        enforced=True,
        case_insensitive=True,
        description="How the matching weights are divided among the tensor-parallel ranks. The usual pairing is "
        "column for projections that fan out (q/k/v, gate/up) and row for those that bring the result back (o_proj, "
        "down_proj), so each pair needs one all-reduce in the forward pass and one in the backward pass.",
        enum_docs=(
            ("column", "Split the output dimension; the backward pass all-reduces the input gradient."),
            ("row", "Split the input dimension; the forward pass all-reduces the output."),
            ("skip", "Leave the layer whole on every rank."),
        ),
    )
    shape: list[int | list[int]] | None = option(
        None,
        enforced=True,
        description="Logical shape used to view the weight before splitting: positive sizes or -1 (inferred); "
        "at partition_dim a list of sizes describes unequal sub-parameters (e.g. Q, K, V of different widths).",
        example=[2, -1],
    )
    partition_dim: int | None = option(
        None,
        example=0,
        description="Dimension (of shape, if given) that is split; null means 0 for column and 1 for row layers.",
    )
    model_types: list[str] | None = option(
        None,
        example=["llama"],
        description="Apply the rule only to models whose config.model_type is in this list (compared without "
        "regard to case); null applies it to every model.",
    )
    gather_output: bool = option(
        False,
        since="0.19.4",
        description="For a column-split layer, all-gather the output shards so every rank gets the full output "
        "(useful for an untied lm_head).",
    )
    grad_allreduce: bool = option(
        False,
        since="0.19.6",
        description="For a skipped (replicated) layer whose gradient each rank only computes in part, sum the "
        "gradients over the tensor-parallel group (e.g. per-head q/k norms).",
    )


class TPPartitionConfig(DictSection):
    """Custom AutoTP partitioning rules, read key by key (unknown keys are ignored).

    With `use_default_specs` true and a `preset_model` set, these rules are tried before the preset's.
    An empty object counts as absent.
    """

    use_default_specs: bool = option(
        True,
        description="Whether `layer_specs` are put in front of the rules of `tensor_parallel.preset_model` (true) or "
        "replace them (false); without a preset only `layer_specs` count either way. Linear layers that no rule "
        "matches stay whole on every rank, unless `strict_mode` makes that an error.",
    )
    layer_specs: list[TPLayerSpecConfig] = option(
        default_factory=list,
        description="Ordered list of partitioning rules; each parameter follows the first rule that matches it "
        "(DeepSpeed warns when several match), so put specific rules before general ones.",
    )
    tp_size: int = option(
        1,
        parsed_unused=True,
        description="Read, but always replaced by tensor_parallel.autotp_size before use.",
    )
    embedding_partition_dim: int = option(
        1,
        parsed_unused=True,
        description="Read into the AutoTP configuration, but nothing in DeepSpeed 0.19.8 uses it.",
    )
    lm_head_patterns: list[str] = option(
        default_factory=lambda: ["lm_head", "embed_out"],
        description="Module names that mark the model's output head, compared exactly with the last part of a "
        "module's dotted name; AutoTP treats the head specially, for example when `vocab_parallel_lm_head` splits it "
        "along the vocabulary. Change it only when your model's head has another name; an empty list falls back to "
        "lm_head and embed_out.",
    )
    strict_mode: bool = option(
        False,
        description="Raise an error when a linear layer matches no rule, instead of leaving it unsplit.",
    )


class TensorParallelConfig(StrictSection):
    """Automatic tensor parallelism (AutoTP) for training: DeepSpeed splits the model's linear layers between
    `autotp_size` ranks when `deepspeed.initialize` runs.

    The layers to split come from `partition_config`, else a `preset_model`, else the model's Hugging Face
    tensor-parallel plan, else DeepSpeed's own heuristics. AutoTP is active only when `autotp_size` is greater
    than 1.
    """

    ds_class = "deepspeed.runtime.tensor_parallel.config.TPTrainingConfig"

    autotp_size: int = option(
        0,
        unit="ranks",
        description="Number of ranks each linear layer is split across (the tensor-parallel degree); 0 or 1 turns "
        "AutoTP off. It must divide the number of ranks, and the world size divided by it becomes the data-parallel "
        "degree that ZeRO partitions over. All ranks of a tensor-parallel group must get the same batch from the "
        "dataloader (checked on the first forward pass); values above the model's key-value head count leave the "
        "extra ranks without attention work.",
        example=4,
    )
    tp_overlap_comm: bool = option(
        False,
        since="0.16.6",
        description="Overlap the all-reduce of the input gradient of column-split layers with the weight-gradient "
        "computation in the backward pass. Results are unchanged; the forward all-reduce of row-split layers is not "
        "overlapped. Only matters when `autotp_size` > 1.",
    )
    vocab_parallel_lm_head: bool | None = option(
        None,
        example=True,
        since="0.19.8",
        description="Split the lm_head along the vocabulary: true requires it, false forbids it, null uses it "
        "when a Hugging Face model with tied embeddings supports it.",
    )
    vocab_parallel_ce_backend: Literal["torch", "liger"] = option(
        "torch",
        since="0.19.8",
        description="Cross-entropy implementation used with a vocabulary-split lm_head; liger needs "
        "liger-kernel 0.8.1 or newer and a vocabulary-split head that does not gather its output.",
    )
    tensor_parallel: TPGroupConfig = option(
        {},
        alias="tp",
        validate_default=True,
        description="Process-group settings; normally left out (DeepSpeed fills them in).",
    )
    partition_config: TPPartitionConfig | None = option(
        None,
        since="0.18.6",
        description="Your own rules for which linear layers are split and how; combined with or replacing "
        "`preset_model` as `use_default_specs` says, and preferred over the model's Hugging Face tensor-parallel plan.",
    )
    preset_model: str | None = option(
        None,
        since="0.18.6",
        case_insensitive=True,
        description="Use DeepSpeed's built-in partitioning rules for a model family: llama, bloom, chatglm, "
        "mixtral, deepseek_v2, qwen2 or phi3 (any case); DeepSpeed silently ignores any other name.",
        example="llama",
    )
    dtype: TorchDtype = option(
        TorchDtype("torch.float16"),
        no_example="set_in_code",
        description="Model data type for AutoTP, a torch.dtype that only Python code can set: DeepSpeed rejects "
        'every JSON value except "auto" (which it drops). Training precision comes from fp16/bf16 instead.',
    )
    keep_module_on_host: bool = option(
        False,
        description="Keep checkpoint weights in host memory while sharding instead of moving them to the "
        "accelerator first, to avoid running out of device memory on very large models.",
    )
    injection_policy_tuple: tuple[Any, ...] | None = option(
        None,
        parsed_unused=True,
        description="Internal: holds Python layer classes and is overwritten by the engine with the policy it "
        "detects, so in a JSON config leave it out or null.",
    )
    replace_with_kernel_inject: bool = option(
        False,
        alias="kernel_inject",
        parsed_unused=True,
        description="Inherited from DeepSpeed inference, where it swaps in fused kernels; AutoTP training ignores it.",
    )


class TensorParallelOptions(Section):
    """Top-level field contributed by this module."""

    tensor_parallel: TensorParallelConfig = option(
        default_factory=TensorParallelConfig,
        requires=(("tensor_parallel.autotp_size", 4),),
        since="0.16.4",
    )
