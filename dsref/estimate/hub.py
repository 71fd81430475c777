"""The shapes of widely used open models by their Hugging Face hub id, for estimating a launch offline.

A launch names its model by hub id (``--model_name_or_path Qwen/Qwen2.5-7B-Instruct``, ``base_model:
meta-llama/Llama-3.1-8B``); dsref reads no network, so a model that is not a local directory is looked up here.
Each entry is the part of the model's published ``config.json`` the estimator reads (``source`` names where it is
published); ``checked`` names the copy of that file each entry was compared with, field by field (a public
repository at a commit), or says plainly that no copy was found and what the entry rests on instead. An
instruction-tuned or chat variant has its base model's shape and is found under the base model's id
(:func:`hub_model`).
"""

from __future__ import annotations

from collections.abc import Mapping

from ..records import record

__all__ = ["HUB_MODELS", "HubModel", "hub_model"]


@record
class HubModel:
    """A model of the table: its hub id, where its config.json is published, its shape as written there, and the
    copy of that config.json the shape was checked against."""

    hub_id: str
    source: str
    shape: tuple[tuple[str, object], ...]
    checked: str

    @property
    def config(self) -> dict[str, object]:
        """The shape as a config.json holds it (what :func:`~dsref.estimate.model.architecture_from_hf` reads)."""
        return dict(self.shape)


def _model(hub_id: str, model_type: str, hidden: int, intermediate: int, layers: int, heads: int, kv_heads: int,
           vocab: int, *, checked: str, **more: object) -> HubModel:  # fmt: skip
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
    return HubModel(hub_id, f"https://huggingface.co/{hub_id}/blob/main/config.json", tuple(shape.items()), checked)


def _copy(repo: str, commit: str, path: str, what: str = "") -> str:
    """Where a copy of the published config.json was read: ``owner/name@commit:path``, and which part of it."""
    return f"{repo}@{commit}:{path}" + (f" ({what})" if what else "")


_KQI = ("Girafboy/pytorchKQI", "963269026663521e774249c3828f9e000bb2a405", "example/evaluate.py")
_KQI_2025 = ("Girafboy/pytorchKQI", "3ad135e48fc4dcaaa9bf454fc386560dcd05a155", "example/evaluate.py")
_PROF = ("citsjtu2020/LLM-Prof", "8434c8d19c396b2f95d92a67845a7c0a0e0dd512", "sglang/Model_Config.md")
_MLC = ("mlc-ai/mlc-llm", "79d603f085f50500e9509fa01785ffa7ecfaaa93", "python/mlc_llm/model/model_preset.py")
_FLASH = (
    "AlibabaPAI/FlashModels",
    "98b276bac369788c11c95821f1493434edcf2803",
    "hf_models/config/llama-3-70b/config.json",
)
_TRANSFORMERS = (
    "huggingface/transformers",
    "d98ac17cc00f337eeee9a1e2380072dc8cafabd4",
    "src/transformers/models/gemma3/configuration_gemma3.py",
)
_R1_CARD = (
    "ZHUI/paddlenlp_model_readme",
    "40a7101e89dcf9a0dedb0e0d48c8c357fcc95996",
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B/index.md",
)
_MAXTEXT = (
    "AI-Hypercomputer/maxtext",
    "e591f30cbbf217ed67ef71263ec0538239f9c3b8",
    "src/maxtext/checkpoint_conversion/utils/hf_model_configs.py",
)
_CANDLE_YI = ("huggingface/candle", "07c6edb2721c70e356260beceeef981f88a8c87f", "candle-transformers/src/models/yi.rs")
_NOT_FOUND = "config.json not found in the library"

_GEMMA = {"tie_word_embeddings": True, "hidden_act": "gelu_pytorch_tanh"}
"""What every Gemma config means without saying it: Gemma's config classes tie the embeddings by default and its
config.json names the activation ``hidden_activation`` (gemma-2 writes both names)."""
_GEMMA3 = (
    "text_config names hidden_size, intermediate_size and num_hidden_layers; the heads, key-value heads, head_dim, "
    f"vocab_size 262208 and max_position_embeddings 131072 are Gemma3TextConfig's defaults ({_copy(*_TRANSFORMERS)})"
)

