"""The "Will my model fit?" page (``fit.md``): the peak GPU memory of common runs, from :mod:`dsref.estimate`.

For the declared models of the worked examples (:mod:`.figures`: Llama 2 7B and 13B, read from their config.json
keys) at the declared sequence lengths (2,048 and 4,096 tokens), one table each: the peak per GPU for every ZeRO
stage and offload choice, with and without gradient checkpointing, and whether it fits the declared GPU sizes.
Then the honest version of the "4× / 8× / 64×" that ZeRO write-ups quote: the saving of each stage as a function
of the number of GPUs, and what it becomes once activations are counted.

>>> page = pages("en")["fit.md"]
>>> "## Llama 2 7B, 4,096 tokens" in page and "| 64 |" in page
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..estimate.advice import fragmentation_reserve, usable_memory
from ..estimate.fit import SUGGEST_ORDER
from ..estimate.messages import M as ESTIMATE
from ..estimate.model import Architecture
from ..estimate.quantities import GIB, OffloadDevice, format_bytes, format_number
from ..text.i18n import Lang, messages
from ..tree.versions import DEEPSPEED_VERSION
from .figures import GPU_SIZES, MODELS, SEQ_LENS, Macro, peak_bytes, value
from .figures import GPUS as FIGURE_GPUS
from .header import generated_header
from .markdown import cell, code, table

__all__ = ["GPU_SIZES", "MODELS", "TOLERANCE", "M", "pages", "validation_rows"]

SOURCE = "dsref/site/fit.py"

GPUS = 8
"""The worked examples' one node of 8 GPUs (:data:`.figures.GPUS`)."""
assert GPUS in FIGURE_GPUS


GPU_COUNTS = (1, 2, 4, 8, 16, 64, 256, 1024)

CHOICES: tuple[tuple[int, OffloadDevice, OffloadDevice], ...] = tuple(
    (stage, optimizer, param) for stage, optimizer, param in SUGGEST_ORDER if "nvme" not in (optimizer, param)
)
"""The stage and offload choices of the tables: the estimator's order, fastest first, NVMe left out (its speed
depends on the drive)."""

M = messages(
    "site.fit",
    title="Will my model fit?",
    intro="The memory a training run needs on each GPU peaks once per step, and model states are only part of it: "
    "activations grow with the sequence and the micro batch, the loss makes 32-bit copies of the logits, and "
    "DeepSpeed adds its buckets. `dsref estimate --config ds_config.json --model config.json --gpu-memory 24GB` "
    "works out the peak of your run part by part, says when it happens and, when it does not fit, which changes "
    "make it fit. The tables below are its answers for common cases: {gpus} GPUs on one node, micro batch 1, bf16, "
    "PyTorch's scaled_dot_product_attention, DeepSpeed's default buckets.",
    model_title="{model}, {seq} tokens",
    model_intro="{params} parameters. Peak GPU memory per GPU, without and with gradient checkpointing; a GPU size "
    "is marked when the peak fits it with {reserve}% kept back for fragmentation ({reserve3}% at stage 3, as "
    "`dsref estimate` keeps back).",
    col_choice="ZeRO stage and offload",
    col_peak="peak per GPU",
    col_peak_ckpt="with gradient checkpointing",
    col_fits="{size} GB",
    fits="✓",
    fits_ckpt="✓ with checkpointing",
    fits_no="–",
    saving_title="What each stage saves, by the number of GPUs",
    saving_intro="ZeRO write-ups often quote 4×, 8× and N× memory savings for stages 1, 2 and 3. Those are savings "
    "of model states alone, reached only with many GPUs. With DeepSpeed's accounting (20 bytes per parameter without "
    "ZeRO: {formula}), model states per GPU shrink by these factors on N GPUs:",
    col_gpus="N",
    col_stage="stage {stage}",
    saving_formula="stage 1: 20 / (4 + 16/N), stage 2: 20 / (2 + 18/N), stage 3: N (its gathered layer aside)",
    activations_note="Activations are not partitioned by ZeRO. For {model} at {seq} tokens on {gpus} GPUs the peak "
    "falls from {stage0} without ZeRO to {stage3} with stage 3: {factor}×, not {gpus}×. Gradient checkpointing "
    "takes it to {ckpt}.",
    method_title="How the figures are made",
    validation_title="How close the estimate is",
    validation_intro="Each row is a small Hugging Face model with random weights, run once forward with labels on the "
    "CPU by `scripts/measure_cpu_memory.py` (torch {torch}, transformers {transformers}): the bytes it keeps for "
    "backward, counted with saved-tensor hooks, beside what dsref computes for the same model and run. The test "
    "suite measures more such points on every run and holds each within {tolerance}%, the peaks of forward and "
    "backward too. Published runs are not in the table: those examined (Qwen's README, `torchtitan`'s figures, "
    "DeepSpeed's ZeRO-Offload tutorial) run model code other than Hugging Face's or leave out part of the setup "
    "(the ZeRO stage, the sequence length, how memory was read), so a row would rest on guesses. GPU measurements "
    "are not in it yet either: `scripts/measure_gpu_memory.py` writes them when a GPU runs it.",
    col_model="model",
    col_run="run",
    col_measured="measured (bytes)",
    col_dsref="dsref (bytes)",
    col_error="error",
    run_setup="{seq} × {batch}, {dtype}, {attention}{extra}",
    run_checkpointing=", checkpointing",
    run_padded=", padded batch",
    run_window=", window {window}",
    measured_note="These are estimates. The activation part is checked in CI against real Hugging Face models on "
    "the CPU, within 3 %; the whole peak is not yet checked against a measurement on a GPU "
    "(`scripts/measure_gpu_memory.py` records one).",
)


