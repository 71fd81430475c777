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
from typing import Any, Literal

from ..records import record
from .quantities import (
    MAX_HIDDEN,
    MAX_LAYERS,
    MAX_PARAMS,
    MAX_SEQ_LEN,
    MAX_VOCAB,
    EstimateError,
    Param,
    Phrase,
    check_int,
    describe,
    limit_text,
    number_text,
)

__all__ = [
    "ASSUMED_VOCAB",
    "FAMILIES",
    "FLAG_KEYS",
    "MODEL_TYPES",
    "WIDTH_PER_LAYER",
    "Architecture",
    "FlagModel",
    "architecture_from_flags",
    "architecture_from_hf",
    "assumed_hidden",
    "assumed_vocab",
]

Family = Literal["llama", "gpt2", "gpt_neox"]

FAMILIES: tuple[Family, ...] = ("llama", "gpt2", "gpt_neox")

MODEL_TYPES: dict[str, Family] = {
    "llama": "llama",
    "mistral": "llama",
    "qwen2": "llama",
    "qwen3": "llama",
    "gemma": "llama",
    "gemma2": "llama",
    "gemma3_text": "llama",
    "glm": "llama",
    "baichuan": "llama",
    "gpt2": "gpt2",
    "gpt_neox": "gpt_neox",
}
"""The ``model_type`` values dsref reads, and the family whose layer they share (Gemma, GLM-4 and Baichuan 2 have
Llama's layer: rotary attention with grouped key-value heads, a gated MLP, RMS norms; their extra norms and
Baichuan's fused query-key-value weight change no count that matters here)."""


TIED_BY_DEFAULT = frozenset({"gemma", "gemma2", "gemma3_text"})
"""The ``model_type`` values whose transformers config class ties the output layer to the embeddings unless
``tie_word_embeddings`` says otherwise (GemmaConfig, Gemma2Config, Gemma3TextConfig): their published config.json
files leave the key out."""


FUSED_ACTIVATIONS = frozenset({"silu", "swish", "gelu", "gelu_pytorch_tanh", "relu", "gelu_fast_pytorch"})
"""Activation functions PyTorch computes in one operation, which keeps only its input for backward. Anything else
(GPT-2's ``gelu_new``, written as a chain of operations) keeps four tensors of the MLP's width."""


@record
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
    sliding_window: int | None = None
    """Mistral's attention window: each token attends to this many before it (None: the whole sequence). Under
    sdpa a window no longer than the sequence needs a mask, which changes what attention keeps."""
    max_positions: int | None = None
    """The longest sequence the model's positions cover (``max_position_embeddings``, GPT-2's ``n_positions``); None
    when the config does not say."""
    read_from: str | None = None
    """The part of the config the model was read from (``text_config``: a multimodal model's language model); None
    when the whole config is the model."""
    not_counted: tuple[str, ...] = ()
    """The config's other parts (``vision_config``), whose parameters and activations the estimate leaves out."""

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
            "max_position_embeddings": self.max_positions,
            "sliding_window": self.sliding_window,
            **(
                {}
                if self.read_from is None
                else {"estimated_from": self.read_from, "not_counted": list(self.not_counted)}
            ),
        }


_KEYS: dict[str, tuple[str, ...]] = {
    "hidden": ("hidden_size", "n_embd"),
    "intermediate": ("intermediate_size", "n_inner"),
    "layers": ("num_hidden_layers", "n_layer"),
    "heads": ("num_attention_heads", "n_head"),
    "vocab": ("vocab_size",),
}
"""The keys each family's config spells a quantity with (Llama's names first, GPT-2's second)."""


def _first(config: Mapping[str, Any], names: tuple[str, ...]) -> tuple[str, Any]:
    """The first of ``names`` the config gives a value, and that value (the first name and None when none does)."""
    for name in names:
        if config.get(name) is not None:
            return name, config[name]
    return names[0], None


