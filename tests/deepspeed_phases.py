"""Run DeepSpeed on the CPU (gloo, one process) under live-tensor tracking and print the bytes of each phase.

    python -m tests.deepspeed_phases '[{"stage": 2, "optimizer": "foreach", "zero": {"reduce_bucket_size": 50000}}]'

Prints a JSON list, for each case: the model's parameter count and the bytes alive after ``deepspeed.initialize``, the
peaks of the last step's forward, backward and optimizer step, and what is alive after it. Run in a process of its own
(:mod:`tests.functional.test_estimate_phases` does): DeepSpeed sets up torch.distributed and leaves it set up.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from typing import Any

MODEL = {"hidden_size": 256, "intermediate_size": 688, "num_hidden_layers": 2, "num_attention_heads": 4,
         "num_key_value_heads": 4, "vocab_size": 500, "max_position_embeddings": 256}  # fmt: skip
"""About 1.8 million parameters: the model states dwarf the activations of a batch of 16 tokens. The vocabulary is
small so that no single tensor is near the 3 % the phases are compared within (a stray 2,000-word embedding was 4.7 %
of the states at initialisation in two CI runs, not reproduced)."""

SEQ, BATCH, STEPS = 16, 1, 3

ADAM: dict[str, dict[str, bool]] = {
    "fused": {"fused": True},
    "foreach": {"foreach": True},
    "single": {"foreach": False},
}
"""torch's AdamW as each of dsref's optimizer kinds (DeepSpeed passes these through with ``torch_adam``)."""


def measure(stage: int, optimizer: str, zero: dict[str, Any] | None = None) -> dict[str, Any]:
    import deepspeed
    import torch
    import transformers

    from .live_memory import LiveTensors

    config = {
        "train_micro_batch_size_per_gpu": BATCH,
        "gradient_accumulation_steps": 1,
        "bf16": {"enabled": True},
        "zero_optimization": {"stage": stage, **(zero or {})},
        "optimizer": {"type": "AdamW", "params": {"lr": 1e-4, "torch_adam": True, **ADAM[optimizer]}},
        "zero_allow_untested_optimizer": True,
    }
    torch.manual_seed(0)
    tracker = LiveTensors()
    with tracker:
        model = transformers.AutoModelForCausalLM.from_config(
            transformers.LlamaConfig(**MODEL), attn_implementation="sdpa", dtype=torch.bfloat16
        )
        params = sum(p.numel() for p in model.parameters())
        engine, *_ = deepspeed.initialize(model=model, model_parameters=model.parameters(), config=config)
        del model
        ids = torch.randint(0, MODEL["vocab_size"], (BATCH, SEQ))
        gc.collect()  # what only reference cycles keep alive is gone before it is counted, whenever Python collects
        figures: dict[str, Any] = {"params": params, "init": tracker.live()}
        for _ in range(STEPS):
            tracker.reset()
            loss = engine(input_ids=ids, labels=ids, use_cache=False).loss
            figures["forward"] = tracker.reset()
            figures["after_forward"] = tracker.live()
            engine.backward(loss)
            del loss
            figures["backward"] = tracker.reset()
            figures["after_backward"] = tracker.live()
            engine.step()
            figures["step"] = tracker.reset()
            figures["after_step"] = tracker.live()
    figures["optimizer"] = type(engine.optimizer).__name__
    return figures


def no_op_builds() -> None:
    """Keep DeepSpeed from compiling any of its C++ ops in this process.

    Starting the engine on the CPU builds the shared-memory allreduce (``deepspeed_shm_comm``) with the system's
    compiler: minutes on a fresh machine, for a world of one process, where torch.distributed's own allreduce serves.
    It is marked incompatible, so the engine does not ask for it; any other op a case would load fails at once
    instead of compiling (these cases use torch's AdamW, which needs none).
    """
    import deepspeed
    from deepspeed.ops.op_builder.builder import OpBuilder

    def not_compiled(self: Any, verbose: bool = True) -> Any:
        raise RuntimeError(f"DeepSpeed op {self.name} is not compiled in the tests")

    OpBuilder.load = not_compiled  # type: ignore[method-assign]
    deepspeed.ops.__compatible_ops__["deepspeed_shm_comm"] = False


def main() -> None:
    os.environ.update(MASTER_ADDR="127.0.0.1", RANK="0", WORLD_SIZE="1", LOCAL_RANK="0")
    os.environ.setdefault("MASTER_PORT", "29511")
    os.environ.setdefault("DS_ACCELERATOR", "cpu")
    no_op_builds()
    cases = json.loads(sys.argv[1])
    print(json.dumps([measure(int(case["stage"]), case["optimizer"], case.get("zero")) for case in cases]))


if __name__ == "__main__":
    main()
