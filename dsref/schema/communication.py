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
        former_values=(("bfp16", "bf16"),),
        description="Data type that gradients are converted to for the reduction across data-parallel ranks; null uses "
        "the training precision. fp32 while training in fp16 or bf16 gives a more accurate sum over many ranks at "
        "twice the traffic, and fp16 or bf16 while training in fp32 halves the traffic at some cost in precision. "
        "seq_parallel_communication_data_type replaces it while Ulysses sequence parallelism is active, and with "
        "torch_autocast enabled the ZeRO optimizers use per-parameter types instead.",
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
        description="How the data-parallel gradient reduction combines the ranks' gradients: mean averages them (the "
        "usual), sum adds them up. Choose sum only when your loss is already normalised over the whole global batch "
        "(for example divided by the total token count across all ranks), because DeepSpeed then does no division at "
        "all and ignores prescale_gradients and gradient_predivide_factor. sum is rejected with ZeRO stage 3, ZenFlow "
        "and DeepCompile.",
        enum_docs=(
            ("mean", "Average gradients over the data-parallel ranks (the usual behaviour)."),
            ("sum", "Add gradients without dividing by the number of ranks."),
        ),
        ds_constant="deepspeed.runtime.constants.GRADIENT_ALLREDUCE_OP_DEFAULT",
    )
    prescale_gradients: bool = option(
        False,
        description="Divides the gradients by the number of data-parallel ranks before the all-reduce instead of after "
        "it. This keeps fp16 sums over very many ranks from overflowing, at the risk of small gradients underflowing; "
        "gradient_predivide_factor is a finer-grained alternative. It only applies when gradient_allreduce_op is mean, "
        "and must stay false at ZeRO stages 2 and 3 while zero_optimization.reduce_scatter is on (the default).",
        ds_constant="deepspeed.runtime.constants.PRESCALE_GRADIENTS_DEFAULT",
    )
    gradient_predivide_factor: float = option(
        1.0,
        gt=0,
        since="0.2.0",
        description="Splits the averaging division around the all-reduce: gradients are divided by this factor before "
        "it and by (data-parallel size / factor) after it. A factor between 1 and the number of ranks, such as its "
        "square root, keeps large fp16 sums from overflowing without making small values underflow. It is used only "
        "when prescale_gradients is false and gradient_allreduce_op is mean, and must stay 1.0 at ZeRO stages 2 and 3 "
        "while zero_optimization.reduce_scatter is on (the default).",
        ds_constant="deepspeed.runtime.constants.GRADIENT_PREDIVIDE_FACTOR_DEFAULT",
        example=2.0,
    )
    seq_parallel_communication_data_type: CommDataType | None = option(
        "fp32",
        former_names=("seq_parallel_comm_data_type",),
        enforced=True,
        since="0.11.2",
        case_insensitive=True,
        description="Data type of the gradient reduction while Ulysses sequence parallelism is active (a "
        "sequence-parallel group of more than one rank); it then replaces communication_data_type. The fp32 default "
        "keeps the reduction over the combined data- and sequence-parallel ranks accurate at twice the traffic of "
        "bf16; null falls back to the training precision.",
        enum_docs=_COMM_DTYPE_DOCS,
        ds_constant="deepspeed.runtime.constants.SEQ_PARALLEL_COMMUNICATION_DATA_TYPE_DEFAULT",
    )
    disable_allgather: bool = option(
        False,
        parsed_unused=True,
        description="Has no effect: DeepSpeed 0.19.8 reads the key into its config object but nothing uses it, so it "
        "can be deleted.",
        ds_constant="deepspeed.runtime.constants.DISABLE_ALLGATHER_DEFAULT",
    )
    sequence_parallel_size: int = option(
        1,
        enforced=True,
        ge=1,
        since="0.15.0",
        unit="ranks",
        description="Number of ranks in each Ulysses sequence-parallel group, declared in the config rather than "
        "through an mpu object. When neither an mpu nor a device mesh is given, DeepSpeed divides the world size by it "
        "to get the data-parallel size for the batch arithmetic, and together with data_parallel_size it makes "
        "deepspeed.initialize build a data x sequence device mesh. On its own it creates no sequence-parallel groups; "
        "those come from that mesh or from an mpu.",
        default_note="When absent, the world size is not divided, which is the same as 1.",
    )
    data_parallel_size: int | None = option(
        None,
        requires=(("sequence_parallel_size", 2),),
        example=4,
        enforced=True,
        ge=1,
        since="0.15.0",
        unit="ranks",
        description="Number of data-parallel replicas, used only together with sequence_parallel_size. With both keys "
        "deepspeed.initialize builds a two-dimensional data x sequence device mesh, whose product must equal the world "
        "size, and takes the data-parallel group and the batch arithmetic from it. It is ignored on its own and when a "
        "mesh_param argument is passed to deepspeed.initialize.",
        default_note="When absent, no device mesh is built and the data-parallel size comes from the world size.",
    )
    use_data_before_expert_parallelism: bool = option(
        False,
        since="0.12.4",
        description="Orders MoE process groups data-parallel first instead of expert-parallel first. By default "
        "consecutive ranks form an expert-parallel group, so the token all-to-all stays among neighbouring (often "
        "same-node) ranks, and the replicas of each expert are strided; true swaps this, so consecutive ranks hold "
        "replicas of the same experts. It is not supported with model or tensor parallelism (mp size > 1) or with "
        "AutoEP+AutoTP folding; leave it false unless you need the other layout.",
        ds_constant="deepspeed.runtime.constants.USE_DATA_BEFORE_EXPERT_PARALLEL_DEFAULT",
    )
    sparse_gradients: bool = option(
        False,
        removed_in="0.19.8",
        removal_note="DeepSpeed no longer compresses gradients of dense embeddings and refuses the key; delete it "
        "(embeddings created with sparse=True still get sparse reduction without any setting).",
        description="Formerly reduced the gradients of torch.nn.Embedding layers as sparse tensors.",
    )