@record
class _Reader:
    """Reads a quantity of a model's config, saying in what it raises where the value is written."""

    config: Mapping[str, Any]
    at: tuple[str, ...]
    """Where ``config`` is in the file: ``()`` for the top, ``("text_config",)`` for a vision-language model's."""

    def whole(self, names: tuple[str, ...], maximum: int) -> int:
        """A count, from 1 to ``maximum``."""
        name, value = _first(self.config, names)
        if isinstance(value, bool) or not isinstance(value, int):
            quoted = value.strip() if isinstance(value, str) else ""
            raise EstimateError(
                "model_not_integer",
                field=(*self.at, name),
                name=name,
                value=describe(value),
                hint=Phrase("model_unquote", {"text": quoted}) if quoted.isdigit() else "",
            )
        if value < 1 or value > maximum:
            shown, most = number_text(value), limit_text(maximum)
            raise EstimateError("model_bad_value", field=(*self.at, name), name=name, value=shown, maximum=most)
        return value

    def fraction(self, key: str, default: float) -> float:
        """A share from 0 to 1 (a dropout probability, the rotary share of a head); ``default`` when absent."""
        value = self.config.get(key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise EstimateError("model_not_fraction", field=(*self.at, key), name=key, value=describe(value))
        return float(value)


_PARTS = ("vision_config", "audio_config")
"""The parts of a multimodal model's config besides its language model (``text_config``)."""


def architecture_from_hf(config: Any) -> Architecture:
    """Read a parsed Hugging Face ``config.json``. Raises :class:`EstimateError` naming what is missing or unknown,
    with the place of the value at fault in ``field``.

    A multimodal config (Llava: ``text_config`` beside ``vision_config``) is read from its language model, which is
    what trains with long sequences; the architecture says so (``read_from``, ``not_counted``).
    """
    if not isinstance(config, Mapping):
        raise EstimateError("model_not_object")
    whole = config
    at: tuple[str, ...] = ()
    text = config.get("text_config")
    if config.get("model_type") not in MODEL_TYPES and isinstance(text, Mapping):
        config, at = text, ("text_config",)
    read = _Reader(config, at)
    model_type = config.get("model_type")
    family = MODEL_TYPES.get(model_type) if isinstance(model_type, str) else None
    if family is None:
        raise EstimateError(
            "model_unknown_type",
            field=(*at, "model_type") if "model_type" in config else at,
            model_type=model_type if isinstance(model_type, str) else "",
            known=", ".join(MODEL_TYPES),
            keys=", ".join(names[0] for names in _KEYS.values()),
        )
    needed = [name for name in _KEYS if name != "intermediate" or family == "llama"]
    missing = [_KEYS[name][0] for name in needed if _first(config, _KEYS[name])[1] is None]
    if missing:
        raise EstimateError("model_missing_keys", field=at, model_type=model_type, keys=", ".join(missing))
    hidden = read.whole(_KEYS["hidden"], MAX_HIDDEN)
    layers = read.whole(_KEYS["layers"], MAX_LAYERS)
    heads = read.whole(_KEYS["heads"], MAX_HIDDEN)
    vocab = read.whole(_KEYS["vocab"], MAX_VOCAB)
    if _first(config, _KEYS["intermediate"])[1] is None:  # GPT-2's n_inner: null means 4 × hidden
        intermediate = 4 * hidden
    else:
        intermediate = read.whole(_KEYS["intermediate"], 64 * MAX_HIDDEN)
    heads_name = _first(config, _KEYS["heads"])[0]
    grouped = family == "llama" and config.get("num_key_value_heads") is not None
    kv_heads = read.whole(("num_key_value_heads",), MAX_HIDDEN) if grouped else heads
    if heads % kv_heads:  # Hugging Face shares each key-value head among num_attention_heads // kv_heads heads
        raise EstimateError(
            "model_heads_kv",
            field=(*at, heads_name),
            heads_name=heads_name,
            heads=heads,
            kv_name="num_key_value_heads",
            kv_heads=kv_heads,
        )
    explicit_head_dim = config.get("head_dim")
    if explicit_head_dim is not None and family == "llama":
        head_dim = read.whole(("head_dim",), MAX_HIDDEN)
    else:
        if hidden % heads:
            hidden_name = _first(config, _KEYS["hidden"])[0]
            raise EstimateError(
                "model_heads_hidden",
                field=(*at, hidden_name),
                hidden_name=hidden_name,
                hidden=hidden,
                heads_name=heads_name,
                heads=heads,
            )
        head_dim = hidden // heads
    tied_default = family == "gpt2" or model_type in TIED_BY_DEFAULT
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
    positions_key = "n_positions" if family == "gpt2" else "max_position_embeddings"
    if config.get(positions_key) is not None:
        common["max_positions"] = read.whole((positions_key,), MAX_SEQ_LEN)
    elif family == "gpt2":
        common["max_positions"] = 1024  # GPT2Config's default n_positions
    if at:
        common["read_from"] = at[-1]
        common["not_counted"] = tuple(part for part in _PARTS if isinstance(whole.get(part), Mapping))
    if family == "llama":
        window = config.get("sliding_window") if model_type == "mistral" else None
        if window is not None:
            common["sliding_window"] = read.whole(("sliding_window",), MAX_SEQ_LEN)
        return Architecture(
            **common,
            activation=str(config.get("hidden_act") or config.get("hidden_activation") or "silu"),
            attention_dropout=read.fraction("attention_dropout", 0.0),
            qkv_bias=model_type == "qwen2" or bool(config.get("attention_bias", False)),
            mlp_bias=bool(config.get("mlp_bias", False)),
            qk_norm=model_type == "qwen3",
        )
    if family == "gpt2":
        return Architecture(
            **common,
            activation=str(config.get("activation_function") or "gelu_new"),
            attention_dropout=read.fraction("attn_pdrop", 0.1),
            residual_dropout=read.fraction("resid_pdrop", 0.1),
            embedding_dropout=read.fraction("embd_pdrop", 0.1),
            positions=read.whole(("n_positions",), MAX_HIDDEN * 100) if config.get("n_positions") else 1024,
        )
    return Architecture(
        **common,
        activation=str(config.get("hidden_act") or "gelu"),
        attention_dropout=read.fraction("attention_dropout", 0.0),
        residual_dropout=read.fraction("hidden_dropout", 0.0),
        rotary_fraction=read.fraction("rotary_pct", 0.25),
    )


def check_architecture(arch: Architecture) -> Architecture:
    """Library-side check of an :class:`Architecture` built by hand (the limits of :func:`architecture_from_hf`)."""
    check_int(arch.hidden, Param.hidden_size, 1, MAX_HIDDEN)
    check_int(arch.layers, Param.layers, 1, MAX_LAYERS)
    check_int(arch.heads, Param.heads, 1, MAX_HIDDEN)
    check_int(arch.vocab, Param.vocab_size, 1, MAX_VOCAB)
    return arch


ASSUMED_VOCAB = 128_000
"""Vocabulary assumed when none is given (Llama 3 has 128,256 tokens), at most half the parameters' worth."""


WIDTH_PER_LAYER = 128
"""Assumed hidden size ÷ layer count of a decoder (Llama 2 7B: 4096/32; GPT-3 175B: 12288/96)."""


HEAD_DIM = 128
"""Width of an attention head assumed when no head count is given (Llama's, Mistral's, Qwen2's)."""


FLAG_KEYS: tuple[str, ...] = ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")
"""The shape a model given by flags may leave out, named as a Llama config.json names it."""


def assumed_hidden(params: int, layers: int | None = None) -> int:
    """The hidden size of a decoder of ``params`` parameters when none is given: 12·L·h² parameters, the width
    :data:`WIDTH_PER_LAYER` times the depth (or, with ``layers``, the width that makes up five sixths of the
    parameters, the rest being the vocabulary's), rounded to whole heads of :data:`HEAD_DIM`.

    >>> assumed_hidden(7_000_000_000), assumed_hidden(7_000_000_000, 32)
    (4224, 3840)
    """
    deep = (WIDTH_PER_LAYER * params / 12) ** (1 / 3)
    width = deep if layers is None else (5 * params / 6 / (12 * layers)) ** 0.5
    return max(1, round(width / HEAD_DIM) * HEAD_DIM if width >= HEAD_DIM else round(width))


def assumed_vocab(params: int, hidden: int) -> int:
    """The vocabulary when none is given: :data:`ASSUMED_VOCAB`, or less so that the embedding and the output head
    take at most half of the parameters.

    >>> assumed_vocab(7_000_000_000, 4096), assumed_vocab(350_000_000, 1536)
    (128000, 56966)
    """
    return max(1, min(ASSUMED_VOCAB, params // (4 * hidden)))


@record
class FlagModel:
    """A model given by its parameter count and what else the flags say: a Llama-family decoder (RMSNorm, rotary
    positions, a gated SiLU MLP, one key-value head per query head, untied embeddings) whose MLP width makes up the
    parameter count. The same per-layer accounting as a config.json's model, so the two modes answer alike."""

    arch: Architecture
    assumed: tuple[str, ...]
    """The keys of :data:`FLAG_KEYS` the flags did not give, in that order."""


def architecture_from_flags(
    params: int,
    *,
    hidden: int | None = None,
    layers: int | None = None,
    heads: int | None = None,
    vocab: int | None = None,
) -> FlagModel:
    """A Llama-family model of ``params`` parameters with the shape given, the rest assumed and said.

    Without a hidden size, a decoder of 12·L·h² parameters :data:`WIDTH_PER_LAYER` times as wide as deep (or, with
    the layer count, the width that makes up the parameters); without a layer count, as many layers of 12·h² as the
    parameters allow; heads of :data:`HEAD_DIM`; a vocabulary of :data:`ASSUMED_VOCAB` at most half the parameters.
    The MLP's width is what is left of each layer's share of the parameters, so the model has (within rounding)
    ``params`` parameters.

    >>> flags = architecture_from_flags(7_000_000_000, hidden=4096, layers=32, vocab=32000)
    >>> flags.arch.heads, flags.arch.intermediate, flags.assumed, round(flags.arch.params / 1e9, 2)
    (32, 11673, ('num_attention_heads',), 7.0)
    """
    check_int(params, Param.params, 1, MAX_PARAMS)
    for value, param, maximum in ((hidden, Param.hidden_size, MAX_HIDDEN), (layers, Param.layers, MAX_LAYERS),
                                  (heads, Param.heads, MAX_HIDDEN), (vocab, Param.vocab_size, MAX_VOCAB)):  # fmt: skip
        if value is not None:
            check_int(value, param, 1, maximum)
    given = {"hidden_size": hidden, "num_hidden_layers": layers, "num_attention_heads": heads, "vocab_size": vocab}
    if hidden is None:
        hidden = assumed_hidden(params, layers)
    if vocab is None:
        vocab = assumed_vocab(params, hidden)
    if layers is None:
        layers = max(1, min(MAX_LAYERS, round((params - 2 * vocab * hidden) / (12 * hidden * hidden))))
    if heads is None:
        heads = max(1, round(hidden / HEAD_DIM))
    if heads > hidden:
        raise EstimateError(
            "heads_over_hidden", option=Param.heads, heads=heads, hidden_option=Param.hidden_size, hidden=hidden
        )
    head_dim = hidden // heads
    attention = 4 * hidden * heads * head_dim
    per_layer = (params - 2 * vocab * hidden - hidden) // layers
    intermediate = max(1, (per_layer - attention - 2 * hidden) // (3 * hidden))
    arch = Architecture("llama", "llama", hidden, intermediate, layers, heads, heads, head_dim, vocab, False)
    return FlagModel(arch, tuple(key for key in FLAG_KEYS if given[key] is None))
