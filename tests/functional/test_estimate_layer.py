"""The working memory of the layer being run or differentiated, measured on the CPU (issue 26, part 1).

A checkpointed model runs each layer's forward without autograd, keeping only the layer's input: the forward peak is
then the last layer running on every layer's input, not the end of the forward pass, and under eager attention its
scores (masked, 32-bit probabilities, the copy in the model's precision) outweigh everything kept. Each point builds
a small Llama with random weights and measures the forward peak under live-tensor tracking
(:func:`tests.live_memory.training_peaks`); :func:`dsref.estimate.peak.peak_memory`'s forward phase less its model
states (on the CPU's kernels) must be within 3 % of it. ``scripts/measure_layer_memory.py`` prints every phase, the
backward peaks too.

The backward peak is measured the same way (:func:`tests.live_memory.training_peaks`, each parameter's gradient freed
once accumulated) for the four model types the estimate reads alike (Llama, Qwen2, Mistral) or apart (GPT-2), eager
and sdpa, with and without checkpointing: eager attention's softmax backward (the probabilities still kept, the
gradients of the probabilities and the scores beside them), the MLP's backward in the layer differentiated (the
recomputed layer's whole set, with checkpointing), and the final norm's backward when the vocabulary is small, where
the logits' gradients no longer set the peak. GPT-2's points are untied: a tied embedding's gradient waits in autograd
from the output layer to the embedding, a parameter's gradient the estimate counts with the model states. GPT-2 under
sdpa is left out: on the CPU its live bytes are 4-6 % below the set its attention saves for backward (which
``tests/functional/test_estimate_terms.py`` matches), a difference not yet explained.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dsref.estimate.model import architecture_from_hf
from dsref.estimate.peak import Run, peak_memory
from tests import needs

pytestmark = pytest.mark.slow  # builds and runs small models on the CPU

TOLERANCE = 0.03

SHAPES = {
    "layers-outweigh-logits": {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 2,
                               "num_attention_heads": 8, "num_key_value_heads": 2, "vocab_size": 128,
                               "max_position_embeddings": 1024},
    "logits-weigh-as-much": {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 4,
                             "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 2000,
                             "max_position_embeddings": 1024},
}  # fmt: skip

SEQ = 512


def _measure(shape: dict[str, Any], attention: str, dtype: str) -> int:
    torch = needs.module("torch")
    transformers = needs.module("transformers")
    from tests.live_memory import training_peaks

    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(
        transformers.LlamaConfig(**shape), attn_implementation=attention
    )
    model = model.to(getattr(torch, dtype))
    model.train()
    model.gradient_checkpointing_enable()
    forward, _ = training_peaks(model, torch.randint(0, shape["vocab_size"], (1, SEQ)))
    return forward


def _estimate(shape: dict[str, Any], attention: str, dtype: str, checkpointing: bool = True) -> int:
    arch = architecture_from_hf({"model_type": "llama", **shape})
    run = Run(
        precision="fp32" if dtype == "float32" else "bf16",
        seq_len=SEQ,
        attention=attention,  # type: ignore[arg-type]
        checkpointing=checkpointing,
    )
    peak = peak_memory(arch, run, device="cpu")
    return peak.phases["forward"] - peak.states_bytes["forward"]


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
@pytest.mark.parametrize("attention", ["eager", "sdpa"])
@pytest.mark.parametrize("name", list(SHAPES))
def test_the_checkpointed_forward_peak_within_3_percent(name: str, attention: str, dtype: str) -> None:
    measured = _measure(SHAPES[name], attention, dtype)
    estimated = _estimate(SHAPES[name], attention, dtype)
    assert abs(estimated - measured) <= TOLERANCE * measured, (estimated, measured, estimated / measured)


def test_the_running_layer_is_what_sets_the_eager_forward_peak() -> None:
    """Without the running layer the estimate would be the end of the forward pass, far below: the test can fail."""
    shape = SHAPES["layers-outweigh-logits"]
    measured = _measure(shape, "eager", "bfloat16")
    kept_only = _estimate(shape, "sdpa", "bfloat16")  # no scores at all
    assert measured - kept_only > 0.5 * measured


# --------------------------------------------------------------------------------------------------------------
# The backward peak: the layer being differentiated, eager attention's softmax, the final norm


_CLASSES = {"llama": "LlamaConfig", "qwen2": "Qwen2Config", "mistral": "MistralConfig", "gpt2": "GPT2Config"}

GPT2_SHAPES = {
    "layers-outweigh-logits": {"n_embd": 128, "n_layer": 2, "n_head": 8, "vocab_size": 128, "n_positions": 1024},
    "logits-weigh-as-much": {"n_embd": 128, "n_layer": 4, "n_head": 4, "vocab_size": 2000, "n_positions": 1024},
}
"""GPT-2 with its dropouts as released (0.1) and embeddings untied."""


@dataclasses.dataclass(frozen=True)
class Point:
    model_type: str
    shape: str
    attention: str
    checkpointing: bool
    dtype: str
    seq: int = SEQ
    batch: int = 1

    def hf_config(self) -> dict[str, Any]:
        if self.model_type == "gpt2":
            return {"model_type": "gpt2", **GPT2_SHAPES[self.shape], "tie_word_embeddings": False}
        return {"model_type": self.model_type, **SHAPES[self.shape]}

    def __str__(self) -> str:
        ckpt = "-ckpt" if self.checkpointing else ""
        return f"{self.model_type}-{self.shape}-{self.attention}{ckpt}-{self.dtype}-s{self.seq}b{self.batch}"


def _peaks(point: Point) -> tuple[int, int]:
    torch = needs.module("torch")
    transformers = needs.module("transformers")
    from tests.live_memory import training_peaks

    config = {key: value for key, value in point.hf_config().items() if key != "model_type"}
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(
        getattr(transformers, _CLASSES[point.model_type])(**config), attn_implementation=point.attention
    )
    model = model.to(getattr(torch, point.dtype))
    model.train()
    if point.checkpointing:
        model.gradient_checkpointing_enable()
    return training_peaks(model, torch.randint(0, config["vocab_size"], (point.batch, point.seq)))


def _estimated_peaks(point: Point, attention: str | None = None) -> tuple[int, int]:
    arch = architecture_from_hf(point.hf_config())
    run = Run(
        precision="fp32" if point.dtype == "float32" else "bf16",
        seq_len=point.seq,
        micro_batch=point.batch,
        attention=attention or point.attention,  # type: ignore[arg-type]
        checkpointing=point.checkpointing,
    )
    peak = peak_memory(arch, run, device="cpu")
    forward, backward = (peak.phases[name] - peak.states_bytes[name] for name in ("forward", "backward"))
    return forward, backward


BACKWARD_POINTS = [
    *(
        Point(model_type, "layers-outweigh-logits", "eager", checkpointing, dtype)
        for model_type in ("llama", "qwen2", "mistral", "gpt2")
        for checkpointing in (False, True)
        for dtype in ("float32", "bfloat16")
    ),
    *(
        Point(model_type, "logits-weigh-as-much", "eager", checkpointing, "bfloat16")
        for model_type in ("llama", "gpt2")
        for checkpointing in (False, True)
    ),
    Point("llama", "logits-weigh-as-much", "eager", True, "float32"),
    # two sequences: with checkpointing the mask and rotary tables each layer holds live through the loss's backward
    Point("llama", "logits-weigh-as-much", "eager", True, "float32", seq=256, batch=2),
    Point("qwen2", "logits-weigh-as-much", "sdpa", True, "bfloat16", seq=256, batch=2),
    # sdpa with small logits: the final norm's backward, or the recomputed layer's MLP, sets the backward peak
    *(
        Point("llama", "layers-outweigh-logits", "sdpa", checkpointing, dtype)
        for checkpointing in (False, True)
        for dtype in ("float32", "bfloat16")
    ),
]


@pytest.mark.parametrize("point", BACKWARD_POINTS, ids=str)
def test_the_peak_within_3_percent_at_the_phase_that_sets_it(point: Point) -> None:
    forward, backward = _peaks(point)
    estimated_forward, estimated_backward = _estimated_peaks(point)
    measured, estimated = (backward, estimated_backward) if backward >= forward else (forward, estimated_forward)
    assert abs(estimated - measured) <= TOLERANCE * measured, (point, estimated, measured, estimated / measured)


@pytest.mark.parametrize("checkpointing", [False, True])
def test_the_softmax_backward_is_what_sets_the_eager_backward_peak(checkpointing: bool) -> None:
    """Without eager attention's backward terms (the same run estimated as sdpa, which has no scores) the estimate
    would be far below the measured backward peak: the test can fail."""
    point = Point("llama", "layers-outweigh-logits", "eager", checkpointing, "bfloat16")
    _, measured = _peaks(point)
    _, without_scores = _estimated_peaks(point, attention="sdpa")
    assert measured - without_scores > 0.5 * measured
