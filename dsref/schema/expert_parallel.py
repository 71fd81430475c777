"""`expert_parallel`: AutoEP, automatic expert parallelism for Hugging Face mixture-of-experts models."""

from __future__ import annotations

from typing import Literal

from ._base import DictSection, Section
from ._meta import option

AutoEPPreset = Literal["mixtral", "qwen3_moe", "qwen3_5_moe", "deepseek_v2", "deepseek_v3", "minimax_m3"]
ExpertActivation = Literal["swiglu", "geglu_tanh", "swiglu_clamped", "swiglu_oai"]


class ExpertParallelConfig(DictSection):
    """AutoEP finds the mixture-of-experts layers of a model when `deepspeed.initialize` runs and replaces them
    with layers whose experts are spread over `autoep_size` ranks, exchanging tokens with all-to-all.

    The layers are found through a `preset_model` (or the model's `model_type`), or through the pattern and
    name overrides below. DeepSpeed reads the keys one by one, so unknown keys are ignored; the values are
    checked only when `enabled` is true, when the engine starts. The exception is `load_balance_coeff`: any
    value but null fails as soon as the config is read. A null or empty section means AutoEP is off.
    """

    enabled: bool = option(
        False,
        description="Turn AutoEP on: at `deepspeed.initialize` the MoE layers found in the model are replaced by "
        "expert-parallel layers, and the other keys of this section are checked. With `autoep_size` 1 the layers are "
        "still replaced, but every rank keeps all experts and no all-to-all happens.",
        example=True,
    )
    autoep_size: int = option(
        1,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=1,
        unit="ranks",
        description="Number of ranks the experts of each layer are spread over; must divide the ranks of a "
        "pipeline stage and the model's number of experts. 1 keeps all experts on every rank.",
        example=8,
    )
    expert_tensor_parallel_size: int = option(
        1,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=1,
        le=1,
        since="0.19.3",
        description="Tensor parallelism inside each expert; reserved for the future, only 1 is accepted.",
    )
    validate_folding_routing: bool = option(
        False,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.3",
        description="When AutoEP is folded with AutoTP, check that every tensor-parallel rank routes the same "
        "tokens (a debugging check that costs communication); must be a JSON boolean.",
    )
    async_split_plan: bool = option(
        False,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.8",
        description="Copy the per-expert token counts to the host asynchronously to overlap the all-to-all "
        "planning with compute; CUDA only, not with AutoTP folding; must be a JSON boolean.",
    )
    preset_model: AutoEPPreset | None = option(
        None,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Built-in description of a model family's MoE layers; null detects it from the model's "
        "model_type or tries every preset. Must equal tensor_parallel.preset_model when both are set.",
        example="mixtral",
    )
    moe_layer_pattern: str | None = option(
        None,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Regular expression that must match the full module name of each MoE block; it overrides the "
        "preset's pattern. Without a preset and with a model_type AutoEP does not know, it defines a custom layout "
        "whose other names default to gate (router), experts, gate_up_proj and down_proj (fused expert weights), "
        "num_local_experts and num_experts_per_tok.",
        example=r"model\.layers\.\d+\.mlp",
    )
    expert_pattern: str | None = option(
        None,
        example="experts",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute name of the experts container inside an MoE block (a plain name, no dots); null takes "
        "the preset's name, or experts for a custom layout.",
    )
    router_pattern: str | None = option(
        None,
        example="gate",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute name of the router (gate) inside an MoE block (a plain name, no dots); null takes the "
        "preset's name, or gate for a custom layout.",
    )
    use_grouped_mm: bool = option(
        True,
        description="Compute all local experts at once with grouped matrix multiplies (torch._grouped_mm, or a Triton "
        "kernel on GPUs below compute capability 9.0); false runs a slower loop over the experts. Turn it off only if "
        "your PyTorch lacks torch._grouped_mm and Triton is unavailable; `gate_up_impl` fused needs it on.",
    )
    disable_triton_grouped_mm: bool = option(
        False,
        since="0.19.4",
        description="Use PyTorch's torch._grouped_mm even on GPUs where DeepSpeed would pick its Triton grouped-GEMM "
        "kernel (compute capability below 9.0). Needed there for `gate_up_impl` fused; it also silences the warning "
        "about the Triton path.",
    )
    route_norm: bool | None = option(
        None,
        example=True,
        description="Rescale the routing weights of each token's selected experts so they sum to 1; null takes the "
        "preset's (or model config's) choice, and true for a custom layout. Keep what the model was trained with, or "
        "its outputs change.",
    )
    route_scale: float = option(
        1.0,
        description="Factor applied to the routing weights; overridden by routed_scaling_factor or by the "
        "model's own routed_scaling_factor when either is given.",
    )
    score_apply: Literal["auto", "pre", "post"] = option(
        "auto",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Where the routing weights are applied: to the tokens before the experts (pre) or to the "
        "expert outputs (post); auto follows the preset.",
    )
    combine_impl: Literal["auto", "weighted_sum", "fused_weighted_sum", "legacy_bmm"] = option(
        "auto",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="How expert outputs are combined per token; auto is weighted_sum. fused_weighted_sum needs "
        "score_apply post, autotp_size 1 and no DeepEP with autoep_size > 1.",
    )
    row_weighting_impl: Literal["auto", "eager", "fused"] = option(
        "auto",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.8",
        description="How DeepEP rows are weighted; fused needs comm_backend deepep and autoep_size > 1, auto is eager.",
    )
    gate_up_impl: Literal["separate", "fused"] = option(
        "separate",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.8",
        description="Run the gate and up projections as two grouped GEMMs or as one over their concatenated "
        "weights; fused needs use_grouped_mm.",
    )
    comm_backend: Literal["comm", "deepep"] = option(
        "comm",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.7",
        description="How tokens travel between expert-parallel ranks: comm uses DeepSpeed's all-to-all, deepep the "
        "DeepEP library. deepep needs bfloat16 training, NCCL 2.30.4 or newer and `comm_max_tokens_per_rank`; "
        "`compile.autoep_non_moe` works only with comm.",
    )
    comm_num_sm: int = option(
        12,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=1,
        since="0.19.7",
        unit="count",
        description="Number of GPU streaming multiprocessors DeepEP may use for communication, taken away from the "
        "expert matrix multiplies running at the same time. Only read with `comm_backend` deepep; the default 12 was "
        "the fastest budget in DeepSpeed's own measurements on H100 GPUs.",
    )
    comm_qp_margin: int = option(
        4,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=0,
        since="0.19.7",
        unit="count",
        description="Extra RDMA queue pairs DeepEP reserves beyond one per streaming multiprocessor (`comm_num_sm`); "
        "only read with `comm_backend` deepep. Reserving fewer than DeepEP would on its own leaves queue pairs for "
        "ZeRO and the data-parallel communicators.",
    )
    comm_max_tokens_per_rank: int = option(
        0,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=0,
        since="0.19.7",
        unit="tokens",
        description="Largest number of tokens one rank can route, used to size DeepEP's buffers; required (> 0) "
        "with comm_backend deepep, normally micro-batch size times padded sequence length.",
    )
    num_expert_groups: int | None = option(
        None,
        example=8,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=1,
        description="For group-limited routing (DeepSeek style): number of groups the experts are divided into; must "
        "divide the number of experts. Null leaves group-limited routing off, except that the DeepSeek presets may "
        "read n_group from the model config.",
    )
    num_limited_groups: int | None = option(
        None,
        requires=(("expert_parallel.num_expert_groups", 8),),
        example=4,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        ge=1,
        description="For group-limited routing: how many expert groups each token may pick its experts from; needs "
        "`num_expert_groups` and may not exceed it. Null lets the DeepSeek presets read topk_group from the model "
        "config.",
    )
    score_func: Literal["auto", "softmax", "sigmoid"] = option(
        "auto",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Function turning router logits into expert scores: softmax (Mixtral, Qwen) or sigmoid "
        "(DeepSeek-V3 style). auto takes the model config's scoring_func when it is one of these, else the preset's "
        "(softmax for a custom layout).",
    )
    top_k: int | Literal["auto"] = option(
        "auto",
        description="Number of experts each token is routed to; auto reads it from the model config attribute named "
        "by `top_k_attr`. A number overrides the model config (top_k_attr is then ignored) and must not exceed the "
        "number of experts.",
    )
    load_balance_coeff: None = option(
        None,
        no_example="refused",
        enforced=True,
        description="Not supported in this AutoEP build: anything but null fails when the config is read, even "
        "with AutoEP off.",
    )
    routed_scaling_factor: float | Literal["auto"] = option(
        "auto",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Scale for the routing weights; a number overrides route_scale, auto uses the model "
        "config's routed_scaling_factor if it has one.",
    )
    expert_w1: str | None = option(
        None,
        example="gate_proj",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Name of the first (gate, or fused gate+up) expert weight; null takes the preset's name.",
    )
    expert_w2: str | None = option(
        None,
        example="down_proj",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Name of the down-projection expert weight; null takes the preset's name.",
    )
    expert_w3: str | None = option(
        None,
        example="up_proj",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        default_note="When the key is absent the preset's name is used; an explicit null means there is no "
        "separate up-projection weight because expert_w1 holds gate and up fused.",
        description="Name of the up-projection expert weight, or null for experts with a fused gate+up weight.",
    )
    num_experts_attr: str | None = option(
        None,
        example="num_local_experts",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute of the model config that holds the number of experts; null takes the preset's.",
    )
    top_k_attr: str | None = option(
        None,
        example="num_experts_per_tok",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute of the model config that holds the experts-per-token count; null takes the preset's.",
    )
    has_shared_experts: bool | None = option(
        None,
        example=True,
        enforced=True,
        enforced_when="expert_parallel.enabled",
        description="Whether the MoE blocks also have always-active shared experts; null takes the preset's answer.",
    )
    shared_experts_pattern: str | None = option(
        None,
        requires=(("expert_parallel.has_shared_experts", True),),
        example="shared_expert",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute name of the shared experts inside an MoE block; used only with has_shared_experts true.",
    )
    shared_experts_gate_pattern: str | None = option(
        None,
        requires=(("expert_parallel.has_shared_experts", True),),
        example="shared_expert_gate",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        min_length=1,
        description="Attribute name of the gate that scales the shared experts' output; used only with "
        "has_shared_experts true.",
    )
    expert_activation: ExpertActivation | None = option(
        None,
        example="swiglu",
        enforced=True,
        enforced_when="expert_parallel.enabled",
        since="0.19.8",
        description="Activation of the expert MLPs; null takes the preset's (plain SwiGLU for custom layers).",
        enum_docs=(
            ("swiglu", "SiLU-gated linear unit, as in Mixtral, Qwen and DeepSeek."),
            ("geglu_tanh", "GELU (tanh approximation) gated linear unit."),
            ("swiglu_clamped", "SwiGLU with the gate and up projections clamped to a limit."),
            ("swiglu_oai", "Clamped SwiGLU variant with an alpha factor, in the style of OpenAI's gpt-oss."),
        ),
    )


class ExpertParallelOptions(Section):
    """Top-level field contributed by this module."""

    expert_parallel: ExpertParallelConfig | None = option(
        default_factory=ExpertParallelConfig,
        since="0.19.2",
    )
