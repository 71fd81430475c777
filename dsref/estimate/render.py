"""The estimate drawn: table cells and labels in each language, a plain-text table and an SVG chart (for the
terminal and the site)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..text.width import display_width
from .fit import fit_rows
from .messages import M
from .model import architecture_from_flags
from .peak import Run
from .quantities import GIB, format_bytes, format_count, format_number
from .table import Estimate, Row, assumption_lines, estimate, row_label

if TYPE_CHECKING:
    from ..text.i18n import Lang
    from .advice import Advice, Change
    from .model import Architecture, FlagModel
    from .peak import Default, Peak, RunWarning

__all__ = [
    "COLUMNS",
    "assumed_line",
    "column_labels",
    "fit_lines",
    "model_note",
    "params_label",
    "render_peak",
    "render_svg",
    "render_table",
    "row_cells",
    "table_data",
    "title",
    "warning_text",
]

COLUMNS = ("stage", "offload_optimizer", "offload_param", "zero_init", "gpu", "cpu", "nvme", "source")


def row_cells(row: Row, lang: Lang, fit: bool | None = None, peak: int | None = None) -> dict[str, str]:
    """A row as display strings keyed by column (``peak`` and ``fits`` added when known)."""
    dash = M.text("not_applicable", lang)
    cells = {
        "stage": str(row.stage),
        "offload_optimizer": row.offload_optimizer,
        "offload_param": row.offload_param,
        "zero_init": dash if row.zero_init is None else M.text("yes" if row.zero_init else "no", lang),
        "gpu": format_bytes(row.gpu_bytes, lang),
        "cpu": format_bytes(row.cpu_bytes, lang),
        "nvme": dash if row.nvme_bytes is None else format_bytes(row.nvme_bytes, lang),
        "source": M.text(f"source_{row.source}", lang),
    }
    if peak is not None:
        cells["peak"] = format_bytes(peak, lang)
    if fit is not None:
        cells["fits"] = M.text("yes" if fit else "no", lang)
    return cells


def column_labels(lang: Lang, with_fits: bool = False, with_peak: bool = False) -> dict[str, str]:
    """The table's columns in order: ``peak`` (of a run on the row) and ``fits`` go before the source."""
    extra = (["peak"] if with_peak else []) + (["fits"] if with_fits else [])
    keys = [*COLUMNS[:-1], *extra, COLUMNS[-1]]
    return {key: M.text(f"col_{key}", lang) for key in keys}


def flags_model_line(flags: FlagModel, run: Run, lang: Lang) -> str:
    """What the peak column of a model given by flags is the peak of: the model built, and the run."""
    from .model import FLAG_KEYS

    arch = flags.arch
    assumed = ""
    if flags.assumed:
        names = M.text("keys_separator", lang).join(key for key in FLAG_KEYS if key in flags.assumed)
        assumed = M.text("flags_assumed", lang, keys=names)
    return M.text(
        "flags_model",
        lang,
        hidden=format_number(arch.hidden, 0, lang),
        layers=format_number(arch.layers, 0, lang),
        heads=format_number(arch.heads, 0, lang),
        vocab=format_number(arch.vocab, 0, lang),
        intermediate=format_number(arch.intermediate, 0, lang),
        params=format_count(arch.params, lang),
        assumed=assumed,
        seq=format_number(run.seq_len, 0, lang),
        batch=format_number(run.micro_batch, 0, lang),
        precision=run.precision,
        attention=run.attention,
        checkpointing=M.text("on" if run.checkpointing else "off", lang),
    )


def fit_rule_line(gpu_memory: int, reserve_percent: float | None, cpu_memory: int | None, lang: Lang) -> str:
    """How the fits column is decided: the peak against the GPU's memory less the reserve, and the CPU's."""
    from .advice import fragmentation_reserve

    if reserve_percent is None:
        low, high = (format_number(fragmentation_reserve(stage), 0, lang) for stage in (0, 3))
        reserve = M.text("reserve_by_stage", lang, low=low, high=high)
    else:
        reserve = M.text("reserve_given", lang, percent=format_number(reserve_percent, 0, lang))
    if cpu_memory is None:
        cpu = M.text("fit_cpu_unchecked", lang)
    else:
        cpu = M.text("fit_cpu", lang, memory=format_bytes(cpu_memory, lang))
    return M.text("fit_rule", lang, memory=format_bytes(gpu_memory, lang), reserve=reserve, cpu=cpu)


