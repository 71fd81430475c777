"""The largest layer (what stage 3 gathers whole) and the activations of a transformer for a sequence and a batch:
what Hugging Face's layers keep for backward, operation by operation (the one activation model of the estimator)."""

from __future__ import annotations

from typing import Literal

from ..records import record
from .model import FUSED_ACTIVATIONS, Architecture, assumed_hidden, assumed_vocab
from .quantities import MAX_MICRO_BATCH, MAX_SEQ_LEN, Param, check_int

__all__ = [
    "ATTENTIONS",
    "Attention",
    "ComputeDevice",
    "LayerBasis",
    "LayerPeaks",
    "SavedActivations",
    "largest_layer_estimate",
    "layer_peaks",
    "masked",
    "running_layer",
    "saved_activations",
]


@record
class LayerBasis:
    """How the largest layer was found: given, or estimated from a vocabulary and a hidden size (each given or not)."""

    given: bool
    vocab: int = 0
    vocab_given: bool = False
    hidden: int = 0
    hidden_given: bool = False
    capped: bool = False


def largest_layer_estimate(
    params: int, hidden_size: int | None = None, vocab_size: int | None = None, layers: int | None = None
) -> tuple[int, LayerBasis]:
    """The parameters of the largest layer when the user did not say: max(vocab × hidden, 4 × hidden²), ≤ params.

    In transformer language models the largest single module is the embedding (or the output head), an MLP
    matrix when the vocabulary is small. The hidden size and the vocabulary not given are assumed as the model
    built from flags assumes them (:func:`.model.assumed_hidden`, :func:`.model.assumed_vocab`), so that the
    model-state table and the peak describe one model. Both are printed as assumptions.

    >>> largest_layer_estimate(8_000_000_000)[0] // 10**6, largest_layer_estimate(7_000_000_000, 4096, 32000)[0]
    (557, 131072000)
    """
    hidden = hidden_size or assumed_hidden(params, layers)
    vocab = vocab_size or assumed_vocab(params, hidden)
    layer = max(vocab * hidden, 4 * hidden * hidden)
    basis = LayerBasis(False, vocab, vocab_size is not None, hidden, hidden_size is not None, layer > params)
    return min(layer, params), basis


Attention = Literal["eager", "sdpa", "flash"]

ATTENTIONS: tuple[Attention, ...] = ("eager", "sdpa", "flash")


ComputeDevice = Literal["cuda", "cpu"]
"""Where the forward and backward run (attention kernels differ), not where ZeRO offloads (``OffloadDevice``)."""


FP32 = 4
"""Bytes of what Hugging Face computes in 32-bit whatever the model's precision: RMSNorm, norm statistics, the
attention log-sum-exp, the eager softmax of the Llama family, the log-probabilities of the loss."""


INDEX = 8
"""Bytes of a token id or label (int64)."""


@record
class SavedActivations:
    """Bytes a forward pass keeps for backward, per GPU, by where they are kept.

    ``total`` is what is held at the end of the forward pass; with checkpointing, backward recomputes one layer
    at a time, and ``recompute`` (one layer's full set) is live on top while that layer is differentiated.
    """

    per_layer: int
    """One transformer layer without checkpointing."""
    layers: int
    """All layers: each layer's full set, or with checkpointing each layer's input only."""
    embedding: int
    """Token and position ids, the embedding dropout's mask, rotary tables."""
    final_norm: int
    """The last norm: its input, statistics and output (the output projection's input)."""
    loss: int
    """The cross-entropy's 32-bit log-probabilities (tokens × vocabulary) and its labels."""
    recompute: int
    """With checkpointing: the one layer recomputed during backward (0 without)."""

    @property
    def total(self) -> int:
        return self.layers + self.embedding + self.final_norm + self.loss

    def to_json(self) -> dict[str, int]:
        return {
            "per_layer_bytes": self.per_layer,
            "layers_bytes": self.layers,
            "embedding_bytes": self.embedding,
            "final_norm_bytes": self.final_norm,
            "loss_bytes": self.loss,
            "recompute_bytes": self.recompute,
            "total_bytes": self.total,
        }


def _norm(arch: Architecture, tokens: int, width: int, act: int) -> int:
    """What one norm keeps: its input, its statistics, its output (and RMSNorm its normalised 16-bit input).

    Hugging Face's RMSNorm upcasts its input to 32-bit and keeps that copy; LayerNorm keeps the input as it is.
    """
    if arch.family == "llama":
        return tokens * width * FP32 + tokens * FP32 + 2 * tokens * width * act
    return tokens * width * act + 2 * tokens * FP32 + tokens * width * act


