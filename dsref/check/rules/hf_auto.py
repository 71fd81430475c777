"""Rules about Hugging Face's `"auto"` values in a file checked as a plain DeepSpeed config."""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import Example, Severity
from . import Context, Hit, rule

LOOKS_LIKE_HF = 2
"""How many "auto" values Hugging Face fills make a file look like one written for Trainer or Accelerate."""


@rule(
    "DS560",
    "looks-like-hugging-face",
    Severity.info,
    message='{count} keys are "auto", which Hugging Face Trainer/Accelerate fill in; if this file is for them, '
    "check it with --profile hf",
    explanation=(
        'DeepSpeed itself never fills in "auto": inside its pydantic sections (zero_optimization, fp16, bf16, '
        '…) an "auto" is dropped and the default used, and elsewhere (batch sizes, gradient_clipping, '
        "optimizer and scheduler params) the string stays and breaks the run. Hugging Face Transformers and "
        "Accelerate replace these values from their own arguments before DeepSpeed sees the file. Checked as a "
        'plain DeepSpeed config, each "auto" is reported on its own (DS401, DS402); checked with `--profile hf`, '
        'dsref accepts "auto" where Hugging Face fills it, reads the file as strict JSON like Hugging Face '
        "does, and leaves the values it cannot know out of the other checks. This note is not shown under "
        "`--profile hf`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": "auto",
          "gradient_accumulation_steps": "auto",
          "bf16": {"enabled": "auto"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 8,
          "bf16": {"enabled": true}
        }
        """,
        also=("DS401", "DS402"),
    ),
)
def looks_like_hugging_face(ctx: Context) -> Iterator[Hit]:
    if ctx.profile != "deepspeed":
        return
    filled = sorted(ctx.effective.filled)
    if len(filled) >= LOOKS_LIKE_HF:
        yield Hit((), None, {"count": len(filled), "paths": filled})
