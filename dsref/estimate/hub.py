"""The shapes of widely used open models by their Hugging Face hub id, for estimating a launch offline.

A launch names its model by hub id (``--model_name_or_path Qwen/Qwen2.5-7B-Instruct``, ``base_model:
meta-llama/Llama-3.1-8B``); dsref reads no network, so a model that is not a local directory is looked up here.
Each entry is the part of the model's published ``config.json`` the estimator reads (its ``source``), copied from
copies of those files in public repositories; an instruction-tuned or chat variant has its base model's shape and
is found under the base model's id (:func:`hub_model`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..records import record

__all__ = ["HUB_MODELS", "HubModel", "hub_model"]


@record
class HubModel:
    """A model of the table: its hub id, where its config.json is published, and its shape as written there."""

    hub_id: str
    source: str
    shape: tuple[tuple[str, object], ...]

    @property
    def config(self) -> dict[str, object]:
        """The shape as a config.json holds it (what :func:`~dsref.estimate.model.architecture_from_hf` reads)."""
        return dict(self.shape)


def _model(hub_id: str, model_type: str, hidden: int, intermediate: int, layers: int, heads: int, kv_heads: int,
           vocab: int, **more: object) -> HubModel:  # fmt: skip
    shape: dict[str, object] = {
        "model_type": model_type,
        "hidden_size": hidden,
        "intermediate_size": intermediate,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv_heads,
        "vocab_size": vocab,
        **more,
    }
    text = shape.pop("text_config", None)
    if text:  # a multimodal checkpoint: the language model's shape is under text_config
        shape = {"model_type": str(text), "text_config": shape}
    return HubModel(hub_id, f"https://huggingface.co/{hub_id}/blob/main/config.json", tuple(shape.items()))


_GEMMA = {"tie_word_embeddings": True, "hidden_act": "gelu_pytorch_tanh"}

HUB_MODELS: tuple[HubModel, ...] = (
    _model("meta-llama/Llama-2-7b-hf", "llama", 4096, 11008, 32, 32, 32, 32000, max_position_embeddings=4096),
    _model("meta-llama/Llama-2-13b-hf", "llama", 5120, 13824, 40, 40, 40, 32000, max_position_embeddings=4096),
    _model("meta-llama/Llama-2-70b-hf", "llama", 8192, 28672, 80, 64, 8, 32000, max_position_embeddings=4096),
    _model("meta-llama/Meta-Llama-3-8B", "llama", 4096, 14336, 32, 32, 8, 128256, max_position_embeddings=8192),
    _model("meta-llama/Meta-Llama-3-70B", "llama", 8192, 28672, 80, 64, 8, 128256, max_position_embeddings=8192),
    _model("meta-llama/Llama-3.1-8B", "llama", 4096, 14336, 32, 32, 8, 128256, max_position_embeddings=131072),
    _model("meta-llama/Llama-3.1-70B", "llama", 8192, 28672, 80, 64, 8, 128256, max_position_embeddings=131072),
    _model(
        "meta-llama/Llama-3.2-1B",
        "llama",
        2048,
        8192,
        16,
        32,
        8,
        128256,
        head_dim=64,
        tie_word_embeddings=True,
        max_position_embeddings=131072,
    ),
    _model(
        "meta-llama/Llama-3.2-3B",
        "llama",
        3072,
        8192,
        28,
        24,
        8,
        128256,
        head_dim=128,
        tie_word_embeddings=True,
        max_position_embeddings=131072,
    ),
    _model("Qwen/Qwen2-7B", "qwen2", 3584, 18944, 28, 28, 4, 152064, max_position_embeddings=131072),
    _model(
        "Qwen/Qwen2.5-0.5B",
        "qwen2",
        896,
        4864,
        24,
        14,
        2,
        151936,
        tie_word_embeddings=True,
        max_position_embeddings=32768,
    ),
    _model(
        "Qwen/Qwen2.5-1.5B",
        "qwen2",
        1536,
        8960,
        28,
        12,
        2,
        151936,
        tie_word_embeddings=True,
        max_position_embeddings=131072,
    ),
    _model(
        "Qwen/Qwen2.5-3B",
        "qwen2",
        2048,
        11008,
        36,
        16,
        2,
        151936,
        tie_word_embeddings=True,
        max_position_embeddings=32768,
    ),
    _model("Qwen/Qwen2.5-7B", "qwen2", 3584, 18944, 28, 28, 4, 152064, max_position_embeddings=131072),
    _model("Qwen/Qwen2.5-14B", "qwen2", 5120, 13824, 48, 40, 8, 152064, max_position_embeddings=131072),
    _model("Qwen/Qwen2.5-32B", "qwen2", 5120, 27648, 64, 40, 8, 152064, max_position_embeddings=131072),
    _model("Qwen/Qwen2.5-72B", "qwen2", 8192, 29568, 80, 64, 8, 152064, max_position_embeddings=131072),
    _model(
        "Qwen/Qwen3-4B",
        "qwen3",
        2560,
        9728,
        36,
        32,
        8,
        151936,
        head_dim=128,
        tie_word_embeddings=True,
        max_position_embeddings=40960,
    ),
    _model("Qwen/Qwen3-8B", "qwen3", 4096, 12288, 36, 32, 8, 151936, head_dim=128, max_position_embeddings=40960),
    _model("Qwen/Qwen3-14B", "qwen3", 5120, 17408, 40, 40, 8, 151936, head_dim=128, max_position_embeddings=40960),
    _model("Qwen/Qwen3-32B", "qwen3", 5120, 25600, 64, 64, 8, 151936, head_dim=128, max_position_embeddings=40960),
    _model(
        "mistralai/Mistral-7B-v0.1",
        "mistral",
        4096,
        14336,
        32,
        32,
        8,
        32000,
        sliding_window=4096,
        max_position_embeddings=32768,
    ),
    _model("mistralai/Mistral-7B-v0.3", "mistral", 4096, 14336, 32, 32, 8, 32768, max_position_embeddings=32768),
    _model("google/gemma-2-2b", "gemma2", 2304, 9216, 26, 8, 4, 256000, head_dim=256, **_GEMMA),
    _model("google/gemma-2-9b", "gemma2", 3584, 14336, 42, 16, 8, 256000, head_dim=256, **_GEMMA),
    _model("google/gemma-2-27b", "gemma2", 4608, 36864, 46, 32, 16, 256000, head_dim=128, **_GEMMA),
    _model("google/gemma-3-1b-pt", "gemma3_text", 1152, 6912, 26, 4, 1, 262144, head_dim=256, **_GEMMA),
    _model(
        "google/gemma-3-4b-pt",
        "gemma3_text",
        2560,
        10240,
        34,
        8,
        4,
        262208,
        head_dim=256,
        text_config="gemma3",
        **_GEMMA,
    ),
    _model(
        "google/gemma-3-12b-pt",
        "gemma3_text",
        3840,
        15360,
        48,
        16,
        8,
        262208,
        head_dim=256,
        text_config="gemma3",
        **_GEMMA,
    ),
    _model(
        "google/gemma-3-27b-pt",
        "gemma3_text",
        5376,
        21504,
        62,
        32,
        16,
        262208,
        head_dim=128,
        text_config="gemma3",
        **_GEMMA,
    ),
    _model(
        "THUDM/glm-4-9b-chat-hf",
        "glm",
        4096,
        13696,
        40,
        32,
        2,
        151552,
        attention_bias=True,
        max_position_embeddings=131072,
    ),
    _model("01-ai/Yi-6B", "llama", 4096, 11008, 32, 32, 4, 64000, max_position_embeddings=4096),
    _model("01-ai/Yi-34B", "llama", 7168, 20480, 60, 56, 8, 64000, max_position_embeddings=4096),
    _model("baichuan-inc/Baichuan2-7B-Base", "baichuan", 4096, 11008, 32, 32, 32, 125696, max_position_embeddings=4096),
    _model("baichuan-inc/Baichuan2-13B-Base", "baichuan", 5120, 13696, 40, 40, 40, 125696),
    _model("deepseek-ai/deepseek-llm-7b-base", "llama", 4096, 11008, 30, 32, 32, 102400, max_position_embeddings=4096),
    _model("deepseek-ai/deepseek-llm-67b-base", "llama", 8192, 22016, 95, 64, 8, 102400, max_position_embeddings=4096),
    _model(
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        "qwen2",
        3584,
        18944,
        28,
        28,
        4,
        152064,
        max_position_embeddings=131072,
    ),
    _model(
        "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
        "llama",
        4096,
        14336,
        32,
        32,
        8,
        128256,
        max_position_embeddings=131072,
    ),
)
"""Every model of the table, by family and size."""

_VARIANTS = ("-instruct", "-chat", "-it", "-hf", "-base", "-pt", "-2507")
"""Suffixes of a tuned or converted variant, which has its base model's shape (``Qwen2.5-7B-Instruct``,
``Llama-2-7b-chat-hf``, ``gemma-2-9b-it``)."""


def _key(name: str) -> str:
    key = name.strip().lower()
    changed = True
    while changed:
        changed = False
        for suffix in _VARIANTS:
            if key.endswith(suffix):
                key, changed = key[: -len(suffix)], True
    return key


def _index() -> Mapping[str, HubModel]:
    found: dict[str, HubModel] = {}
    for model in HUB_MODELS:
        found.setdefault(_key(model.hub_id), model)
        found.setdefault(_key(model.hub_id.split("/")[-1]), model)
        found.setdefault(_key(model.hub_id.split("/")[-1]).removeprefix("meta-"), model)  # Meta-Llama-3.1-8B
    return found


_INDEX = _index()


def hub_model(name: str) -> HubModel | None:
    """The table's model for a hub id, a variant of one, or a local path that ends in such a name
    (``/data/models/Qwen2.5-7B-Instruct``); None for any other.

    >>> hub_model("Qwen/Qwen2.5-7B-Instruct").hub_id, hub_model("/models/Meta-Llama-3-8B-Instruct").hub_id
    ('Qwen/Qwen2.5-7B', 'meta-llama/Meta-Llama-3-8B')
    >>> hub_model("my-org/my-model") is None
    True
    """
    text = name.strip().rstrip("/")
    if not text:
        return None
    for key in (_key(text), _key(text.split("/")[-1]), _key(text.split("/")[-1]).removeprefix("meta-")):
        if key in _INDEX:
            return _INDEX[key]
    return None
