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
        description="How often, in optimizer steps, DeepSpeed logs its progress line on rank 0 (step, skipped steps, "
        "learning rate, momentum); it also paces the timers.throughput report. Both go through DeepSpeed's logger at "
        "info level, which defaults to warning, so set log_level to info to see them; the pipeline engine's "
        "train_batch() additionally prints loss, iteration time and samples/sec at this interval. null turns the "
        "periodic reports off.",
        docs_default=10,
        example=100,
        ds_constant="deepspeed.runtime.constants.STEPS_PER_PRINT_DEFAULT",
    )
    wall_clock_breakdown: bool = option(
        False,
        enforced=True,
        description="Measures the forward pass, backward pass and optimizer step (with sub-phases such as gradient "
        "reduction) and prints the times on rank 0 after each step, independent of log_level. The timers wait for the "
        "device to finish, which slows training, so keep it off outside profiling runs; engine.get_wall_clock_timers() "
        "returns the latest values. flops_profiler.enabled turns it on as well.",
        ds_constant="deepspeed.runtime.constants.WALL_CLOCK_BREAKDOWN_DEFAULT",
    )
    dump_state: bool = option(
        False,
        description="Logs every attribute of the DeepSpeed engine on rank 0 once initialisation is done, to inspect "
        "the settings it actually resolved. The lines go to DeepSpeed's logger at info level, so they only appear with "
        "log_level info or debug.",
        ds_constant="deepspeed.runtime.constants.DUMP_STATE_DEFAULT",
    )
    memory_breakdown: bool = option(
        False,
        since="0.2.0",
        description="Prints device memory (allocated, peak, reserved) and host memory use on rank 0 before and after "
        "each forward, backward and optimizer step, to find where memory goes. Each report runs Python's garbage "
        "collector and resets the peak counters, so it slows training; the output is printed directly, whatever "
        "log_level says.",
        ds_constant="deepspeed.runtime.constants.MEMORY_BREAKDOWN_DEFAULT",
    )
    log_level: Literal["debug", "info", "warning", "error", "critical"] | None = option(
        None,
        enforced=True,
        since="0.19.3",
        case_insensitive=True,
        description="Level of DeepSpeed's own logger and its handlers, set when the engine starts. The logger "
        "otherwise stays at warning, which hides info-level output such as the steps_per_print progress line and "
        "dump_state; info shows them, error or critical quiets DeepSpeed further. The change is process-wide and "
        "outlasts the engine; null leaves the current level alone.",
        example="warning",
        ds_constant="deepspeed.runtime.constants.LOG_LEVEL_DEFAULT",
    )
    disable_python_gc: bool = option(
        False,
        since="0.19.8",
        description="Turns off Python's automatic cyclic garbage collector while the engine exists, after one full "
        "collection at start-up. This avoids unpredictable collection pauses that stall one rank and make the others "
        "wait in collectives; call engine.collect_python_gc() at safe points yourself (e.g. every few hundred steps) "
        "so memory held in reference cycles is still freed. Automatic collection is switched back on when the last "
        "such engine is destroyed.",
        ds_constant="deepspeed.runtime.constants.DISABLE_PYTHON_GC_DEFAULT",
    )
    vocabulary_size: int | None = option(
        None,
        example=32000,
        enforced=True,
        description="Your model's vocabulary size, used only for a start-up check: DeepSpeed logs a warning when it is "
        "not a multiple of 8, since sizes padded that way use tensor cores more efficiently. It changes nothing else; "
        "null skips the check.",
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
