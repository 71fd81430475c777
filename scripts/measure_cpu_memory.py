"""Measure on the CPU the activation memory of small Hugging Face models, the points of the fit page's validation
table (issue 26, part 5).

    python scripts/measure_cpu_memory.py              # measures every point, writes the table (about a minute)
    python scripts/measure_cpu_memory.py --check      # measures again, exit 1 if a figure differs from the table

Each point builds a small model with random weights (transformers, on the CPU) and runs one training forward pass
with labels under ``torch.autograd.graph.saved_tensors_hooks``, adding up the storages kept for backward, each once,
parameters left out: the bytes at the end of the forward pass that the estimate's activations describe. The bytes
do not depend on the weights or the machine, only on the library versions, which the table records. It is written
to ``dsref/site/validation_cpu.json``; the fit page shows it beside dsref's figure for the same model and run, and
``tests/unit/site/test_validation.py`` checks every row against the estimator.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLE = ROOT / "dsref" / "site" / "validation_cpu.json"

LLAMA = {"hidden_size": 128, "intermediate_size": 352, "num_hidden_layers": 2, "num_attention_heads": 8,
         "num_key_value_heads": 2, "vocab_size": 2000, "max_position_embeddings": 512}  # fmt: skip

GPT2 = {"model_type": "gpt2", "n_embd": 128, "n_layer": 2, "n_head": 8, "vocab_size": 2000, "n_positions": 512}

POINTS: list[dict[str, Any]] = [
    {"model": {"model_type": "llama", **LLAMA}, "attention": "sdpa"},
    {"model": {"model_type": "llama", **LLAMA}, "attention": "eager"},
    {"model": {"model_type": "llama", **LLAMA}, "attention": "sdpa", "checkpointing": True},
    {"model": {"model_type": "llama", **LLAMA}, "attention": "sdpa", "padded": True},
    {"model": {"model_type": "llama", **LLAMA}, "attention": "sdpa", "dtype": "bfloat16"},
    {"model": {"model_type": "qwen2", **LLAMA}, "attention": "sdpa", "padded": True},
    {"model": {"model_type": "mistral", **LLAMA, "sliding_window": 64}, "attention": "sdpa"},
    {"model": GPT2, "attention": "eager"},
]
"""Each point: a model's config.json, the attention, and (defaults) sequence 128, micro batch 2, float32, no
checkpointing, no padding."""

CLASSES = {"llama": "LlamaConfig", "qwen2": "Qwen2Config", "mistral": "MistralConfig", "gpt2": "GPT2Config"}


def run_of(point: dict[str, Any]) -> dict[str, Any]:
    """A point with its defaults filled in."""
    return {"seq": 128, "batch": 2, "dtype": "float32", "checkpointing": False, "padded": False, **point}


def measure(point: dict[str, Any]) -> int:
    """Bytes of the distinct storages one forward pass with labels saves for backward, parameters excluded."""
    import torch
    import transformers

    run = run_of(point)
    fields = {key: value for key, value in run["model"].items() if key != "model_type"}
    config = getattr(transformers, CLASSES[run["model"]["model_type"]])(**fields)
    torch.manual_seed(0)
    model = transformers.AutoModelForCausalLM.from_config(config, attn_implementation=run["attention"])
    model = model.to(getattr(torch, run["dtype"]))
    model.train()
    if run["checkpointing"]:
        model.gradient_checkpointing_enable()
    parameters = {p.untyped_storage().data_ptr() for p in model.parameters()}
    kept: dict[int, int] = {}

    def pack(tensor: Any) -> Any:
        storage = tensor.untyped_storage()
        if storage.data_ptr() not in parameters:
            kept.setdefault(storage.data_ptr(), storage.nbytes())
        return tensor

    vocab = run["model"]["vocab_size"]
    ids = torch.randint(0, vocab, (run["batch"], run["seq"]))
    mask = torch.ones(run["batch"], run["seq"], dtype=torch.long)
    mask[0, : run["seq"] // 4] = 0
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda tensor: tensor):
        model(input_ids=ids, attention_mask=mask if run["padded"] else None, labels=ids, use_cache=False)
    return sum(kept.values())


def table() -> dict[str, Any]:
    import torch
    import transformers

    rows = [{**run_of(point), "measured_bytes": measure(point)} for point in POINTS]
    return {
        "what": "bytes saved for backward by one training forward pass with labels (saved-tensor hooks), CPU",
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "rows": rows,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="measure again and compare with the table")
    args = parser.parse_args()
    measured = table()
    if args.check:
        recorded = json.loads(TABLE.read_text(encoding="utf-8"))
        differ = [
            (new["model"]["model_type"], new["measured_bytes"], old["measured_bytes"])
            for new, old in zip(measured["rows"], recorded["rows"], strict=True)
            if new["measured_bytes"] != old["measured_bytes"]
        ]
        for name, new, old in differ:
            print(f"{name}: measured {new:,} bytes, the table says {old:,}")
        return 1 if differ else 0
    TABLE.write_text(json.dumps(measured, indent=1) + "\n", encoding="utf-8")
    for row in measured["rows"]:
        print(f"{row['model']['model_type']:8} {row['attention']:6} {row['measured_bytes']:>12,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
