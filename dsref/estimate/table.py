"""The estimate: one row per ZeRO stage and offload choice, with its memory per GPU and per node and where its
formula comes from.

>>> est = estimate(7_000_000_000, gpus_per_node=8)
>>> row = est.row(2, "none")
>>> row.gpu_bytes, row.source
(29750000000, 'deepspeed')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from ..records import record
from .activations import LayerBasis, largest_layer_estimate
from .messages import M
from .model import WIDTH_PER_LAYER
from .model_states import (
    BUFFER_FACTOR,
    BYTES_PER_PARAM,
    SwapBuffers,
    zero0_model_states,
    zero1_model_states,
    zero2_model_states,
    zero3_model_states,
    zero3_nvme_model_states,
)
from .quantities import (
    GIB,
    MAX_BUFFER_FACTOR,
    MAX_GPUS_PER_NODE,
    MAX_HIDDEN,
    MAX_NODES,
    MAX_PARAMS,
    MAX_VOCAB,
    EstimateError,
    OffloadDevice,
    Param,
    check_int,
    format_count,
    format_number,
    limit_text,
)

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = ["Estimate", "Row", "assumption_lines", "estimate", "row_label"]

Source = Literal["deepspeed", "dsref"]


@record
class Row:
    """One ZeRO stage and offload choice with its memory figures."""

    stage: int
    offload_optimizer: OffloadDevice
    offload_param: OffloadDevice
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


@record
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

    @property
    def total_gpus(self) -> int:
        return self.gpus_per_node * self.nodes

    def row(
        self,
        stage: int,
        offload_optimizer: OffloadDevice = "none",
        offload_param: OffloadDevice = "none",
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
        }


def estimate(
    params: int,
    *,
    gpus_per_node: int = 1,
    nodes: int = 1,
    largest_layer: int | None = None,
    hidden_size: int | None = None,
    vocab_size: int | None = None,
    layers: int | None = None,
    buffer_factor: float = BUFFER_FACTOR,
    buffers: SwapBuffers | None = None,
) -> Estimate:
    """Every stage and offload choice for ``params`` parameters on ``nodes`` × ``gpus_per_node`` GPUs.

    Raises :class:`EstimateError` for counts out of range, so that no figure is ever negative or absurd.
    """
    check_int(params, Param.params, 1, MAX_PARAMS)
    check_int(gpus_per_node, Param.gpus_per_node, 1, MAX_GPUS_PER_NODE)
    check_int(nodes, Param.nodes, 1, MAX_NODES)
    if hidden_size is not None:
        check_int(hidden_size, Param.hidden_size, 1, MAX_HIDDEN)
    if vocab_size is not None:
        check_int(vocab_size, Param.vocab_size, 1, MAX_VOCAB)
    if not (isinstance(buffer_factor, (int, float)) and math.isfinite(buffer_factor)) or buffer_factor < 1:
        raise EstimateError("too_small", option=Param.buffer_factor, value=buffer_factor, minimum=1)
    if buffer_factor > MAX_BUFFER_FACTOR:
        raise EstimateError(
            "too_large", option=Param.buffer_factor, value=buffer_factor, maximum=limit_text(MAX_BUFFER_FACTOR)
        )
    if largest_layer is None:
        largest_layer, basis = largest_layer_estimate(params, hidden_size, vocab_size, layers)
    else:
        check_int(largest_layer, Param.largest_layer, 1, MAX_PARAMS)
        if largest_layer > params:
            raise EstimateError(
                "layer_over_params", option=Param.largest_layer, layer=largest_layer, total=Param.params, params=params
            )
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
            device: OffloadDevice = "cpu" if opt else "none"
            rows.append(Row(3, device, "cpu" if par else "none", zero_init, gpu, cpu, None, "deepspeed"))
    for zero_init in (True, False):
        cpu, gpu, nvme = zero3_nvme_model_states(params, largest_layer, gpus_per_node, nodes, zero_init, swap, factor)
        rows.append(Row(3, "nvme", "nvme", zero_init, gpu, cpu, nvme, "dsref"))
    return Estimate(params, gpus_per_node, nodes, largest_layer, basis, factor, swap, tuple(rows))


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
