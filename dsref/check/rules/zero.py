"""Rules about `zero_optimization`: deprecated keys, stage-bound options and what the ZeRO optimizers assert."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from ...tree.options import Option, OptionTree
from ..edits import Applicability
from ..findings import Example, Severity
from ..repairs import RemoveMember
from . import Context, Hit, rule
from ._common import UNKNOWN, auto_paths, known, mapping, offload_device, related, zero_stage
from .precision import bf16_optimizer_path

ZERO = "zero_optimization"

# Stage-bound options the generic "ignored at this stage" rule leaves alone, each for a reason found in DeepSpeed
# 0.19.8's code: another rule reports them (with a more exact message or a higher severity), or some code path
# still reads them at the other stages.
_NOT_GENERIC = frozenset(
    {
        f"{ZERO}.offload_param",  # DS530 (only a device other than none matters)
        f"{ZERO}.cpu_offload_param",  # DS530: the old spelling of offload_param
        f"{ZERO}.offload_optimizer.ratio",  # DS533: an error below stage 3
        f"{ZERO}.compute_grad_norm",  # DS521: an error outside stages 1-2
        f"{ZERO}.legacy_stage1",  # DS523: an error at every stage from 1
        f"{ZERO}.load_from_fp32_weights",  # stage 3 reads it when loading universal checkpoints
        f"{ZERO}.elastic_checkpoint",  # stage 3 still reads it when loading ZeRO checkpoints
        f"{ZERO}.pipeline_loading_checkpoint",  # below stage 3 checkpoint loading asserts instead
        f"{ZERO}.leaf_module",  # applied to the model at every stage
        f"{ZERO}.ignore_unused_parameters",  # read at stages 1 and 2, with optimizer offload only
    }
)


def _stages_text(stages: tuple[int, ...]) -> str:
    return str(stages[0]) if len(stages) == 1 else f"{min(stages)}-{max(stages)}"


@rule(
    "DS520",
    "deprecated-key-with-replacement",
    Severity.error,
    message="{old} is the deprecated form of {use_instead}; DeepSpeed refuses a config that has both",
    explanation=(
        "Some old ZeRO keys are mapped by DeepSpeed onto their replacement: `cpu_offload` onto `offload_optimizer` "
        "and `cpu_offload_param` onto `offload_param`. When the file also writes the replacement, DeepSpeed stops "
        'while reading the config ("Cannot provide deprecated parameter ... and replacing parameter ... '
        'together"), whatever the two values are, even false or null. Delete the old key and keep the new '
        "section (device cpu is what `true` meant)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "cpu_offload": true,
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 2,
            "overlap_comm": true,
            "offload_optimizer": {"device": "cpu"}
          },
          "optimizer": {"type": "AdamW", "params": {"lr": 1e-4}}
        }
        """,
        also=("DS301",),
    ),
    needs=(ZERO,),
)
def deprecated_with_replacement(ctx: Context) -> Iterator[Hit]:
    for opt, replacement in _replaced(ctx.tree):
        if ctx.is_set(opt.path) and ctx.is_set(replacement.path):
            yield Hit(
                ctx.where(opt.path),
                opt.path,
                {"old": opt.key, "use_instead": replacement.path},
                related(ctx, replacement.path),
            )


@cache
def _replaced(tree: OptionTree) -> tuple[tuple[Option, Option], ...]:
    """The deprecated keys of zero_optimization DeepSpeed maps onto a replacement in the same model, with it (the
    same for every file: worked out once per tree)."""
    pairs = []
    for opt in tree.iter_subtree(ZERO):
        meta = opt.meta
        if not (meta.deprecated and meta.use_instead and opt.validated_by_deepspeed) or meta.parsed_unused:
            continue
        replacement = tree.get(meta.use_instead) if meta.use_instead in tree else None
        if replacement is None or replacement.parent != opt.parent:
            continue  # DeepSpeed only asserts for a replacement in the same model
        pairs.append((opt, replacement))
    return tuple(pairs)


