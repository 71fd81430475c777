"""Rules about gradient communication: the reduction operation and unmanaged gradient accumulation."""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import Example, Severity
from . import Context, Hit, rule
from ._common import known, mapping, related, zero_stage


@rule(
    "DS550",
    "allreduce-sum-unsupported",
    Severity.error,
    message="gradient_allreduce_op sum is not supported with {other}",
    explanation=(
        '`gradient_allreduce_op: "sum"` adds the gradients of the data-parallel ranks instead of averaging '
        "them. DeepSpeed refuses it while reading the config when ZeRO stage 3 is on, when "
        "`zero_optimization.zenflow` is configured, or when `compile.deepcompile` is true, because those paths "
        'always average. Use "mean" (the default) and scale the loss or learning rate instead.'
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "gradient_allreduce_op": "sum",
          "zero_optimization": {"stage": 3}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3}
        }
        """,
    ),
)
def allreduce_sum_unsupported(ctx: Context) -> Iterator[Hit]:
    op = ctx.get("gradient_allreduce_op")
    if not (isinstance(op, str) and op.lower() == "sum"):
        return
    anchor = ctx.where("gradient_allreduce_op")
    if zero_stage(ctx) == 3:
        yield Hit(
            anchor,
            "gradient_allreduce_op",
            {"other": "zero_optimization.stage 3"},
            related(ctx, "zero_optimization.stage"),
        )
    elif mapping(ctx, "zero_optimization.zenflow") is not None:
        yield Hit(
            anchor,
            "gradient_allreduce_op",
            {"other": "zero_optimization.zenflow"},
            related(ctx, "zero_optimization.zenflow"),
        )
    elif known(ctx, "compile.deepcompile") is True:
        yield Hit(
            anchor, "gradient_allreduce_op", {"other": "compile.deepcompile"}, related(ctx, "compile.deepcompile")
        )


@rule(
    "DS551",
    "unmanaged-accumulation-conflict",
    Severity.error,
    message="managed_gradient_accumulation false does not work with {other}",
    explanation=(
        "With `managed_gradient_accumulation: false` the training loop, not DeepSpeed, decides where gradient "
        "accumulation ends. At engine start DeepSpeed asserts that this is not combined with `overlap_comm` below "
        "ZeRO stage 2 (overlap is only supported with stage 2 and up), with DeepCompile, or with pipeline "
        "parallelism (which the config file cannot show). Turn `overlap_comm` off or raise the stage, drop "
        "DeepCompile, or keep the default (managed)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "managed_gradient_accumulation": false,
          "zero_optimization": {"stage": 1, "overlap_comm": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "managed_gradient_accumulation": false,
          "zero_optimization": {"stage": 2, "overlap_comm": true}
        }
        """,
    ),
    needs=("managed_gradient_accumulation",),
)
def unmanaged_accumulation(ctx: Context) -> Iterator[Hit]:
    path = "managed_gradient_accumulation"
    # DeepSpeed reads it with dict.get and tests `not value`.
    if not ctx.is_set(path) or ctx.get(path):
        return
    stage = zero_stage(ctx)
    if stage is not None and stage < 2 and known(ctx, "zero_optimization.overlap_comm") is True:
        yield Hit(
            ctx.where(path),
            path,
            {"other": f"zero_optimization.overlap_comm + zero_optimization.stage {stage}"},
            related(ctx, "zero_optimization.overlap_comm"),
        )
    if known(ctx, "compile.deepcompile") is True:
        yield Hit(ctx.where(path), path, {"other": "compile.deepcompile"}, related(ctx, "compile.deepcompile"))
