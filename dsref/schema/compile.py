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
        description="Compile with DeepCompile, DeepSpeed's own graph passes, instead of plain torch.compile when the "
        "training script calls `engine.compile()`. DeepCompile moves ZeRO's work into the compiled graph: gradient "
        "reduction at stages 1 and 2; parameter gathering, release and prefetching at stage 3. With ZeRO stage 0 it "
        "logs a notice and uses plain torch.compile, and only the `inductor` and `eager` backends are accepted. The "
        "memory options of this section (offload_*, free_activation) act only when it is on.",
        example=True,
    )
    autoep_non_moe: bool = option(
        False,
        requires=(("compile.deepcompile", False), ("zero_optimization.stage", 2), ("expert_parallel.enabled", True)),
        since="0.19.8",
        description="With AutoEP, compile only the modules around the expert layers and leave routing, token exchange "
        "and expert compute eager. It uses plain torch.compile, so it cannot be combined with `deepcompile`, and it "
        "needs at least one AutoEP layer in the model. In 0.19.8 it also refuses ZeRO stage 3, optimizer or parameter "
        "offload, `expert_parallel.comm_backend` deepep, AutoTP folding, and sequence or pipeline parallelism.",
    )
    free_activation: bool = option(
        False,
        description="Let DeepCompile's backward graph free large activations right after their last use, lowering "
        "peak device memory. Only tensors with more than `free_activation_threshold` elements are freed, and the "
        "option is ignored with the inductor backend, so it helps only with `engine.compile(backend='eager')`. Works "
        "at every ZeRO stage DeepCompile supports (1 to 3).",
    )
    free_activation_threshold: int = option(
        10 * 1024 * 1024,
        since="0.18.0",
        unit="elements",
        description="With free_activation, only activations with more elements than this are freed early "
        "(DeepSpeed's own docstring calls it bytes, but the kernel compares element counts).",
        example=1_048_576,
    )
    offload_activation: bool = option(
        False,
        description="DeepCompile with ZeRO-3: move activations saved for the backward pass to host memory and bring "
        "each back shortly before the backward pass reads it, for models whose activations exhaust device memory. "
        "Only fixed-shape tensors of at least 5 MB are candidates, and only as many as the device-memory budget "
        "requires; it replaces the prefetch and selective-gather passes. It is an error together with "
        "`offload_parameters` or `offload_opt_states`, and ZeRO stages 1 and 2 ignore it.",
    )
    offload_activation_pin_memory: bool = option(
        True,
        since="0.19.6",
        description="Use pinned host buffers for activation offload, needed for fast asynchronous copies; turn "
        "off only when the locked-memory limit is too low.",
    )
    offload_opt_states: bool = option(
        False,
        description="DeepCompile with ZeRO-3: hold optimizer states (fp32 master weights and Adam moments) in host "
        "memory during forward and backward and bring them back for the optimizer step, keeping on the device "
        "whatever fits the memory budget. It starts from the second step and suits `gradient_accumulation_steps` 1, "
        "since with accumulation the offload and reload repeat for every micro batch. It is an error with "
        "`zero_optimization.offload_optimizer` on cpu or nvme, with `offload_parameters` or with "
        "`offload_activation`; ZeRO stages 1 and 2 ignore it.",
    )
    double_buffer: bool = option(
        True,
        description="Give DeepCompile two gradient reduce buckets per data type, so one can fill while the other is "
        "being reduced, overlapping gradient reduction with the backward pass. Each bucket holds "
        "`zero_optimization.reduce_bucket_size` elements; turning this off saves one bucket of device memory, but "
        "filling then waits for the previous reduction to finish.",
    )
    symmetric_memory: bool = option(
        False,
        description="Gather ZeRO-3 parameters through a PyTorch symmetric-memory workspace, each GPU copying its "
        "peers' shards directly, instead of NCCL all-gather calls. Only DeepCompile's ZeRO-3 path reads it; it needs "
        "GPUs with peer-to-peer access and a PyTorch build with symmetric memory, and reserves a workspace as large "
        "as the biggest parameter shard. Leave it off unless measurements show it helps on your machine.",
    )
    debug_log: bool = option(
        False,
        description="Log DeepCompile's work in detail, mostly from rank 0: each pass applied, the forward and "
        "backward graphs, and memory-profiling results. Very verbose; turn it on only to see what DeepCompile did to "
        "a graph.",
    )
    offload_parameters: bool = option(
        False,
        description="DeepCompile with ZeRO-3: keep each rank's parameter shards in host memory, reloading a shard "
        "just before it is all-gathered and offloading it again after its last use in the graph. The engine turns it "
        "on by itself when `zero_optimization` contains both `offload_param` and `offload_optimizer` with device cpu. "
        "It is an error with `offload_opt_states` or `offload_activation`, and ZeRO stages 1 and 2 ignore it.",
    )
    sync_before_reduce: bool = option(
        False,
        description="Debugging aid: wait for the device to finish all queued work before each gradient is handed to "
        "DeepCompile's reduction (any ZeRO stage). It serialises communication with computation and slows training; "
        "use it only to narrow down hangs or wrong results.",
    )
    sync_after_reduce: bool = option(
        False,
        description="Debugging aid: wait for the device to finish all queued work after each gradient is handed to "
        "DeepCompile's reduction (any ZeRO stage). It serialises communication with computation and slows training; "
        "use it only to narrow down hangs or wrong results.",
    )
    sync_before_allgather: bool = option(
        False,
        description="Debugging aid: wait for the device to finish all queued work before each parameter all-gather "
        "DeepCompile launches, which only happens at ZeRO stage 3. It slows training; use it only to narrow down "
        "hangs or wrong results.",
    )
    sync_after_allgather: bool = option(
        False,
        description="Debugging aid: wait for the device to finish all queued work after each parameter all-gather "
        "DeepCompile launches, which only happens at ZeRO stage 3. It slows training; use it only to narrow down "
        "hangs or wrong results.",
    )
    keep_int_input_tensors: bool = option(
        True,
        since="0.17.2",
        description="Keep a host copy of the real values of integer and boolean graph inputs (token ids, positions, "
        "masks), which DeepCompile reuses when it re-runs a graph to profile it. Inputs without a copy are recreated "
        "as tensors filled with ones, which can change what index- or mask-driven code does; turn it off only to save "
        "host memory.",
    )
    keep_all_input_tensors: bool = option(
        False,
        since="0.17.2",
        description="Keep a host copy of every graph input, not only integer ones, so DeepCompile profiles graphs on "
        "real data instead of tensors filled with ones. Costs host memory for a copy of each compiled graph's inputs; "
        "try it when profiling with placeholder values fails or misjudges the graph.",
    )
    passes: list[PassName] | None = option(
        None,
        requires=(("zero_optimization.stage", 1),),
        since="0.18.9",
        docs_default=[],
        description="Parallelization passes DeepCompile runs instead of its ZeRO passes: autosp (automatic sequence "
        "parallelism; only with ZeRO stage 0 or 1, otherwise plain torch.compile is used) or autotp (automatic tensor "
        "parallelism; needs `tensor_parallel.autotp_size` > 1 and must be the only pass). z1 and z3 are accepted, but "
        "combining either with autotp is an error; without autosp or autotp DeepCompile picks its ZeRO passes from "
        "`zero_optimization.stage`. Needs `deepcompile`.",
        example=["autosp"],
    )


class CompileOptions(Section):
    """Top-level field contributed by this module."""

    compile: CompileConfig = option(
        default_factory=CompileConfig,
        requires=(("compile.deepcompile", True), ("zero_optimization.stage", 3)),
        since="0.16.6",
    )