@rule(
    "DS521",
    "compute-grad-norm-stage",
    Severity.error,
    message="zero_optimization.compute_grad_norm false is accepted only at ZeRO stage 1 or 2, not at stage {stage}",
    explanation=(
        "Skipping the global gradient norm is implemented in the ZeRO stage 1 and 2 optimizer only. DeepSpeed's "
        "ZeRO config rejects `compute_grad_norm: false` at stage 0 or 3 while it reads the config. Remove the key "
        "(the norm is computed by default) or use stage 1 or 2."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "compute_grad_norm": false}
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
def compute_grad_norm_stage(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.compute_grad_norm"
    if stage is not None and known(ctx, path) is False and stage not in (1, 2):
        yield Hit(ctx.where(path), path, {"stage": stage})


@rule(
    "DS522",
    "compute-grad-norm-conflict",
    Severity.error,
    message="zero_optimization.compute_grad_norm false does not work with {other} = {value}",
    explanation=(
        "Without the global gradient norm nothing can be clipped, and some paths need the norm. When DeepSpeed "
        "builds the stage 1-2 optimizer it raises ValueError if `compute_grad_norm` is false and "
        "`gradient_clipping` is above 0 (the default is 1.0 since 0.19.3), or ZenFlow is configured, or the "
        "optimizer is offloaded; with bf16, stage 1 and fp32 gradient accumulation (which uses the BF16 "
        "optimizer) it is refused as well. Set `gradient_clipping` to 0 and drop the conflicting setting, or keep "
        "the norm."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "compute_grad_norm": false}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "gradient_clipping": 0,
          "zero_optimization": {"stage": 2, "overlap_comm": true, "compute_grad_norm": false}
        }
        """,
    ),
)
def compute_grad_norm_conflict(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.compute_grad_norm"
    if stage not in (1, 2) or known(ctx, path) is not False:
        return
    anchor = ctx.where(path)
    if bf16_optimizer_path(ctx):
        yield Hit(anchor, path, {"other": "data_types.grad_accum_dtype", "value": "fp32"})
        return
    clip = known(ctx, "gradient_clipping")
    if isinstance(clip, (int, float)) and not isinstance(clip, bool) and clip > 0:
        yield Hit(anchor, path, {"other": "gradient_clipping", "value": clip}, related(ctx, "gradient_clipping"))
    if mapping(ctx, f"{ZERO}.zenflow") is not None:
        yield Hit(anchor, path, {"other": f"{ZERO}.zenflow", "value": "{…}"}, related(ctx, f"{ZERO}.zenflow"))
    device = offload_device(ctx, "optimizer")
    if device in ("cpu", "nvme"):
        other = f"{ZERO}.offload_optimizer.device"
        yield Hit(anchor, path, {"other": other, "value": device}, related(ctx, other))


@rule(
    "DS523",
    "legacy-stage1",
    Severity.error,
    message="zero_optimization.legacy_stage1 true: the old ZeRO stage 1 no longer exists and the engine refuses "
    "to start",
    explanation=(
        "The legacy stage 1 implementation was removed in DeepSpeed 0.5.9. With ZeRO enabled, building the ZeRO "
        "optimizer raises an exception when `legacy_stage1` is true. Remove the key; the current stage 1 is used "
        "by default. At stage 0 the key is not read."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "legacy_stage1": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1}
        }
        """,
    ),
)
def legacy_stage1(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.legacy_stage1"
    if stage and known(ctx, path) is True and not bf16_optimizer_path(ctx):
        yield Hit(ctx.where(path), path)


@cache
def _tree_order(tree: OptionTree) -> dict[str, int]:
    """The options of zero_optimization by path, numbered in tree order (parents before children); read only."""
    return {opt.path: i for i, opt in enumerate(tree.iter_subtree(ZERO))}


def _topmost_out_of_stage(ctx: Context, stage: int) -> Iterator[Option]:
    """Written options of zero_optimization whose stages exclude ``stage``, without their descendants."""
    reported: list[str] = []
    order = _tree_order(ctx.tree)
    # the written ones only, in tree order (parents before children); filter and sort run in C, no Python frame
    # per written key
    written = sorted(filter(order.__contains__, ctx.effective.values), key=order.__getitem__)
    for path in written:
        opt = ctx.tree.get(path)
        if opt.stages is None or stage in opt.stages:
            continue  # (the common case, asked first: both tests only skip)
        if any(opt.path.startswith(p + ".") for p in reported):
            continue
        if opt.meta.parsed_unused or opt.meta.deprecated or opt.removed_in or opt.meta.docs_only:
            continue  # reported elsewhere (DS575, DS301, DS302, DS303)
        if opt.path in _NOT_GENERIC:
            reported.append(opt.path)  # and skip what is under it
            continue
        reported.append(opt.path)
        yield opt


@rule(
    "DS524",
    "option-ignored-at-stage",
    Severity.warning,
    message="{written} applies only at ZeRO stage {stages}; at stage {stage} DeepSpeed ignores it",
    explanation=(
        "Many ZeRO keys belong to one implementation: the stage 1-2 optimizer (bucketing, round-robin gradients, "
        "multi-rank all-reduce) or stage 3 (parameter partitioning: the `stage3_*` keys, prefetching, "
        "persistence thresholds, ZeRO++, `sub_group_size`, the NVMe pipeline of optimizer offload). DeepSpeed "
        "accepts them at every stage but only the matching implementation reads them, so at another stage they "
        "change nothing. This is common in configs copied from a template for another stage. Remove the key, or "
        "set the stage it was meant for. Stage 0 (ZeRO off) is not checked here."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "allgather_bucket_size": 200000000}
        }
        """,
    ),
    fix=Applicability.unsafe,
    needs=(ZERO,),
)
def option_ignored_at_stage(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if not stage:
        return
    for opt in _topmost_out_of_stage(ctx, stage):
        assert opt.stages is not None
        location = ctx.where(opt.path)
        key = str(location[-1]) if location else opt.key
        # remove it (unsafe: the user may mean to change the stage)
        repair = RemoveMember(
            location=location, applicability=Applicability.unsafe, title="remove_ignored",
            args={"key": key, "stage": stage},
        ) if location else None  # fmt: skip
        yield Hit(
            location, opt.path, {"written": key, "stages": _stages_text(opt.stages), "stage": stage}, repair=repair
        )


@rule(
    "DS525",
    "allgather-bucket-odd",
    Severity.error,
    message="zero_optimization.allgather_bucket_size {value} is odd; ZeRO stage {stage} needs a multiple of 2",
    explanation=(
        "The stage 1-2 optimizer aligns its all-gather buffers to 4 bytes, that is 2 half-precision elements, and "
        "asserts when it is built that `allgather_bucket_size` is a multiple of 2. Use an even number such as "
        "5e8 or 2e8."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "allgather_bucket_size": 200000001}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "allgather_bucket_size": 200000000}
        }
        """,
    ),
    needs=(ZERO,),
)
def allgather_bucket_odd(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    path = f"{ZERO}.allgather_bucket_size"
    value = ctx.get(path)
    if stage not in (1, 2) or bf16_optimizer_path(ctx) or not ctx.is_set(path):
        return
    if isinstance(value, int) and not isinstance(value, bool) and value % 2:
        yield Hit(ctx.where(path), path, {"value": value, "stage": stage})


@rule(
    "DS526",
    "reduce-scatter-prescaling",
    Severity.error,
    message="{option} = {value} is not supported by ZeRO stage {stage} with reduce_scatter; the optimizer "
    "refuses to start",
    explanation=(
        "With `reduce_scatter` on (the default), the ZeRO stage 2 and 3 optimizers reduce gradients in one step "
        "and support neither `gradient_predivide_factor` other than 1.0 nor `prescale_gradients: true`; they "
        "assert when they are built. At stage 2 this holds while gradients are averaged (`gradient_allreduce_op` "
        "mean, the default); at stage 3 always. Remove the two keys, or set `zero_optimization.reduce_scatter` "
        "to false."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "gradient_predivide_factor": 2.0,
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
def reduce_scatter_prescaling(ctx: Context) -> Iterator[Hit]:
    stage = zero_stage(ctx)
    if stage not in (2, 3) or known(ctx, f"{ZERO}.reduce_scatter") is not True:
        return
    op = ctx.get("gradient_allreduce_op")
    if stage == 2 and not (isinstance(op, str) and op.lower() == "mean"):
        return
    factor = ctx.get("gradient_predivide_factor")
    if isinstance(factor, (int, float)) and not isinstance(factor, bool) and factor != 1.0:
        yield Hit(
            ctx.where("gradient_predivide_factor"),
            "gradient_predivide_factor",
            {"option": "gradient_predivide_factor", "value": factor, "stage": stage},
        )
    if ctx.get("prescale_gradients") is True:
        yield Hit(
            ctx.where("prescale_gradients"),
            "prescale_gradients",
            {"option": "prescale_gradients", "value": "true", "stage": stage},
        )


@rule(
    "DS527",
    "allgather-sequential-overrides-prefetch",
    Severity.warning,
    message="stage3_allgather_sequential is on, so DeepSpeed replaces stage3_prefetch_bucket_size {value} with 1",
    explanation=(
        "Sequential all-gather fetches parameters one by one instead of in buckets. When the ZeRO-3 optimizer is "
        "built with `stage3_allgather_sequential: true`, the engine sets the prefetch bucket size to 1, so the "
        "`stage3_prefetch_bucket_size` written in the file has no effect. Remove one of the two."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {
            "stage": 3,
            "stage3_allgather_sequential": true,
            "stage3_prefetch_bucket_size": 50000000
          }
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "stage3_allgather_sequential": true}
        }
        """,
    ),
    needs=(ZERO,),
)
def allgather_sequential_prefetch(ctx: Context) -> Iterator[Hit]:
    path = f"{ZERO}.stage3_prefetch_bucket_size"
    if zero_stage(ctx) != 3 or known(ctx, f"{ZERO}.stage3_allgather_sequential") is not True:
        return
    value = known(ctx, path)
    if ctx.is_set(path) and value is not UNKNOWN and value != 1:
        yield Hit(ctx.where(path), path, {"value": value}, related(ctx, f"{ZERO}.stage3_allgather_sequential"))


@rule(
    "DS528",
    "zero-section-without-stage",
    Severity.warning,
    message="zero_optimization sets {count} keys but no stage, so ZeRO stays off (stage 0) and they do almost nothing",
    explanation=(
        "`zero_optimization.stage` defaults to 0, which turns ZeRO off: no partitioning, no offload, no "
        "bucketing. A `zero_optimization` section that configures buckets, overlap or offload but leaves out "
        "`stage` therefore runs plain data parallelism, and its keys are ignored (an optimizer offload even makes "
        'the first step fail, see DS536). Add the stage you meant. Writing `"stage": 0` explicitly silences '
        "this warning."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"overlap_comm": true, "contiguous_gradients": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "overlap_comm": true, "contiguous_gradients": true}
        }
        """,
    ),
    needs=(ZERO,),
)
def zero_section_without_stage(ctx: Context) -> Iterator[Hit]:
    section = mapping(ctx, ZERO)
    if section is None or ctx.is_set(f"{ZERO}.stage") or f"{ZERO}.stage" in auto_paths(ctx):
        return
    written = [opt for opt in ctx.tree.children(ZERO) if ctx.is_set(opt.path)]
    if written:
        yield Hit(ctx.where(ZERO), ZERO, {"count": len(written)})


@rule(
    "DS529",
    "qgz-needs-reduce-scatter",
    Severity.error,
    message="zero_quantized_gradients (qgZ) at ZeRO stage 3 needs reduce_scatter, which is false here",
    explanation=(
        "ZeRO++ quantized gradients (`zero_quantized_gradients`) replace the stage-3 gradient reduction with an "
        "all-to-all of quantized gradients. When the engine builds the stage-3 optimizer it asserts that "
        "`reduce_scatter` is still true, because the data-type checks of that path rely on it, so the run stops "
        "before the first step. Remove `reduce_scatter: false`, or turn qgZ off."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_quantized_gradients": true, "reduce_scatter": false}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_quantized_gradients": true}
        }
        """,
    ),
)
def qgz_needs_reduce_scatter(ctx: Context) -> Iterator[Hit]:
    if zero_stage(ctx) != 3 or known(ctx, f"{ZERO}.zero_quantized_gradients") is not True:
        return
    if known(ctx, f"{ZERO}.reduce_scatter") is False:
        path = f"{ZERO}.reduce_scatter"
        yield Hit(ctx.where(path), path, related=related(ctx, f"{ZERO}.zero_quantized_gradients"))


@rule(
    "DS580",
    "hpz-world-size",
    Severity.error,
    message="zero_hpz_partition_size {size} does not divide the {world} GPUs of the run",
    explanation=(
        "ZeRO++ hierarchical partitioning (hpZ, `zero_hpz_partition_size` > 1 at stage 3) builds groups of that "
        "many consecutive ranks, each holding a secondary copy of the parameters. DeepSpeed asserts that the world "
        "size divides evenly into such groups when the engine starts. Use a size that divides the number of GPUs, "
        "usually the number of GPUs per node. dsref checks this only when `--world-size` is given (and assumes no "
        "tensor or pipeline parallelism, so that the world size is the number of GPUs)."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_hpz_partition_size": 3}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 3, "zero_hpz_partition_size": 8}
        }
        """,
        world_size=16,
    ),
)
def hpz_world_size(ctx: Context) -> Iterator[Hit]:
    size = known(ctx, f"{ZERO}.zero_hpz_partition_size")
    world = ctx.world_size
    if world is None or zero_stage(ctx) != 3 or not isinstance(size, int) or isinstance(size, bool) or size <= 1:
        return
    group = min(size, world)
    if world % group:
        path = f"{ZERO}.zero_hpz_partition_size"
        yield Hit(ctx.where(path), path, {"size": size, "world": world})


