"""Memory per GPU and per node for each ZeRO stage and offload: the numbers behind the ZeRO tables.

Pure arithmetic, no torch. Stage 2 and stage 3 use DeepSpeed 0.19.8's own formulas
(``estimate_zero2_model_states_mem_needs`` in ``deepspeed/runtime/zero/stage_1_and_2.py`` and
``estimate_zero3_model_states_mem_needs`` in ``deepspeed/runtime/zero/stage3.py``), written with the same
expressions so that float rounding agrees to the byte. Stages 0 and 1 and NVMe offload, which DeepSpeed's
functions do not cover, are derived here from the same byte accounting; every row says which it is.

The accounting (DeepSpeed's, mixed precision with Adam), in bytes per parameter: 2 for the 16-bit weights, and
18 more = 2 (16-bit gradients) + 4 (32-bit gradients) + 4 (32-bit master weights) + 8 (Adam momentum and variance).

>>> est = estimate(7_000_000_000, gpus_per_node=8)
>>> row = est.row(2, "none")
>>> row.gpu_bytes, row.source
(29750000000, 'deepspeed')
>>> format_bytes(row.gpu_bytes, "en")
'27.7 GB'
>>> parse_count("1.5e9", "--params"), parse_count("350M", "--params"), parse_bytes("80GB", "--gpu-memory") // GIB
(1500000000, 350000000, 80)
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from ..text.i18n import messages
from ..text.width import display_width

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = [
    "BUFFER_FACTOR",
    "BYTES_PER_PARAM",
    "COLUMNS",
    "GIB",
    "SUGGEST_ORDER",
    "Activation",
    "Estimate",
    "EstimateError",
    "LayerBasis",
    "Row",
    "Suggestion",
    "SwapBuffers",
    "activation_memory",
    "assumption_lines",
    "column_labels",
    "estimate",
    "fits",
    "format_bytes",
    "format_count",
    "format_number",
    "gpu_budget",
    "largest_layer_estimate",
    "parse_bytes",
    "parse_count",
    "render_svg",
    "render_table",
    "row_cells",
    "row_label",
    "starting_config",
    "suggest",
    "table_data",
    "title",
    "zero0_model_states",
    "zero1_model_states",
    "zero2_model_states",
    "zero3_model_states",
    "zero3_nvme_model_states",
]

Device = Literal["none", "cpu", "nvme"]
Source = Literal["deepspeed", "dsref"]
Precision = Literal["bf16", "fp16"]

GIB = 2**30
"""What a "GB" is here: 2**30 bytes, as DeepSpeed's estimators print it and as GPU memory is sold (80 GB = 80 GiB)."""

BYTES_PER_PARAM: dict[str, int] = {
    "weights_16bit": 2,
    "gradients_16bit": 2,
    "gradients_32bit": 4,
    "master_weights_32bit": 4,
    "adam_states_32bit": 8,
}
"""DeepSpeed's byte accounting for mixed-precision training with Adam (its comment in ``stage_1_and_2.py``)."""

_W16 = BYTES_PER_PARAM["weights_16bit"]
_G16 = BYTES_PER_PARAM["gradients_16bit"]
_FP32_STATE = (
    BYTES_PER_PARAM["gradients_32bit"] + BYTES_PER_PARAM["master_weights_32bit"] + BYTES_PER_PARAM["adam_states_32bit"]
)
"""16: what ZeRO stage 1 partitions (32-bit gradients, master weights, Adam states)."""
_PARTITIONED = _G16 + _FP32_STATE
"""18: what ZeRO stage 2 partitions on top (DeepSpeed's ``18 * total_params / total_gpus``)."""

BUFFER_FACTOR = 1.5
"""DeepSpeed's ``additional_buffer_factor`` default: CPU figures are multiplied by it."""

MAX_PARAMS = 10**15
MAX_GPUS_PER_NODE = 4096
MAX_NODES = 1_000_000
MAX_BYTES = 2**60
MAX_HIDDEN = 10**6
MAX_LAYERS = 100_000
MAX_SEQ_LEN = 100_000_000
MAX_MICRO_BATCH = 1_000_000
MAX_VOCAB = 100_000_000
MAX_BUFFER_FACTOR = 100.0

ASSUMED_VOCAB = 128_000
"""Vocabulary assumed for the largest-layer estimate when none is given (Llama 3 uses 128,256 tokens)."""
WIDTH_PER_LAYER = 128
"""Assumed hidden size ÷ layer count of a decoder (Llama 2 7B: 4096/32; GPT-3 175B: 12288/96)."""

