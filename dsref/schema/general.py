"""General: top-level logging, diagnostics and runtime switches."""

from __future__ import annotations

from typing import Literal

from ._base import Section
from ._meta import option


class GeneralOptions(Section):
    """Top-level fields contributed by this module."""

    steps_per_print: int | None = option(
        None,
        gt=0,
        unit="steps",
        description="Logs a progress line (step, learning rate, momentum) every this many optimizer steps; null "
        "turns the periodic report off, and 0 crashes with a division by zero.",
        docs_default=10,
        example=100,
        ds_constant="deepspeed.runtime.constants.STEPS_PER_PRINT_DEFAULT",
    )
    wall_clock_breakdown: bool = option(
        False,
        enforced=True,
        description="Times forward, backward and optimizer step separately and logs the breakdown; it adds device "
        "synchronisation, so keep it off outside profiling runs. flops_profiler.enabled turns it on as well.",
        ds_constant="deepspeed.runtime.constants.WALL_CLOCK_BREAKDOWN_DEFAULT",
    )
    dump_state: bool = option(
        False,
        description="Prints the engine's full state (every attribute) on rank 0 once initialisation is done.",
        ds_constant="deepspeed.runtime.constants.DUMP_STATE_DEFAULT",
    )
    memory_breakdown: bool = option(
        False,
        since="0.2.0",
        description="Logs device and host memory usage before and after forward, backward and step, to find where "
        "memory goes.",
        ds_constant="deepspeed.runtime.constants.MEMORY_BREAKDOWN_DEFAULT",
    )
    log_level: Literal["debug", "info", "warning", "error", "critical"] | None = option(
        None,
        enforced=True,
        since="0.19.3",
        case_insensitive=True,
        description="Sets the level of DeepSpeed's own logger when the engine starts; null keeps the current level.",
        example="warning",
        ds_constant="deepspeed.runtime.constants.LOG_LEVEL_DEFAULT",
    )
    disable_python_gc: bool = option(
        False,
        since="0.19.8",
        description="Collects once and then turns off Python's automatic cyclic garbage collector while the engine "
        "lives, avoiding unpredictable GC pauses; call engine.collect_python_gc() at safe points yourself.",
        ds_constant="deepspeed.runtime.constants.DISABLE_PYTHON_GC_DEFAULT",
    )
    vocabulary_size: int | None = option(
        None,
        enforced=True,
        description="Vocabulary size of the model; DeepSpeed only uses it to warn when it is not a multiple of 8, "
        "which makes tensor cores less efficient.",
        ds_constant="deepspeed.runtime.constants.VOCABULARY_SIZE_DEFAULT",
    )
    graph_harvesting: bool = option(
        False,
        since="0.12.6",
        removed_in="0.19.8",
        removal_note="CUDA-graph capture in the bf16 optimizer was dropped and DeepSpeed now refuses the key; "
        "delete it.",
        description="Formerly captured the bf16 optimizer's step as a CUDA graph to cut kernel launch overhead.",
    )
