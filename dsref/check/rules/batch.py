"""Rules about the batch size: the three batch keys and the data-parallel world size."""

from __future__ import annotations

from collections.abc import Iterator

from ..edits import Applicability
from ..findings import Example, Severity
from ..repairs import Repair, ReplaceValue
from . import Context, Hit, rule

TBS, MICRO, GAS = "train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps"


def _int(ctx: Context, path: str) -> int | None:
    """The key's value when it is a usable positive int; None when absent, "auto", or of another type."""
    value = ctx.get(path)
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        return None
    return value


def _auto(ctx: Context, path: str) -> bool:
    return ctx.config.get(path) == "auto" if isinstance(ctx.config, dict) else False


@rule(
    "DS501",
    "batch-size-missing",
    Severity.error,
    message="neither train_batch_size nor train_micro_batch_size_per_gpu is set; DeepSpeed needs one of them",
    explanation=(
        "DeepSpeed works out the batch keys from each other, but it needs `train_batch_size` or "
        "`train_micro_batch_size_per_gpu` to start from: with only `gradient_accumulation_steps`, or with none of "
        "the three, building the config fails. Set the micro batch that fits on one GPU, and optionally the "
        "accumulation steps; DeepSpeed then derives the global batch as micro × steps × data-parallel GPUs. "
        'Hugging Face fills these keys when they are "auto".'
    ),
    example=Example(
        """
        {
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true}
        }
        """,
    ),
)
def batch_size_missing(ctx: Context) -> Iterator[Hit]:
    if ctx.profile == "hf" and (_auto(ctx, TBS) or _auto(ctx, MICRO)):
        return
    if ctx.get(TBS) is None and ctx.get(MICRO) is None:
        yield Hit(ctx.where(GAS) if ctx.is_set(GAS) else (), None)


def derive(tbs: int | None, micro: int | None, gas: int | None, world: int) -> tuple[int, int, int] | None:
    """The three values DeepSpeed ends up with for ``world`` data-parallel ranks (its floor divisions)."""
    if tbs is not None and micro is not None and gas is not None:
        return tbs, micro, gas
    if tbs is not None and micro is not None:
        return tbs, micro, tbs // micro // world
    if tbs is not None and gas is not None:
        return tbs, tbs // world // gas, gas
    if micro is not None and gas is not None:
        return micro * gas * world, micro, gas
    if tbs is not None:
        return tbs, tbs // world, 1
    if micro is not None:
        return micro * world, micro, 1
    return None


@rule(
    "DS502",
    "batch-arithmetic",
    Severity.error,
    message="with {world} data-parallel GPUs DeepSpeed gets train_batch_size {tbs}, micro batch {micro} and "
    "{gas} accumulation steps, and {tbs} ≠ {micro} × {gas} × {world}",
    explanation=(
        "DeepSpeed requires train_batch_size = train_micro_batch_size_per_gpu × gradient_accumulation_steps × "
        "the data-parallel world size, and fills a missing key by floor division. With `--world-size N` dsref "
        'does the same arithmetic and reports the mismatch that makes DeepSpeed stop ("Check batch related '
        'parameters", or a derived value of 0). The world size is the data-parallel size: the number of GPUs '
        "divided by the tensor, pipeline and sequence parallel sizes."
    ),
    example=Example(
        """
        {
          "train_batch_size": 64,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 4,
          "bf16": {"enabled": true}
        }
        """,
        world_size=8,
    ),
    fix=Applicability.unsafe,
)
def batch_arithmetic(ctx: Context) -> Iterator[Hit]:
    if ctx.world_size is None:
        return
    tbs, micro, gas = _int(ctx, TBS), _int(ctx, MICRO), _int(ctx, GAS)
    derived = derive(tbs, micro, gas, ctx.world_size)
    if derived is None:
        return
    d_tbs, d_micro, d_gas = derived
    if d_micro <= 0 or d_gas <= 0 or d_tbs != d_micro * d_gas * ctx.world_size:
        anchor = ctx.where(TBS) if ctx.is_set(TBS) else ctx.where(MICRO)
        args = {"tbs": d_tbs, "micro": d_micro, "gas": d_gas, "world": ctx.world_size}
        yield Hit(anchor, TBS, args, repair=_batch_repair(ctx, d_micro, d_gas, ctx.world_size))


def _batch_repair(ctx: Context, micro: int, gas: int, world: int) -> Repair | None:
    """train_batch_size made micro batch × accumulation steps × world size (unsafe: which of them was meant?), when
    both it and the micro batch are written: only a written micro batch says what the user meant per GPU."""
    if min(micro, gas, world) <= 0 or not (isinstance(ctx.config, dict) and TBS in ctx.config and MICRO in ctx.config):
        return None
    new = str(micro * gas * world)
    return ReplaceValue(
        location=(TBS,), applicability=Applicability.unsafe, title="train_batch_size", literal=new,
        args={"new": new, "micro": micro, "gas": gas, "world": world},
    )  # fmt: skip


@rule(
    "DS503",
    "batch-not-divisible",
    Severity.error,
    message="train_batch_size {tbs} is not a multiple of micro batch × accumulation steps ({product}); no number "
    "of GPUs can satisfy it",
    explanation=(
        "Without `--world-size`, dsref cannot know how many GPUs share the batch, but some combinations fail "
        "for every GPU count: train_batch_size must be a multiple of train_micro_batch_size_per_gpu × "
        "gradient_accumulation_steps (of whichever of the two are set), because DeepSpeed requires "
        "train_batch_size = micro × steps × data-parallel GPUs. Fix the numbers, or pass `--world-size` to see "
        "the exact values DeepSpeed will use."
    ),
    example=Example(
        """
        {
          "train_batch_size": 100,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 8,
          "bf16": {"enabled": true}
        }
        """,
        repaired="""
        {
          "train_batch_size": 128,
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 8,
          "bf16": {"enabled": true}
        }
        """,
    ),
)
def batch_not_divisible(ctx: Context) -> Iterator[Hit]:
    if ctx.world_size is not None:
        return
    tbs, micro, gas = _int(ctx, TBS), _int(ctx, MICRO), _int(ctx, GAS)
    if tbs is None or (micro is None and gas is None):
        return
    product = (micro or 1) * (gas or 1)
    if tbs % product != 0:
        yield Hit(ctx.where(TBS), TBS, {"tbs": tbs, "product": product})
