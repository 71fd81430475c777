"""The comparison pages: ZeRO stages 0–3 with offload and ZeRO++ (``zero.md``), and precision modes (``precision.md``).

The figures come from :mod:`dsref.estimate` (DeepSpeed's byte accounting and its own estimator formulas), the
option facts (which stages an option acts at, allowed devices, defaults) from the option index, and the chart is
:func:`dsref.estimate.render.render_svg` written next to the page when the pages are generated. Sentences are short
interface messages, translated through the catalog like every other message.

>>> pages = pages("en")
>>> sorted(pages)
['assets/zero-memory.svg', 'precision.md', 'zero.md']
>>> "| 3 |" in pages["zero.md"]
True
"""

from __future__ import annotations

from ..estimate.model_states import BYTES_PER_PARAM
from ..estimate.render import column_labels, render_svg, row_cells
from ..estimate.table import assumption_lines, row_label
from ..text.facts import shown_summary
from ..text.i18n import Lang, messages, option_text
from ..tree.index import OptionIndex
from ..tree.record import OptionRecord
from .figures import GPU_SIZES, MODELS, estimate_command, model_estimate
from .header import generated_header
from .markdown import cell, code, json_value, option_link, paragraph, table

__all__ = ["EXAMPLE_GPUS", "EXAMPLE_MODEL", "M", "pages"]

SOURCE = "dsref/site/zero.py"
EXAMPLE_MODEL = "llama-2-7b"
"""The worked example: Llama 2 7B, the shape the guides and "Will my model fit?" use (:mod:`.figures`) ..."""
EXAMPLE_GPUS = 8
"""... on one node of 8 GPUs."""
CHART = "assets/zero-memory.svg"

