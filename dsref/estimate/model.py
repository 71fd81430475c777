"""A transformer's shape, read from a Hugging Face ``config.json`` as plain JSON (no ``transformers`` import).

Three families are known, by how their layers are built; each ``model_type`` below maps onto one of them:

* ``llama`` (llama, mistral, qwen2, qwen3): RMSNorm computed in 32-bit, rotary positions, grouped-query attention,
  a gated SiLU MLP (gate, up, down); qwen2 adds q/k/v biases, qwen3 an RMSNorm on each query and key head.
* ``gpt2``: LayerNorm, learned positions, one fused q/k/v projection, a plain MLP, dropout after the embedding,
  on the attention probabilities and on both residual branches; embeddings tied.
* ``gpt_neox``: LayerNorm, partial rotary positions, one fused q/k/v projection, a plain MLP, attention and MLP
  in parallel from the same input (``use_parallel_residual``).

>>> arch = architecture_from_hf({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
...     "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000})
>>> arch.params, arch.largest_layer
(6738415616, 131072000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .quantities import MAX_HIDDEN, MAX_LAYERS, MAX_VOCAB, EstimateError, check_int

__all__ = ["FAMILIES", "MODEL_TYPES", "Architecture", "architecture_from_hf"]

Family = Literal["llama", "gpt2", "gpt_neox"]

FAMILIES: tuple[Family, ...] = ("llama", "gpt2", "gpt_neox")

MODEL_TYPES: dict[str, Family] = {
    "llama": "llama",
    "mistral": "llama",
    "qwen2": "llama",
    "qwen3": "llama",
    "gpt2": "gpt2",
    "gpt_neox": "gpt_neox",
}
"""The ``model_type`` values dsref reads, and the family whose layer they share."""


FUSED_ACTIVATIONS = frozenset({"silu", "swish", "gelu", "gelu_pytorch_tanh", "relu", "gelu_fast_pytorch"})
"""Activation functions PyTorch computes in one operation, which keeps only its input for backward. Anything else
(GPT-2's ``gelu_new``, written as a chain of operations) keeps four tensors of the MLP's width."""


@dataclass(frozen=True)
class Architecture:
    """What the memory of a decoder-only transformer depends on."""

    family: Family
    model_type: str
    hidden: int
    intermediate: int
    layers: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    tied_embeddings: bool
    activation: str = "silu"
    attention_dropout: float = 0.0
    residual_dropout: float = 0.0
    embedding_dropout: float = 0.0
    qkv_bias: bool = False
    mlp_bias: bool = False
    qk_norm: bool = False
    positions: int = 0
    """Learned position embeddings (GPT-2); 0 for rotary positions."""
    rotary_fraction: float = 1.0
    """Share of each head's dimensions that rotary positions turn (GPT-NeoX's ``rotary_pct``)."""

    @property
    def gated_mlp(self) -> bool:
        return self.family == "llama"

    @property
    def q_width(self) -> int:
        return self.heads * self.head_dim

    @property
    def kv_width(self) -> int:
        return self.kv_heads * self.head_dim

    @property
    def layer_params(self) -> int:
        """Parameters of one transformer layer."""
        h, i = self.hidden, self.intermediate
        if self.family == "llama":
            attn = h * self.q_width + 2 * h * self.kv_width + self.q_width * h
            attn += (self.q_width + 2 * self.kv_width) if self.qkv_bias else 0
            attn += 2 * self.head_dim if self.qk_norm else 0
            mlp = 3 * h * i + ((2 * i + h) if self.mlp_bias else 0)
            return attn + mlp + 2 * h
        # GPT-2 and GPT-NeoX: fused q/k/v and output projections, two-matrix MLP, all with biases; two LayerNorms
        return 4 * h * h + 4 * h + 2 * h * i + i + h + 4 * h

    @property
    def params(self) -> int:
        """Every parameter, counted as Hugging Face builds the model (tied embeddings once)."""
        h = self.hidden
        embed = self.vocab * h + self.positions * h
        final_norm = h if self.family == "llama" else 2 * h
        head = 0 if self.tied_embeddings else self.vocab * h
        return embed + self.layers * self.layer_params + final_norm + head

    @property
    def largest_layer(self) -> int:
        """Parameters of the largest single module: what ZeRO stage 3 gathers whole at once."""
        h = self.hidden
        fused = 3 * h * h + 3 * h if self.family != "llama" else 0
        return max(self.vocab * h, self.intermediate * h, fused, self.q_width * h)

    def to_json(self) -> dict[str, Any]:
        return {
            "family": self.family,
            "model_type": self.model_type,
            "hidden_size": self.hidden,
            "intermediate_size": self.intermediate,
            "num_hidden_layers": self.layers,
            "num_attention_heads": self.heads,
            "num_key_value_heads": self.kv_heads,
            "head_dim": self.head_dim,
            "vocab_size": self.vocab,
            "tie_word_embeddings": self.tied_embeddings,
            "activation": self.activation,
            "attention_dropout": self.attention_dropout,
            "residual_dropout": self.residual_dropout,
            "embedding_dropout": self.embedding_dropout,
            "params": self.params,
            "largest_layer_params": self.largest_layer,
        }


_KEYS: dict[str, tuple[str, ...]] = {
    "hidden": ("hidden_size", "n_embd"),
    "intermediate": ("intermediate_size", "n_inner"),
    "layers": ("num_hidden_layers", "n_layer"),
    "heads": ("num_attention_heads", "n_head"),
    "vocab": ("vocab_size",),
}
"""The keys each family's config spells a quantity with (Llama's names first, GPT-2's second)."""


