"""`compression_training`: the removed DeepSpeed compression library (quantization, pruning, layer reduction)."""

from __future__ import annotations

from typing import Literal

from .._base import DictSection, Section
from .._meta import option


class _CompressionGroup(DictSection):
    """Settings shared by every named group of a compression technique."""

    modules: list[str] | Literal["*"] = option(
        "*",
        description='Name patterns of the modules this group applies to; the string "*" selects every supported layer.',
        example=["attention.self", "intermediate"],
    )
    related_modules: list[list[str]] | None = option(
        None,
        description="For each entry of modules, further modules that must be compressed in step with it (for "
        "example the layers that consume a pruned output); null means none.",
    )


class WeightQuantizationFp16MixedQuantize(DictSection):
    """Blends the fp16 weight with its quantized version and shifts the blend towards the quantized value over
    training, so that the switch to low precision happens gradually."""

    enabled: bool = option(False, description="Turns the gradual fp16/quantized weight blending on.")
    quantize_change_ratio: float = option(
        0.001,
        unit="ratio",
        description="Share of the quantized value in the blend at the start; it grows step by step until it reaches 1.",
    )


class WeightQuantizationSharedParameters(DictSection):
    """Weight-quantization settings that apply to all groups."""

    enabled: bool = option(False, description="Turns quantization-aware training of the weights on.")
    quantizer_kernel: bool = option(
        False,
        description="Uses DeepSpeed's fused CUDA quantizer (4 bits or more) instead of the Python implementation; "
        "only worked together with the fp16 optimizer.",
    )
    schedule_offset: int = option(
        0,
        unit="steps",
        description="Training step at which weight quantization begins, so that the first steps act as a warm-up.",
    )
    quantize_groups: int = option(
        1,
        description="Number of slices each weight matrix is split into, each with its own scale factor.",
    )
    quantize_verbose: bool = option(False, description="Prints quantization progress to the log.")
    quantization_type: Literal["symmetric", "asymmetric"] = option(
        "symmetric",
        description="Whether the quantization range is centred on zero (symmetric) or uses a zero point (asymmetric).",
    )
    rounding: Literal["nearest", "stochastic"] = option(
        "nearest",
        description="How values are rounded onto the quantization grid.",
    )
    quantize_weight_in_forward: bool = option(
        False,
        description="Quantizes the weights during the forward pass instead of in the optimizer step; required "
        "when training with an fp32 optimizer.",
    )
    fp16_mixed_quantize: WeightQuantizationFp16MixedQuantize = option(
        default_factory=WeightQuantizationFp16MixedQuantize
    )


class WeightQuantizationGroupParams(DictSection):
    """Bit widths of one weight-quantization group; the block is required in every group."""

    start_bits: int = option(
        docs_default=8,
        description="Bit width the group starts training with; it is then lowered towards target_bits (required).",
    )
    target_bits: int = option(
        docs_default=8,
        description="Final bit width of the group, no larger than start_bits (required).",
    )
    quantization_period: int = option(
        1,
        unit="steps",
        description="Number of steps between two reductions of the bit width by one.",
    )


class WeightQuantizationGroup(_CompressionGroup):
    """One named group of modules quantized with the same bit widths."""

    params: WeightQuantizationGroupParams = option()


class WeightQuantizationConfig(DictSection):
    """Quantization-aware training of weights: each group's bit width is lowered step by step during training so
    that the model adapts to low precision."""

    shared_parameters: WeightQuantizationSharedParameters = option(default_factory=WeightQuantizationSharedParameters)
    different_groups: dict[str, WeightQuantizationGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own bit widths; needed whenever this block is present.",
    )


class ActivationQuantizationSharedParameters(DictSection):
    """Activation-quantization settings that apply to all groups."""

    enabled: bool = option(False, description="Turns quantization of activations on.")
    quantization_type: Literal["symmetric", "asymmetric"] = option(
        "symmetric",
        description="Whether activations are quantized around zero (symmetric) or with a zero point (asymmetric).",
    )
    range_calibration: Literal["dynamic", "static"] = option(
        "dynamic",
        docs_default="static",
        description="Whether the value range is measured for every input (dynamic) or fixed from a running "
        "min/max (static).",
    )
    schedule_offset: int = option(
        1000,
        unit="steps",
        docs_default=0,
        description="Training step at which activation quantization begins.",
    )


