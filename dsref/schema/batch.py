"""Batch size: the top-level batch and gradient-accumulation keys."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from ._base import Section
from ._meta import HfAuto, HfChange, option

_PositiveInt = Annotated[int, Field(gt=0)]


class BatchOptions(Section):
    """Top-level fields contributed by this module."""

    train_batch_size: _PositiveInt | None = option(
        None,
        enforced=True,
        description="Global batch size: the number of samples that go into one optimizer step, counted over all "
        "data-parallel ranks. DeepSpeed requires it to equal train_micro_batch_size_per_gpu * "
        "gradient_accumulation_steps * the data-parallel size, which is the world size divided by the model- or "
        "sequence-parallel degree (taken from the mpu, the device mesh or sequence_parallel_size). Give any two of the "
        "three batch keys and DeepSpeed derives the third by integer division, so choose values that divide evenly. "
        "Pick it for the optimisation (the learning rate and schedule are tuned against it), then fit memory with the "
        "other two.",
        unit="samples",
        hf_auto=HfAuto(
            compared="train_batch_size (calculated)",
            source="world_size * per_device_train_batch_size * gradient_accumulation_steps (transformers); "
            "micro batch * gradient_accumulation_steps * num_processes // sequence-parallel size (accelerate)",
            changes=(HfChange("accelerate", "1.12.0", "micro batch * gradient_accumulation_steps * num_processes"),),
        ),
        default_note="When absent, DeepSpeed computes it as train_micro_batch_size_per_gpu * "
        "gradient_accumulation_steps (1 if that is absent too) * the data-parallel world size.",
        example=32,
        ds_constant="deepspeed.runtime.constants.TRAIN_BATCH_SIZE_DEFAULT",
    )
    train_micro_batch_size_per_gpu: _PositiveInt | None = option(
        None,
        enforced=True,
        description="Samples each data-parallel rank puts through one forward and backward pass, i.e. the size of one "
        "micro batch. It is the main memory lever, since activation memory grows roughly in proportion to it: when a "
        "step does not fit in device memory, lower it and raise gradient_accumulation_steps so that train_batch_size "
        "stays the same. It is also the batch size of the data loader that deepspeed.initialize builds from "
        "training_data, and with pipeline parallelism the size of each micro batch that flows through the stages.",
        unit="samples",
        hf_auto=HfAuto(
            compared="per_device_train_batch_size",
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
        description="Number of micro batches each rank runs forward and backward before one optimizer step. "
        "engine.backward() divides the loss by it and the weights are only updated on every N-th engine.step() call "
        "(see managed_gradient_accumulation), so raising it enlarges the effective batch without more activation "
        "memory, but each optimizer step then takes N passes. With pipeline parallelism it is the number of micro "
        "batches per train_batch() call, and larger values shrink the pipeline bubble.",
        unit="steps",
        hf_auto=HfAuto(
            compared="gradient_accumulation_steps",
            source="TrainingArguments.gradient_accumulation_steps (transformers); DeepSpeedPlugin "
            "gradient_accumulation_steps, 1 if unset (accelerate)",
            changes=(
                HfChange(
                    "accelerate",
                    "0.23.0",
                    'Accelerator.gradient_accumulation_steps, written over any value, not only "auto"',
                ),
            ),
        ),
        default_note="When absent, DeepSpeed uses train_batch_size // train_micro_batch_size_per_gpu // "
        "data-parallel world size if both are given, otherwise 1.",
        docs_default=1,
        example=4,
        ds_constant="deepspeed.runtime.constants.GRADIENT_ACCUMULATION_STEPS_DEFAULT",
    )
    managed_gradient_accumulation: bool = option(
        True,
        since="0.19.4",
        description="Whether DeepSpeed itself decides where a gradient-accumulation cycle ends. With true it counts "
        "micro steps and only every gradient_accumulation_steps-th engine.step() call updates the weights; with false "
        "your training loop owns the boundary, and every step() call finishes the gradient reduction and updates the "
        "weights however many backward() calls came before, which suits a number of micro batches that varies from "
        "step to step. The loss is still divided by gradient_accumulation_steps, and false is not supported with "
        "pipeline parallelism, DeepCompile, or zero_optimization.overlap_comm below ZeRO stage 2.",
        ds_constant="deepspeed.runtime.constants.MANAGED_GRADIENT_ACCUMULATION_DEFAULT",
    )
    dataloader_drop_last: bool = option(
        False,
        since="0.5.2",
        description="Drops the final incomplete batch in the data loaders that DeepSpeed builds itself (from "
        "training_data in deepspeed.initialize, or through engine.deepspeed_io). Turn it on when every micro batch "
        "must hold exactly train_micro_batch_size_per_gpu samples, e.g. for fixed tensor shapes; data loaders you "
        "build yourself are not affected.",
        ds_constant="deepspeed.runtime.constants.DATALOADER_DROP_LAST_DEFAULT",
    )
