"""The largest layer (what stage 3 gathers whole) and the activations of a transformer for a sequence and a batch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .messages import M
from .quantities import MAX_HIDDEN, MAX_LAYERS, MAX_MICRO_BATCH, MAX_SEQ_LEN, EstimateError, check_int

__all__ = ["Activation", "LayerBasis", "activation_memory", "largest_layer_estimate"]

ASSUMED_VOCAB = 128_000
"""Vocabulary assumed for the largest-layer estimate when none is given (Llama 3 uses 128,256 tokens)."""


WIDTH_PER_LAYER = 128
"""Assumed hidden size ÷ layer count of a decoder (Llama 2 7B: 4096/32; GPT-3 175B: 12288/96)."""


@dataclass(frozen=True)
class LayerBasis:
    """How the largest layer was found: given, or estimated from a vocabulary and a hidden size (each given or not)."""

    given: bool
    vocab: int = 0
    vocab_given: bool = False
    hidden: int = 0
    hidden_given: bool = False
    capped: bool = False


def largest_layer_estimate(
    params: int, hidden_size: int | None = None, vocab_size: int | None = None
) -> tuple[int, LayerBasis]:
    """The parameters of the largest layer when the user did not say: max(vocab × hidden, 4 × hidden²), ≤ params.

    In transformer language models the largest single module is the embedding (or the output head), an MLP
    matrix when the vocabulary is small. Without a hidden size it is estimated from ``params = 12·L·h²`` with
    ``h = 128·L``; without a vocabulary, 128,000 tokens are assumed. Both are printed as assumptions.

    >>> largest_layer_estimate(8_000_000_000)[0] // 10**6, largest_layer_estimate(7_000_000_000, 4096, 32000)[0]
    (563, 131072000)
    """
    hidden = hidden_size or max(1, round((WIDTH_PER_LAYER * params / 12) ** (1 / 3)))
    vocab = vocab_size or ASSUMED_VOCAB
    layer = max(vocab * hidden, 4 * hidden * hidden)
    basis = LayerBasis(False, vocab, vocab_size is not None, hidden, hidden_size is not None, layer > params)
    return min(layer, params), basis


@dataclass(frozen=True)
class Activation:
    """Activation memory per GPU of a transformer stack, with and without activation checkpointing (bytes)."""

    hidden_size: int
    layers: int
    seq_len: int
    micro_batch: int
    heads: int | None
    without_checkpointing: int
    with_checkpointing: int

    def to_json(self) -> dict[str, Any]:
        return {
            "hidden_size": self.hidden_size,
            "layers": self.layers,
            "seq_len": self.seq_len,
            "micro_batch": self.micro_batch,
            "heads": self.heads,
            "without_checkpointing_bytes": self.without_checkpointing,
            "with_checkpointing_bytes": self.with_checkpointing,
            "formula_without": M.text("formula_full" if self.heads else "formula_flash", "en"),
            "formula_with": M.text("formula_ckpt_full" if self.heads else "formula_ckpt_flash", "en"),
            "source": "Korthikanti et al. 2022, arXiv:2205.05198, section 4",
        }


def activation_memory(
    hidden_size: int, layers: int, seq_len: int, micro_batch: int, heads: int | None = None
) -> Activation:
    """Per-GPU activation bytes after Korthikanti et al. 2022 (arXiv:2205.05198), section 4.

    One layer stores ``s·b·h·(34 + 5·a·s/h)`` bytes of 16-bit activations; the ``5·a·s/h`` term (attention scores)
    is left out when ``heads`` is None, as with FlashAttention. With full checkpointing each layer keeps only its
    input, ``2·s·b·h`` bytes, and one layer is recomputed at a time.

    >>> act = activation_memory(4096, 32, 4096, 1)
    >>> act.without_checkpointing, act.with_checkpointing
    (18253611008, 1644167168)
    """
    check_int(hidden_size, "--hidden-size", 1, MAX_HIDDEN)
    check_int(layers, "--layers", 1, MAX_LAYERS)
    check_int(seq_len, "--seq-len", 1, MAX_SEQ_LEN)
    check_int(micro_batch, "--micro-batch", 1, MAX_MICRO_BATCH)
    if heads is not None:
        check_int(heads, "--heads", 1, MAX_HIDDEN)
        if heads > hidden_size:
            raise EstimateError("heads_over_hidden", heads=heads, hidden=hidden_size)
    # s·b·h·(34 + 5·a·s/h) == s·b·(34·h + 5·a·s), exact in integers
    per_layer = seq_len * micro_batch * (34 * hidden_size + (5 * heads * seq_len if heads else 0))
    without = layers * per_layer
    with_ckpt = layers * 2 * seq_len * micro_batch * hidden_size + per_layer
    return Activation(hidden_size, layers, seq_len, micro_batch, heads, without, with_ckpt)
