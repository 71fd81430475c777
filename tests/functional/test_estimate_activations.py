"""The activation formula against real Hugging Face models: bytes saved for backward, counted while they run.

Each point builds a small model with random weights (Llama, Qwen2, Qwen3, GPT-2; eager and sdpa attention; with and
without gradient checkpointing), runs one training forward pass with labels under
``torch.autograd.graph.saved_tensors_hooks`` and adds up the storages kept for backward, each storage once and
parameters left out. :func:`dsref.estimate.activations.saved_activations` must be within 5 % of that count at every
point. The models run in float32 (``dtype_bytes=4``) and, for a few points, in bfloat16 (``dtype_bytes=2``, where
the 32-bit copies that norms and the loss make are what differs), on the CPU (``device="cpu"``: dropout masks are
kept in the input's dtype there, one byte per element on CUDA).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dsref.estimate.activations import saved_activations
from dsref.estimate.model import architecture_from_hf
from tests import needs

pytestmark = pytest.mark.slow  # builds and runs 60 small models on the CPU

torch: Any = None  # imported when the first test runs, not when the suite is collected (about 2.5 s)
transformers: Any = None


@pytest.fixture(scope="module", autouse=True)
def _libraries() -> None:
    global torch, transformers
    torch = needs.module("torch")
    transformers = needs.module("transformers")


TOLERANCE = 0.05


@dataclasses.dataclass(frozen=True)
class Point:
    model_type: str
    attention: str
    seq: int
    batch: int
    hidden: int
    layers: int
    heads: int
    vocab: int
    kv_heads: int | None = None
    intermediate: int | None = None
    checkpointing: bool = False
    dtype: str = "float32"
    extra: tuple[tuple[str, Any], ...] = ()

    def hf_config(self) -> dict[str, Any]:
        if self.model_type == "gpt2":
            config: dict[str, Any] = {
                "model_type": "gpt2",
                "n_embd": self.hidden,
                "n_layer": self.layers,
                "n_head": self.heads,
                "vocab_size": self.vocab,
                "n_positions": max(self.seq, 64),
                "n_inner": self.intermediate,
            }
        else:
            config = {
                "model_type": self.model_type,
                "hidden_size": self.hidden,
                "intermediate_size": self.intermediate,
                "num_hidden_layers": self.layers,
                "num_attention_heads": self.heads,
                "num_key_value_heads": self.kv_heads or self.heads,
                "vocab_size": self.vocab,
                "max_position_embeddings": max(self.seq, 64),
            }
        config.update(self.extra)
        return config

    def __str__(self) -> str:
        ckpt = "+ckpt" if self.checkpointing else ""
        return (
            f"{self.model_type}-{self.attention}{ckpt}-{self.dtype}-s{self.seq}b{self.batch}h{self.hidden}"
            f"L{self.layers}a{self.heads}k{self.kv_heads}V{self.vocab}"
        )


_CLASSES = {
    "llama": "LlamaConfig",
    "qwen2": "Qwen2Config",
    "qwen3": "Qwen3Config",
    "gpt2": "GPT2Config",
    "gpt_neox": "GPTNeoXConfig",
}


def _measure(point: Point) -> int:
    """Bytes of the distinct storages one forward pass with labels saves for backward, parameters excluded."""
    config_class = getattr(transformers, _CLASSES[point.model_type])
    fields = {k: v for k, v in point.hf_config().items() if k != "model_type" and v is not None}
    config = config_class(**fields)
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation=point.attention)
    model = model.to(getattr(torch, point.dtype))
    model.train()
    if point.checkpointing:
        model.gradient_checkpointing_enable()
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    kept: dict[int, int] = {}

    def pack(tensor: Any) -> Any:
        storage = tensor.untyped_storage()
        pointer = storage.data_ptr()
        if pointer not in parameters:
            kept.setdefault(pointer, storage.nbytes())
        return tensor

    ids = torch.randint(0, point.vocab, (point.batch, point.seq))
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        model(input_ids=ids, labels=ids)
    return sum(kept.values())


def _points() -> list[Point]:
    points = []
    shapes = [
        # (seq, batch, hidden, layers, heads, kv_heads, intermediate, vocab)
        (32, 2, 64, 2, 4, 2, 176, 1000),
        (96, 1, 128, 3, 8, 2, 352, 3000),
        (64, 3, 96, 2, 6, 6, 256, 512),
        (160, 1, 64, 1, 2, 1, 128, 6000),
    ]
    for model_type in ("llama", "qwen2"):
        for attention in ("eager", "sdpa"):
            for seq, batch, hidden, layers, heads, kv, inter, vocab in shapes:
                for ckpt in (False, True):
                    points.append(
                        Point(model_type, attention, seq, batch, hidden, layers, heads, vocab, kv, inter, ckpt)
                    )
    for attention in ("eager", "sdpa"):
        for seq, batch, hidden, layers, heads, _, _inter, vocab in shapes:
            for ckpt in (False, True):
                # with attention dropout, PyTorch's CPU sdpa falls back to the math path (eager's memory)
                extra = (("attn_pdrop", 0.0),) if attention == "sdpa" else ()
                points.append(Point("gpt2", attention, seq, batch, hidden, layers, heads, vocab, None, None, ckpt,
                                    extra=extra))  # fmt: skip
    for attention in ("eager", "sdpa"):
        for ckpt in (False, True):
            points.append(Point("gpt_neox", attention, 48, 2, 64, 2, 4, 700, None, 256, ckpt))
    points += [
        Point("qwen3", "sdpa", 48, 2, 64, 2, 4, 800, 2, 176, extra=(("head_dim", 32),)),
        Point("qwen3", "eager", 48, 2, 64, 2, 4, 800, 2, 176, extra=(("head_dim", 32),)),
        Point("llama", "sdpa", 64, 2, 128, 2, 4, 2000, 2, 352, dtype="bfloat16"),
        Point("llama", "eager", 64, 2, 128, 2, 4, 2000, 4, 352, dtype="bfloat16"),
        Point("llama", "sdpa", 64, 2, 128, 2, 4, 2000, 2, 352, checkpointing=True, dtype="bfloat16"),
        Point("gpt2", "eager", 64, 2, 128, 2, 4, 2000, dtype="bfloat16"),
        Point("gpt2", "eager", 64, 2, 128, 2, 4, 2000, extra=(("activation_function", "gelu_pytorch_tanh"),)),
    ]
    return points


@pytest.mark.parametrize("point", _points(), ids=str)
def test_estimate_within_5_percent_of_the_bytes_saved_for_backward(point: Point) -> None:
    measured = _measure(point)
    arch = architecture_from_hf(point.hf_config())
    estimated = saved_activations(
        arch,
        point.seq,
        point.batch,
        attention="eager" if point.attention == "eager" else "sdpa",
        checkpointing=point.checkpointing,
        dtype_bytes=4 if point.dtype == "float32" else 2,
        device="cpu",
    ).total
    assert abs(estimated - measured) <= TOLERANCE * measured, (point, estimated, measured, estimated / measured)


@pytest.mark.parametrize("model_type", ["llama", "qwen2", "qwen3", "gpt2", "gpt_neox"])
def test_parameter_count_is_what_transformers_builds(model_type: str) -> None:
    point = Point(
        model_type, "sdpa", 32, 1, 64, 3, 4, 1000, 2, 176, extra=(("head_dim", 32),) * (model_type == "qwen3")
    )
    config_class = getattr(transformers, _CLASSES[model_type])
    fields = {k: v for k, v in point.hf_config().items() if k != "model_type" and v is not None}
    model = transformers.AutoModelForCausalLM.from_config(config_class(**fields))
    built = sum(p.numel() for p in model.parameters())
    arch = architecture_from_hf(point.hf_config())
    assert arch.params == built
    assert arch.largest_layer == max(p.numel() for p in model.parameters())
