"""`flops_profiler`: one-off measurement of the model's FLOPs, parameters and per-module latency."""

from __future__ import annotations

from ._base import DictSection, Section
from ._meta import option


class FlopsProfilerConfig(DictSection):
    """Profiles one training step and prints, on rank 0, the FLOPs, MACs, parameters and latency of each module.

    Turning it on also turns `wall_clock_breakdown` on. When `autotuning.enabled` is true the profiler runs
    anyway, at `autotuning.start_profile_step` and without the detailed per-module tree.
    """

    enabled: bool = option(
        False,
        enforced=True,
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_ENABLED_DEFAULT",
        description="Profile one training step (`profile_step`) on rank 0 and print the FLOPs, MACs, parameters and "
        "latency of each module. It also turns `wall_clock_breakdown` on for the whole run, which adds timer logs and "
        "device synchronisation, so switch it off again for production runs.",
        example=True,
    )
    recompute_fwd_factor: float = option(
        0.0,
        since="0.9.3",
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_RECOMPUTE_FWD_FACTOR_DEFAULT",
        description="Share of the forward pass that is computed again during the backward pass because of "
        "activation checkpointing (0 none, 1 all), so the reported training FLOPs include the recomputation.",
        example=1.0,
    )
    profile_step: int = option(
        1,
        unit="steps",
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_PROFILE_STEP_DEFAULT",
        description="Global training step that is profiled. The engine counts optimizer steps from 0, so the default "
        "1 profiles the second step; pick a later one so warm-up does not skew the timings. With `autotuning.enabled` "
        "the autotuner's `start_profile_step` is used instead.",
        example=10,
    )
    module_depth: int = option(
        -1,
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_MODULE_DEPTH_DEFAULT",
        description="Depth of the module tree down to which the aggregated profile is printed; -1 means all depths.",
        example=2,
    )
    top_modules: int = option(
        1,
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_TOP_MODULES_DEFAULT",
        description="How many of the most expensive modules are listed per depth in the aggregated profile.",
        example=3,
    )
    detailed: bool = option(
        True,
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_DETAILED_DEFAULT",
        description="Also print the full module tree with each module's profile, not just the aggregated summary; "
        "ignored (off) while autotuning.",
    )
    output_file: str | None = option(
        None,
        ds_constant="deepspeed.profiling.constants.FLOPS_PROFILER_OUTPUT_FILE_DEFAULT",
        description="File the profile is written to (its directory is created); null prints to standard output.",
        example="flops_profile.txt",
    )


class FlopsProfilerOptions(Section):
    """Top-level fields contributed by this module."""

    flops_profiler: FlopsProfilerConfig = option(
        default_factory=FlopsProfilerConfig,
        since="0.3.11",
    )