def masked(arch: Architecture, seq: int, attention: Attention, padded: bool) -> bool:
    """Whether Hugging Face hands sdpa a mask: a padded batch, or a sliding window no longer than the sequence.

    Without one, sdpa runs causal and keeps grouped-query K and V as they are (``enable_gqa``); with one,
    transformers repeats K and V to every query head first (``use_gqa_in_sdpa``), and each layer's call converts
    the mask to a tensor of the query's dtype, batch × sequence² elements, which the kernel keeps for backward.
    FlashAttention unpads instead, and eager attention always builds its mask (counted with its scores).
    """
    window = arch.sliding_window is not None and seq >= arch.sliding_window  # transformers skips it only below
    return attention == "sdpa" and (padded or window)


def _attention(
    arch: Architecture,
    seq: int,
    batch: int,
    attention: Attention,
    act: int,
    device: ComputeDevice,
    padded: bool = False,
) -> int:
    """What attention keeps, from the input projections' outputs to the output projection's input."""
    tokens = seq * batch
    q, kv = tokens * arch.q_width * act, tokens * arch.kv_width * act
    scores = arch.heads * batch * seq * seq
    mask = 1 if device == "cuda" else act  # CUDA keeps dropout masks as bool, the CPU kernel as the input's dtype
    kept = 0
    if arch.qk_norm:  # Qwen3: an RMSNorm over each query and key head
        kept += tokens * arch.q_width * FP32 + tokens * arch.heads * FP32 + tokens * arch.q_width * act
        kept += tokens * arch.kv_width * FP32 + tokens * arch.kv_heads * FP32 + tokens * arch.kv_width * act
    if attention == "eager":
        # q, k and v as multiplied (k and v repeated to every query head), then the merged output
        kept += 4 * q
        if arch.family == "llama":  # softmax in 32-bit, then a copy in the model's precision
            kept += scores * FP32 + (scores * act if act != FP32 else 0)
        else:
            kept += scores * act
        if arch.attention_dropout > 0:
            kept += scores * mask + scores * act
        return kept
    # sdpa and FlashAttention keep q, k and v as passed in, the output and a 32-bit log-sum-exp per row
    lse = arch.heads * batch * seq * FP32
    if masked(arch, seq, attention, padded):
        kept += batch * seq * seq * act  # this layer's copy of the mask, in the query's dtype
        kv = q  # K and V repeated to every query head
    if arch.family == "gpt2":
        # k is a view of the fused q/k/v projection, which it keeps alive; the CPU kernel copies q and v
        kept += 3 * q + (2 * q if device == "cpu" else 0) + q + lse
    elif arch.family == "gpt_neox":
        kept += 3 * q + q + lse + q  # rotary copies of q, k and v; output; the output projection's own input
    else:
        kept += q + 2 * kv + q + lse  # the output is already laid out as the output projection's input
    return kept


def _mlp(arch: Architecture, tokens: int, act: int) -> int:
    width = tokens * arch.intermediate * act
    if arch.gated_mlp:
        return 4 * width  # gate and up outputs, the activation's output, their product
    composite = 0 if arch.activation in FUSED_ACTIVATIONS else 3 * width
    return 2 * width + composite  # first projection's output, the activation's output