def _first(config: Mapping[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        if config.get(name) is not None:
            return config[name]
    return None


def _number(config: Mapping[str, Any], key: str, default: float) -> float:
    value = config.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise EstimateError("model_bad_value", name=key, value=value)
    return float(value)


def _whole(config: Mapping[str, Any], names: tuple[str, ...], maximum: int) -> int:
    value = _first(config, names)
    if isinstance(value, bool) or not isinstance(value, int):
        raise EstimateError("model_bad_value", name=names[0], value=value)
    if value < 1 or value > maximum:
        raise EstimateError("model_bad_value", name=names[0], value=value)
    return value


def architecture_from_hf(config: Any) -> Architecture:
    """Read a parsed Hugging Face ``config.json``. Raises :class:`EstimateError` naming what is missing or unknown."""
    if not isinstance(config, Mapping):
        raise EstimateError("model_not_object")
    text = config.get("text_config")
    if (
        config.get("model_type") not in MODEL_TYPES
        and isinstance(text, Mapping)
        and text.get("model_type") in MODEL_TYPES
    ):
        config = text  # a vision-language model: the language model is what trains with long sequences
    model_type = config.get("model_type")
    family = MODEL_TYPES.get(model_type) if isinstance(model_type, str) else None
    if family is None:
        raise EstimateError(
            "model_unknown_type",
            model_type=model_type if isinstance(model_type, str) else "",
            known=", ".join(MODEL_TYPES),
            keys=", ".join(names[0] for names in _KEYS.values()),
        )
    needed = [name for name in _KEYS if name != "intermediate" or family == "llama"]
    missing = [_KEYS[name][0] for name in needed if _first(config, _KEYS[name]) is None]
    if missing:
        raise EstimateError("model_missing_keys", model_type=model_type, keys=", ".join(missing))
    hidden = _whole(config, _KEYS["hidden"], MAX_HIDDEN)
    layers = _whole(config, _KEYS["layers"], MAX_LAYERS)
    heads = _whole(config, _KEYS["heads"], MAX_HIDDEN)
    vocab = _whole(config, _KEYS["vocab"], MAX_VOCAB)
    if _first(config, _KEYS["intermediate"]) is None:  # GPT-2's n_inner: null means 4 × hidden
        intermediate = 4 * hidden
    else:
        intermediate = _whole(config, _KEYS["intermediate"], 64 * MAX_HIDDEN)
    grouped = family == "llama" and config.get("num_key_value_heads") is not None
    kv_heads = _whole(config, ("num_key_value_heads",), heads) if grouped else heads
    if heads % kv_heads:
        raise EstimateError("model_bad_value", name="num_key_value_heads", value=kv_heads)
    explicit_head_dim = config.get("head_dim")
    if explicit_head_dim is not None and family == "llama":
        head_dim = _whole(config, ("head_dim",), MAX_HIDDEN)
    else:
        if hidden % heads:
            raise EstimateError("model_bad_value", name=_KEYS["heads"][0], value=heads)
        head_dim = hidden // heads
    tied_default = family == "gpt2"
    tied = config.get("tie_word_embeddings", tied_default)
    common: dict[str, Any] = {
        "family": family,
        "model_type": model_type,
        "hidden": hidden,
        "intermediate": intermediate,
        "layers": layers,
        "heads": heads,
        "kv_heads": kv_heads,
        "head_dim": head_dim,
        "vocab": vocab,
        "tied_embeddings": bool(tied_default if tied is None else tied),
    }
    if family == "llama":
        return Architecture(
            **common,
            activation=str(config.get("hidden_act") or "silu"),
            attention_dropout=_number(config, "attention_dropout", 0.0),
            qkv_bias=model_type == "qwen2" or bool(config.get("attention_bias", False)),
            mlp_bias=bool(config.get("mlp_bias", False)),
            qk_norm=model_type == "qwen3",
        )
    if family == "gpt2":
        return Architecture(
            **common,
            activation=str(config.get("activation_function") or "gelu_new"),
            attention_dropout=_number(config, "attn_pdrop", 0.1),
            residual_dropout=_number(config, "resid_pdrop", 0.1),
            embedding_dropout=_number(config, "embd_pdrop", 0.1),
            positions=_whole(config, ("n_positions",), MAX_HIDDEN * 100) if config.get("n_positions") else 1024,
        )
    return Architecture(
        **common,
        activation=str(config.get("hidden_act") or "gelu"),
        attention_dropout=_number(config, "attention_dropout", 0.0),
        residual_dropout=_number(config, "hidden_dropout", 0.0),
        rotary_fraction=_number(config, "rotary_pct", 0.25),
    )


def check_architecture(arch: Architecture) -> Architecture:
    """Library-side check of an :class:`Architecture` built by hand (same limits as the flags)."""
    check_int(arch.hidden, "--hidden-size", 1, MAX_HIDDEN)
    check_int(arch.layers, "--layers", 1, MAX_LAYERS)
    check_int(arch.heads, "--heads", 1, MAX_HIDDEN)
    check_int(arch.vocab, "--vocab-size", 1, MAX_VOCAB)
    return arch
