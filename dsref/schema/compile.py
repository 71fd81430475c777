"""`compile`: DeepCompile and torch.compile settings used by `engine.compile()`."""

from __future__ import annotations

from typing import Literal

from ._base import Section, StrictSection
from ._meta import option

PassName = Literal["z1", "z3", "autosp", "autotp"]


class CompileConfig(StrictSection):
    """Settings read when the training script calls `engine.compile()`; the section does nothing by itself.

    With `deepcompile` on, DeepSpeed compiles the model with its own graph passes that schedule ZeRO
    communication, prefetching and offloading inside the compiled graph (ZeRO stage 1-3; with stage 0 it falls
    back to plain torch.compile). The memory and sync switches below only matter with DeepCompile.
    """

    ds_class = "deepspeed.compile.config.CompileConfig"

    deepcompile: bool = option(
        False,
        description="Use DeepCompile instead of plain torch.compile when engine.compile() is called.",
        example=True,
    )
    autoep_non_moe: bool = option(
        False,
        since="0.19.8",
        description="With AutoEP, compile only the modules around the expert layers and keep routing, expert "
        "compute and all-to-all eager; uses plain torch.compile, so not with deepcompile.",
    )
    free_activation: bool = option(
        False,
        description="Free large activations as soon as the compiled graph no longer needs them (not with the "
        "inductor backend).",
    )
    free_activation_threshold: int = option(
        10 * 1024 * 1024,
        since="0.18.0",
        unit="elements",
        description="With free_activation, only activations with more elements than this are freed early "
        "(DeepSpeed's own docstring calls it bytes, but the kernel compares element counts).",
    )
    offload_activation: bool = option(
        False,
        description="Move activations kept for the backward pass to pinned host memory and bring them back "
        "just before use; ZeRO-3 only, and not together with offload_parameters or offload_opt_states.",
    )
    offload_activation_pin_memory: bool = option(
        True,
        since="0.19.6",
        description="Use pinned host buffers for activation offload, needed for fast asynchronous copies; turn "
        "off only when the locked-memory limit is too low.",
    )
    offload_opt_states: bool = option(
        False,
        description="Keep optimizer states in host memory during forward and backward and reload them for the "
        "step, as far as memory requires; ZeRO-3 only, and not with ZeRO's own optimizer offload.",
    )
    double_buffer: bool = option(
        True,
        description="Double-buffer DeepCompile's gradient reduce buckets so one can fill while the other is "
        "being reduced.",
    )
    symmetric_memory: bool = option(
        False,
        description="Use PyTorch symmetric memory for DeepCompile's data-parallel communication.",
    )
    debug_log: bool = option(
        False,
        description="Log and dump the graphs DeepCompile produces, for debugging.",
    )
    offload_parameters: bool = option(
        False,
        description="Offload ZeRO-3 parameters to host memory from the compiled graph; the engine turns it on "
        "when both ZeRO offload sections use the cpu device.",
    )
    sync_before_reduce: bool = option(
        False,
        description="Synchronize the device before each gradient reduce (debugging aid).",
    )
    sync_after_reduce: bool = option(
        False,
        description="Synchronize the device after each gradient reduce (debugging aid).",
    )
    sync_before_allgather: bool = option(
        False,
        description="Synchronize the device before each parameter all-gather (debugging aid).",
    )
    sync_after_allgather: bool = option(
        False,
        description="Synchronize the device after each parameter all-gather (debugging aid).",
    )
    keep_int_input_tensors: bool = option(
        True,
        since="0.17.2",
        description="Keep the real values of integer input tensors (not placeholders) when DeepCompile stores "
        "graph inputs for profiling.",
    )
    keep_all_input_tensors: bool = option(
        False,
        since="0.17.2",
        description="Keep the real values of every input tensor when DeepCompile stores graph inputs for profiling.",
    )
    passes: list[PassName] | None = option(
        None,
        since="0.18.9",
        docs_default=[],
        description="DeepCompile passes to compose: z1/z3 (ZeRO passes), autosp (automatic sequence "
        "parallelism), autotp (automatic tensor parallelism, only on its own).",
        example=["autosp"],
    )


class CompileOptions(Section):
    """Top-level field contributed by this module."""

    compile: CompileConfig = option(
        default_factory=CompileConfig,
        since="0.16.6",
    )
