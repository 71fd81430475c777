"""Measure the peak GPU memory of real DeepSpeed training runs, to check `dsref estimate` against (issue 14, 4b).

    python scripts/measure_gpu_memory.py                  # on a machine with one CUDA GPU: writes the table
    python scripts/measure_gpu_memory.py --dry-run        # anywhere: the matrix and dsref's predictions only

Each run of the matrix (two Llama-shaped models with random weights, ZeRO stages 0-3, optimizer offload, gradient
checkpointing on and off, bf16, one GPU) runs in its own process: ``deepspeed.initialize``, then three training steps
(forward with labels, ``engine.backward``, ``engine.step``). It records ``torch.cuda.max_memory_allocated`` and
``max_memory_reserved`` from the end of ``initialize`` to the end of the third step, and writes them with the GPU,
torch, DeepSpeed and transformers versions to ``tests/data/gpu_memory_measured.json``, which
``tests/functional/test_estimate_measured.py`` compares with the estimator on every run (within 10 % per row).

The optimizer is PyTorch's AdamW without ``foreach`` (``torch_adam``), so no DeepSpeed op has to be compiled and
the step allocates no whole-model temporaries, as DeepSpeed's fused and CPU Adam do not; with offload it runs on the
CPU (``zero_force_ds_cpu_optimizer: false``). ``max_memory_allocated`` does not see the CUDA context and NCCL's
buffers, so the prediction compared with it is dsref's peak less its context part.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLE = ROOT / "tests" / "data" / "gpu_memory_measured.json"

SHAPES: dict[str, dict[str, Any]] = {
    "llama-150m": {
        "model_type": "llama",
        "hidden_size": 1024,
        "intermediate_size": 2816,
        "num_hidden_layers": 8,
        "num_attention_heads": 16,
        "num_key_value_heads": 4,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
    },
    "llama-1b": {
        "model_type": "llama",
        "hidden_size": 2048,
        "intermediate_size": 5632,
        "num_hidden_layers": 16,
        "num_attention_heads": 16,
        "num_key_value_heads": 4,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
    },
}
"""Two model sizes: both fit one 80 GB GPU without ZeRO."""


SEQ_LEN = 2048
MICRO_BATCH = 4
STEPS = 3


def matrix() -> list[dict[str, Any]]:
    """The runs: per model, stages 0-3, optimizer offload at stages 2 and 3, checkpointing at stages 2 and 3."""
    runs = []
    for model in SHAPES:
        for stage, offload, checkpointing in (
            (0, "none", False),
            (1, "none", False),
            (2, "none", False),
            (2, "none", True),
            (2, "cpu", False),
            (3, "none", False),
            (3, "none", True),
            (3, "cpu", True),
        ):
            runs.append({"model": model, "stage": stage, "offload_optimizer": offload, "checkpointing": checkpointing})
    return runs


def ds_config(run: dict[str, Any]) -> dict[str, Any]:
    zero: dict[str, Any] = {"stage": run["stage"]}
    if run["offload_optimizer"] != "none":
        zero["offload_optimizer"] = {"device": run["offload_optimizer"], "pin_memory": True}
    return {
        "train_micro_batch_size_per_gpu": MICRO_BATCH,
        "gradient_accumulation_steps": 1,
        "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-5, "torch_adam": True, "foreach": False}},
        "zero_optimization": zero,
        "zero_force_ds_cpu_optimizer": False,
        "steps_per_print": 10**9,
    }


def predicted_allocated(run: dict[str, Any]) -> int:
    """dsref's peak for ``run`` on one GPU, less the CUDA context (which max_memory_allocated does not see)."""
    from dsref.check.validate.effective import effective
    from dsref.estimate.model import architecture_from_hf
    from dsref.estimate.peak import CONFIG_PATHS, peak_memory, run_from_config

    arch = architecture_from_hf(SHAPES[run["model"]])
    eff = effective(ds_config(run))
    values = {path: eff.get(path) for path in CONFIG_PATHS.values()}
    setup, _ = run_from_config(
        values, eff.autos, arch, seq_len=SEQ_LEN, attention="sdpa", checkpointing=run["checkpointing"]
    )
    peak = peak_memory(arch, setup)
    return peak.bytes - peak.parts["context"]


def measure_one(run: dict[str, Any]) -> dict[str, Any]:
    """One run, in this process (a fresh one per run: the CUDA context and the allocator start clean)."""
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    import deepspeed
    import torch
    import transformers
    from transformers.integrations import HfDeepSpeedConfig

    deepspeed.init_distributed()
    config = ds_config(run)
    shape = {k: v for k, v in SHAPES[run["model"]].items() if k != "model_type"}
    keep = HfDeepSpeedConfig(config) if run["stage"] == 3 else None  # zero.Init while the model is built
    model = transformers.AutoModelForCausalLM.from_config(
        transformers.LlamaConfig(**shape), attn_implementation="sdpa", dtype=torch.bfloat16
    )
    if run["checkpointing"]:
        model.gradient_checkpointing_enable()
    model.train()
    engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    vocab = shape["vocab_size"]
    for _ in range(STEPS):
        ids = torch.randint(0, vocab, (MICRO_BATCH, SEQ_LEN), device=engine.device)
        loss = engine(input_ids=ids, labels=ids).loss
        engine.backward(loss)
        engine.step()
    torch.cuda.synchronize()
    del keep
    return {
        **run,
        "seq_len": SEQ_LEN,
        "micro_batch": MICRO_BATCH,
        "max_memory_allocated": torch.cuda.max_memory_allocated(),
        "max_memory_reserved": torch.cuda.max_memory_reserved(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dry-run", action="store_true", help="print the matrix and dsref's predictions only")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    parser.add_argument("--out", default=str(TABLE))
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(measure_one(json.loads(args.one))))
        return 0
    if args.dry_run:
        for run in matrix():
            print(json.dumps({**run, "predicted_allocated": predicted_allocated(run)}))
        return 0
    import deepspeed
    import torch
    import transformers

    rows = []
    for run in matrix():
        proc = subprocess.run(
            [sys.executable, __file__, "--one", json.dumps(run)], capture_output=True, text=True, check=False
        )
        if proc.returncode != 0:
            print(f"failed: {run}\n{proc.stderr[-3000:]}", file=sys.stderr)
            return 1
        row = json.loads(proc.stdout.strip().splitlines()[-1])
        row["predicted_allocated"] = predicted_allocated(run)
        rows.append(row)
        print(json.dumps(row), flush=True)
    table = {
        "gpu": torch.cuda.get_device_name(0),
        "torch": torch.__version__,
        "deepspeed": deepspeed.__version__,
        "transformers": transformers.__version__,
        "rows": rows,
    }
    Path(args.out).write_text(json.dumps(table, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