M = messages(
    "estimate",
    # errors
    bad_number="{option}: '{value}' is not a number; write e.g. 7B, 1.5e9 or 350M",
    bad_size="{option}: '{value}' is not a memory size; write e.g. 80GB, 512GB or 1.5TB",
    bad_unit="{option}: unknown unit '{unit}' in '{value}'; use one of {units}",
    too_small="{option} must be at least {minimum}, got {value}",
    too_large="{option} {value} is more than dsref can estimate for (at most {maximum})",
    not_whole="{option} must be a whole number, got {value}",
    out_of_range="{option} must be from {minimum} to {maximum}, got {value}",
    layer_over_params="--largest-layer ({layer}) cannot be larger than --params ({params})",
    heads_over_hidden="--heads ({heads}) cannot be larger than --hidden-size ({hidden})",
    # units
    bytes_gb="{n} GB",
    bytes_below="< {n} GB",
    count_plain="{n}",
    count_K="{n}K",
    count_M="{n}M",
    count_B="{n}B",
    count_T="{n}T",
    # table
    title="Model-state memory for {params} parameters, {nodes} node(s) × {gpus} GPU(s) per node",
    col_stage="stage",
    col_offload_optimizer="offload_optimizer",
    col_offload_param="offload_param",
    col_zero_init="zero.Init",
    col_gpu="per GPU",
    col_cpu="CPU per node",
    col_nvme="NVMe per node",
    col_fits="fits",
    col_source="from",
    yes="yes",
    no="no",
    not_applicable="–",
    source_deepspeed="DeepSpeed",
    source_dsref="dsref",
    # row labels
    label_stage="stage {stage}",
    label_optimizer_cpu="stage {stage} + optimizer → CPU",
    label_both_cpu="stage {stage} + optimizer, parameters → CPU",
    label_both_nvme="stage {stage} + optimizer, parameters → NVMe",
    label_no_init="{label}, without zero.Init",
    # assumptions and sources
    assumptions="Assumptions:",
    assume_bytes=(
        "mixed-precision training with Adam; bytes per parameter: 2 (16-bit weights), 2 (16-bit gradients), "
        "4 (32-bit gradients), 4 (32-bit master weights), 8 (Adam momentum and variance), DeepSpeed's accounting"
    ),
    assume_gpu=(
        "per GPU: model states only (weights, gradients, optimizer states); activations, temporary buffers, "
        "fragmentation and the CUDA context come on top"
    ),
    assume_cpu=(
        "CPU per node: what the node's processes hold to build the model and, with offload, the offloaded states, "
        "times DeepSpeed's buffer factor {factor}"
    ),
    assume_zero_init=(
        "zero.Init: the model is built inside deepspeed.zero.Init (stage 3), so no process holds the whole "
        "model in CPU memory; Hugging Face Transformers does this for ZeRO-3"
    ),
    assume_gib="1 GB = 2^30 bytes, as DeepSpeed prints it",
    layer_given="largest layer: {n} parameters (--largest-layer)",
    layer_estimated=(
        "largest layer: {n} parameters, estimated as the larger of an embedding (vocabulary × hidden size) and an "
        "MLP matrix (4 × hidden size²), with vocabulary {vocab}{vocab_note} and hidden size {hidden}{hidden_note}"
        "{capped}; it decides the stage-3 figures: set --largest-layer for your model"
    ),
    vocab_assumed=" (assumed; --vocab-size)",
    hidden_assumed=(
        " (assumed: a decoder of 12 × layers × hidden² parameters, {ratio} × as wide as deep; --hidden-size)"
    ),
    layer_capped=", capped at the parameter count",
    sources="Where the figures come from:",
    source_ds_line=(
        "DeepSpeed: computed exactly as DeepSpeed {version}'s estimate_zero2_model_states_mem_needs (stage 2) and "
        "estimate_zero3_model_states_mem_needs (stage 3, without offload and with CPU offload)"
    ),
    source_dsref_line=(
        "dsref: not covered by DeepSpeed's functions, derived by dsref from the same accounting. Stage 0 (no ZeRO, "
        "so no offload) keeps all 20 bytes per parameter on every GPU. Stage 1 keeps the 16-bit weights and "
        "gradients whole and partitions the 16 bytes of 32-bit state over all GPUs; its CPU side is stage 2's, so "
        "its CPU figures are DeepSpeed's. NVMe moves to NVMe the 18 bytes per parameter (16-bit weights, 32-bit "
        "state) that stage 3 with CPU offload keeps in CPU memory; the CPU keeps what the model is built with plus "
        "the pinned swap buffers, per GPU offload_param.buffer_count × buffer_size × 2 bytes and "
        "offload_optimizer.buffer_count × min(sub_group_size, parameters per GPU) × 4 bytes (DeepSpeed's defaults: "
        "{param_count} × {param_size} and {opt_count} × {sub_group})"
    ),
    # activations
    act_title=(
        "Activation memory per GPU (hidden size {hidden}, {layers} layers, sequence length {seq}, micro batch {batch}"
        "{heads}):"
    ),
    act_heads=", {heads} attention heads",
    act_without="without activation checkpointing: {value}  = {formula}",
    act_with="with activation checkpointing:    {value}  = {formula}",
    formula_full="L·s·b·h·(34 + 5·a·s/h) bytes",
    formula_flash="L·s·b·h·34 bytes",
    formula_ckpt_full="L·2·s·b·h + s·b·h·(34 + 5·a·s/h) bytes",
    formula_ckpt_flash="L·2·s·b·h + s·b·h·34 bytes",
    act_source=(
        'source: Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (MLSys 2023, '
        "arXiv:2205.05198), section 4: 16-bit activations of a standard transformer layer, no tensor or sequence "
        "parallelism; with checkpointing each layer keeps its 16-bit input (2·s·b·h) and one layer at a time is "
        "recomputed; the embedding output and the loss logits are not counted"
    ),
    act_no_heads=(
        "without --heads the attention scores (the 5·a·s/h term) are taken as not stored, as with FlashAttention "
        "or PyTorch's scaled_dot_product_attention; give --heads to count them"
    ),
    # fit and suggestion
    fit_budget=("fits: model states{activations} within {budget} per GPU ({memory} less {reserve}% reserve){cpu}"),
    fit_activations=" + activations ({value}, {which})",
    fit_with_ckpt="with checkpointing",
    fit_without_ckpt="without checkpointing",
    fit_cpu=" and CPU per node within {memory}",
    fit_cpu_unchecked="; CPU memory not checked (give --cpu-memory)",
    suggest_order=(
        "tried fastest first, in the order of speed Hugging Face Transformers' DeepSpeed guide gives: stage 0, 1, "
        "2, 2 + optimizer offload, 3, 3 + offloads, NVMe last; of the stage-3 offloads the optimizer's comes first, "
        "as it frees the most GPU memory"
    ),
    suggestion="Suggestion: {label}.",
    suggest_config="A starting ds_config.json (set the optimizer's params, e.g. lr, for your run):",
    no_fit=(
        "Nothing fits in {budget} per GPU, not even stage 3 with NVMe offload: add GPUs or nodes, shorten the "
        "sequence or the micro batch, or use activation checkpointing"
    ),
    no_budget=(
        "Nothing fits: the {reserve}% reserve{activations} already take all of the {memory} per GPU; add GPUs or "
        "use activation checkpointing, a shorter sequence or a smaller micro batch"
    ),
    # chart
    chart_title="{params} parameters on {nodes} node(s) × {gpus} GPU(s)",
    chart_gpu="model states per GPU",
    chart_cpu="CPU per node",
    chart_capacity="GPU memory {memory}",
    chart_axis="GB (2^30 bytes)",
)


class EstimateError(ValueError):
    """Bad input for an estimate: a message key of :data:`M` and its arguments, rendered in the user's language."""

    def __init__(self, key: str, **details: object) -> None:
        super().__init__(M.text(key, "en", **details))
        self.key = key
        self.details = details

    def message(self, lang: Lang) -> str:
        return M.text(self.key, lang, **self.details)


# --------------------------------------------------------------------------------------------------------------
# Formatting: numbers become text in exactly one place.


def format_number(value: float, decimals: int, lang: Lang) -> str:
    """The one place a number becomes text: fixed ``decimals``, digits grouped.

    Kept in one function so that it can be routed through Babel's locale-aware formatting.

    >>> format_number(1303.94, 1, "en"), format_number(7, 0, "zh")
    ('1,303.9', '7')
    """
    return f"{value:,.{decimals}f}"


