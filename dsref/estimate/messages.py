"""Every text of ``dsref estimate``, in one table: errors, labels, notes, the chart's legend (translated)."""

from __future__ import annotations

from ..text.i18n import messages

M = messages(
    "estimate",
    # errors
    bad_number="{option}: '{value}' is not a number; write e.g. 7B, 1.5e9 or 350M",
    bad_size="{option}: '{value}' is not a memory size; write e.g. 80GB, 512GB or 1.5TB",
    bad_unit="{option}: unknown unit '{unit}' in '{value}'; use one of {units}",
    too_small="{option} must be at least {minimum}, got {value}",
    too_large="{option} {value} is more than dsref can estimate for (at most {maximum})",
    not_whole="{option} must be a whole number, got {value}",
    out_of_range="{option} must be from {minimum} to {maximum}, got {value}",
    bad_choice="{option} must be one of {choices}, got {value}",
    layer_over_params="{option} ({layer}) cannot be larger than {total} ({params})",
    heads_over_hidden="{option} ({heads}) cannot be larger than {hidden_option} ({hidden})",
    model_not_object="the model config must be a JSON object, as a Hugging Face config.json is",
    model_unknown_type=(
        "model_type '{model_type}' is not a transformer dsref knows ({known}); give the config.json of one of "
        "these (it needs {keys})"
    ),
    model_missing_keys="the {model_type} config has no {keys}; dsref needs them to know the model's shape",
    model_bad_value="the model config's {name} is {value}, which no model can have; it must be from 1 to {maximum}",
    model_not_integer="the model config's {name} must be a whole number, got {value}{hint}",
    model_unquote="; write {text} without quotes",
    model_not_fraction="the model config's {name} must be a number from 0 to 1, got {value}",
    model_heads_kv=(
        "the model config's {heads_name} ({heads}) must be a multiple of its {kv_name} ({kv_heads}): each "
        "key-value head is shared by the same number of attention heads; correct one of the two"
    ),
    model_heads_hidden=(
        "the model config's {hidden_name} ({hidden}) must be a multiple of its {heads_name} ({heads}): each "
        "attention head takes an equal share of the hidden size; correct one of the two"
    ),
    config_bad_value="{path} is {value}, which is not a value DeepSpeed can train with",
    # values in messages, named with their type where the type may be what is wrong
    value_string="the text {text}",
    value_number="the number {text}",
    value_integer="{text}",
    value_bool="{text}",
    value_null="null",
    value_object="an object",
    value_array="an array",
    value_other="a {kind}",
    value_digits="a number of {digits} digits",
    unknown_gpu="{option}: '{value}' is neither a memory size (such as 24GB) nor a GPU dsref knows ({known})",
    # units
    bytes_gb="{n} GB",
    bytes_below="< {n} GB",
    count_plain="{n}",
    count_K="{n}K",
    count_M="{n}M",
    count_B="{n}B",
    count_T="{n}T",
    # table
    title="Model-state memory for {params} parameters, {nodes} node(s) × {gpus} GPU(s) per node",
    col_stage="stage",
    col_offload_optimizer="offload_optimizer",
    col_offload_param="offload_param",
    col_zero_init="zero.Init",
    col_gpu="per GPU",
    col_cpu="CPU per node",
    col_nvme="NVMe per node",
    col_fits="fits",
    col_source="from",
    yes="yes",
    no="no",
    not_applicable="–",
    source_deepspeed="DeepSpeed",
    source_dsref="dsref",
    # row labels
    label_stage="stage {stage}",
    label_optimizer_cpu="stage {stage} + optimizer → CPU",
    label_both_cpu="stage {stage} + optimizer, parameters → CPU",
    label_both_nvme="stage {stage} + optimizer, parameters → NVMe",
    label_no_init="{label}, without zero.Init",
    # assumptions and sources
    assumptions="Assumptions:",
    assume_bytes=(
        "mixed-precision training with Adam; bytes per parameter: 2 (16-bit weights), 2 (16-bit gradients), "
        "4 (32-bit gradients), 4 (32-bit master weights), 8 (Adam momentum and variance), DeepSpeed's accounting"
    ),
    assume_gpu=(
        "per GPU: model states only (weights, gradients, optimizer states); activations, temporary buffers, "
        "fragmentation and the CUDA context come on top"
    ),
    assume_cpu=(
        "CPU per node: what the node's processes hold to build the model and, with offload, the offloaded states, "
        "times DeepSpeed's buffer factor {factor}"
    ),
    assume_zero_init=(
        "zero.Init: the model is built inside deepspeed.zero.Init (stage 3), so no process holds the whole "
        "model in CPU memory; Hugging Face Transformers does this for ZeRO-3"
    ),
    assume_gib="1 GB = 2^30 bytes, as DeepSpeed prints it",
    layer_given="largest layer: {n} parameters (--largest-layer)",
    layer_estimated=(
        "largest layer: {n} parameters, estimated as the larger of an embedding (vocabulary × hidden size) and an "
        "MLP matrix (4 × hidden size²), with vocabulary {vocab}{vocab_note} and hidden size {hidden}{hidden_note}"
        "{capped}; it decides the stage-3 figures: set --largest-layer for your model"
    ),
    vocab_assumed=" (assumed; --vocab-size)",
    hidden_assumed=(
        " (assumed: a decoder of 12 × layers × hidden² parameters, {ratio} × as wide as deep; --hidden-size)"
    ),
    layer_capped=", capped at the parameter count",
    sources="Where the figures come from:",
    source_ds_line=(
        "DeepSpeed: computed exactly as DeepSpeed {version}'s estimate_zero2_model_states_mem_needs (stage 2) and "
        "estimate_zero3_model_states_mem_needs (stage 3, without offload and with CPU offload)"
    ),
    source_dsref_line=(
        "dsref: not covered by DeepSpeed's functions, derived by dsref from the same accounting. Stage 0 (no ZeRO, "
        "so no offload) keeps all 20 bytes per parameter on every GPU. Stage 1 keeps the 16-bit weights and "
        "gradients whole and partitions the 16 bytes of 32-bit state over all GPUs; its CPU side is stage 2's, so "
        "its CPU figures are DeepSpeed's. NVMe moves to NVMe the 18 bytes per parameter (16-bit weights, 32-bit "
        "state) that stage 3 with CPU offload keeps in CPU memory; the CPU keeps what the model is built with plus "
        "the pinned swap buffers, per GPU offload_param.buffer_count × buffer_size × 2 bytes and "
        "offload_optimizer.buffer_count × min(sub_group_size, parameters per GPU) × 4 bytes (DeepSpeed's defaults: "
        "{param_count} × {param_size} and {opt_count} × {sub_group})"
    ),
    col_peak="peak",
    flags_model=(
        "peak: the peak of a run on each row (model states, activations, logits and loss, DeepSpeed's buffers, the "
        "CUDA context), computed as for --model, of a Llama-family decoder (RMSNorm, rotary positions, a gated SiLU "
        "MLP, a key-value head per query head, untied embeddings) of hidden size {hidden}, {layers} layers, {heads} "
        "heads, vocabulary {vocab} and MLP width {intermediate}, which make up {params} parameters{assumed}; "
        "sequence length {seq}, micro batch {batch}, {precision}, {attention} attention, gradient checkpointing "
        "{checkpointing}; give --model config.json for your model's own shape"
    ),
    flags_assumed=" ({keys} assumed: --hidden-size, --layers, --heads, --vocab-size)",
    keys_separator=", ",
    fit_rule="fits: the peak within {memory} per GPU less {reserve} kept back for fragmentation{cpu}",
    reserve_by_stage="{low}% ({high}% at stage 3)",
    reserve_given="{percent}%",
    fit_cpu=" and CPU per node within {memory}",
    fit_cpu_unchecked="; CPU memory not checked (give --cpu-memory)",
    suggest_order=(
        "tried fastest first, in the order of speed Hugging Face Transformers' DeepSpeed guide gives: stage 0, 1, "
        "2, 2 + optimizer offload, 3, 3 + offloads, NVMe last; of the stage-3 offloads the optimizer's comes first, "
        "as it frees the most GPU memory"
    ),
    suggestion="Suggestion: {label}.",
    suggest_config="A starting ds_config.json (set the optimizer's params, e.g. lr, for your run):",
    no_fit=(
        "Nothing fits {memory} per GPU, not even stage 3 with NVMe offload (its peak: {peak}): add GPUs or nodes, "
        "shorten the sequence or the micro batch, or use gradient checkpointing"
    ),
    # the peak of a run (--model, --config)
    peak_title=(
        "Peak GPU memory: {model} ({params} parameters), ZeRO stage {stage}{offload}, {nodes} node(s) × {gpus} "
        "GPU(s) per node"
    ),
    model_from_text_vision="estimated from text_config (the language model); the vision tower is not counted",
    model_from_text="estimated from text_config (the language model); the rest of the model is not counted",
    peak_offload_optimizer=", optimizer offload to {device}",
    peak_offload_param=", parameter offload to {device}",
    peak_setup=(
        "sequence length {seq}, micro batch {batch}, gradient accumulation {accumulation}, {precision}, {attention} "
        "attention, gradient checkpointing {checkpointing}"
    ),
    on="on",
    off="off",
    # what was not given, and what the run asks of the model
    assumed_line="Not given, so assumed: {items}.",
    assumed_separator="; ",
    assumed_seq_len="sequence length {seq} (--seq-len)",
    assumed_micro_batch="micro batch {batch} (--micro-batch)",
    assumed_precision="{precision}, DeepSpeed's default without bf16 or fp16 (--precision)",
    assumed_attention="{attention} attention, Hugging Face's default (--attention)",
    assumed_checkpointing="gradient checkpointing off (--gradient-checkpointing)",
    warning="warning: {message}",
    warn_positions=(
        "the sequence length {seq} is longer than the model's {name} ({positions}): {consequence}; the estimate "
        "is for {seq} tokens all the same"
    ),
    positions_rotary="the model was not trained on positions this far, and quality drops unless it is extended",
    positions_learned="Hugging Face's {model_type} has no position embedding beyond it and fails at the first batch",
    col_part="part",
    col_bytes="per GPU",
    part_params_whole="parameters ({bits}-bit, whole on every GPU)",
    part_params_partition="parameters ({bits}-bit, this GPU's share of {gpus})",
    part_params_offloaded="parameters (offloaded to {device}; gathered layers are counted below)",
    part_gradients="gradients",
    part_optimizer="optimizer states (32-bit master weights, Adam's two moments)",
    part_activations="activations kept for backward",
    part_logits="logits and loss (32-bit copies)",
    part_buckets="gradient buckets (reduce_bucket_size)",
    part_gathered="stage-3 gathered and prefetched parameters",
    part_step_temporaries="optimizer-step temporaries",
    part_context="CUDA context, cuBLAS and NCCL buffers",
    part_total="peak",
    phase_forward="end of the forward pass",
    phase_backward="backward pass",
    phase_step="optimizer step",
    peak_line="Peak {value} per GPU, during the {phase}.",
    phases_line="By phase: end of forward {forward}, backward {backward}, optimizer step {step}.",
    cpu_line="CPU memory per node: {value}{nvme}.",
    nvme_part=", NVMe per node: {value}",
    fits_yes="Fits {memory} per GPU: {peak} of {usable} usable ({reserve}% kept back for fragmentation{why}).",
    fits_no=(
        "Does not fit {memory} per GPU: needs {peak}, {usable} usable ({reserve}% kept back for fragmentation{why})."
    ),
    reserve_why_stage3=", more at stage 3, where DeepSpeed's reports show about a quarter more held than allocated",
    headroom_yes=(
        "Headroom {headroom}, {percent}% of the peak: the estimate may be that far low and the run still fits."
    ),
    headroom_no="Short by {short}, {percent}% of the peak.",
    tight=(
        "Tight: under {limit}% headroom, within the estimate's error on published runs. Measure before relying on "
        "it: run a few steps at this sequence length and micro batch, and compare torch.cuda.max_memory_reserved() "
        "with {usable} (nvidia-smi shows the CUDA context on top)."
    ),
    not_modelled=(
        "Not modelled: fragmentation beyond the reserve; model code other than Hugging Face's {family} layers "
        "(custom or fused kernels, other attention code); selective checkpointing (the estimate knows every layer "
        "checkpointed, or none)."
    ),
    fits_cpu_no=" The node's CPU memory ({memory}) is too small: {needed} needed.",
    changes_title="Changes that make it fit, the cheapest in speed first:",
    combined_title="No single change is enough. Taken one after another, the cheapest first:",
    combined_short="Even after all of these it needs {peak}: add GPUs, shorten the sequence or offload to NVMe.",
    change_line="{n}. {label}: peak {peak}, during the {phase}.",
    change_sdpa="PyTorch's scaled_dot_product_attention instead of eager attention (faster, no cost)",
    change_buckets="smaller buckets (a little more communication)",
    change_stage2="ZeRO stage 2 (no cost in speed)",
    change_checkpointing="gradient checkpointing (about a third more compute)",
    change_micro_batch=(
        "micro batch {batch} with gradient accumulation {accumulation}, the same global batch (the GPU is used "
        "less well)"
    ),
    change_stage3="ZeRO stage 3 (every parameter is gathered twice per step)",
    change_offload_optimizer="optimizer offload to CPU (the optimizer step runs on the CPU)",
    change_offload_param="parameter offload to CPU (parameters cross PCIe in every pass; the slowest)",
    edit_config="ds_config.json: {edits}",
    edit_training="Hugging Face: {edits}",
    peak_assumptions="How the peak is computed:",
    peak_assume_states=(
        "model states: DeepSpeed's accounting for mixed precision with Adam (bytes per parameter: 2 for 16-bit "
        "weights, 2 for 16-bit gradients, 4 for 32-bit gradients, 4 for master weights, 8 for Adam's moments), "
        "partitioned as the stage does, over {gpus} GPU(s); without offload, held and freed phase by phase as "
        "DeepSpeed's code does (Adam's moments from the first step on, the 32-bit gradients at the step only)"
    ),
    peak_assume_activations=(
        "activations: what Hugging Face's {family} layers keep for backward, counted operation by operation (norms "
        "in 32-bit, q/k/v, {attention} attention, the MLP, dropout masks as one byte each on CUDA); with gradient "
        "checkpointing each layer keeps its input, forward may peak while the last layer runs on them (its "
        "attention scores under eager attention), and one layer is recomputed at a time; backward may peak while "
        "the last layer is differentiated (under eager attention the gradients of its attention scores beside its "
        "probabilities); checked on the CPU against real models within 3 %"
    ),
    peak_assume_logits=(
        "logits and loss: the loss upcasts the logits to 32-bit (in fp32 it takes them as they are); at the end of "
        "forward the logits, their 32-bit copy and the 32-bit log-probabilities are live; backward starts with two "
        "32-bit gradients of that size{kept}"
    ),
    logits_kept="; the training loop keeps the outputs, so the logits stay live through backward (--keep-outputs)",
    logits_freed=(
        "; the training loop keeps the loss alone, as Hugging Face's Trainer does (--keep-outputs when yours keeps "
        "the outputs until backward)"
    ),
    peak_assume_buffers=(
        "DeepSpeed {version}'s buffers, phase by phase as its code allocates them: stage 1 and 2 keep one 16-bit "
        "bucket of reduce_bucket_size elements through backward, two with overlap_comm, and convert the gradients "
        "to 32-bit at the step; stage 3 keeps one bucket, gathers the largest module ({layer} parameters) with "
        "stage3_prefetch_bucket_size more on more than one GPU, and steps one sub_group_size group at a time"
    ),
    peak_assume_optimizer_fused=(
        "Adam steps in place, as DeepSpeed's FusedAdam does (--optimizer foreach for torch's AdamW)"
    ),
    peak_assume_optimizer_foreach=(
        "Adam as torch's AdamW steps on CUDA (--optimizer foreach): a 32-bit temporary of every parameter it steps at "
        "once"
    ),
    peak_assume_optimizer_single=(
        "Adam as torch steps on the CPU (--optimizer single): two 32-bit temporaries of the largest tensor it steps"
    ),
    peak_assume_context=(
        "CUDA context and libraries: {context} per GPU, and {comm} of NCCL buffers with more than one GPU; this "
        "part is outside PyTorch's allocator (nvidia-smi shows it, torch.cuda.max_memory_allocated does not)"
    ),
    peak_assume_auto='"auto" filled as Hugging Face fills it: {paths}',
    peak_assume_seq="sequence length {seq}: every sequence padded or packed to it (--seq-len)",
    peak_assume_cpu=(
        "CPU per node: DeepSpeed's estimate for the stage and offload (times its buffer factor 1.5), as in the "
        "model-state table"
    ),
    # chart
    chart_title="{params} parameters on {nodes} node(s) × {gpus} GPU(s)",
    chart_gpu="model states per GPU",
    chart_cpu="CPU per node",
    chart_capacity="GPU memory {memory}",
    chart_axis="GB (2^30 bytes)",
)
