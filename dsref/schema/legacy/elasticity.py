"""`elasticity`: the removed elastic-training batch-size planner."""

from __future__ import annotations

from pydantic import PositiveInt

from .._base import DictSection, Section
from .._meta import option


class ElasticityConfig(DictSection):
    """Elastic training: instead of fixed batch keys, DeepSpeed chose a global batch size that divides evenly over
    many possible GPU counts, so a job could be scaled up or down by a scheduler without changing the
    effective batch size.

    When enabled it computed `train_batch_size`, `train_micro_batch_size_per_gpu` and
    `gradient_accumulation_steps` itself. Removed in DeepSpeed 0.19.8.
    """

    enabled: bool = option(False, description="Lets DeepSpeed derive the batch settings from this block.")
    max_train_batch_size: int = option(
        2000,
        unit="samples",
        description="Largest global batch size the planner may pick; required when enabled.",
    )
    micro_batch_sizes: list[PositiveInt] = option(
        default_factory=lambda: [2, 4, 6],
        unit="samples",
        description="Per-GPU micro-batch sizes the planner may combine; required when enabled.",
    )
    min_gpus: int = option(
        1,
        ge=1,
        unit="count",
        description="Smallest number of GPUs the batch size has to suit.",
    )
    max_gpus: int = option(
        10000,
        ge=1,
        unit="count",
        description="Largest number of GPUs the batch size has to suit; not below min_gpus.",
    )
    min_time: int = option(
        0,
        ge=0,
        description="Minimum run time in minutes before the scheduler may rescale the job; 0 means unknown.",
    )
    version: float = option(
        0.2,
        description="Planner algorithm, 0.1 or 0.2; only 0.2 takes model parallelism and GPUs per node into account.",
    )
    prefer_larger_batch: bool = option(
        True,
        docs_names=("prefer_large_batch",),
        description="When several batch sizes suit equally many GPU counts, picks the larger one (and the larger "
        "micro-batch) instead of the smaller.",
    )
    ignore_non_elastic_batch_info: bool = option(
        False,
        description="Allows batch keys outside this block (they are then ignored) instead of failing when they "
        "are present.",
    )
    num_gpus_per_node: int = option(
        1,
        ge=1,
        unit="count",
        description="GPUs per node, used by planner version 0.2.",
    )
    model_parallel_size: int = option(
        1,
        ge=1,
        unit="ranks",
        description="Model-parallel degree, used by planner version 0.2 (values above 1 need it).",
    )


class ElasticityOptions(Section):
    """Top-level field contributed by this module."""

    elasticity: ElasticityConfig | None = option(
        None,
        since="0.3.9",
        removed_in="0.19.8",
        use_instead="train_batch_size",
        removal_note="Elastic training was dropped in DeepSpeed 0.19.8; delete this block and set "
        "train_batch_size, train_micro_batch_size_per_gpu and gradient_accumulation_steps yourself.",
    )
