"""Measure on the CPU the activation memory at the forward and backward peaks of small Hugging Face models, and
print it beside dsref's estimate: how much the working memory of the layer being run adds (issue 26, part 1).

    python scripts/measure_layer_memory.py        # Llama: eager and sdpa, with and without checkpointing, fp32, bf16
    python scripts/measure_layer_memory.py --model-type gpt2  # or qwen2, mistral (GPT-2 untied, dropouts 0.1)

Each point builds a small Llama with random weights, frees every parameter's gradient as soon as it is accumulated
(as ZeRO 2 and 3 hand it to a bucket), and runs one training step with labels under live-tensor tracking
(``tests/live_memory.py``): the peak bytes alive during forward and during backward, parameters aside. dsref's figure
is the estimate's phase less its model states, buffers and context (``Peak.states_bytes``). A negative error means the
estimate is short of what the layer being run allocates and frees (eager attention's scores before and after the mask
and softmax, the MLP's intermediates in a checkpointed layer's forward, the gradients of both in backward, the final
norm's backward). The bytes depend on the library versions, not on the weights or the machine.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHAPES: list[dict[str, Any]] = [
    {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 2, "num_attention_heads": 8,
     "num_key_value_heads": 2, "vocab_size": 128, "max_position_embeddings": 1024},
    {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 4, "num_attention_heads": 4,
     "num_key_value_heads": 2, "vocab_size": 2000, "max_position_embeddings": 1024},
]  # fmt: skip
"""A model whose layers outweigh its logits, and one whose logits weigh as much as its layers."""

GPT2_SHAPES: list[dict[str, Any]] = [
    {"n_embd": 128, "n_layer": 2, "n_head": 8, "vocab_size": 128, "n_positions": 1024, "tie_word_embeddings": False},
    {"n_embd": 128, "n_layer": 4, "n_head": 4, "vocab_size": 2000, "n_positions": 1024, "tie_word_embeddings": False},
]
"""The same two for GPT-2, untied (a tied embedding's gradient waits in autograd: a gradient, not an activation)."""

CLASSES = {"llama": "LlamaConfig", "qwen2": "Qwen2Config", "mistral": "MistralConfig", "gpt2": "GPT2Config"}


def measure(
    model_type: str, shape: dict[str, Any], attention: str, checkpointing: bool, dtype: str, seq: int
) -> tuple[int, int]:
    """Peak bytes alive (parameters aside) during one forward pass with labels, and during its backward."""
    import torch
    import transformers

    from tests.live_memory import training_peaks

    torch.manual_seed(0)
    config = getattr(transformers, CLASSES[model_type])(**shape)
    model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation=attention)
    model = model.to(getattr(torch, dtype))
    model.train()
    if checkpointing:
        model.gradient_checkpointing_enable()
    return training_peaks(model, torch.randint(0, shape["vocab_size"], (1, seq)))


def estimate(
    model_type: str, shape: dict[str, Any], attention: str, checkpointing: bool, dtype: str, seq: int
) -> tuple[int, int]:
    from dsref.estimate.model import architecture_from_hf
    from dsref.estimate.peak import Run, peak_memory

    arch = architecture_from_hf({"model_type": model_type, **shape})
    precision = "fp32" if dtype == "float32" else "bf16"
    run = Run(precision=precision, seq_len=seq, micro_batch=1, attention=attention, checkpointing=checkpointing)
    peak = peak_memory(arch, run, device="cpu")  # type: ignore[arg-type]
    forward, backward = (peak.phases[name] - peak.states_bytes[name] for name in ("forward", "backward"))
    return forward, backward


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seq", type=int, default=512)
    parser.add_argument("--model-type", choices=sorted(CLASSES), default="llama")
    args = parser.parse_args(argv)
    print("layers heads vocab attention checkpointing dtype | forward measured, dsref, error | backward ...")
    for shape in GPT2_SHAPES if args.model_type == "gpt2" else SHAPES:
        layers, heads = (
            shape[k]
            for k in (
                ("n_layer", "n_head") if args.model_type == "gpt2" else ("num_hidden_layers", "num_attention_heads")
            )
        )
        for attention in ("eager", "sdpa"):
            for checkpointing in (False, True):
                for dtype in ("float32", "bfloat16"):
                    fm, bm = measure(args.model_type, shape, attention, checkpointing, dtype, args.seq)
                    fe, be = estimate(args.model_type, shape, attention, checkpointing, dtype, args.seq)
                    print(
                        f"{layers} {heads} {shape['vocab_size']} "
                        f"{attention} {checkpointing} {dtype} | {fm} {fe} {fe / fm - 1:+.1%} | {bm} {be} "
                        f"{be / bm - 1:+.1%}"
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
