"""Batch size: the top-level batch and gradient-accumulation keys."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ._base import Section
from ._meta import HfAuto, option

_PositiveInt = Annotated[int, Field(gt=0)]


class BatchOptions(Section):
    """Top-level fields contributed by this module."""

    train_batch_size: _PositiveInt | None = option(
        None,
        enforced=True,
        description="Samples consumed by one optimizer step across all data-parallel ranks; it must equal "
        "train_micro_batch_size_per_gpu * gradient_accumulation_steps * data-parallel world size.",
        unit="samples",
        hf_auto=HfAuto(
            source="world_size * per_device_train_batch_size * gradient_accumulation_steps (transformers); "
            "micro batch * gradient_accumulation_steps * num_processes (accelerate)",
        ),
        default_note="When absent, DeepSpeed computes it as train_micro_batch_size_per_gpu * "
        "gradient_accumulation_steps (1 if that is absent too) * the data-parallel world size.",
        example=32,
        ds_constant="deepspeed.runtime.constants.TRAIN_BATCH_SIZE_DEFAULT",
    )
    train_micro_batch_size_per_gpu: _PositiveInt | None = option(
        None,
        enforced=True,
        description="Samples each data-parallel rank processes in one forward/backward pass; lower it when a step "
        "does not fit in device memory and raise gradient_accumulation_steps instead.",
        unit="samples",
        hf_auto=HfAuto(
            source="TrainingArguments.per_device_train_batch_size (transformers); the dataloader's batch size "
            "(accelerate)",
        ),
        default_note="When absent, DeepSpeed computes it as train_batch_size // data-parallel world size // "
        "gradient_accumulation_steps (1 if that is absent too); one of it and train_batch_size is required.",
        docs_default="train_batch_size value",
        example=4,
        ds_constant="deepspeed.runtime.constants.TRAIN_MICRO_BATCH_SIZE_PER_GPU_DEFAULT",
    )
    gradient_accumulation_steps: _PositiveInt | None = option(
        None,
        enforced=True,
        description="Number of micro batches whose gradients are summed before each optimizer step.",
        unit="steps",
        hf_auto=HfAuto(
            source="TrainingArguments.gradient_accumulation_steps (transformers); DeepSpeedPlugin "
            "gradient_accumulation_steps, 1 if unset (accelerate)",
        ),
        default_note="When absent, DeepSpeed uses train_batch_size // train_micro_batch_size_per_gpu // "
        "data-parallel world size if both are given, otherwise 1.",
        docs_default=1,
        example=1,
        ds_constant="deepspeed.runtime.constants.GRADIENT_ACCUMULATION_STEPS_DEFAULT",
    )
    managed_gradient_accumulation: bool = option(
        True,
        since="0.19.4",
        description="When true, DeepSpeed counts micro steps and only applies the optimizer at the accumulation "
        "boundary; false hands the boundary to your training loop, so every step() call updates the weights.",
        ds_constant="deepspeed.runtime.constants.MANAGED_GRADIENT_ACCUMULATION_DEFAULT",
    )
    dataloader_drop_last: bool = option(
        False,
        since="0.5.2",
        description="Drops the last incomplete batch of the data loader that deepspeed.initialize builds from "
        "training_data.",
        ds_constant="deepspeed.runtime.constants.DATALOADER_DROP_LAST_DEFAULT",
    )