def _architecture(model_id: str) -> Architecture:
    return MODELS[model_id].arch


def _label(stage: int, optimizer: OffloadDevice, param: OffloadDevice, lang: Lang) -> str:
    if param != "none":
        return ESTIMATE.text("label_both_cpu", lang, stage=stage)
    if optimizer != "none":
        return ESTIMATE.text("label_optimizer_cpu", lang, stage=stage)
    return ESTIMATE.text("label_stage", lang, stage=stage)


def _model_table(model_id: str, seq: int, lang: Lang) -> list[str]:
    t = M.text
    name = MODELS[model_id].name
    shown = format_number(seq, 0, lang)

    lines = [f"## {t('model_title', lang, model=name, seq=shown)}", ""]
    params = value(Macro("params", model_id), lang)  # as the guides cite it
    reserve, reserve3 = (format_number(fragmentation_reserve(stage), 0, lang) for stage in (0, 3))
    lines += [t("model_intro", lang, params=params, reserve=reserve, reserve3=reserve3), ""]
    rows = []
    for stage, optimizer, param in CHOICES:
        plain = peak_bytes(model_id, stage, optimizer, param, seq, GPUS)
        ckpt = peak_bytes(model_id, stage, optimizer, param, seq, GPUS, checkpointing=True)
        marks = []
        for size in GPU_SIZES:
            usable = usable_memory(size * GIB, fragmentation_reserve(stage))
            key = "fits" if plain <= usable else "fits_ckpt" if ckpt <= usable else "fits_no"
            marks.append(t(key, lang))
        row = [cell(_label(stage, optimizer, param, lang)), format_bytes(plain, lang), format_bytes(ckpt, lang)]
        rows.append([*row, *marks])
    header = [t("col_choice", lang), t("col_peak", lang), t("col_peak_ckpt", lang)]
    header += [t("col_fits", lang, size=size) for size in GPU_SIZES]
    return [*lines, *table(header, rows), ""]


def _saving(lang: Lang) -> list[str]:
    t = M.text
    formula = code("2 + 2 + 4 + 4 + 8")
    lines = [f"## {t('saving_title', lang)}", "", t("saving_intro", lang, formula=formula), ""]
    rows = []
    for n in GPU_COUNTS:
        factors = (20 / (4 + 16 / n), 20 / (2 + 18 / n), float(n))
        rows.append([str(n), *(f"{format_number(f, 0 if f == int(f) else 1, lang)}×" for f in factors)])
    lines += [*table([t("col_gpus", lang), *(t("col_stage", lang, stage=s) for s in (1, 2, 3))], rows), ""]
    lines += [t("saving_formula", lang), ""]
    model_id, seq = "llama-2-7b", SEQ_LENS[-1]
    name = MODELS[model_id].name
    stage0 = peak_bytes(model_id, 0, "none", "none", seq, GPUS)
    stage3 = peak_bytes(model_id, 3, "none", "none", seq, GPUS)
    ckpt = peak_bytes(model_id, 3, "none", "none", seq, GPUS, checkpointing=True)
    lines.append(
        t(
            "activations_note",
            lang,
            model=name,
            seq=format_number(seq, 0, lang),
            gpus=GPUS,
            stage0=format_bytes(stage0, lang),
            stage3=format_bytes(stage3, lang),
            factor=format_number(stage0 / stage3, 1, lang),
            ckpt=format_bytes(ckpt, lang),
        )
    )
    return [*lines, ""]