def format_bytes(n: int, lang: Lang) -> str:
    """Bytes as GB (2**30) with one decimal; a figure that would round to 0.0 but is not zero shows as ``< 0.1 GB``.

    >>> format_bytes(29_750_000_000, "en"), format_bytes(1, "en"), format_bytes(0, "en")
    ('27.7 GB', '< 0.1 GB', '0.0 GB')
    """
    gb = n / GIB
    if 0 < gb < 0.05:
        return M.text("bytes_below", lang, n=format_number(0.1, 1, lang))
    return M.text("bytes_gb", lang, n=format_number(gb, 1, lang))


_COUNT_SCALES: tuple[tuple[int, str], ...] = (
    (10**12, "count_T"),
    (10**9, "count_B"),
    (10**6, "count_M"),
    (10**3, "count_K"),
)


def format_count(n: int, lang: Lang) -> str:
    """A parameter count in short form, one decimal at most.

    >>> [format_count(n, "en") for n in (7_000_000_000, 1_500_000_000, 350_000_000, 6_738_415_616, 999)]
    ['7B', '1.5B', '350M', '6.7B', '999']
    """
    for scale, key in _COUNT_SCALES:
        if n >= scale * 0.9995:
            value = n / scale
            decimals = 0 if round(value, 1) == round(value) else 1
            return M.text(key, lang, n=format_number(value, decimals, lang))
    return M.text("count_plain", lang, n=format_number(n, 0, lang))


# --------------------------------------------------------------------------------------------------------------
# Parsing what people write: 7B, 1.5e9, 350M; 80GB, 1.5TB.

_NUMBER = re.compile(r"[+-]?(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9]+)?", re.ASCII)
_SPLIT = re.compile(r"\s*(.*?)\s*([A-Za-z]*)\s*", re.ASCII | re.DOTALL)
_COUNT_UNITS = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9, "T": 10**12}
_BYTE_UNITS = {
    "": GIB,
    "B": 1,
    **{f"{p}{suffix}": 1024**i for i, p in enumerate("KMGTP", start=1) for suffix in ("", "B", "IB")},
}


def _decimal(text: str, option: str, bad: str) -> tuple[Decimal, str]:
    match = _SPLIT.fullmatch(text)
    number, unit = (match.group(1), match.group(2)) if match else (text, "")
    if not _NUMBER.fullmatch(number):
        raise EstimateError(bad, option=option, value=text.strip())
    try:
        value = Decimal(number)
    except InvalidOperation:
        raise EstimateError(bad, option=option, value=text.strip()) from None
    return value, unit.upper()


def _limit(maximum: float) -> str:
    """An upper bound as shown in an error: powers of ten as ``1e15``, others in full.

    >>> _limit(10**15), _limit(4096), _limit(100.0)
    ('1e15', '4,096', '100')
    """
    exponent = math.log10(maximum) if maximum > 0 else 0.5
    if maximum >= 10**6 and exponent == int(exponent):
        return f"1e{int(exponent)}"
    return f"{maximum:,g}" if isinstance(maximum, float) else f"{maximum:,}"


def _checked_int(value: Decimal, option: str, text: str, minimum: int, maximum: int, whole: bool) -> int:
    shown = text.strip()
    if value > maximum:
        raise EstimateError("too_large", option=option, value=shown, maximum=_limit(maximum))
    rounded = value.to_integral_value(rounding=ROUND_HALF_EVEN)
    if whole and rounded != value:
        raise EstimateError("not_whole", option=option, value=shown)
    if rounded < minimum:
        raise EstimateError("too_small", option=option, value=shown, minimum=minimum)
    return int(rounded)


def parse_count(text: str, option: str, *, minimum: int = 1, maximum: int = MAX_PARAMS, whole: bool = False) -> int:
    """A count as people write it: ``7B``, ``1.5e9``, ``350M``, ``2T``, ``8`` (K, M, B, T: powers of 1000).

    ``whole=True`` refuses fractions (GPU counts); otherwise the value is rounded. Raises :class:`EstimateError`
    for anything that is not a number in ``[minimum, maximum]``.

    >>> parse_count("7b", "--params"), parse_count("1_000", "--params")
    (7000000000, 1000)
    >>> parse_count("7X", "--params")
    Traceback (most recent call last):
    ...
    dsref.estimate.memory.EstimateError: --params: unknown unit 'X' in '7X'; use one of K, M, B, T
    """
    value, unit = _decimal(text, option, "bad_number")
    scale = _COUNT_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="K, M, B, T")
    if value > Decimal(maximum) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum=_limit(maximum))
    return _checked_int(value * scale, option, text, minimum, maximum, whole)


def parse_bytes(text: str, option: str) -> int:
    """A memory size: ``80GB``, ``80GiB``, ``512G``, ``1.5TB``; a bare number is GB. Units are powers of 1024.

    >>> parse_bytes("1.5TB", "--cpu-memory") == int(1.5 * 2**40), parse_bytes("80", "--gpu-memory") == 80 * 2**30
    (True, True)
    """
    value, unit = _decimal(text, option, "bad_size")
    scale = _BYTE_UNITS.get(unit)
    if scale is None:
        raise EstimateError("bad_unit", option=option, unit=unit, value=text.strip(), units="KB, MB, GB, TB, PB")
    if value > Decimal(MAX_BYTES) / scale:
        raise EstimateError("too_large", option=option, value=text.strip(), maximum="1 EiB")
    return _checked_int(value * scale, option, text, 1, MAX_BYTES, whole=False)


