"""The option reference: one page per top-level key of ``ds_config.json``, and an index grouping them by area.

Every option is a heading whose anchor is its dotted path (``reference/zero_optimization/#zero_optimization.stage``,
the URL :func:`dsref.tree.links.option_url` gives), followed by its facts (type, default, the default DeepSpeed's docs
claim where it differs, allowed values and their meanings, range, unit, ZeRO stages, since / removed in, Hugging Face
``"auto"``, other names), its description, and an example that the doc tests check. Texts come from the option
index and the catalogs (:func:`dsref.text.i18n.option_text`), labels from the same tables ``dsref explain`` uses.

The area of a top-level key is the schema module that declares it (``dsref/schema/zero.py`` → ZeRO); sub-sections
declared in a module of another area (``offload.py``) are listed under that area too.

>>> pages = pages("en")
>>> "zero_optimization.md" in pages and "index.md" in pages
True
>>> '## `zero_optimization.stage` { .option data-toc-label="stage" }' in pages["zero_optimization.md"]
True
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from functools import cache

from ..explain.render import M as LABELS
from ..explain.render import json_lines
from ..text.facts import shown_bounds, shown_default, shown_summary, shown_value
from ..text.i18n import Lang, messages, option_text, translate
from ..text.punctuation import aside, colon, listed, separated
from ..text.units import UNITS
from ..tree.changes import What, history, probed, shown_probe
from ..tree.index import OptionIndex
from ..tree.record import OptionRecord, top_of
from .header import generated_header
from .markdown import anchor, cell, code, json_value, paragraph, table

__all__ = ["AREAS", "M", "area_of", "glossary_terms", "missing_texts", "pages", "top_level_areas"]

SOURCE = "dsref/site/reference.py"

M = messages(
    "site.reference",
    index_title="Option reference",
    index_intro="Every option of DeepSpeed {version}'s `ds_config.json`, one page per top-level key, grouped by "
    "area. Each option's anchor is its dotted path, so a link to an option is "
    "`reference/<top-level key>/#<dotted.path>`. Removed options are listed last: DeepSpeed {version} refuses them.",
    col_key="key",
    col_option="option",
    col_type="type",
    col_default="default",
    col_summary="what it does",
    area="Area",
    all_options="all options",
    children="Options in this section",
    history="By release",
    history_appeared="read from {release}",
    history_gone="no longer read from {release}",
    history_default="default {after} from {release} ({before} before)",
    history_validated="validated from {release} (unknown keys and wrong types ignored before)",
    history_accepted="{value} accepted from {release}",
    history_refused="{value} refused from {release}",
    history_type_checked="a value of the wrong type refused from {release}",
    history_type_unchecked="a value of the wrong type accepted from {release}",
    history_all="every change",
    removed_box="Removed in DeepSpeed {version}",
    removed_body="DeepSpeed {target} refuses a config that has this key, whatever its value.",
    deprecated_box="Deprecated",
    docs_only_box="Not accepted by DeepSpeed {target}",
    docs_only_body="DeepSpeed's documentation lists this key, but DeepSpeed {target} refuses a config that has it, "
    "whatever its value: remove it.",
    docs_only_ignored_box="Ignored by DeepSpeed {target}",
    docs_only_ignored_body="DeepSpeed's documentation lists this key, but DeepSpeed {target} never reads it: it has "
    "no effect.",
    values="values",
    map_entry="`<{name}>` is a name you choose; each entry is a section with the options below.",
    list_entry="`[]` is one entry of a list; each entry is a section with the options below.",
    validated='validated by DeepSpeed\'s own model (lax: numbers in strings are converted, "auto" is dropped)',
    not_validated="read with plain dictionary look-ups: a wrong type is not caught when the config is read",
    checked_by="checked by DeepSpeed",
    area_batch="Batch size",
    area_optimizer="Optimizer",
    area_scheduler="Learning-rate scheduler",
    area_precision="Precision: fp16, bf16, torch_autocast",
    area_zero="ZeRO",
    area_offload="Offload: CPU and NVMe",
    area_activation_checkpointing="Activation checkpointing",
    area_communication="Communication",
    area_logging="Logging and monitors",
    area_profilers="Profilers and timers",
    area_checkpointing="Checkpointing",
    area_data_types="Data types",
    area_data_efficiency="Data efficiency",
    area_parallelism="Pipeline, tensor and expert parallelism",
    area_compile="Compile",
    area_aio="Asynchronous I/O (aio)",
    area_autotuning="Autotuning",
    area_other="Other sections",
    area_removed="Removed options",
)

AREAS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("batch", ("batch",)),
    ("optimizer", ("optimizer",)),
    ("scheduler", ("scheduler",)),
    ("precision", ("fp16", "bf16", "torch_autocast")),
    ("zero", ("zero", "zenflow")),
    ("offload", ("offload",)),
    ("activation_checkpointing", ("activation_checkpointing",)),
    ("communication", ("communication",)),
    ("logging", ("general", "monitor", "comms_logger")),
    ("profilers", ("flops_profiler", "timers")),
    ("checkpointing", ("checkpoint",)),
    ("data_types", ("data_types",)),
    ("data_efficiency", ("data_efficiency",)),
    ("parallelism", ("pipeline", "tensor_parallel", "expert_parallel")),
    ("compile", ("compile",)),
    ("aio", ("aio",)),
    ("autotuning", ("autotuning",)),
    ("other", ()),
    ("removed", ()),
)
"""Areas in the order the index shows them, with the schema modules (``dsref/schema/<module>.py``) in each.
A module named nowhere falls in ``other``; anything DeepSpeed removed falls in ``removed``."""

_MODULE_AREA = {module: area for area, modules in AREAS for module in modules}


def _module_area(module: str) -> str:
    if ".legacy." in module:
        return "removed"
    return _MODULE_AREA.get(module.rsplit(".", 1)[-1], "other")


@cache
def _declaring_modules() -> dict[str, str]:
    """Option path → the schema module that declares it, for top-level keys and sections."""
    from ..schema.config import DeepSpeedConfig
    from ..tree.options import option_tree

    found: dict[str, str] = {}
    tree = option_tree()
    for opt in tree.children(None):
        for cls in DeepSpeedConfig.__mro__:
            if opt.field_name in inspect.get_annotations(cls):
                found[opt.path] = cls.__module__
                break
    for opt in tree:
        if opt.kind == "section" and opt.model is not None and opt.parent is not None:
            found[opt.path] = opt.model.__module__
    return found


def area_of(path: str, index: OptionIndex | None = None) -> str:
    """The area an option is listed under (its top-level key's, unless it was removed).

    >>> area_of("zero_optimization.stage"), area_of("fp16"), area_of("amp"), area_of("hybrid_engine")
    ('zero', 'precision', 'removed', 'other')
    """
    index = index or OptionIndex.load()
    top = top_of(path)
    if index.get(top).removed_in:
        return "removed"
    return _module_area(_declaring_modules().get(top, ""))


def top_level_areas(index: OptionIndex | None = None) -> dict[str, list[OptionRecord]]:
    """Area → the entries listed under it in the index: top-level keys, and sub-sections of another area."""
    index = index or OptionIndex.load()
    grouped: dict[str, list[OptionRecord]] = {area: [] for area, _ in AREAS}
    for record in index.top_level():
        grouped[area_of(record.path, index)].append(record)
    modules = _declaring_modules()
    for record in index:
        if record.parent is None or record.path not in modules:
            continue
        area = _module_area(modules[record.path])
        if area != area_of(record.path, index) and area_of(record.path, index) != "removed":
            grouped[area].append(record)
    return grouped


# -- pages -------------------------------------------------------------------


def pages(lang: Lang, index: OptionIndex | None = None) -> dict[str, str]:
    """File name (under ``reference/``) → page text, for every top-level key and the index."""
    index = index or OptionIndex.load()
    out = {"index.md": _index_page(lang, index)}
    for record in index.top_level():
        out[f"{record.key}.md"] = _key_page(record, lang, index)
    return out


def _index_page(lang: Lang, index: OptionIndex) -> str:
    lines = [generated_header(SOURCE), f"# {M.text('index_title', lang)}", ""]
    lines += [M.text("index_intro", lang, version=index.deepspeed), ""]
    for area, records in top_level_areas(index).items():
        if not records:
            continue
        lines += [f"## {M.text(f'area_{area}', lang)} {{ #{area} .dsref-options }}", ""]
        rows = []
        for record in records:
            target = f"{record.top}.md" if record.parent is None else f"{record.top}.md#{anchor(record.path)}"
            rows.append([f"[{code(record.path)}]({target})", cell(shown_summary(record, lang))])
        lines += table([M.text("col_key", lang), M.text("col_summary", lang)], rows)
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _key_page(top: OptionRecord, lang: Lang, index: OptionIndex) -> str:
    lines = [generated_header(SOURCE)]
    for depth, record in [(0, top), *((d + 1, e) for d, e in index.subtree(top))]:
        lines += _option(record, depth, lang, index)
    return "\n".join(lines).rstrip("\n") + "\n"


def _option(record: OptionRecord, depth: int, lang: Lang, index: OptionIndex) -> list[str]:
    """The heading, notices, description, facts, values, example and children of one option."""
    level = min(depth + 1, 6)
    terms = "、".join(glossary_terms(record.key)) if lang == "zh" else ""
    title = f"{code(record.path)} · {terms}" if terms else code(record.path)
    toc = f' data-toc-label="{record.key}"' if depth else ""
    lines = [f"{'#' * level} {title} {{ .option{toc} }}", ""]
    if depth == 0:
        area = area_of(record.path, index)
        lines += [f"{M.text('area', lang)}{colon(lang)}[{M.text(f'area_{area}', lang)}](index.md#{area})", ""]
    target = index.deepspeed
    parent = _parent(record, index)
    if record.removed_in and (parent is None or not parent.removed_in):
        lines += [f'!!! warning "{M.text("removed_box", lang, version=record.removed_in)}"', ""]
        note = option_text(record.path, record.removal_note, lang, "removal_note")
        body = paragraph(f"{M.text('removed_body', lang, target=target)}\n{note or ''}")
        lines += [f"    {body}", ""]
    if record.docs_only:
        kind, box = ("docs_only", "warning") if record.validated_by_deepspeed else ("docs_only_ignored", "note")
        lines += [f'!!! {box} "{M.text(f"{kind}_box", lang, target=target)}"', ""]
        lines += [f"    {M.text(f'{kind}_body', lang, target=target)}", ""]
    if record.deprecated:
        text = (
            LABELS.text("deprecated_use", lang, replacement=code(record.use_instead))
            if record.use_instead
            else LABELS.text("deprecated_plain", lang)
        )
        lines += [f'!!! note "{M.text("deprecated_box", lang)}"', "", f"    {text}", ""]
    description = option_text(record.path, record.description, lang)
    if description:
        lines += [paragraph(description), ""]
    lines += _facts(record, lang, index)
    if record.enum_docs:
        lines += [_lead(M.text("values", lang), lang), ""]
        for value, text in record.enum_docs:
            meaning = option_text(record.path, text, lang, f"enum:{value}") or ""
            lines.append(f"- {code(json_value(value))}{colon(lang)}{paragraph(meaning)}")
        lines.append("")
    if record.example_config is not None:
        lines += _example(record, lang)
    if record.is_section:
        lines += _children(record, lang, index)
    return lines


def glossary_terms(key: str) -> list[str]:
    """The Chinese glossary terms an option's key spells out in English words (two words or more).

    They are shown next to the key in the Chinese reference, so that a Chinese reader (and the site search)
    finds ``gradient_accumulation_steps`` under 梯度累积步数. Terms kept in English in Chinese text are skipped.

    >>> glossary_terms("gradient_accumulation_steps"), glossary_terms("loss_scale_window"), glossary_terms("stage")
    (['梯度累积步数'], ['损失缩放'], [])
    """
    from .keyterms import key_terms

    return [spelled.term.chinese[0] for spelled in key_terms(key)]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _lead(label: str, lang: Lang) -> str:
    """A label that introduces the block below it: ``Example:``, ``示例：`` (a full-width colon after Chinese)."""
    return _capital(label) + ("：" if lang == "zh" else ":")


def _parent(record: OptionRecord, index: OptionIndex) -> OptionRecord | None:
    """The section an option is in (for a map entry's or list item's option: the map or the list)."""
    path = record.parent
    if path is None:
        return None
    if path.endswith("[]"):
        path = path[:-2]
    elif path.endswith(">"):
        path = path.rsplit(".", 1)[0]
    return index.get(path)


def _facts(record: OptionRecord, lang: Lang, index: OptionIndex) -> list[str]:
    rows: list[tuple[str, str]] = [(LABELS.text("type", lang), code(str(record.type)))]
    default = shown_default(record, lang)
    if record.has_default:
        default = code(default)
    note = option_text(record.path, record.default_note, lang, "default_note")
    rows.append((LABELS.text("default", lang), default + (f" — {paragraph(note)}" if note else "")))
    if record.docs_default_differs:
        docs = code(shown_value(record.docs_default, record.docs_default_human, lang))
        rows.append(
            (f"⚠ {LABELS.text('docs_default', lang)}", aside(docs, LABELS.text("docs_default_note", lang), lang))
        )
    if record.allowed is not None:
        rows.append((LABELS.text("allowed", lang), listed((code(json_value(v)) for v in record.allowed), lang)))
    if record.bounds:
        rows.append((LABELS.text("range", lang), code(shown_bounds(record.bounds))))
    if record.unit:
        rows.append((LABELS.text("unit", lang), UNITS.text(record.unit, lang)))
    if record.stages is not None:
        rows.append((LABELS.text("stages", lang), listed((str(s) for s in record.stages), lang)))
    if record.since:
        rows.append((LABELS.text("since", lang), record.since))
    if record.removed_in:
        rows.append((LABELS.text("removed", lang), f"**{record.removed_in}**"))
    if record.use_instead:
        rows.append((LABELS.text("use_instead", lang), _link(record.use_instead, record, index)))
    names = [code(n) for n in record.aliases]
    names += [LABELS.text("deprecated_name", lang, name=code(n)) for n in record.deprecated_aliases]
    names += [LABELS.text("docs_name", lang, name=code(n)) for n in record.docs_names]
    if names:
        rows.append((LABELS.text("also", lang), separated(names, lang)))
    if record.hf_auto:
        source = translate(f"{record.path}#hf_source", record.hf_auto_source or "", lang)
        who = listed(record.hf_auto_by, lang)
        rows.append((LABELS.text("hf_auto", lang), LABELS.text("hf_yes", lang, who=who, source=source)))
    if record.is_section and record.unknown_keys:
        rows.append((LABELS.text("unknown_keys", lang), LABELS.text(f"unknown_{record.unknown_keys}", lang)))
    if not record.is_section and not record.removed_in:
        checked = "validated" if record.validated_by_deepspeed else "not_validated"
        rows.append((M.text("checked_by", lang), M.text(checked, lang)))
    if record.docs_only:
        rows.append(("⚠", LABELS.text("docs_only", lang)))
    if record.parsed_unused:
        rows.append(("⚠", LABELS.text("parsed_unused", lang)))
    if record.related:
        rows.append((LABELS.text("related", lang), listed((_link(p, record, index) for p in record.related), lang)))
    changed = _history(record.path, lang)
    if changed:
        rows.append((M.text("history", lang), changed))
    return [*(f"- **{label}**{colon(lang)}{value}" for label, value in rows), ""]


def _history(path: str, lang: Lang) -> str:
    """What the releases changed about the option, oldest first (:mod:`dsref.tree.changes`), with a link to the
    page of all changes; empty when they changed nothing."""
    said = []
    for change in history(path) + probed(path):
        what = change.what.value
        if change.what is What.default:
            before, after = code(json_value(change.before)), code(json_value(change.after))
            said.append(M.text(f"history_{what}", lang, release=change.release, before=before, after=after))
        elif change.what in (What.accepted, What.refused):
            value = code(shown_probe(change.path.split("=", 1)[1]))
            said.append(M.text(f"history_{what}", lang, release=change.release, value=value))
        else:
            said.append(M.text(f"history_{what}", lang, release=change.release))
    if not said:
        return ""
    return aside(separated(said, lang), f"[{M.text('history_all', lang)}](../changes.md)", lang)


def _link(path: str, here: OptionRecord, index: OptionIndex) -> str:
    """A link to another option: an anchor on this page, or on its own key's page."""
    try:
        target = index.get(path)
    except KeyError:
        return code(path)
    page = "" if target.top == here.top else f"{target.top}.md"
    return f"[{code(path)}]({page}#{anchor(path)})"


def _example(record: OptionRecord, lang: Lang) -> list[str]:
    """The option's example: a whole config (``example_config`` of the index), which the doc tests check as one;
    the line of the option itself highlighted, where the eye goes first (and where a phone scrolls the block to)."""
    lines = json_lines(record.example_config)
    found = key_line(lines, record.path)
    return [
        _lead(LABELS.text("example", lang), lang),
        "",
        f'```json hl_lines="{found}"' if found else "```json",
        *lines,
        "```",
        "",
    ]


def key_line(lines: list[str], path: str) -> int | None:
    """The line (1-based) of a config written out as ``lines`` where the option at the dotted ``path`` is written
    (each key of the path found after the one before it), or None where a key is a map's (``<name>``) or absent.

    >>> key_line(['{', '  "a": {', '    "x": 1,', '    "b": 2', '  },', '  "b": 3', '}'], "a.b")
    4
    >>> key_line(['{', '  "bf16": {"enabled": true}', '}'], "bf16.enabled"), key_line(['{}'], "a.<name>")
    (2, None)
    """
    text = "\n".join(lines)
    at = 0
    for key in path.split("."):
        if "<" in key or "[" in key:
            return None
        at = text.find(f'"{key}":', at)
        if at < 0:
            return None
    return text.count("\n", 0, at) + 1


def _children(record: OptionRecord, lang: Lang, index: OptionIndex) -> list[str]:
    children = index.children(record)
    if not children:
        return []
    lines = []
    if record.container == "map":
        lines += [M.text("map_entry", lang, name=record.map_key), ""]
    elif record.container == "list":
        lines += [M.text("list_entry", lang), ""]
    # the paragraph just above the table, marked: stacked rows on a phone (overrides/assets/stylesheets/dsref.css)
    lines += [f"**{M.text('children', lang)}**", "{: .dsref-options }", ""]
    rows = []
    for child in children:
        default = code(json_value(child.default)) if child.has_default else "–"
        rows.append(
            [
                f"[{code(child.key)}](#{anchor(child.path)})",
                code(str(child.type)),
                default,
                cell(shown_summary(child, lang)),
            ]
        )
    header = [M.text(k, lang) for k in ("col_option", "col_type", "col_default", "col_summary")]
    return [*lines, *table(header, rows), ""]


# -- checks ------------------------------------------------------------------


def missing_texts(index: OptionIndex | None = None) -> Iterator[str]:
    """Options the reference cannot describe: no English description, or no Chinese one in the catalog."""
    index = index or OptionIndex.load()
    for record in index:
        path, english = record.path, record.description
        if not english or not english.strip():
            yield f"{path}: no description (add description= to its field in dsref/schema/)"
        elif option_text(path, english, "zh") == english:
            yield f"{path}: no Chinese description (translate it in dsref/text/locales/zh_CN; scripts/catalog.py)"
