"""Rules about Hugging Face's `"auto"` values in a file checked as a plain DeepSpeed config."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...schema import UNSET, HfChange, HfFiller
from ...tree.options import Option
from ...tree.profiles import HF_FILLERS, release_number
from ..findings import Example, Severity
from ..validate.validation import short_repr
from ..validate.values import coerce
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


@rule(
    "DS561",
    "hugging-face-fills-a-refused-value",
    Severity.warning,
    message='{library} {installed} fills this "auto" with {fill} (for example {value}), which DeepSpeed {target} '
    "refuses; {library} {release} and later fill a value it takes",
    explanation=(
        'Where Hugging Face fills an "auto", the installed transformers or accelerate decides the value, and some '
        "of their earlier releases filled values a later DeepSpeed refuses: before transformers 4.45 and "
        "accelerate 0.31, `stage3_prefetch_bucket_size` became 0.9 × hidden_size², a number with a fraction for "
        "most hidden sizes (15099494.4 for 4096), which DeepSpeed's integer field refuses; before transformers "
        "5.18 and accelerate 1.15, WarmupLR's `warmup_num_steps` became the warm-up steps of the training "
        "arguments, 0 unless warmup is set, which DeepSpeed refuses from 0.19.3 when the engine builds the "
        "scheduler. dsref checks the value those releases fill for common inputs against the release checked "
        "for (the older releases' verdicts are recorded from them). Upgrade the library, or write the value "
        'instead of "auto".'
    ),
)
def hugging_face_fills_a_refused_value(ctx: Context) -> Iterator[Hit]:
    if ctx.profile != "hf" or not ctx.effective.hugging_face.known():
        return  # with neither release known, both fill as their newest: no change is in force (_change_in_force)
    target = ".".join(map(str, ctx.version))
    for path in sorted(ctx.effective.filled):
        if path not in ctx.tree:
            continue
        opt = ctx.tree.get(path)
        hf = opt.meta.hf_auto
        if hf is None:
            continue
        for by in HF_FILLERS:
            installed = ctx.effective.hugging_face.of(by)
            change = _change_in_force(hf.changes, by, installed)
            if change is None or change.example is UNSET or _takes(ctx, opt, change.example):
                continue
            args = {
                "library": by,
                "installed": installed,
                "fill": change.before,
                "value": short_repr(change.example),
                "target": target,
                "release": change.release,
            }
            yield Hit(ctx.where(path), path, args)
            break


def _change_in_force(changes: tuple[HfChange, ...], by: HfFiller, installed: str | None) -> HfChange | None:
    """The change ``by`` at ``installed`` has not made yet, the earliest such: what it fills is that change's
    ``before``. None for the newest, or a release not known."""
    number = None if installed is None else release_number(installed)
    if number is None:
        return None
    later = [c for c in changes if c.by == by and number < (release_number(c.release) or (0, 0, 0))]
    return min(later, key=lambda c: release_number(c.release) or (0, 0, 0)) if later else None


def _takes(ctx: Context, opt: Option, value: Any) -> bool:
    """Whether the release checked for takes ``value`` at ``opt``: its recorded verdict where one was recorded,
    else 0.19.8's (the schema's type and bounds, as DeepSpeed's validation converts values)."""
    facts = ctx.release
    recorded = None if facts is None else facts.accepts_value(opt.path, value)
    if recorded is not None:
        return recorded
    try:
        coerce(opt, value)
    except ValueError:
        return False
    return True