class ActivationQuantizationGroupParams(DictSection):
    """Bit width of one activation-quantization group; the block is required in every group."""

    bits: int = option(
        docs_default=8,
        description="Number of bits activations of this group are quantized to (required).",
    )


class ActivationQuantizationGroup(_CompressionGroup):
    """One named group of modules whose activations share a bit width."""

    params: ActivationQuantizationGroupParams = option()


class ActivationQuantizationConfig(DictSection):
    """Quantization-aware training of activations (the inputs of the selected layers)."""

    shared_parameters: ActivationQuantizationSharedParameters = option(
        default_factory=ActivationQuantizationSharedParameters
    )
    different_groups: dict[str, ActivationQuantizationGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own bit width; needed whenever this block is present.",
    )


class PruningGroupParams(DictSection):
    """How much of a pruning group is kept; the block is required in every group."""

    dense_ratio: float = option(
        docs_default=0.5,
        unit="ratio",
        description="Fraction of weights (or rows, heads, channels) the group keeps after pruning (required).",
    )


class PruningGroup(_CompressionGroup):
    """One named group of modules pruned to the same density."""

    params: PruningGroupParams = option()


class SparsePruningSharedParameters(DictSection):
    """Unstructured (element-wise) pruning settings that apply to all groups."""

    enabled: bool = option(False, description="Turns element-wise weight pruning on.")
    method: Literal["l1", "topk", "snip_momentum"] = option(
        "l1",
        description="How the weights to remove are chosen: by magnitude (l1), by a learned score (topk), or by "
        "the block-wise SNIP-momentum criterion.",
    )
    schedule_offset: int = option(
        1000,
        unit="steps",
        docs_default=0,
        description="Training step at which pruning begins.",
    )
    schedule_offset_end: int | None = option(
        None,
        unit="steps",
        docs_default=0,
        default_note="When absent, it equals schedule_offset.",
        description="Step at which snip_momentum pruning reaches its final density; must not be below schedule_offset.",
    )
    schedule_offset_stride: int = option(
        1,
        unit="steps",
        docs_default="1",
        description="Number of steps between two pruning updates with snip_momentum.",
    )
    block_pattern: str = option(
        "4x1",
        description="Shape of the weight blocks removed together by snip_momentum, written rows x columns.",
    )
    dense_ratio: float = option(
        0.1,
        unit="ratio",
        docs_default="0.1",
        description="Fraction of weights kept with snip_momentum; must lie strictly between 0 and 1.",
    )
    excluded_modules: list[str] = option(
        default_factory=list,
        description="Modules that snip_momentum leaves unpruned.",
    )


class SparsePruningConfig(DictSection):
    """Element-wise sparsification of weights during training."""

    shared_parameters: SparsePruningSharedParameters = option(default_factory=SparsePruningSharedParameters)
    different_groups: dict[str, PruningGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own density; needed whenever this block is present.",
    )


class RowPruningSharedParameters(DictSection):
    """Row-pruning settings that apply to all groups."""

    enabled: bool = option(False, description="Turns pruning of whole output rows of linear layers on.")
    schedule_offset: int = option(
        1000,
        unit="steps",
        docs_default=0,
        description="Training step at which row pruning begins.",
    )
    method: Literal["l1", "topk"] = option(
        "l1",
        description="How the rows to remove are chosen: by magnitude (l1) or by a learned score (topk).",
    )


class RowPruningConfig(DictSection):
    """Structured pruning that removes whole rows (output neurons) of linear layers."""

    shared_parameters: RowPruningSharedParameters = option(default_factory=RowPruningSharedParameters)
    different_groups: dict[str, PruningGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own density; needed whenever this block is present.",
    )


