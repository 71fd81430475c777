"""The table of open models by hub id (dsref/estimate/hub.py): every entry reads as the estimator reads a
config.json, has the size its name says, and names where its config.json is published."""

from __future__ import annotations

import re

import pytest

from dsref.estimate.hub import HUB_MODELS, hub_model
from dsref.estimate.model import architecture_from_hf

FAMILIES = ("Llama-2", "Llama-3", "Llama-3.1", "Llama-3.2", "Qwen2-", "Qwen2.5", "Qwen3", "Mistral", "gemma-2",
            "gemma-3", "glm-4", "Yi-", "Baichuan2", "deepseek-llm", "DeepSeek-R1-Distill")  # fmt: skip


@pytest.mark.parametrize("model", HUB_MODELS, ids=lambda m: m.hub_id)
def test_each_model_has_the_size_its_name_says(model: object) -> None:
    from dsref.estimate.hub import HubModel

    assert isinstance(model, HubModel)
    arch = architecture_from_hf(model.config)
    size = re.search(r"(\d+(?:\.\d+)?)[bB]\b", model.hub_id.replace("-", " "))
    assert size is not None, model.hub_id
    named = float(size.group(1)) * 1e9
    # a model is named by its size rounded, mostly down (Llama-3.2-1B holds 1.24B, gemma-2-2b 2.6B)
    assert 0.9 * named < arch.params < 1.35 * named, (model.hub_id, arch.params)
    assert model.source == f"https://huggingface.co/{model.hub_id}/blob/main/config.json"


def test_the_table_covers_the_families_the_issue_names() -> None:
    ids = " ".join(m.hub_id for m in HUB_MODELS)
    assert [family for family in FAMILIES if family not in ids] == []


@pytest.mark.parametrize(
    ("name", "found"),
    [
        ("Qwen/Qwen2.5-7B-Instruct", "Qwen/Qwen2.5-7B"),
        ("meta-llama/Meta-Llama-3.1-8B-Instruct", "meta-llama/Llama-3.1-8B"),
        ("meta-llama/Llama-2-7b-chat-hf", "meta-llama/Llama-2-7b-hf"),
        ("google/gemma-2-9b-it", "google/gemma-2-9b"),
        ("/data/models/Qwen3-8B/", "Qwen/Qwen3-8B"),
        ("THUDM/glm-4-9b-chat-hf", "THUDM/glm-4-9b-chat-hf"),
        ("baichuan-inc/Baichuan2-13B-Chat", "baichuan-inc/Baichuan2-13B-Base"),
        ("my-org/my-model", None),
        ("", None),
    ],
)
def test_a_variant_or_a_local_copy_finds_its_base_model(name: str, found: str | None) -> None:
    model = hub_model(name)
    assert (model.hub_id if model is not None else None) == found