# ZeRO keys DeepSpeed 0.19.8 still reads when bf16 + stage 1 + fp32 gradient accumulation selects BF16_Optimizer
# (engine._do_optimizer_sanity_check) instead of the ZeRO stage 1-2 optimizer. Every other stage-1 key of
# zero_optimization is read only in engine._configure_zero_optimizer, which that path never calls.
BF16_OPTIMIZER_READS = frozenset(
    {
        f"{ZERO}.allgather_bucket_size",  # passed to BF16_Optimizer (engine._configure_bf16_optimizer)
        f"{ZERO}.compute_grad_norm",  # false is refused on that path (DS522)
        f"{ZERO}.load_from_fp32_weights",  # passed to BF16_Optimizer.load_state_dict
        f"{ZERO}.elastic_checkpoint",  # engine._get_all_zero_checkpoint_state_dicts reads it for any optimizer
        f"{ZERO}.offload_optimizer",  # decides the path itself (cpu leaves it) and the optimizer class
        f"{ZERO}.cpu_offload",  # the deprecated spelling of offload_optimizer
        f"{ZERO}.zenflow",  # read by the engine's step logic, not only by the ZeRO optimizer
    }
)


@rule(
    "DS583",
    "bf16-optimizer-ignores-zero-keys",
    Severity.warning,
    message="with bf16, ZeRO stage 1 and fp32 gradient accumulation DeepSpeed uses its BF16 optimizer, which "
    "ignores {written}",
    explanation=(
        "With `bf16.enabled`, `zero_optimization.stage` 1, `data_types.grad_accum_dtype` fp32 and no optimizer "
        "offload to the CPU, DeepSpeed wraps the optimizer in its BF16 optimizer instead of the ZeRO stage 1 "
        "optimizer. That wrapper partitions the fp32 master weights and optimizer states itself and reads only "
        "`allgather_bucket_size` of the ZeRO settings (checkpoint loading still follows `load_from_fp32_weights` "
        "and `elastic_checkpoint`). The bucketing and communication keys of the stage 1 optimizer "
        "(`reduce_bucket_size`, `overlap_comm`, `contiguous_gradients`, `reduce_scatter`, `round_robin_gradients`, "
        "…) therefore change nothing. Remove them, or use bf16 gradient accumulation (leave out "
        "`grad_accum_dtype`) or stage 2 if you want the ZeRO optimizer that honours them."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1, "reduce_bucket_size": 200000000},
          "data_types": {"grad_accum_dtype": "fp32"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "bf16": {"enabled": true},
          "zero_optimization": {"stage": 1},
          "data_types": {"grad_accum_dtype": "fp32"}
        }
        """,
    ),
    needs=(ZERO,),
)
def bf16_optimizer_ignores_zero_keys(ctx: Context) -> Iterator[Hit]:
    if not bf16_optimizer_path(ctx) or offload_device(ctx, "optimizer") is UNKNOWN:
        return
    if known(ctx, "compile.deepcompile") is not False:
        return  # DeepCompile reads reduce_bucket_size and expects the ZeRO optimizer: another path
    ignored = [
        opt
        for opt in ctx.tree.children(ZERO)
        if opt.stages is not None
        and 1 in opt.stages
        and opt.path not in BF16_OPTIMIZER_READS
        and ctx.is_set(opt.path)
        and not (opt.meta.parsed_unused or opt.meta.deprecated or opt.removed_in or opt.meta.docs_only)
    ]
    if ignored:
        written = ", ".join(str(ctx.where(opt.path)[-1]) for opt in ignored)
        yield Hit(
            ctx.where(ignored[0].path),
            ignored[0].path,
            {"written": written},
            tuple(ctx.where(opt.path) for opt in ignored[1:]),
        )
