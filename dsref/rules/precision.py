"""Rules about mixed precision: fp16, bf16 and the master-weight options."""

from __future__ import annotations

from collections.abc import Iterator

from ..findings import Severity
from . import Context, Hit, rule


@rule(
    "DS510",
    "fp16-with-bf16",
    Severity.error,
    message="fp16 and bf16 are both enabled; DeepSpeed refuses to run with both",
    explanation=(
        "DeepSpeed trains in one half-precision format at a time. When both `fp16.enabled` and `bf16.enabled` "
        "are true, building the config fails with an assertion. Keep the one your hardware supports (bf16 on "
        "Ampere and newer GPUs needs no loss scaling) and set the other to false or remove its section. The old "
        "section name `bfloat16` counts as `bf16` when `bf16` is absent."
    ),
)
def fp16_with_bf16(ctx: Context) -> Iterator[Hit]:
    if ctx.get("fp16.enabled") is True and ctx.get("bf16.enabled") is True:
        yield Hit(ctx.where("bf16.enabled"), "bf16.enabled", related=(ctx.where("fp16.enabled"),))