def _method(lang: Lang) -> list[str]:
    from ..estimate.peak import COMMUNICATION, CUDA_CONTEXT

    t = M.text
    arch = _architecture("llama-2-7b")
    notes = [
        ESTIMATE.text("peak_assume_states", lang, gpus=GPUS),
        ESTIMATE.text("peak_assume_activations", lang, family=arch.family, attention="sdpa"),
        ESTIMATE.text("peak_assume_logits", lang, kept=ESTIMATE.text("logits_freed", lang)),
        ESTIMATE.text("peak_assume_buffers", lang, version=DEEPSPEED_VERSION, layer="Ψₗ"),
        ESTIMATE.text(
            "peak_assume_context",
            lang,
            context=format_bytes(CUDA_CONTEXT, lang),
            comm=format_bytes(COMMUNICATION, lang),
        ),
    ]
    lines = [f"## {t('method_title', lang)}", ""]
    lines += [f"- {cell(note)}" for note in notes]
    return [*lines, "", t("measured_note", lang), ""]


VALIDATION = Path(__file__).with_name("validation_cpu.json")
"""The CPU-measured points (``scripts/measure_cpu_memory.py``)."""

TOLERANCE = 3
"""Percent within which every measured point must be (``tests/unit/site/test_validation.py``, and the measurements of
``tests/functional/test_estimate_terms.py``)."""


def validation_rows() -> list[tuple[dict[str, Any], int]]:
    """Each measured point and dsref's figure for it: the activations kept at the end of forward, for the CPU."""
    from ..estimate.activations import saved_activations
    from ..estimate.model import architecture_from_hf

    data = json.loads(VALIDATION.read_text(encoding="utf-8"))
    out = []
    for row in data["rows"]:
        arch = architecture_from_hf(row["model"])
        saved = saved_activations(
            arch,
            row["seq"],
            row["batch"],
            attention=row["attention"],
            checkpointing=row["checkpointing"],
            dtype_bytes=4 if row["dtype"] == "float32" else 2,
            device="cpu",
            padded=row["padded"],
        )
        out.append((row, saved.total))
    return out


def _validation(lang: Lang) -> list[str]:
    t = M.text
    data = json.loads(VALIDATION.read_text(encoding="utf-8"))
    intro = t("validation_intro", lang, torch=data["torch"], transformers=data["transformers"], tolerance=TOLERANCE)
    lines = [f"## {t('validation_title', lang)}", "", intro, ""]
    rows = []
    for row, estimated in validation_rows():
        extra = t("run_checkpointing", lang) if row["checkpointing"] else ""
        extra += t("run_padded", lang) if row["padded"] else ""
        window = row["model"].get("sliding_window")
        extra += t("run_window", lang, window=window) if window else ""
        setup = t(
            "run_setup",
            lang,
            seq=format_number(row["seq"], 0, lang),
            batch=row["batch"],
            dtype=row["dtype"],
            attention=row["attention"],
            extra=extra,
        )
        measured = row["measured_bytes"]
        error = 100 * (estimated - measured) / measured
        rows.append(
            [
                code(row["model"]["model_type"]),
                cell(setup),
                format_number(measured, 0, lang),
                format_number(estimated, 0, lang),
                "0.0%" if abs(error) < 0.05 else f"{'+' if error > 0 else '−'}{format_number(abs(error), 1, lang)}%",
            ]
        )
    header = [t(key, lang) for key in ("col_model", "col_run", "col_measured", "col_dsref", "col_error")]
    return [*lines, *table(header, rows), ""]


def pages(lang: Lang) -> dict[str, str]:
    """``fit.md``, keyed by its path under ``docs/<lang>/``."""
    t = M.text
    lines = [generated_header(SOURCE), f"# {t('title', lang)}", "", t("intro", lang, gpus=GPUS), ""]
    for model_id in MODELS:
        for seq in SEQ_LENS:
            lines += _model_table(model_id, seq, lang)
    lines += _saving(lang)
    lines += _validation(lang)
    lines += _method(lang)
    return {"fit.md": "\n".join(lines).rstrip("\n") + "\n"}
