"""Completion at the cursor: the keys valid at that depth, the values an option allows, and section skeletons.

Keys come from the option index (type, default and a one-line summary in the user's language; deprecated and removed
ones marked and listed last), values from the option's allowed values with their meaning, skeletons from the
editor schema's snippets (ZeRO-2, ZeRO-3 with CPU offload, bf16).

>>> labels = [i.label for i in complete('{"zero_optimization": {"stage": 2, "off', 39, "en")]
>>> "offload_optimizer" in labels and "stage" in labels
True
>>> [i.label for i in complete('{"zero_optimization": {"stage": ', 32, "en")]
['0', '1', '2', '3']
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from lsprotocol import types as lsp

from ..text.facts import shown_default, shown_summary
from ..text.i18n import Lang, option_text
from ..tree.index import OptionIndex
from ..tree.record import OptionRecord
from .context import CursorContext, cursor_context

__all__ = ["complete"]


def complete(text: str, offset: int, lang: Lang, profile: str = "deepspeed") -> list[lsp.CompletionItem]:
    """The completion items at ``offset`` of ``text``."""
    at = cursor_context(text, offset)
    if at is None:
        return []
    index = OptionIndex.load()
    parent = _section(index, at.path)
    if at.path and parent is None:
        return []
    if at.role == "key":
        items = [_key_item(entry, at, lang) for entry in index.children(parent)]
        if not at.path:
            items += _skeletons(lang, profile, at)
        return items
    if at.key is None:
        return []
    hit = index.resolve(".".join([*at.path, at.key]))
    if hit is None or hit.record.is_section:
        return []
    return _value_items(hit.record, at, lang)


def _section(index: OptionIndex, path: tuple[str, ...]) -> OptionRecord | None:
    if not path:
        return None
    hit = index.resolve(".".join(path))
    return hit.record if hit is not None and hit.record.is_section else None


def _key_item(entry: OptionRecord, at: CursorContext, lang: Lang) -> lsp.CompletionItem:
    old = bool(entry.deprecated or entry.removed_in or entry.docs_only)
    default = shown_default(entry, lang)
    new_text = entry.key if at.quoted else json.dumps(entry.key)
    return lsp.CompletionItem(
        label=entry.key,
        kind=lsp.CompletionItemKind.Module if entry.is_section else lsp.CompletionItemKind.Property,
        detail=f"{entry.type} = {default}",
        documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, shown_summary(entry, lang)),
        tags=[lsp.CompletionItemTag.Deprecated] if old else None,
        sort_text=("1" if old else "0") + entry.key,
        filter_text=entry.key,
        insert_text=new_text,
        data={"path": entry.path, "start": at.start, "end": at.end},
    )


def _value_items(entry: OptionRecord, at: CursorContext, lang: Lang) -> list[lsp.CompletionItem]:
    values: list[Any] = list(entry.allowed or [])
    if not values and entry.type.is_bool:
        values = [True, False]
    meanings = {json.dumps(v, ensure_ascii=False): text for v, text in entry.enum_docs}
    items = []
    for number, value in enumerate(values):
        shown = json.dumps(value, ensure_ascii=False)
        meaning = meanings.get(shown)
        text = option_text(entry.path, meaning, lang, f"enum:{value}") if meaning else None
        insert = value if at.quoted and isinstance(value, str) else shown
        items.append(
            lsp.CompletionItem(
                label=shown if not isinstance(value, str) else value,
                kind=lsp.CompletionItemKind.EnumMember if entry.allowed else lsp.CompletionItemKind.Value,
                detail=entry.path,
                documentation=lsp.MarkupContent(lsp.MarkupKind.Markdown, text) if text else None,
                sort_text=f"{number:03d}",
                insert_text=insert,
            )
        )
    return items


def _skeletons(lang: Lang, profile: str, at: CursorContext) -> list[lsp.CompletionItem]:
    """Whole-file starting points, as snippets (built once: the snippets read the option tree's examples)."""
    items = []
    for name, label, about, body in _snippet_texts(lang, profile):
        text = body[1:-1].strip("\n")  # the members, to go inside the braces already written
        items.append(
            lsp.CompletionItem(
                label=label,
                kind=lsp.CompletionItemKind.Snippet,
                detail=about,
                insert_text=text if not at.quoted else text.lstrip().lstrip('"'),
                insert_text_format=lsp.InsertTextFormat.PlainText,
                sort_text="2" + name,
            )
        )
    return items


@cache
def _snippet_texts(lang: Lang, profile: str) -> tuple[tuple[str, str, str, str], ...]:
    from ..editor.jsonschema import SNIPPETS, M, snippet_body

    return tuple(
        (
            s.name,
            M.text(f"snippet_{s.name}", lang),
            M.text(f"snippet_{s.name}_about", lang),
            json.dumps(snippet_body(s, "hf" if profile == "hf" else "deepspeed"), indent=2, ensure_ascii=False),
        )
        for s in SNIPPETS
    )