def _check_int(value: int, option: str, minimum: int, maximum: int) -> int:
    """Library-side check of an already-parsed integer (so that a bad argument never yields a negative figure)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EstimateError("not_whole", option=option, value=value)
    if value < minimum:
        raise EstimateError("too_small", option=option, value=value, minimum=minimum)
    if value > maximum:
        raise EstimateError("too_large", option=option, value=value, maximum=_limit(maximum))
    return value


# --------------------------------------------------------------------------------------------------------------
# The formulas. The DeepSpeed ones keep DeepSpeed's expressions verbatim (float arithmetic included).


def zero2_model_states(
    total_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) for ZeRO stage 2, exactly as DeepSpeed 0.19.8 computes them.

    Same expressions as ``deepspeed.runtime.zero.stage_1_and_2.estimate_zero2_model_states_mem_needs``. Note that
    DeepSpeed's CPU figure with offload grows with the total GPU count and is not divided among nodes.

    >>> zero2_model_states(1_000_000_000, 8, 1, cpu_offload=False)
    (48000000000, 4250000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    if cpu_offload:
        gpu_mem = 2 * total_params
        cpu_mem = total_params * max(4 * total_gpus, 16) * additional_buffer_factor
    else:
        gpu_mem = 2 * total_params + int(18 * total_params / total_gpus)
        cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


def zero3_model_states(
    total_params: int,
    largest_layer_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = True,
    cpu_offload_params: bool = True,
    zero_init: bool = True,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int, int]:
    """(CPU bytes per node, GPU bytes per GPU, largest-layer bytes) for ZeRO stage 3, exactly as DeepSpeed 0.19.8.

    Same expressions as ``deepspeed.runtime.zero.stage3.estimate_zero3_model_states_mem_needs``; the GPU always
    holds one gathered layer (4 bytes per parameter of the largest layer, DeepSpeed's allowance).

    >>> zero3_model_states(1_000_000_000, 50_000_000, 8, 1, cpu_offload=False, cpu_offload_params=False)
    (2400000000, 2450000000, 200000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    gpus_factor = 1 / num_nodes
    largest_layer_memory = 4 * largest_layer_params
    if cpu_offload:
        if cpu_offload_params:
            gpu_mem = largest_layer_memory
            if zero_init:
                cpu_mem = total_params * 18 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 18 * gpus_factor) * additional_buffer_factor
        else:
            gpu_mem = largest_layer_memory + int(2 * total_params / total_gpus)
            if zero_init:
                cpu_mem = total_params * 16 * gpus_factor * additional_buffer_factor
            else:
                cpu_mem = total_params * max(4 * num_gpus_per_node, 16 * gpus_factor) * additional_buffer_factor
    else:
        gpu_mem = largest_layer_memory + int(18 * total_params / total_gpus)
        if zero_init:
            cpu_mem = largest_layer_params * 4 * num_gpus_per_node * additional_buffer_factor
        else:
            cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem), largest_layer_memory