M = messages(
    "site.zero",
    title="ZeRO stages compared",
    intro="ZeRO splits the model states that plain data parallelism copies onto every GPU (16-bit parameters, "
    "gradients, optimizer states) across the data-parallel GPUs. Each stage partitions one more of them: memory "
    "per GPU falls, communication grows. Ψ is the number of parameters, N the number of data-parallel GPUs.",
    partition_title="What each stage partitions",
    col_stage="stage",
    col_params="16-bit parameters",
    col_grads="gradients",
    col_optim="optimizer states (fp32 master weights, Adam moments)",
    col_memory="model states per GPU (bytes)",
    col_comm="communication per step",
    whole="whole on every GPU",
    split="partitioned",
    comm_allreduce="2Ψ: all-reduce of the gradients",
    comm_stage12="2Ψ: reduce-scatter of the gradients, all-gather of the updated parameters",
    comm_stage3="3Ψ: reduce-scatter of the gradients, all-gather of the parameters in the forward and again in the "
    "backward pass",
    memory_note="Byte counts follow DeepSpeed's accounting for mixed-precision training with Adam: {w16} bytes per "
    "parameter for the 16-bit weights, {g16} for the 16-bit gradients, {fp32} for the 32-bit gradients, master "
    "weights and Adam moments. At stage 3 each GPU also holds the largest layer gathered (Ψₗ parameters, "
    "{layer} bytes each), as DeepSpeed's estimator counts it. Communication is counted in parameter-sized "
    "volumes per GPU, as in the ZeRO paper.",
    example_title="A worked example: {model} on {gpus} GPUs",
    example_intro="Model-state memory for each stage and offload choice of {model} ({params} parameters, the "
    "largest layer {layer}), computed by `{command}`. The guides quote these figures. Activations, the loss and "
    "DeepSpeed's buffers come on top: the whole peak of a run, for {models} on {sizes} GB GPUs, is in "
    "[Will my model fit?](fit.md).",
    list_and="{items} and {last}",
    list_separator=", ",
    chart_alt="Bar chart: model states per GPU and CPU memory per node for each ZeRO stage and offload choice",
    col_choice="choice",
    assumptions="Assumptions",
    stages_title="Which options act at which stage",
    stages_intro="Options that act only at some ZeRO stages; at the other stages DeepSpeed accepts them and ignores "
    "them (dsref check reports it, DS524). Options not listed act at every stage.",
    col_option="option",
    col_summary="what it does",
    yes="✓",
    offload_title="Offload: CPU and NVMe",
    offload_intro="Offload moves model states out of GPU memory. ZeRO-Offload moves the optimizer states and the "
    "optimizer step to the CPU; ZeRO-Infinity, at stage 3, also moves the parameters, and can use NVMe drives "
    "through DeepSpeed's asynchronous I/O ({aio}).",
    col_section="section",
    col_devices="devices",
    col_stages="ZeRO stages",
    offload_nvme_note="NVMe swapping exists only at stage 3: at stages 1 and 2 an optimizer offload to nvme acts as "
    "cpu (dsref check reports it, DS532).",
    zeropp_title="ZeRO++",
    zeropp_intro="ZeRO++ cuts the communication of stage 3, which matters most between nodes. Its three parts are "
    "switched on separately:",
    col_technique="technique",
    precision_title="Precision modes compared",
    precision_intro="DeepSpeed trains in fp32 unless one of these sections is enabled. fp16 and bf16 keep 16-bit "
    "weights for the forward and backward passes and fp32 master weights in the optimizer; torch_autocast keeps "
    "the weights in fp32 and runs selected layers in lower precision.",
    col_mode="",
    mode_fp32="fp32",
    mode_fp16="fp16",
    mode_bf16="bf16",
    mode_autocast="torch_autocast",
    row_enable="turned on by",
    row_default="when nothing is set",
    row_weights="weights used in forward and backward",
    row_master="fp32 master weights",
    row_scaling="loss scaling",
    row_range="exponent range",
    row_hardware="hardware",
    row_options="options",
    enable_fp32="no precision section enabled",
    default_fp32="this mode",
    default_off="off",
    weights_32="fp32 (4 bytes)",
    weights_16="16-bit (2 bytes)",
    weights_autocast="fp32; the layer types in {modules} compute in {dtype}",
    master_none="not needed: the weights are fp32",
    master_yes="yes, kept by the optimizer (the options below keep them in 16 bits instead)",
    master_autocast="not needed: the weights stay fp32",
    scaling_none="none",
    scaling_fp16="dynamic by default ({option} = {value}): the scale starts at 2^{power}; steps whose gradients "
    "overflow are skipped, the scale halves once `hysteresis` overflows are counted, and doubles after {window} "
    "steps without overflow",
    scaling_bf16="none: bf16 has the range of fp32",
    scaling_autocast="with dtype fp16 and no ZeRO, DeepSpeed adds PyTorch's GradScaler; otherwise none",
    range_fp32="8 exponent bits, up to about 3.4e38",
    range_fp16="5 exponent bits, largest value 65504: small gradients underflow without loss scaling",
    range_bf16="8 exponent bits, as fp32, with fewer mantissa bits",
    range_autocast="that of the chosen dtype",
    hw_any="any",
    hw_fp16="any GPU with fp16 support",
    hw_bf16="a device with bf16 support, such as NVIDIA Ampere or newer",
    hw_autocast="as for the chosen dtype",
    together_note="fp16 and bf16 cannot both be enabled (dsref check: DS510). torch_autocast has no such check "
    "against them, but it cannot be combined with ZeRO++ quantized weights (DS516).",
    master_options_title="Master weights and optimizer states in 16 bits",
    master_options_intro="Options that keep less than fp32 in the optimizer, to save memory; each needs ZeRO "
    "stage 1–3, and each option's entry says what else it needs (optimizer offload, DeepSpeed's CPU Adam):",
)


def pages(lang: Lang, index: OptionIndex | None = None) -> dict[str, str | bytes]:
    """``zero.md``, ``precision.md`` and the chart, keyed by path under ``docs/<lang>/``."""
    index = index or OptionIndex.load()
    est = model_estimate(EXAMPLE_MODEL, EXAMPLE_GPUS)
    return {
        "zero.md": _zero_page(lang, index),
        "precision.md": _precision_page(lang, index),
        CHART: render_svg(est, lang).encode("utf-8"),
    }


def _formulas() -> dict[int, str]:
    """Model-state bytes per GPU for each stage, written with DeepSpeed's byte accounting."""
    w16 = BYTES_PER_PARAM["weights_16bit"]
    g16 = BYTES_PER_PARAM["gradients_16bit"]
    fp32 = BYTES_PER_PARAM["gradients_32bit"] + BYTES_PER_PARAM["master_weights_32bit"]
    fp32 += BYTES_PER_PARAM["adam_states_32bit"]
    return {
        0: f"{w16 + g16 + fp32}Ψ",
        1: f"{w16 + g16}Ψ + {fp32}Ψ/N",
        2: f"{w16}Ψ + {g16 + fp32}Ψ/N",
        3: f"{g16 + fp32}Ψ/N + 4Ψₗ",
    }


