"""Communication: top-level keys for gradient reduction and parallel group sizes."""

from __future__ import annotations

from typing import Literal

from ._base import Section
from ._meta import option

CommDataType = Literal["fp16", "bf16", "fp32"]

_COMM_DTYPE_DOCS: tuple[tuple[str, str], ...] = (
    ("fp16", "IEEE half precision."),
    ("bf16", "bfloat16."),
    ("fp32", "Single precision: the most accurate reduction, twice the traffic of the 16-bit types."),
)


class CommunicationOptions(Section):
    """Top-level fields contributed by this module."""

    communication_data_type: CommDataType | None = option(
        None,
        enforced=True,
        since="0.5.8",
        case_insensitive=True,
        description="Data type in which gradients are reduced across data-parallel ranks; fp32 avoids precision "
        "loss in the sum at the cost of more traffic.",
        default_note="When null, gradients are communicated in the training precision: fp16 if fp16 is enabled, "
        "else bf16 if bf16 is enabled, else fp32.",
        enum_docs=_COMM_DTYPE_DOCS,
        example="fp32",
        ds_constant="deepspeed.runtime.constants.COMMUNICATION_DATA_TYPE_DEFAULT",
    )
    gradient_allreduce_op: Literal["mean", "sum"] = option(
        "mean",
        enforced=True,
        since="0.19.6",
        case_insensitive=True,
        description="Whether data-parallel gradient reduction averages or sums the gradients; sum is rejected with "
        "ZeRO stage 3, ZenFlow and DeepCompile.",
        enum_docs=(
            ("mean", "Average gradients over the data-parallel ranks (the usual behaviour)."),
            ("sum", "Add gradients without dividing by the number of ranks."),
        ),
        ds_constant="deepspeed.runtime.constants.GRADIENT_ALLREDUCE_OP_DEFAULT",
    )
    prescale_gradients: bool = option(
        False,
        description="Divides gradients by the data-parallel world size before the all-reduce instead of after it; "
        "must stay false when ZeRO uses reduce_scatter.",
        ds_constant="deepspeed.runtime.constants.PRESCALE_GRADIENTS_DEFAULT",
    )
    gradient_predivide_factor: float = option(
        1.0,
        gt=0,
        since="0.2.0",
        description="Gradients are divided by this factor before the all-reduce and by world size / factor after "
        "it, which can avoid fp16 overflow or underflow in the sum; must stay 1.0 when ZeRO uses reduce_scatter.",
        ds_constant="deepspeed.runtime.constants.GRADIENT_PREDIVIDE_FACTOR_DEFAULT",
    )
    seq_parallel_communication_data_type: CommDataType | None = option(
        "fp32",
        enforced=True,
        since="0.11.2",
        case_insensitive=True,
        description="Data type of gradient communication when Ulysses sequence parallelism is active (sequence "
        "parallel size > 1); it then replaces communication_data_type, and null falls back to the training "
        "precision.",
        enum_docs=_COMM_DTYPE_DOCS,
        ds_constant="deepspeed.runtime.constants.SEQ_PARALLEL_COMMUNICATION_DATA_TYPE_DEFAULT",
    )
    disable_allgather: bool = option(
        False,
        parsed_unused=True,
        description="Read into the config object but has no effect anywhere in DeepSpeed.",
        ds_constant="deepspeed.runtime.constants.DISABLE_ALLGATHER_DEFAULT",
    )
    sequence_parallel_size: int = option(
        1,
        enforced=True,
        ge=1,
        since="0.15.0",
        unit="ranks",
        description="Ranks per sequence-parallel group when no mpu object is passed; DeepSpeed divides the world "
        "size by it to get the data-parallel size used in the batch arithmetic.",
        default_note="When absent, the world size is not divided, which is the same as 1.",
    )
    data_parallel_size: int | None = option(
        None,
        enforced=True,
        ge=1,
        since="0.15.0",
        unit="ranks",
        description="Data-parallel size; together with sequence_parallel_size it makes deepspeed.initialize build a "
        "data * sequence parallel device mesh, so the product should equal the world size.",
        default_note="When absent, no device mesh is built and the data-parallel size comes from the world size.",
    )
    use_data_before_expert_parallelism: bool = option(
        False,
        since="0.12.4",
        description="Orders MoE process groups data-parallel first (D + E) instead of expert-parallel first "
        "(E + D), which changes which ranks share expert groups.",
        ds_constant="deepspeed.runtime.constants.USE_DATA_BEFORE_EXPERT_PARALLEL_DEFAULT",
    )
    sparse_gradients: bool = option(
        False,
        removed_in="0.19.8",
        removal_note="DeepSpeed no longer compresses gradients of dense embeddings and refuses the key; delete it "
        "(embeddings created with sparse=True still get sparse reduction without any setting).",
        description="Formerly reduced the gradients of torch.nn.Embedding layers as sparse tensors.",
    )