class HeadPruningSharedParameters(DictSection):
    """Attention-head-pruning settings that apply to all groups."""

    enabled: bool = option(False, description="Turns pruning of whole attention heads on.")
    schedule_offset: int = option(
        1000,
        unit="steps",
        docs_default=0,
        description="Training step at which head pruning begins.",
    )
    method: Literal["l1", "topk"] = option(
        "topk",
        description="How the heads to remove are chosen; only topk (a learned score) worked for heads, l1 raised "
        "NotImplementedError.",
    )
    num_heads: int | None = option(
        None,
        description="Number of attention heads per layer of the model; required when head pruning is enabled.",
    )


class HeadPruningConfig(DictSection):
    """Structured pruning that removes whole attention heads."""

    shared_parameters: HeadPruningSharedParameters = option(default_factory=HeadPruningSharedParameters)
    different_groups: dict[str, PruningGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own density; needed whenever this block is present.",
    )


class ChannelPruningSharedParameters(DictSection):
    """Channel-pruning settings that apply to all groups."""

    enabled: bool = option(False, description="Turns pruning of whole convolution channels on.")
    schedule_offset: int = option(
        1000,
        unit="steps",
        docs_default=0,
        description="Training step at which channel pruning begins.",
    )
    method: Literal["l1", "topk"] = option(
        "l1",
        description="How the channels to remove are chosen: by magnitude (l1) or by a learned score (topk).",
    )


class ChannelPruningConfig(DictSection):
    """Structured pruning that removes whole output channels of convolution layers."""

    shared_parameters: ChannelPruningSharedParameters = option(default_factory=ChannelPruningSharedParameters)
    different_groups: dict[str, PruningGroup] = option(
        default_factory=dict,
        map_key="group",
        description="Named groups of modules with their own density; needed whenever this block is present.",
    )


class LayerReductionConfig(DictSection):
    """Builds a shallower student model by copying selected layers (and other modules) of a teacher model, as
    a starting point for knowledge distillation."""

    enabled: bool = option(False, description="Turns layer reduction on.")
    keep_number_layer: int | None = option(
        None,
        unit="layers",
        parsed_unused=True,
        description="Number of layers the reduced model is meant to keep; its depth actually follows teacher_layer.",
    )
    module_name_prefix: str | None = option(
        None,
        description="Attribute path of the layer list in the model, such as bert.encoder.layer; required when enabled.",
    )
    teacher_layer: list[int] | None = option(
        None,
        description="Indices of the teacher layers copied, in order, into the student's layers; required when enabled.",
        example=[1, 3, 5, 7, 9, 11],
    )
    other_module_name: list[str] | None = option(
        None,
        description="Further modules (embeddings, pooler, head) copied from the teacher; required when enabled.",
        example=["bert.embeddings", "bert.pooler", "classifier"],
    )


class CompressionTrainingConfig(DictSection):
    """DeepSpeed Compression: quantization-aware training, several kinds of pruning and layer reduction,
    applied to a model through `deepspeed.compression.compress.init_compression`.

    Each technique had a `shared_parameters` block and `different_groups`, a map from a group name of your
    choice to the modules it covers and their settings. The library was removed in DeepSpeed 0.19.7.
    """

    layer_reduction: LayerReductionConfig = option(default_factory=LayerReductionConfig)
    weight_quantization: WeightQuantizationConfig = option(default_factory=WeightQuantizationConfig)
    activation_quantization: ActivationQuantizationConfig = option(default_factory=ActivationQuantizationConfig)
    sparse_pruning: SparsePruningConfig = option(default_factory=SparsePruningConfig)
    row_pruning: RowPruningConfig = option(default_factory=RowPruningConfig)
    head_pruning: HeadPruningConfig = option(default_factory=HeadPruningConfig)
    channel_pruning: ChannelPruningConfig = option(default_factory=ChannelPruningConfig)


class CompressionTrainingOptions(Section):
    """Top-level field contributed by this module."""

    compression_training: CompressionTrainingConfig = option(
        default_factory=CompressionTrainingConfig,
        since="0.7.0",
        removed_in="0.19.7",
        removal_note="DeepSpeed 0.19.7 deleted the compression library and refuses the block so that a model is "
        "not quietly trained uncompressed; delete it, as there is no built-in replacement.",
    )