def zero0_model_states(
    total_params: int, num_gpus_per_node: int = 1, additional_buffer_factor: float = BUFFER_FACTOR
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) without ZeRO. Derived by dsref, not a DeepSpeed function.

    Every GPU holds all 2 + 18 bytes per parameter; the CPU side is what DeepSpeed's stage-2 estimate counts
    without offload (each process loads the model in 32-bit).

    >>> zero0_model_states(1_000_000_000, 8)
    (48000000000, 20000000000)
    """
    gpu_mem = (_W16 + _PARTITIONED) * total_params
    cpu_mem = total_params * 4 * num_gpus_per_node * additional_buffer_factor
    return int(cpu_mem), int(gpu_mem)


def zero1_model_states(
    total_params: int,
    num_gpus_per_node: int = 1,
    num_nodes: int = 1,
    cpu_offload: bool = False,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int]:
    """(CPU bytes per node, GPU bytes per GPU) for ZeRO stage 1. Derived by dsref, not a DeepSpeed function.

    Stage 1 runs DeepSpeed's stage-1/2 optimizer without partitioning gradients: each GPU keeps the 16-bit weights
    and the whole 16-bit gradients (2 + 2 bytes per parameter) and its share of the 16 bytes of 32-bit state; with
    offload that share lives in CPU memory. The CPU side is the same as stage 2's, so its figure is DeepSpeed's.

    >>> zero1_model_states(1_000_000_000, 8, 1)
    (48000000000, 6000000000)
    """
    total_gpus = num_nodes * num_gpus_per_node
    cpu_mem, _ = zero2_model_states(total_params, num_gpus_per_node, num_nodes, cpu_offload, additional_buffer_factor)
    gpu_mem = (_W16 + _G16) * total_params
    if not cpu_offload:
        gpu_mem += int(_FP32_STATE * total_params / total_gpus)
    return cpu_mem, gpu_mem


@dataclass(frozen=True)
class SwapBuffers:
    """The pinned CPU buffers NVMe offload swaps through, per GPU; defaults are DeepSpeed's (from the option tree)."""

    param_buffer_count: int
    param_buffer_size: int
    optimizer_buffer_count: int
    sub_group_size: int

    @classmethod
    def defaults(cls) -> SwapBuffers:
        """DeepSpeed 0.19.8's defaults, from dsref's generated option index (the schema's facts, read fast)."""
        return _default_buffers()

    def for_model(self, total_params: int, largest_layer_params: int, total_gpus: int) -> SwapBuffers:
        """These buffers with ``param_buffer_size`` raised to hold the largest layer's share of one GPU.

        DeepSpeed asserts that a parameter's partition fits in one buffer (``partitioned_param_swapper.py``).
        """
        share = -(-largest_layer_params // total_gpus)
        return replace(self, param_buffer_size=max(self.param_buffer_size, share))

    def bytes_per_gpu(self, total_params: int, total_gpus: int) -> int:
        """16-bit parameter buffers plus 32-bit optimizer buffers of the largest sub-group partition."""
        partition = -(-total_params // total_gpus)
        params = self.param_buffer_count * self.param_buffer_size * 2
        optimizer = self.optimizer_buffer_count * min(self.sub_group_size, partition) * 4
        return params + optimizer


@cache
def _default_buffers() -> SwapBuffers:
    from ..tree.index import OptionIndex

    index = OptionIndex.load()

    def default(path: str) -> int:
        return int(index.get(path)["default"])

    return SwapBuffers(
        param_buffer_count=default("zero_optimization.offload_param.buffer_count"),
        param_buffer_size=default("zero_optimization.offload_param.buffer_size"),
        optimizer_buffer_count=default("zero_optimization.offload_optimizer.buffer_count"),
        sub_group_size=default("zero_optimization.sub_group_size"),
    )


def zero3_nvme_model_states(
    total_params: int,
    largest_layer_params: int,
    num_gpus_per_node: int,
    num_nodes: int,
    zero_init: bool,
    buffers: SwapBuffers,
    additional_buffer_factor: float = BUFFER_FACTOR,
) -> tuple[int, int, int]:
    """(CPU bytes per node, GPU bytes per GPU, NVMe bytes per node) for stage 3 with optimizer and parameters on NVMe.

    Derived by dsref. GPU: as DeepSpeed's stage-3 CPU-offload figure (one gathered layer). NVMe: the 2 + 16 bytes
    per parameter (16-bit weights; 32-bit gradients, master weights, Adam states) that DeepSpeed's CPU-offload
    figure keeps in CPU memory, shared by the nodes. CPU: what the model is built with (the largest layer per
    process under zero.Init, else the whole model in 32-bit, as DeepSpeed's figures count it) plus the pinned swap
    buffers, times the buffer factor.
    """
    total_gpus = num_nodes * num_gpus_per_node
    gpu_mem = 4 * largest_layer_params
    built = (largest_layer_params if zero_init else total_params) * 4 * num_gpus_per_node
    swap = buffers.bytes_per_gpu(total_params, total_gpus) * num_gpus_per_node
    cpu_mem = int((built + swap) * additional_buffer_factor)
    nvme = -(-(_W16 + _FP32_STATE) * total_params // num_nodes)
    return cpu_mem, gpu_mem, nvme


# --------------------------------------------------------------------------------------------------------------
# Largest layer and activations.


@dataclass(frozen=True)
class LayerBasis:
    """How the largest layer was found: given, or estimated from a vocabulary and a hidden size (each given or not)."""

    given: bool
    vocab: int = 0
    vocab_given: bool = False
    hidden: int = 0
    hidden_given: bool = False
    capped: bool = False


def largest_layer_estimate(
    params: int, hidden_size: int | None = None, vocab_size: int | None = None
) -> tuple[int, LayerBasis]:
    """The parameters of the largest layer when the user did not say: max(vocab × hidden, 4 × hidden²), ≤ params.

    In transformer language models the largest single module is the embedding (or the output head), an MLP
    matrix when the vocabulary is small. Without a hidden size it is estimated from ``params = 12·L·h²`` with
    ``h = 128·L``; without a vocabulary, 128,000 tokens are assumed. Both are printed as assumptions.

    >>> largest_layer_estimate(8_000_000_000)[0] // 10**6, largest_layer_estimate(7_000_000_000, 4096, 32000)[0]
    (563, 131072000)
    """
    hidden = hidden_size or max(1, round((WIDTH_PER_LAYER * params / 12) ** (1 / 3)))
    vocab = vocab_size or ASSUMED_VOCAB
    layer = max(vocab * hidden, 4 * hidden * hidden)
    basis = LayerBasis(False, vocab, vocab_size is not None, hidden, hidden_size is not None, layer > params)
    return min(layer, params), basis


@dataclass(frozen=True)
class Activation:
    """Activation memory per GPU of a transformer stack, with and without activation checkpointing (bytes)."""

    hidden_size: int
    layers: int
    seq_len: int
    micro_batch: int
    heads: int | None
    without_checkpointing: int
    with_checkpointing: int

    def to_json(self) -> dict[str, Any]:
        return {
            "hidden_size": self.hidden_size,
            "layers": self.layers,
            "seq_len": self.seq_len,
            "micro_batch": self.micro_batch,
            "heads": self.heads,
            "without_checkpointing_bytes": self.without_checkpointing,
            "with_checkpointing_bytes": self.with_checkpointing,
            "formula_without": M.text("formula_full" if self.heads else "formula_flash", "en"),
            "formula_with": M.text("formula_ckpt_full" if self.heads else "formula_ckpt_flash", "en"),
            "source": "Korthikanti et al. 2022, arXiv:2205.05198, section 4",
        }


def activation_memory(
    hidden_size: int, layers: int, seq_len: int, micro_batch: int, heads: int | None = None
) -> Activation:
    """Per-GPU activation bytes after Korthikanti et al. 2022 (arXiv:2205.05198), section 4.

    One layer stores ``s·b·h·(34 + 5·a·s/h)`` bytes of 16-bit activations; the ``5·a·s/h`` term (attention scores)
    is left out when ``heads`` is None, as with FlashAttention. With full checkpointing each layer keeps only its
    input, ``2·s·b·h`` bytes, and one layer is recomputed at a time.

    >>> act = activation_memory(4096, 32, 4096, 1)
    >>> act.without_checkpointing, act.with_checkpointing
    (18253611008, 1644167168)
    """
    _check_int(hidden_size, "--hidden-size", 1, MAX_HIDDEN)
    _check_int(layers, "--layers", 1, MAX_LAYERS)
    _check_int(seq_len, "--seq-len", 1, MAX_SEQ_LEN)
    _check_int(micro_batch, "--micro-batch", 1, MAX_MICRO_BATCH)
    if heads is not None:
        _check_int(heads, "--heads", 1, MAX_HIDDEN)
        if heads > hidden_size:
            raise EstimateError("heads_over_hidden", heads=heads, hidden=hidden_size)
    # s·b·h·(34 + 5·a·s/h) == s·b·(34·h + 5·a·s), exact in integers
    per_layer = seq_len * micro_batch * (34 * hidden_size + (5 * heads * seq_len if heads else 0))
    without = layers * per_layer
    with_ckpt = layers * 2 * seq_len * micro_batch * hidden_size + per_layer
    return Activation(hidden_size, layers, seq_len, micro_batch, heads, without, with_ckpt)


# --------------------------------------------------------------------------------------------------------------
# The table.


@dataclass(frozen=True)
class Row:
    """One ZeRO stage and offload choice with its memory figures."""

    stage: int
    offload_optimizer: Device
    offload_param: Device
    zero_init: bool | None
    """Stage 3 only: whether the model is built inside ``deepspeed.zero.Init``."""
    gpu_bytes: int
    """Model states per GPU."""
    cpu_bytes: int
    """CPU memory per node."""
    nvme_bytes: int | None
    """NVMe space per node (NVMe offload only)."""
    source: Source

    @property
    def key(self) -> tuple[int, str, str, bool | None]:
        return (self.stage, self.offload_optimizer, self.offload_param, self.zero_init)

    def to_json(self) -> dict[str, Any]:
        return {
            "stage": self.stage,
            "offload_optimizer": self.offload_optimizer,
            "offload_param": self.offload_param,
            "zero_init": self.zero_init,
            "gpu_bytes_per_gpu": self.gpu_bytes,
            "cpu_bytes_per_node": self.cpu_bytes,
            "nvme_bytes_per_node": self.nvme_bytes,
            "source": self.source,
        }


@dataclass(frozen=True)
class Estimate:
    """Inputs, assumptions and one :class:`Row` per stage and offload choice."""

    params: int
    gpus_per_node: int
    nodes: int
    largest_layer: int
    layer_basis: LayerBasis
    buffer_factor: float
    buffers: SwapBuffers
    rows: tuple[Row, ...]
    activation: Activation | None = None

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    def row(
        self,
        stage: int,
        offload_optimizer: Device = "none",
        offload_param: Device = "none",
        zero_init: bool | None = None,
    ) -> Row:
        """The row of one choice; stage 3 rows default to ``zero_init=True``."""
        if stage == 3 and zero_init is None:
            zero_init = True
        for row in self.rows:
            if row.key == (stage, offload_optimizer, offload_param, zero_init):
                return row
        raise KeyError((stage, offload_optimizer, offload_param, zero_init))

    def to_json(self) -> dict[str, Any]:
        basis = self.layer_basis
        return {
            "params": self.params,
            "gpus_per_node": self.gpus_per_node,
            "nodes": self.nodes,
            "largest_layer_params": self.largest_layer,
            "largest_layer_source": "given" if basis.given else "estimated",
            "largest_layer_basis": None
            if basis.given
            else {
                "vocab_size": basis.vocab,
                "vocab_size_given": basis.vocab_given,
                "hidden_size": basis.hidden,
                "hidden_size_given": basis.hidden_given,
                "capped_at_params": basis.capped,
            },
            "buffer_factor": self.buffer_factor,
            "bytes_per_param": dict(BYTES_PER_PARAM),
            "gigabyte": GIB,
            "swap_buffers": {
                "offload_param.buffer_count": self.buffers.param_buffer_count,
                "offload_param.buffer_size": self.buffers.param_buffer_size,
                "offload_optimizer.buffer_count": self.buffers.optimizer_buffer_count,
                "sub_group_size": self.buffers.sub_group_size,
            },
            "rows": [row.to_json() for row in self.rows],
            "activation": self.activation.to_json() if self.activation else None,
        }


def estimate(
    params: int,
    *,
    gpus_per_node: int = 1,
    nodes: int = 1,
    largest_layer: int | None = None,
    hidden_size: int | None = None,
    vocab_size: int | None = None,
    buffer_factor: float = BUFFER_FACTOR,
    activation: Activation | None = None,
    buffers: SwapBuffers | None = None,
) -> Estimate:
    """Every stage and offload choice for ``params`` parameters on ``nodes`` × ``gpus_per_node`` GPUs.

    Raises :class:`EstimateError` for counts out of range, so that no figure is ever negative or absurd.
    """
    _check_int(params, "--params", 1, MAX_PARAMS)
    _check_int(gpus_per_node, "--gpus-per-node", 1, MAX_GPUS_PER_NODE)
    _check_int(nodes, "--nodes", 1, MAX_NODES)
    if hidden_size is not None:
        _check_int(hidden_size, "--hidden-size", 1, MAX_HIDDEN)
    if vocab_size is not None:
        _check_int(vocab_size, "--vocab-size", 1, MAX_VOCAB)
    if not (isinstance(buffer_factor, (int, float)) and math.isfinite(buffer_factor)) or buffer_factor < 1:
        raise EstimateError("too_small", option="--buffer-factor", value=buffer_factor, minimum=1)
    if buffer_factor > MAX_BUFFER_FACTOR:
        raise EstimateError(
            "too_large", option="--buffer-factor", value=buffer_factor, maximum=_limit(MAX_BUFFER_FACTOR)
        )
    if largest_layer is None:
        largest_layer, basis = largest_layer_estimate(params, hidden_size, vocab_size)
    else:
        _check_int(largest_layer, "--largest-layer", 1, MAX_PARAMS)
        if largest_layer > params:
            raise EstimateError("layer_over_params", layer=largest_layer, params=params)
        basis = LayerBasis(True)
    total_gpus = gpus_per_node * nodes
    swap = (buffers or SwapBuffers.defaults()).for_model(params, largest_layer, total_gpus)
    factor = float(buffer_factor)
    rows: list[Row] = []

    cpu, gpu = zero0_model_states(params, gpus_per_node, factor)
    rows.append(Row(0, "none", "none", None, gpu, cpu, None, "dsref"))
    for offload in (False, True):
        cpu, gpu = zero1_model_states(params, gpus_per_node, nodes, offload, factor)
        rows.append(Row(1, "cpu" if offload else "none", "none", None, gpu, cpu, None, "dsref"))
    for offload in (False, True):
        cpu, gpu = zero2_model_states(params, gpus_per_node, nodes, offload, factor)
        rows.append(Row(2, "cpu" if offload else "none", "none", None, gpu, cpu, None, "deepspeed"))
    for opt, par in ((False, False), (True, False), (True, True)):
        for zero_init in (True, False):
            cpu, gpu, _ = zero3_model_states(params, largest_layer, gpus_per_node, nodes, opt, par, zero_init, factor)
            device: Device = "cpu" if opt else "none"
            rows.append(Row(3, device, "cpu" if par else "none", zero_init, gpu, cpu, None, "deepspeed"))
    for zero_init in (True, False):
        cpu, gpu, nvme = zero3_nvme_model_states(params, largest_layer, gpus_per_node, nodes, zero_init, swap, factor)
        rows.append(Row(3, "nvme", "nvme", zero_init, gpu, cpu, nvme, "dsref"))
    return Estimate(params, gpus_per_node, nodes, largest_layer, basis, factor, swap, tuple(rows), activation)


def row_label(row: Row, lang: Lang) -> str:
    """A short name for a row: ``stage 3 + optimizer → CPU``."""
    if row.offload_param == "nvme":
        label = M.text("label_both_nvme", lang, stage=row.stage)
    elif row.offload_param == "cpu":
        label = M.text("label_both_cpu", lang, stage=row.stage)
    elif row.offload_optimizer == "cpu":
        label = M.text("label_optimizer_cpu", lang, stage=row.stage)
    else:
        label = M.text("label_stage", lang, stage=row.stage)
    return M.text("label_no_init", lang, label=label) if row.zero_init is False else label


def assumption_lines(est: Estimate, lang: Lang) -> list[str]:
    """The assumptions the figures rest on, one sentence each."""
    from ..tree.versions import DEEPSPEED_VERSION

    basis = est.layer_basis
    if basis.given:
        layer = M.text("layer_given", lang, n=format_count(est.largest_layer, lang))
    else:
        layer = M.text(
            "layer_estimated",
            lang,
            n=format_count(est.largest_layer, lang),
            vocab=format_number(basis.vocab, 0, lang),
            vocab_note="" if basis.vocab_given else M.text("vocab_assumed", lang),
            hidden=format_number(basis.hidden, 0, lang),
            hidden_note="" if basis.hidden_given else M.text("hidden_assumed", lang, ratio=WIDTH_PER_LAYER),
            capped=M.text("layer_capped", lang) if basis.capped else "",
        )
    defaults = SwapBuffers.defaults()
    return [
        M.text("assume_bytes", lang),
        M.text("assume_gpu", lang),
        M.text("assume_cpu", lang, factor=format_number(est.buffer_factor, 1, lang)),
        M.text("assume_zero_init", lang),
        layer,
        M.text("assume_gib", lang),
        M.text("source_ds_line", lang, version=DEEPSPEED_VERSION),
        M.text(
            "source_dsref_line",
            lang,
            param_count=defaults.param_buffer_count,
            param_size=format_count(defaults.param_buffer_size, lang),
            opt_count=defaults.optimizer_buffer_count,
            sub_group=format_count(defaults.sub_group_size, lang),
        ),
    ]


# --------------------------------------------------------------------------------------------------------------
# What fits, and a starting config.

SUGGEST_ORDER: tuple[tuple[int, Device, Device], ...] = (
    (0, "none", "none"),
    (1, "none", "none"),
    (2, "none", "none"),
    (2, "cpu", "none"),
    (3, "none", "none"),
    (3, "cpu", "none"),
    (3, "cpu", "cpu"),
    (3, "nvme", "nvme"),
)
"""Fastest first, as Hugging Face Transformers' DeepSpeed guide orders them (stage 3 rows under zero.Init)."""


@dataclass(frozen=True)
class Suggestion:
    """The first choice in :data:`SUGGEST_ORDER` that fits, or ``row=None``; with the budget it was judged by."""

    row: Row | None
    gpu_memory: int
    reserve_percent: float
    activation_bytes: int
    budget: int
    """GPU bytes left for model states: memory less the reserve and the activations."""
    cpu_memory: int | None
    config: dict[str, Any] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "gpu_memory_bytes": self.gpu_memory,
            "reserve_percent": self.reserve_percent,
            "activation_bytes": self.activation_bytes,
            "model_state_budget_bytes": self.budget,
            "cpu_memory_bytes": self.cpu_memory,
            "choice": self.row.to_json() if self.row else None,
            "config": self.config,
        }


def fits(row: Row, budget: int, cpu_memory: int | None) -> bool:
    """Whether a row's model states fit the GPU budget and, when known, its CPU figure the node's memory."""
    return row.gpu_bytes <= budget and (cpu_memory is None or row.cpu_bytes <= cpu_memory)


def gpu_budget(gpu_memory: int, reserve_percent: float = 10.0, activation_bytes: int = 0) -> int:
    """GPU bytes left for model states: the memory less the reserve and the activations (may be negative)."""
    return int(gpu_memory * (100 - reserve_percent) / 100) - activation_bytes


def suggest(
    est: Estimate,
    gpu_memory: int,
    *,
    cpu_memory: int | None = None,
    reserve_percent: float = 10.0,
    checkpointing: bool = False,
    micro_batch: int = 1,
    precision: Precision = "bf16",
    nvme_path: str = "/local_nvme",
) -> Suggestion:
    """The fastest stage and offload whose model states (plus activations, if known) fit ``gpu_memory`` per GPU.

    ``reserve_percent`` of the GPU memory is kept for the CUDA context, communication buffers and fragmentation.
    """
    _check_int(gpu_memory, "--gpu-memory", 1, MAX_BYTES)
    if cpu_memory is not None:
        _check_int(cpu_memory, "--cpu-memory", 1, MAX_BYTES)
    if not (math.isfinite(reserve_percent) and 0 <= reserve_percent <= 90):
        raise EstimateError("out_of_range", option="--reserve", value=f"{reserve_percent:g}", minimum=0, maximum=90)
    act = est.activation
    activation_bytes = 0 if act is None else (act.with_checkpointing if checkpointing else act.without_checkpointing)
    budget = gpu_budget(gpu_memory, reserve_percent, activation_bytes)
    for stage, opt, par in SUGGEST_ORDER:
        row = est.row(stage, opt, par)
        if budget > 0 and fits(row, budget, cpu_memory):
            config = starting_config(
                row, micro_batch=micro_batch, precision=precision, nvme_path=nvme_path, buffers=est.buffers
            )
            return Suggestion(row, gpu_memory, reserve_percent, activation_bytes, budget, cpu_memory, config)
    return Suggestion(None, gpu_memory, reserve_percent, activation_bytes, budget, cpu_memory, None)


def starting_config(
    row: Row,
    *,
    micro_batch: int = 1,
    precision: Precision = "bf16",
    nvme_path: str = "/local_nvme",
    buffers: SwapBuffers | None = None,
) -> dict[str, Any]:
    """A minimal ds_config.json for a row: batch, mixed precision, AdamW (what the estimate assumes), ZeRO.

    AdamW is named so that DeepSpeed builds its CPU Adam when the optimizer is offloaded. With NVMe parameter
    offload, ``buffer_size`` is raised when the largest layer's share of a GPU would not fit one buffer.
    """
    zero: dict[str, Any] = {"stage": row.stage}
    if row.offload_optimizer != "none":
        zero["offload_optimizer"] = {"device": row.offload_optimizer, "pin_memory": True}
        if row.offload_optimizer == "nvme":
            zero["offload_optimizer"]["nvme_path"] = nvme_path
    if row.offload_param != "none":
        zero["offload_param"] = {"device": row.offload_param, "pin_memory": True}
        if row.offload_param == "nvme":
            zero["offload_param"]["nvme_path"] = nvme_path
            if buffers is not None and buffers.param_buffer_size != SwapBuffers.defaults().param_buffer_size:
                zero["offload_param"]["buffer_size"] = buffers.param_buffer_size
    return {
        "train_micro_batch_size_per_gpu": micro_batch,
        "gradient_accumulation_steps": 1,
        precision: {"enabled": True},
        "optimizer": {"type": "AdamW"},
        "zero_optimization": zero,
    }


# --------------------------------------------------------------------------------------------------------------
# For the site and the terminal: cells, a table, an SVG chart.

COLUMNS = ("stage", "offload_optimizer", "offload_param", "zero_init", "gpu", "cpu", "nvme", "source")


def row_cells(row: Row, lang: Lang, fit: bool | None = None) -> dict[str, str]:
    """A row as display strings keyed by column (``fits`` added when ``fit`` is known)."""
    dash = M.text("not_applicable", lang)
    cells = {
        "stage": str(row.stage),
        "offload_optimizer": row.offload_optimizer,
        "offload_param": row.offload_param,
        "zero_init": dash if row.zero_init is None else M.text("yes" if row.zero_init else "no", lang),
        "gpu": format_bytes(row.gpu_bytes, lang),
        "cpu": format_bytes(row.cpu_bytes, lang),
        "nvme": dash if row.nvme_bytes is None else format_bytes(row.nvme_bytes, lang),
        "source": M.text(f"source_{row.source}", lang),
    }
    if fit is not None:
        cells["fits"] = M.text("yes" if fit else "no", lang)
    return cells


def column_labels(lang: Lang, with_fits: bool = False) -> dict[str, str]:
    keys = [*COLUMNS[:-1], "fits", COLUMNS[-1]] if with_fits else list(COLUMNS)
    return {key: M.text(f"col_{key}", lang) for key in keys}


def title(est: Estimate, lang: Lang) -> str:
    return M.text("title", lang, params=format_count(est.params, lang), nodes=est.nodes, gpus=est.gpus_per_node)


def table_data(
    param_counts: Iterable[int],
    *,
    gpus_per_node: int = 8,
    nodes: int = 1,
    lang: Lang = "en",
    gpu_memory: int | None = None,
    reserve_percent: float = 10.0,
) -> dict[str, Any]:
    """The ZeRO page's tables: one per parameter count, display strings and raw bytes, plus the assumptions.

    >>> data = table_data([7_000_000_000], lang="en")
    >>> data["tables"][0]["rows"][3]["cells"]["gpu"], data["tables"][0]["rows"][3]["source"]
    ('27.7 GB', 'deepspeed')
    """
    tables = []
    for params in param_counts:
        est = estimate(params, gpus_per_node=gpus_per_node, nodes=nodes)
        rows = []
        for row in est.rows:
            fit = None if gpu_memory is None else fits(row, gpu_budget(gpu_memory, reserve_percent), None)
            rows.append(
                {
                    "label": row_label(row, lang),
                    "source": row.source,
                    "fits": fit,
                    "cells": row_cells(row, lang, fit),
                    **row.to_json(),
                }
            )
        tables.append(
            {
                "params": params,
                "title": title(est, lang),
                "largest_layer_params": est.largest_layer,
                "rows": rows,
                "assumptions": assumption_lines(est, lang),
            }
        )
    return {
        "lang": lang,
        "gpus_per_node": gpus_per_node,
        "nodes": nodes,
        "columns": column_labels(lang, with_fits=gpu_memory is not None),
        "tables": tables,
    }


def render_table(header: dict[str, str], rows: Sequence[dict[str, str]]) -> str:
    """Aligned plain-text columns: header, a rule, the rows."""
    keys = list(header)
    widths = {k: max(display_width(header[k]), *(display_width(r[k]) for r in rows)) for k in keys}
    right = {"gpu", "cpu", "nvme"}

    def line(cells: dict[str, str]) -> str:
        parts = []
        for k in keys:
            pad = " " * (widths[k] - display_width(cells[k]))
            parts.append(pad + cells[k] if k in right else cells[k] + pad)
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * widths[k] for k in keys)
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"


def _nice_step(maximum: float, ticks: int = 5) -> float:
    raw = maximum / ticks
    power: float = 10.0 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= mult * power:
            return mult * power
    return 10 * power


def render_svg(est: Estimate, lang: Lang, *, gpu_memory: int | None = None, rows: Sequence[Row] | None = None) -> str:
    """A horizontal bar chart (SVG text): model states per GPU and CPU per node for each choice.

    By default one bar pair per choice built under zero.Init (the rows without it differ only in CPU memory);
    ``gpu_memory`` adds a dashed line at the GPU's capacity. Deterministic, self-contained, no scripts.
    """
    from html import escape

    chosen = list(rows) if rows is not None else [r for r in est.rows if r.zero_init is not False]
    width, left, right, top, bar, gap, block = 800, 290, 80, 64, 11, 2, 34
    plot = width - left - right
    height = top + block * len(chosen) + 40
    values = [r.gpu_bytes for r in chosen] + [r.cpu_bytes for r in chosen] + ([gpu_memory] if gpu_memory else [])
    top_gb = max(max(values, default=0) / GIB, 0.1)
    step = _nice_step(top_gb)
    scale_max = step * math.ceil(top_gb / step)

    def x(n_bytes: float) -> float:
        return left + plot * (n_bytes / GIB) / scale_max

    def text(px: float, py: float, content: str, anchor: str = "start", size: int = 12, extra: str = "") -> str:
        return (
            f'<text x="{px:.1f}" y="{py:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{escape(content)}</text>'
        )

    heading = M.text(
        "chart_title", lang, params=format_count(est.params, lang), nodes=est.nodes, gpus=est.gpus_per_node
    )
    gpu_name, cpu_name = M.text("chart_gpu", lang), M.text("chart_cpu", lang)
    colors = {"gpu": "#4c72b0", "cpu": "#dd8452"}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(heading)}" font-family="system-ui, sans-serif">',
        f"<title>{escape(heading)}</title>",
        text(left, 22, heading, size=14, extra=' font-weight="bold"'),
        f'<rect x="{left}" y="34" width="12" height="12" fill="{colors["gpu"]}"/>',
        text(left + 18, 45, gpu_name),
        f'<rect x="{left + 200}" y="34" width="12" height="12" fill="{colors["cpu"]}"/>',
        text(left + 218, 45, cpu_name),
    ]
    axis_bottom = top + block * len(chosen)
    tick = 0.0
    while tick <= scale_max + step / 1000:
        px = left + plot * tick / scale_max
        out.append(f'<line x1="{px:.1f}" y1="{top - 4}" x2="{px:.1f}" y2="{axis_bottom}" stroke="#ddd"/>')
        out.append(
            text(px, axis_bottom + 16, format_number(tick, 0 if step >= 1 else 1, lang), anchor="middle", size=11)
        )
        tick += step
    out.append(text(left + plot / 2, axis_bottom + 34, M.text("chart_axis", lang), anchor="middle", size=11))
    for i, row in enumerate(chosen):
        y0 = top + block * i
        out.append(text(left - 8, y0 + bar + gap / 2 + 4, row_label(row, lang), anchor="end"))
        for j, (kind, value, name) in enumerate((("gpu", row.gpu_bytes, gpu_name), ("cpu", row.cpu_bytes, cpu_name))):
            y = y0 + j * (bar + gap)
            w = max(x(value) - left, 0.0)
            shown = format_bytes(value, lang)
            out.append(
                f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colors[kind]}">'
                f"<title>{escape(f'{row_label(row, lang)}: {name} {shown}')}</title></rect>"
            )
            out.append(text(left + w + 4, y + bar - 1, shown, size=10))
    if gpu_memory:
        px = x(gpu_memory)
        label = M.text("chart_capacity", lang, memory=format_bytes(gpu_memory, lang))
        out.append(
            f'<line x1="{px:.1f}" y1="{top - 8}" x2="{px:.1f}" y2="{axis_bottom}" stroke="#c44e52" '
            'stroke-width="1.5" stroke-dasharray="5,3"/>'
        )
        out.append(
            text(
                px, top - 10, label, anchor="end" if px > left + plot / 2 else "start", size=11, extra=' fill="#c44e52"'
            )
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