def _zero_page(lang: Lang, index: OptionIndex) -> str:
    t = M.text
    formulas = _formulas()
    lines = [generated_header(SOURCE), f"# {t('title', lang)}", "", t("intro", lang), ""]
    lines += [f"## {t('partition_title', lang)}", ""]
    whole, split = t("whole", lang), t("split", lang)
    comm = {0: "comm_allreduce", 1: "comm_stage12", 2: "comm_stage12", 3: "comm_stage3"}
    rows = []
    for stage in range(4):
        parts = [split if stage >= need else whole for need in (3, 2, 1)]
        rows.append([str(stage), *parts, code(formulas[stage]), cell(t(comm[stage], lang))])
    header = [t(k, lang) for k in ("col_stage", "col_params", "col_grads", "col_optim", "col_memory", "col_comm")]
    lines += [*table(header, rows), ""]
    w16, g16 = BYTES_PER_PARAM["weights_16bit"], BYTES_PER_PARAM["gradients_16bit"]
    fp32 = sum(BYTES_PER_PARAM.values()) - w16 - g16
    lines += [t("memory_note", lang, w16=w16, g16=g16, fp32=fp32, layer=4), ""]
    lines += [f"{option_link('zero_optimization.stage', 'reference/')}:", ""]
    option = index.get("zero_optimization.stage")
    for value, text in option.enum_docs:
        meaning = paragraph(option_text(option.path, text, lang, f"enum:{value}") or "")
        lines.append(f"- {code(json_value(value))}: {meaning}")
    lines.append("")
    lines += _example(lang)
    lines += _stage_table(lang, index)
    lines += _offload(lang, index)
    lines += _zeropp(lang, index)
    return "\n".join(lines).rstrip("\n") + "\n"


def _listed(items: list[str], lang: Lang) -> str:
    """``a, b and c`` in ``lang``."""
    if len(items) == 1:
        return items[0]
    return M.text("list_and", lang, items=M.text("list_separator", lang).join(items[:-1]), last=items[-1])


def _example(lang: Lang) -> list[str]:
    from ..text.numbers import human_count

    t = M.text
    model = MODELS[EXAMPLE_MODEL]
    est = model_estimate(EXAMPLE_MODEL, EXAMPLE_GPUS)
    lines = [f"## {t('example_title', lang, model=model.name, gpus=EXAMPLE_GPUS)}", ""]
    intro = t(
        "example_intro",
        lang,
        model=model.name,
        params=human_count(est.params, lang),
        layer=human_count(est.largest_layer, lang),
        command=estimate_command(EXAMPLE_MODEL, EXAMPLE_GPUS),
        models=_listed([m.name for m in MODELS.values()], lang),
        sizes=_listed([str(size) for size in GPU_SIZES], lang),
    )
    lines += [intro, "", f"![{t('chart_alt', lang)}]({CHART})", ""]
    columns = column_labels(lang)
    keys = ["gpu", "cpu", "nvme", "source"]
    rows = [[cell(row_label(row, lang)), *(cell(row_cells(row, lang)[k]) for k in keys)] for row in est.rows]
    lines += [*table([t("col_choice", lang), *(columns[k] for k in keys)], rows), ""]
    lines += [f"**{t('assumptions', lang)}**", ""]
    lines += [f"- {cell(line)}" for line in assumption_lines(est, lang)]
    return [*lines, ""]


def _stage_table(lang: Lang, index: OptionIndex) -> list[str]:
    t = M.text
    lines = [f"## {t('stages_title', lang)}", "", t("stages_intro", lang), ""]
    # One table per set of stages, under its own heading (in the page's contents): one table of every option
    # with a column per stage was 9,600 px tall and, on a phone, its summaries were off screen.
    groups: dict[tuple[int, ...], list[list[str]]] = {}
    for record in index:
        if record.stages is None or record.removed_in or _inherits_stages(record, index):
            continue
        row = [option_link(record.path, "reference/"), cell(shown_summary(record, lang))]
        groups.setdefault(tuple(record.stages), []).append(row)
    header = [t("col_option", lang), t("col_summary", lang)]
    for stages in sorted(groups, key=lambda s: (-len(s), s)):
        listed = t("list_separator", lang).join(str(s) for s in stages)
        title = t("col_stages", lang) if len(stages) > 1 else f"ZeRO {t('col_stage', lang)}"
        lines += [f"### {title} {listed}", "", *table(header, groups[stages]), ""]
    return lines


def _inherits_stages(record: OptionRecord, index: OptionIndex) -> bool:
    """True for an option of a section that is itself listed with the same stages (its row says it already)."""
    parent = record.parent
    if parent is None or parent.endswith(("]", ">")):
        return False
    return bool(index.get(parent).stages == record.stages)


