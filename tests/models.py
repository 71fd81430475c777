"""Model configs the tests share: the smallest Hugging Face ``config.json`` that ``dsref estimate --model`` reads."""

from __future__ import annotations

SMALL_LLAMA = {
    "model_type": "llama",
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 2,
    "vocab_size": 100,
}
"""A two-layer Llama: every field the estimator needs, nothing more."""