# fmt: off
HUB_MODELS: tuple[HubModel, ...] = (
    _model("meta-llama/Llama-2-7b-hf", "llama", 4096, 11008, 32, 32, 32, 32000, max_position_embeddings=4096,
           checked=_copy(*_KQI, "Llama_2_7b_hf")),
    _model("meta-llama/Llama-2-13b-hf", "llama", 5120, 13824, 40, 40, 40, 32000, max_position_embeddings=4096,
           checked=_copy(*_KQI, "Llama_2_13b_hf")),
    _model("meta-llama/Llama-2-70b-hf", "llama", 8192, 28672, 80, 64, 8, 32000, max_position_embeddings=4096,
           checked=_copy(*_KQI, "Llama_2_70b_hf")),
    _model("meta-llama/Meta-Llama-3-8B", "llama", 4096, 14336, 32, 32, 8, 128256, max_position_embeddings=8192,
           checked=_copy(*_KQI, "Meta_Llama_3_8B")),
    _model("meta-llama/Meta-Llama-3-70B", "llama", 8192, 28672, 80, 64, 8, 128256, max_position_embeddings=8192,
           checked=_copy(*_FLASH)),
    _model("meta-llama/Llama-3.1-8B", "llama", 4096, 14336, 32, 32, 8, 128256, max_position_embeddings=131072,
           checked=_copy(*_PROF, "Llama-3.1-8B")),
    _model("meta-llama/Llama-3.1-70B", "llama", 8192, 28672, 80, 64, 8, 128256, max_position_embeddings=131072,
           checked=_copy(*_MLC, "llama3_1_70b")),
    _model("meta-llama/Llama-3.2-1B", "llama", 2048, 8192, 16, 32, 8, 128256, head_dim=64, tie_word_embeddings=True,
           max_position_embeddings=131072, checked=_copy(*_KQI, "Llama_3_2_1B_Instruct, the same shape")),
    _model("meta-llama/Llama-3.2-3B", "llama", 3072, 8192, 28, 24, 8, 128256, head_dim=128, tie_word_embeddings=True,
           max_position_embeddings=131072, checked=_copy(*_PROF, "Llama-3.2-3B")),
    _model("Qwen/Qwen2-7B", "qwen2", 3584, 18944, 28, 28, 4, 152064, max_position_embeddings=131072,
           checked=_copy(*_KQI_2025, "Qwen2_7B")),
    _model("Qwen/Qwen2.5-0.5B", "qwen2", 896, 4864, 24, 14, 2, 151936, tie_word_embeddings=True,
           max_position_embeddings=32768,
           checked=f"{_NOT_FOUND} under a name the tools give; the shape as an unnamed copy headed "
           "Qwen/Qwen2.5-0.5B shows it"),
    _model("Qwen/Qwen2.5-1.5B", "qwen2", 1536, 8960, 28, 12, 2, 151936, tie_word_embeddings=True,
           max_position_embeddings=131072, checked=_copy(*_KQI, "Qwen2_5_1_5B")),
    _model("Qwen/Qwen2.5-3B", "qwen2", 2048, 11008, 36, 16, 2, 151936, tie_word_embeddings=True,
           max_position_embeddings=32768, checked=_copy(*_PROF, "Qwen2.5-3B")),
    _model("Qwen/Qwen2.5-7B", "qwen2", 3584, 18944, 28, 28, 4, 152064, max_position_embeddings=131072,
           checked=_copy(*_PROF, "Qwen2.5-7B")),
    _model("Qwen/Qwen2.5-14B", "qwen2", 5120, 13824, 48, 40, 8, 152064, max_position_embeddings=131072,
           checked=_copy(*_PROF, "Qwen2.5-14B")),
    _model("Qwen/Qwen2.5-32B", "qwen2", 5120, 27648, 64, 40, 8, 152064, max_position_embeddings=131072,
           checked=_copy(*_PROF, "Qwen2.5-32B")),
    _model("Qwen/Qwen2.5-72B", "qwen2", 8192, 29568, 80, 64, 8, 152064, max_position_embeddings=131072,
           checked=f"{_NOT_FOUND} for the base model; the shape is Qwen2-72B's ({_copy(*_KQI_2025, 'Qwen2_72B')}) "
           "and Qwen2.5-72B-Instruct's, whose copies give max_position_embeddings 32768 (the instruct model's)"),
    _model("Qwen/Qwen3-4B", "qwen3", 2560, 9728, 36, 32, 8, 151936, head_dim=128, tie_word_embeddings=True,
           max_position_embeddings=40960, checked=_copy(*_PROF, "Qwen3-4B")),
    _model("Qwen/Qwen3-8B", "qwen3", 4096, 12288, 36, 32, 8, 151936, head_dim=128, max_position_embeddings=40960,
           checked=_copy(*_PROF, "Qwen3-8B")),
    _model("Qwen/Qwen3-14B", "qwen3", 5120, 17408, 40, 40, 8, 151936, head_dim=128, max_position_embeddings=40960,
           checked=_copy(*_PROF, "Qwen3-14B")),
    _model("Qwen/Qwen3-32B", "qwen3", 5120, 25600, 64, 64, 8, 151936, head_dim=128, max_position_embeddings=40960,
           checked=_copy(*_PROF, "Qwen3-32B")),
    _model("mistralai/Mistral-7B-v0.1", "mistral", 4096, 14336, 32, 32, 8, 32000, sliding_window=4096,
           max_position_embeddings=32768,
           checked=_copy("huggingface/candle", "02ad02ff3d6075c5fbe839bf099506018853a721",
                         "candle-transformers/src/models/mistral.rs",
                         "Config::config_7b_v0_1, transcribed from this config.json, sliding_window 4096 included")),
    _model("mistralai/Mistral-7B-v0.3", "mistral", 4096, 14336, 32, 32, 8, 32768, max_position_embeddings=32768,
           checked=_copy(*_MLC, "mistral_7b_v03")),
    _model("google/gemma-2-2b", "gemma2", 2304, 9216, 26, 8, 4, 256000, head_dim=256, max_position_embeddings=8192,
           checked=_copy(*_KQI, "gemma_2_2b"), **_GEMMA),
    _model("google/gemma-2-9b", "gemma2", 3584, 14336, 42, 16, 8, 256000, head_dim=256, max_position_embeddings=8192,
           checked=_copy(*_KQI, "gemma_2_9b"), **_GEMMA),
    _model("google/gemma-2-27b", "gemma2", 4608, 36864, 46, 32, 16, 256000, head_dim=128,
           max_position_embeddings=8192, checked=_copy(*_MLC, "gemma2_27b"), **_GEMMA),
    _model("google/gemma-3-1b-pt", "gemma3_text", 1152, 6912, 26, 4, 1, 262144, head_dim=256,
           max_position_embeddings=32768, checked=_copy(*_MLC, "gemma3_1b_it, the same shape"), **_GEMMA),
    _model("google/gemma-3-4b-pt", "gemma3_text", 2560, 10240, 34, 8, 4, 262208, head_dim=256,
           max_position_embeddings=131072, text_config="gemma3",
           checked=_copy(*_MAXTEXT, "gemma3_4b_config, the text_config's shape as here; it writes vocab_size "
                         "262144 and max_position_embeddings 163840 for its own tokenizer and context")
           + "; " + _GEMMA3, **_GEMMA),
    _model("google/gemma-3-12b-pt", "gemma3_text", 3840, 15360, 48, 16, 8, 262208, head_dim=256,
           max_position_embeddings=131072, text_config="gemma3",
           checked=_copy(*_MAXTEXT, "gemma3_12b_config, the text_config's shape as here; it writes vocab_size "
                         "262144 and max_position_embeddings 163840 for its own tokenizer and context")
           + "; " + _GEMMA3, **_GEMMA),
    _model("google/gemma-3-27b-pt", "gemma3_text", 5376, 21504, 62, 32, 16, 262208, head_dim=128,
           max_position_embeddings=131072, text_config="gemma3",
           checked=_copy(*_MAXTEXT, "gemma3_27b_config, the text_config's shape as here (head_dim 128, 32 heads, 16 "
                         "key-value heads, 62 layers); it writes vocab_size 262144 and max_position_embeddings 163840 "
                         "for its own tokenizer and context") + "; " + _GEMMA3, **_GEMMA),
    _model("THUDM/glm-4-9b-chat-hf", "glm", 4096, 13696, 40, 32, 2, 151552, head_dim=128, attention_bias=True,
           max_position_embeddings=131072,
           checked=_copy("huggingface/transformers", "1d2fe0d87b712f479707c7518c7a31a0b9b62443",
                         "src/transformers/models/glm/configuration_glm.py",
                         "GlmConfig's defaults, which its docstring gives as glm-4-9b-chat's; no copy of the "
                         "config.json itself was found")),
    _model("01-ai/Yi-6B", "llama", 4096, 11008, 32, 32, 4, 64000, max_position_embeddings=4096,
           checked=_copy(*_CANDLE_YI, "Config::config_6b, the config.json's fields as candle transcribes them; "
                         "no copy of the file itself was found")),
    _model("01-ai/Yi-34B", "llama", 7168, 20480, 60, 56, 8, 64000, max_position_embeddings=4096,
           checked=_copy(*_CANDLE_YI, "Config::config_34b, the config.json's fields as candle transcribes them; "
                         "no copy of the file itself was found")),
    _model("baichuan-inc/Baichuan2-7B-Base", "baichuan", 4096, 11008, 32, 32, 32, 125696, max_position_embeddings=4096,
           checked=_copy(*_MLC, "baichuan: Baichuan2-7B's shape, vocab_size 125696")),
    _model("baichuan-inc/Baichuan2-13B-Base", "baichuan", 5120, 13696, 40, 40, 40, 125696,
           checked=f"{_NOT_FOUND}; the shape as a port defines Baichuan2-13B ("
           + _copy("inclusionAI/Ling", "314dc6c50adf2a00e25d0f3d00659259974035d2",
                   "mindie_config/atb_models/build/lib/atb_llm/models/baichuan/v2_13b/config_baichuan.py")
           + ")"),
    _model("deepseek-ai/deepseek-llm-7b-base", "llama", 4096, 11008, 30, 32, 32, 102400, max_position_embeddings=4096,
           checked=_copy(*_KQI, "deepseek_llm_7b_base")),
    _model("deepseek-ai/deepseek-llm-67b-base", "llama", 8192, 22016, 95, 64, 8, 102400, max_position_embeddings=4096,
           checked=f"{_NOT_FOUND}; a review found by its text (no repository named) quotes deepseek-llm-67b-chat's "
           "config.json as 95 layers, hidden_size 8192, 64 heads, 8 key-value heads; intermediate_size 22016 and "
           "vocab_size 102400 are confirmed by no copy (the 7B's vocab_size is 102400); the model card ("
           + _copy("leliuga/cohere-configurations", "84408edf57f071dc9d1d75b9eacb8d3f06c01018",
                   "models/deepseek-llm-67b-base/README.md")
           + ") says 67B parameters with grouped-query attention, which this shape gives (67.4B)"),
    _model("deepseek-ai/DeepSeek-R1-Distill-Qwen-7B", "qwen2", 3584, 18944, 28, 28, 4, 152064,
           max_position_embeddings=131072,
           checked=f"{_NOT_FOUND}; its model card ({_copy(*_R1_CARD)}) names Qwen2.5-Math-7B as its base, "
           "whose config.json was not found either: this is Qwen2.5-7B's shape"),
    _model("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "llama", 4096, 14336, 32, 32, 8, 128256,
           max_position_embeddings=131072,
           checked=f"{_NOT_FOUND}; its model card ({_copy(*_R1_CARD)}) names Llama-3.1-8B as its base, whose "
           f"shape this is ({_copy(*_PROF, 'Llama-3.1-8B')})"),
)
# fmt: on
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