def _offload(lang: Lang, index: OptionIndex) -> list[str]:
    t = M.text
    aio = option_link("aio", "reference/")
    lines = [f"## {t('offload_title', lang)}", "", t("offload_intro", lang, aio=aio), ""]
    rows = []
    for path in ("zero_optimization.offload_optimizer", "zero_optimization.offload_param"):
        section = index.get(path)
        device = index.get(f"{path}.device")
        devices = ", ".join(code(json_value(v)) for v in device.allowed or ())
        stages = ", ".join(str(s) for s in section.stages or ())
        rows.append([option_link(path, "reference/"), devices, stages, cell(shown_summary(section, lang))])
    header = [t(k, lang) for k in ("col_section", "col_devices", "col_stages", "col_summary")]
    lines += [*table(header, rows), "", t("offload_nvme_note", lang), ""]
    return lines


def _zeropp(lang: Lang, index: OptionIndex) -> list[str]:
    t = M.text
    lines = [f"## {t('zeropp_title', lang)}", "", t("zeropp_intro", lang), ""]
    rows = []
    for name, path in (
        ("hpZ", "zero_optimization.zero_hpz_partition_size"),
        ("qwZ", "zero_optimization.zero_quantized_weights"),
        ("qgZ", "zero_optimization.zero_quantized_gradients"),
    ):
        record = index.get(path)
        stages = ", ".join(str(s) for s in record.stages or ())
        description = paragraph(option_text(path, record.description, lang) or "")
        rows.append(
            [name, option_link(path, "reference/"), code(json_value(record.default)), stages, cell(description)]
        )
    header = [t("col_technique", lang), t("col_option", lang), "default", t("col_stages", lang), t("col_summary", lang)]
    from ..explain.render import M as LABELS

    header[2] = LABELS.text("default", lang)
    return [*lines, *table(header, rows), ""]


def _precision_page(lang: Lang, index: OptionIndex) -> str:
    t = M.text
    link = option_link
    ref = "reference/"
    scale = index.get("fp16.loss_scale")
    power = index.get("fp16.initial_scale_power")
    window = index.get("fp16.loss_scale_window")
    columns = ["fp32", "fp16", "bf16", "autocast"]
    grid: dict[str, list[str]] = {
        "row_enable": [
            t("enable_fp32", lang),
            link("fp16.enabled", ref),
            link("bf16.enabled", ref),
            link("torch_autocast.enabled", ref),
        ],
        "row_default": [t("default_fp32", lang)] + [t("default_off", lang)] * 3,
        "row_weights": [
            t("weights_32", lang),
            t("weights_16", lang),
            t("weights_16", lang),
            t(
                "weights_autocast",
                lang,
                modules=link("torch_autocast.lower_precision_safe_modules", ref),
                dtype=link("torch_autocast.dtype", ref),
            ),
        ],
        "row_master": [
            t("master_none", lang),
            t("master_yes", lang),
            t("master_yes", lang),
            t("master_autocast", lang),
        ],
        "row_scaling": [
            t("scaling_none", lang),
            t(
                "scaling_fp16",
                lang,
                option=link(scale.path, ref),
                value=code(json_value(scale.default)),
                power=power.default,
                window=window.default,
            ),
            t("scaling_bf16", lang),
            t("scaling_autocast", lang),
        ],
        "row_range": [t(f"range_{c}", lang) for c in columns],
        "row_hardware": [t("hw_any", lang), t("hw_fp16", lang), t("hw_bf16", lang), t("hw_autocast", lang)],
        "row_options": [
            "–",
            *(
                ", ".join(link(child.path, ref) for child in index.children(index.get(key)))
                for key in ("fp16", "bf16", "torch_autocast")
            ),
        ],
    }
    header = [t("col_mode", lang), *(t(f"mode_{c}", lang) for c in ("fp32", "fp16", "bf16", "autocast"))]
    rows = [[t(key, lang), *(cell(v) for v in values)] for key, values in grid.items()]
    lines = [generated_header(SOURCE), f"# {t('precision_title', lang)}", "", t("precision_intro", lang), ""]
    lines += [*table(header, rows), "", t("together_note", lang), ""]
    lines += [f"## {t('master_options_title', lang)}", "", t("master_options_intro", lang), ""]
    for record in index:
        if record.top in ("fp16", "bf16") and record.stages is not None and not record.removed_in:
            lines.append(f"- {link(record.path, ref)}: {cell(shown_summary(record, lang))}")
    return "\n".join(lines).rstrip("\n") + "\n"