def saved_activations(
    arch: Architecture,
    seq: int,
    batch: int,
    *,
    attention: Attention = "sdpa",
    checkpointing: bool = False,
    dtype_bytes: int = 2,
    device: ComputeDevice = "cuda",
    padded: bool = False,
) -> SavedActivations:
    """The bytes Hugging Face's implementation of ``arch`` keeps for backward in training, per GPU.

    Derived layer by layer from what each operation saves (a tensor kept by two operations counts once), for
    ``dtype_bytes`` = 2 (bf16, fp16) or 4 (fp32) weights and activations. Hugging Face's gradient checkpointing
    keeps each layer's input and recomputes the rest. ``device`` only changes the dropout masks: CUDA keeps one
    byte per element, the CPU kernel one element of the input's dtype. ``padded``: the batch is padded, so an
    attention mask is passed (see :func:`masked`).

    >>> arch = Architecture("llama", "llama", 4096, 11008, 32, 32, 32, 128, 32000, False)
    >>> saved_activations(arch, 4096, 1).total // 2**20
    23943
    """
    check_int(seq, Param.seq_len, 1, MAX_SEQ_LEN)
    check_int(batch, Param.micro_batch, 1, MAX_MICRO_BATCH)
    act = dtype_bytes
    tokens = seq * batch
    h = arch.hidden
    mask = 1 if device == "cuda" else act
    residual_dropouts = (2 if arch.family == "gpt2" else 0) if arch.residual_dropout > 0 else 0
    if arch.family == "gpt_neox":  # two norms read the same input, kept once
        norms = _norm(arch, tokens, h, act) + tokens * h * act + 2 * tokens * FP32
    else:
        norms = 2 * _norm(arch, tokens, h, act)
    per_layer = (
        norms
        + _attention(arch, seq, batch, attention, act, device, padded)
        + _mlp(arch, tokens, act)
        + residual_dropouts * tokens * h * mask
    )
    embedding = tokens * INDEX
    if arch.positions:
        embedding += seq * INDEX
    if arch.embedding_dropout > 0:
        embedding += tokens * h * mask
    if arch.positions == 0 and not checkpointing:  # rotary cos and sin, shared by all layers and the batch
        embedding += 2 * seq * round(arch.head_dim * arch.rotary_fraction) * act
    if checkpointing and arch.family == "gpt2" and attention == "eager":
        # GPT-2 hands its additive causal mask to each checkpointed layer positionally, so the mask is kept
        embedding += batch * seq * seq * act
    final_norm = _norm(arch, tokens, h, act)
    loss = tokens * arch.vocab * FP32 + tokens * INDEX
    if checkpointing:
        layers, recompute = arch.layers * tokens * h * act, per_layer
    else:
        layers, recompute = arch.layers * per_layer, 0
    return SavedActivations(per_layer, layers, embedding, final_norm, loss, recompute)


def running_layer(
    arch: Architecture, seq: int, batch: int, attention: Attention, dtype_bytes: int, device: ComputeDevice = "cuda"
) -> int:
    """The working memory of one Llama-family layer run without autograd, as a checkpointed layer runs in forward:
    what lives only while it runs, the larger of its attention and its MLP (its input is counted where it is kept).

    Attention: the norm's output, q and the rotated q and k, v, and K and V repeated to every query head; under
    eager attention also the model's causal mask (batch × sequence², built once), and at the softmax the masked
    scores, their 32-bit probabilities and then the copy in the model's precision; on the CPU a 16-bit model's
    scores are first converted to 32-bit as a tensor of their own (CUDA's softmax converts as it reads). MLP: the
    residual sum and the norm's output, and at the product the activation's output, the up projection's and the
    product itself. Other families: 0 (not measured).
    """
    if arch.family != "llama":
        return 0
    act = dtype_bytes
    tokens = seq * batch
    h = arch.hidden
    attention_part = (tokens * h + 3 * tokens * arch.q_width + 2 * tokens * arch.kv_width) * act
    if attention == "eager":
        scores = arch.heads * batch * seq * seq
        cast = FP32 if device == "cpu" and act != FP32 else 0
        copy = act if act != FP32 else 0  # .to() of a 32-bit model's probabilities is the same tensor
        # the cast is freed once the softmax has read it, before the copy is made
        attention_part += batch * seq * seq * act + scores * (act + FP32 + max(cast, copy))
    mlp_part = 2 * tokens * h * act + 3 * tokens * arch.intermediate * act
    return max(attention_part, mlp_part)


@record
class LayerPeaks:
    """The layer being run or differentiated at its own peak, beyond what the other layers keep, and what lives
    beside the kept tensors while the layers run.

    Measured on the CPU with live-tensor tracking (``tests/functional/test_estimate_layer.py``): the bytes a layer
    allocates and frees within itself, which the saved set of :func:`saved_activations` leaves out.
    """

    forward: int
    """The last layer under autograd at its attention's peak (eager attention; 0 otherwise): what it has kept so
    far (its first norm, q, k and v as multiplied) and the scores' temporaries."""
    backward: int
    """The layer being differentiated (recomputed first, with checkpointing) at its peak: the larger of its MLP's
    backward (the whole layer still kept, and the MLP's gradients) and, under eager attention, its softmax's
    backward (what the layer still keeps by then, the gradients of the probabilities and of the scores)."""
    mask: int
    """Eager attention's causal mask, batch × sequence² in the model's precision, built once by the model: live
    through forward, and through backward too with checkpointing (each checkpointed layer holds it as an input)."""
    final_norm_backward: int
    """The final norm while it is differentiated: what it still keeps and its backward's temporaries (the Llama
    family's RMSNorm, differentiated operation by operation, makes five 32-bit tensors of the hidden states' size;
    LayerNorm's backward is one operation, nothing beyond what it keeps). It outweighs the logits' gradients only
    when the vocabulary is about as small as the hidden size."""
    held: int
    """With checkpointing, what each checkpointed layer holds as an input beside its hidden states and is not saved
    for backward: the mask and the rotary tables (0 without), live from the forward pass until that layer's
    backward, so through the loss's backward too."""