def title(est: Estimate, lang: Lang) -> str:
    return M.text("title", lang, params=format_count(est.params, lang), nodes=est.nodes, gpus=est.gpus_per_node)


def table_data(
    param_counts: Iterable[int],
    *,
    gpus_per_node: int = 8,
    nodes: int = 1,
    lang: Lang = "en",
    gpu_memory: int | None = None,
    reserve_percent: float | None = None,
) -> dict[str, Any]:
    """The ZeRO page's tables: one per parameter count, display strings and raw bytes, plus the assumptions.

    >>> data = table_data([7_000_000_000], lang="en")
    >>> data["tables"][0]["rows"][3]["cells"]["gpu"], data["tables"][0]["rows"][3]["source"]
    ('27.7 GB', 'deepspeed')
    """
    tables = []
    for params in param_counts:
        est = estimate(params, gpus_per_node=gpus_per_node, nodes=nodes)
        judged = None
        if gpu_memory is not None:  # the peak of the default run of a Llama-family model of this size
            judged = fit_rows(
                est, architecture_from_flags(params).arch, Run(), gpu_memory, reserve_percent=reserve_percent
            )
        rows = []
        for n, row in enumerate(est.rows):
            fit = None if judged is None else judged[n].fits
            rows.append(
                {
                    "label": row_label(row, lang),
                    "source": row.source,
                    "fits": fit,
                    "cells": row_cells(row, lang, fit),
                    **row.to_json(),
                }
            )
        tables.append(
            {
                "params": params,
                "title": title(est, lang),
                "largest_layer_params": est.largest_layer,
                "rows": rows,
                "assumptions": assumption_lines(est, lang),
            }
        )
    return {
        "lang": lang,
        "gpus_per_node": gpus_per_node,
        "nodes": nodes,
        "columns": column_labels(lang, with_fits=gpu_memory is not None),
        "tables": tables,
    }


def render_table(header: dict[str, str], rows: Sequence[dict[str, str]]) -> str:
    """Aligned plain-text columns: header, a rule, the rows."""
    keys = list(header)
    widths = {k: max(display_width(header[k]), *(display_width(r[k]) for r in rows)) for k in keys}
    right = {"gpu", "cpu", "nvme", "peak"}

    def line(cells: dict[str, str]) -> str:
        parts = []
        for k in keys:
            pad = " " * (widths[k] - display_width(cells[k]))
            parts.append(pad + cells[k] if k in right else cells[k] + pad)
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * widths[k] for k in keys)
    return "\n".join([line(header), rule, *(line(r) for r in rows)]) + "\n"


def _nice_step(maximum: float, ticks: int = 5) -> float:
    raw = maximum / ticks
    power: float = 10.0 ** math.floor(math.log10(raw))
    for mult in (1, 2, 2.5, 5, 10):
        if raw <= mult * power:
            return mult * power
    return 10 * power


def render_svg(est: Estimate, lang: Lang, *, gpu_memory: int | None = None, rows: Sequence[Row] | None = None) -> str:
    """A horizontal bar chart (SVG text): model states per GPU and CPU per node for each choice.

    By default one bar pair per choice built under zero.Init (the rows without it differ only in CPU memory);
    ``gpu_memory`` adds a dashed line at the GPU's capacity. Deterministic, self-contained, no scripts.
    """
    from html import escape

    chosen = list(rows) if rows is not None else [r for r in est.rows if r.zero_init is not False]
    width, left, right, top, bar, gap, block = 800, 290, 80, 64, 11, 2, 34
    plot = width - left - right
    height = top + block * len(chosen) + 40
    values = [r.gpu_bytes for r in chosen] + [r.cpu_bytes for r in chosen] + ([gpu_memory] if gpu_memory else [])
    top_gb = max(max(values, default=0) / GIB, 0.1)
    step = _nice_step(top_gb)
    scale_max = step * math.ceil(top_gb / step)

    def x(n_bytes: float) -> float:
        return left + plot * (n_bytes / GIB) / scale_max

    def text(px: float, py: float, content: str, anchor: str = "start", size: int = 12, extra: str = "") -> str:
        return (
            f'<text x="{px:.1f}" y="{py:.1f}" font-size="{size}" text-anchor="{anchor}"{extra}>{escape(content)}</text>'
        )

    heading = M.text(
        "chart_title", lang, params=format_count(est.params, lang), nodes=est.nodes, gpus=est.gpus_per_node
    )
    gpu_name, cpu_name = M.text("chart_gpu", lang), M.text("chart_cpu", lang)
    colors = {"gpu": "#4c72b0", "cpu": "#dd8452"}
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
        f'role="img" aria-label="{escape(heading)}" font-family="system-ui, sans-serif">',
        f"<title>{escape(heading)}</title>",
        text(left, 22, heading, size=14, extra=' font-weight="bold"'),
        f'<rect x="{left}" y="34" width="12" height="12" fill="{colors["gpu"]}"/>',
        text(left + 18, 45, gpu_name),
        f'<rect x="{left + 200}" y="34" width="12" height="12" fill="{colors["cpu"]}"/>',
        text(left + 218, 45, cpu_name),
    ]
    axis_bottom = top + block * len(chosen)
    tick = 0.0
    while tick <= scale_max + step / 1000:
        px = left + plot * tick / scale_max
        out.append(f'<line x1="{px:.1f}" y1="{top - 4}" x2="{px:.1f}" y2="{axis_bottom}" stroke="#ddd"/>')
        out.append(
            text(px, axis_bottom + 16, format_number(tick, 0 if step >= 1 else 1, lang), anchor="middle", size=11)
        )
        tick += step
    out.append(text(left + plot / 2, axis_bottom + 34, M.text("chart_axis", lang), anchor="middle", size=11))
    for i, row in enumerate(chosen):
        y0 = top + block * i
        out.append(text(left - 8, y0 + bar + gap / 2 + 4, row_label(row, lang), anchor="end"))
        for j, (kind, value, name) in enumerate((("gpu", row.gpu_bytes, gpu_name), ("cpu", row.cpu_bytes, cpu_name))):
            y = y0 + j * (bar + gap)
            w = max(x(value) - left, 0.0)
            shown = format_bytes(value, lang)
            out.append(
                f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar}" fill="{colors[kind]}">'
                f"<title>{escape(f'{row_label(row, lang)}: {name} {shown}')}</title></rect>"
            )
            out.append(text(left + w + 4, y + bar - 1, shown, size=10))
    if gpu_memory:
        px = x(gpu_memory)
        label = M.text("chart_capacity", lang, memory=format_bytes(gpu_memory, lang))
        out.append(
            f'<line x1="{px:.1f}" y1="{top - 8}" x2="{px:.1f}" y2="{axis_bottom}" stroke="#c44e52" '
            'stroke-width="1.5" stroke-dasharray="5,3"/>'
        )
        out.append(
            text(
                px, top - 10, label, anchor="end" if px > left + plot / 2 else "start", size=11, extra=' fill="#c44e52"'
            )
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _edits(edits: dict[str, Any]) -> str:
    import json

    return ", ".join(f"{path} = {json.dumps(value)}" for path, value in edits.items())


def _change_label(change: Change, lang: Lang) -> str:
    if change.key == "micro_batch":
        run = change.run
        return M.text("change_micro_batch", lang, batch=run.micro_batch, accumulation=run.gradient_accumulation)
    return M.text(f"change_{change.key}", lang)


def _change_lines(changes: Sequence[Change], lang: Lang) -> list[str]:
    out = []
    for n, change in enumerate(changes, start=1):
        phase = M.text(f"phase_{change.peak.phase}", lang)
        label = _change_label(change, lang)
        out.append(
            M.text("change_line", lang, n=n, label=label, peak=format_bytes(change.peak.bytes, lang), phase=phase)
        )
        if change.config:
            out.append("   " + M.text("edit_config", lang, edits=_edits(change.config)))
        if change.training:
            out.append("   " + M.text("edit_training", lang, edits=_edits(change.training)))
    return out


def model_note(arch: Architecture, lang: Lang) -> str | None:
    """Which part of a multimodal config the estimate is of; None when the config is one model.

    >>> from .model import architecture_from_hf
    >>> text = {"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
    ...     "num_attention_heads": 2, "vocab_size": 100}
    >>> model_note(architecture_from_hf({"model_type": "llava", "text_config": text, "vision_config": {}}), "en")
    'estimated from text_config (the language model); the vision tower is not counted'
    """
    if arch.read_from is None:
        return None
    return M.text("model_from_text_vision" if "vision_config" in arch.not_counted else "model_from_text", lang)


def params_label(run: Run, lang: Lang) -> str:
    """What the parameters' line of the peak holds at the run's stage: every GPU the whole model below stage 3, a
    share at stage 3, nothing with parameter offload.

    >>> from .peak import Run
    >>> params_label(Run(stage=2, gpus_per_node=8), "en"), params_label(Run(stage=3, gpus_per_node=8), "en")
    ('parameters (16-bit, whole on every GPU)', "parameters (16-bit, this GPU's share of 8)")
    """
    bits = 32 if run.precision == "fp32" else 16
    if run.offload_param != "none":
        return M.text("part_params_offloaded", lang, device=run.offload_param.upper())
    if run.stage == 3:
        return M.text("part_params_partition", lang, bits=bits, gpus=format_number(run.total_gpus, 0, lang))
    return M.text("part_params_whole", lang, bits=bits)


def assumed_line(run: Run, assumed: Sequence[Default], lang: Lang) -> str | None:
    """The settings the estimate took by default, each with the flag that sets it; None when all were given."""
    if not assumed:
        return None
    values: dict[Default, dict[str, object]] = {
        "seq_len": {"seq": format_number(run.seq_len, 0, lang)},
        "micro_batch": {"batch": format_number(run.micro_batch, 0, lang)},
        "precision": {"precision": run.precision},
        "attention": {"attention": run.attention},
        "checkpointing": {},
    }
    items = [M.text(f"assumed_{key}", lang, **values[key]) for key in assumed]
    return M.text("assumed_line", lang, items=M.text("assumed_separator", lang).join(items))


def warning_text(warning: RunWarning, lang: Lang) -> str:
    """A :class:`~.peak.RunWarning` in ``lang``, with its numbers written as the estimate writes numbers."""
    args = dict(warning.args)
    if warning.key == "warn_positions":
        consequence = "positions_learned" if args.pop("learned") else "positions_rotary"
        args["consequence"] = M.text(consequence, lang, model_type=args["model_type"])
        args["seq"] = format_number(int(args["seq"]), 0, lang)
        args["positions"] = format_number(int(args["positions"]), 0, lang)
    return M.text(warning.key, lang, **args)


def fit_lines(advice: Advice, lang: Lang) -> list[str]:
    """The fit answer: fits or not, with the reserve kept back, the headroom (or what is missing), "tight" and what
    to measure when it is near the line, and what the estimate does not model."""
    from .advice import TIGHT_PERCENT

    peak = advice.peak
    reserve = format_number(advice.reserve_percent, 0, lang)
    why = M.text("reserve_why_stage3", lang) if peak.run.stage == 3 and not advice.reserve_given else ""
    memory, usable = format_bytes(advice.gpu_memory, lang), format_bytes(advice.usable, lang)
    key = "fits_yes" if advice.fits else "fits_no"
    line = M.text(
        key, lang, memory=memory, peak=format_bytes(peak.bytes, lang), usable=usable, reserve=reserve, why=why
    )
    if advice.cpu_memory is not None and peak.cpu_bytes > advice.cpu_memory:
        needed = format_bytes(peak.cpu_bytes, lang)
        line += M.text("fits_cpu_no", lang, memory=format_bytes(advice.cpu_memory, lang), needed=needed)
    lines = [line]
    percent = format_number(abs(advice.headroom_percent), 0, lang)
    if advice.headroom >= 0:
        lines.append(M.text("headroom_yes", lang, headroom=format_bytes(advice.headroom, lang), percent=percent))
    else:
        lines.append(M.text("headroom_no", lang, short=format_bytes(-advice.headroom, lang), percent=percent))
    if advice.tight:
        lines.append(M.text("tight", lang, limit=format_number(TIGHT_PERCENT, 0, lang), usable=usable))
    lines.append(M.text("not_modelled", lang, family=peak.arch.family))
    return lines


def render_peak(
    peak: Peak,
    lang: Lang,
    *,
    advice: Advice | None = None,
    filled: Sequence[str] = (),
    assumed: Sequence[Default] = (),
) -> str:
    """The peak as text: what was estimated, a table of its parts, the phases, the fit and the changes."""
    from ..tree.versions import DEEPSPEED_VERSION
    from .peak import COMMUNICATION, COMPONENTS, CUDA_CONTEXT

    run, arch = peak.run, peak.arch
    offload = ""
    if run.offload_optimizer != "none":
        offload += M.text("peak_offload_optimizer", lang, device=run.offload_optimizer.upper())
    if run.offload_param != "none":
        offload += M.text("peak_offload_param", lang, device=run.offload_param.upper())
    out = [
        M.text(
            "peak_title",
            lang,
            model=arch.model_type,
            params=format_count(arch.params, lang),
            stage=run.stage,
            offload=offload,
            nodes=run.nodes,
            gpus=run.gpus_per_node,
        ),
        M.text(
            "peak_setup",
            lang,
            seq=format_number(run.seq_len, 0, lang),
            batch=run.micro_batch,
            accumulation=run.gradient_accumulation,
            precision=run.precision,
            attention=run.attention,
            checkpointing=M.text("on" if run.checkpointing else "off", lang),
        ),
    ]
    note = model_note(arch, lang)
    if note is not None:
        out.append(note)
    said = assumed_line(run, assumed, lang)
    if said is not None:
        out.append(said)
    out.append("")
    header = {"part": M.text("col_part", lang), "gpu": M.text("col_bytes", lang)}
    rows = []
    for key in COMPONENTS:
        name = params_label(run, lang) if key == "params" else M.text(f"part_{key}", lang)
        rows.append({"part": name, "gpu": format_bytes(peak.parts[key], lang)})
    rows.append({"part": M.text("part_total", lang), "gpu": format_bytes(peak.bytes, lang)})
    table = render_table(header, rows).splitlines()
    table.insert(len(table) - 1, table[1])
    out.extend(table)
    out.append("")
    out.append(
        M.text("peak_line", lang, value=format_bytes(peak.bytes, lang), phase=M.text(f"phase_{peak.phase}", lang))
    )
    out.append(
        M.text(
            "phases_line",
            lang,
            forward=format_bytes(peak.phases["forward"], lang),
            backward=format_bytes(peak.phases["backward"], lang),
            step=format_bytes(peak.phases["step"], lang),
        )
    )
    nvme = "" if peak.nvme_bytes is None else M.text("nvme_part", lang, value=format_bytes(peak.nvme_bytes, lang))
    out.append(M.text("cpu_line", lang, value=format_bytes(peak.cpu_bytes, lang), nvme=nvme))
    if advice is not None:
        out.append("")
        out.extend(fit_lines(advice, lang))
        if advice.changes:
            out.append(M.text("changes_title", lang))
            out.extend(_change_lines(advice.changes, lang))
        elif advice.combined:
            out.append(M.text("combined_title", lang))
            out.extend(_change_lines(advice.combined, lang))
            last = advice.combined[-1].peak
            if last.bytes > advice.usable_for(last.run):
                out.append(M.text("combined_short", lang, peak=format_bytes(last.bytes, lang)))
    out.append("")
    out.append(M.text("peak_assumptions", lang))
    notes = [
        M.text("peak_assume_seq", lang, seq=format_number(run.seq_len, 0, lang)),
        M.text("peak_assume_states", lang, gpus=run.total_gpus),
        M.text("peak_assume_activations", lang, family=arch.family, attention=run.attention),
        M.text("peak_assume_logits", lang, kept=M.text("logits_kept" if run.keep_outputs else "logits_freed", lang)),
        M.text("peak_assume_buffers", lang, version=DEEPSPEED_VERSION, layer=format_count(arch.largest_layer, lang)),
        M.text(f"peak_assume_optimizer_{run.optimizer}", lang),
        M.text(
            "peak_assume_context",
            lang,
            context=format_bytes(CUDA_CONTEXT, lang),
            comm=format_bytes(COMMUNICATION, lang),
        ),
        M.text("peak_assume_cpu", lang),
    ]
    if filled:
        notes.append(M.text("peak_assume_auto", lang, paths=", ".join(filled)))
    out.extend("  - " + line for line in notes)
    return "\n".join(out) + "\n"