def layer_peaks(
    arch: Architecture,
    seq: int,
    batch: int,
    *,
    attention: Attention = "sdpa",
    checkpointing: bool = False,
    dtype_bytes: int = 2,
    device: ComputeDevice = "cuda",
    padded: bool = False,
) -> LayerPeaks:
    """The working memory of one layer in forward and backward (see :class:`LayerPeaks`).

    Eager attention computes its scores (batch × heads × sequence² elements) with a matrix product, scales them into
    a second tensor, adds the mask into a third, and takes the softmax (the Llama family in 32-bit: on the CPU a
    16-bit model's scores are first converted as a tensor of their own, CUDA converts as it reads); the forward peak
    is the larger of the product beside its scaled copy and the masked scores beside the softmax. In backward, the
    softmax's output is still kept when the gradient of the probabilities arrives, and the gradient of the scores
    is made beside it: two tensors of the softmax's precision (32-bit in the Llama family, whose gradient is
    converted to 32-bit first). By then the layer's MLP, second norm, attention output, repeated V and 16-bit copy of
    the probabilities are freed, and the gradients of the residual stream and of V are live.

    >>> arch = Architecture("llama", "llama", 4096, 11008, 32, 32, 32, 128, 32000, False)
    >>> layer_peaks(arch, 4096, 1, attention="eager").backward // 2**20
    6400
    """
    act = dtype_bytes
    tokens = seq * batch
    h = arch.hidden
    saved = saved_activations(arch, seq, batch, attention=attention, dtype_bytes=act, device=device, padded=padded)
    norm = _norm(arch, tokens, h, act)
    residual_grad = tokens * h * act  # the gradient of the hidden states arriving at the layer
    mlp_backward = saved.per_layer + 2 * tokens * max(h, arch.intermediate) * act + residual_grad
    if checkpointing and (arch.family != "llama" or act == FP32):
        # the recomputed layer's first norm keeps the layer's input itself, which its checkpoint holds already
        # (the Llama family's RMSNorm keeps a 32-bit copy of a 16-bit input instead)
        mlp_backward -= tokens * h * act
    rotary = 2 * seq * round(arch.head_dim * arch.rotary_fraction) * act if arch.positions == 0 else 0
    final_norm = tokens * h * FP32 + 5 * tokens * h * FP32 if arch.family == "llama" else norm
    if attention != "eager":
        return LayerPeaks(0, mlp_backward, 0, final_norm, rotary if checkpointing else 0)
    q, kv = tokens * arch.q_width * act, tokens * arch.kv_width * act
    scores = arch.heads * batch * seq * seq
    mask = batch * seq * seq * act
    softmax = FP32 if arch.family == "llama" else act
    cast = FP32 if arch.family == "llama" and device == "cpu" and act != FP32 else 0
    dropout = scores * (1 if device == "cuda" else act) if arch.attention_dropout > 0 else 0
    if arch.family == "llama":  # q, the rotated k and v as projected, k and v repeated to every query head
        before, still_kept = q + 2 * kv + 2 * q, q + q
    else:  # the fused projection, of which q, k and v are views
        before, still_kept = 3 * q, 3 * q
    forward = norm + before + max(2 * scores * act, scores * act + scores * (cast + softmax))
    softmax_backward = norm + still_kept + scores * softmax + dropout + residual_grad + q + 2 * scores * softmax
    if checkpointing and (arch.family != "llama" or act == FP32):
        softmax_backward -= tokens * h * act
    # GPT-2 hands its mask to each checkpointed layer positionally: already counted with what is kept
    held = (mask if arch.family == "llama" else 0) + rotary if checkpointing else 0
    return LayerPeaks(forward, max(mlp_backward, softmax_backward), mask, final_norm, held)
