"""Completion at the cursor: the keys valid at that depth, the values an option allows, and section skeletons.

Keys come from the option index (type, default and a one-line summary in the user's language; deprecated and removed
ones marked and listed last), values from the option's allowed values with their meaning, skeletons from the
editor schema's snippets (ZeRO-2, ZeRO-3 with CPU offload, bf16). Plain records, for any editor: the language server
(:mod:`dsref.server.completion`) and the site's playground turn them into their own.

>>> labels = [i.label for i in complete('{"zero_optimization": {"stage": 2, "off', 39, "en")]
>>> "offload_optimizer" in labels and "stage" in labels
True
>>> [i.label for i in complete('{"zero_optimization": {"stage": ', 32, "en")]
['0', '1', '2', '3']
"""

from __future__ import annotations

import json
from enum import Enum
from functools import cache
from typing import Any

from ..records import record
from ..text.facts import shown_default, shown_summary
from ..text.i18n import Lang, option_text
from ..tree.index import OptionIndex
from ..tree.record import OptionRecord
from .context import CursorContext, cursor_context

__all__ = ["Completion", "CompletionKind", "complete"]


class CompletionKind(str, Enum):
    """What a completion inserts."""

    section = "section"
    option = "option"
    enum = "enum"
    """One of the values an option allows."""
    value = "value"
    """A value of an option that allows any of its type (true and false)."""
    snippet = "snippet"
    """A whole-file starting point."""


@record
class Completion:
    """One completion item."""

    label: str
    kind: CompletionKind
    detail: str
    documentation: str | None
    """Markdown, in the user's language."""
    sort_text: str
    insert_text: str
    deprecated: bool = False
    filter_text: str | None = None
    path: str | None = None
    """The option a key completes."""
    start: int | None = None
    end: int | None = None
    """The offsets of the text a key replaces (the key typed so far), where it replaces one."""


def complete(text: str, offset: int, lang: Lang, profile: str = "deepspeed") -> list[Completion]:
    """The completion items at ``offset`` (in characters) of ``text``."""
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


def _key_item(entry: OptionRecord, at: CursorContext, lang: Lang) -> Completion:
    old = bool(entry.deprecated or entry.removed_in or entry.docs_only)
    default = shown_default(entry, lang)
    return Completion(
        label=entry.key,
        kind=CompletionKind.section if entry.is_section else CompletionKind.option,
        detail=f"{entry.type} = {default}",
        documentation=shown_summary(entry, lang),
        deprecated=old,
        sort_text=("1" if old else "0") + entry.key,
        filter_text=entry.key,
        insert_text=entry.key if at.quoted else json.dumps(entry.key),
        path=entry.path,
        start=at.start,
        end=at.end,
    )


def _value_items(entry: OptionRecord, at: CursorContext, lang: Lang) -> list[Completion]:
    values: list[Any] = list(entry.allowed or [])
    if not values and entry.type.is_bool:
        values = [True, False]
    meanings = {json.dumps(v, ensure_ascii=False): text for v, text in entry.enum_docs}
    items = []
    for number, value in enumerate(values):
        shown = json.dumps(value, ensure_ascii=False)
        meaning = meanings.get(shown)
        text = option_text(entry.path, meaning, lang, f"enum:{value}") if meaning else None
        items.append(
            Completion(
                label=shown if not isinstance(value, str) else value,
                kind=CompletionKind.enum if entry.allowed else CompletionKind.value,
                detail=entry.path,
                documentation=text or None,
                sort_text=f"{number:03d}",
                insert_text=value if at.quoted and isinstance(value, str) else shown,
            )
        )
    return items


def _skeletons(lang: Lang, profile: str, at: CursorContext) -> list[Completion]:
    """Whole-file starting points, as snippets (built once: the snippets read the option tree's examples)."""
    items = []
    for name, label, about, body in _snippet_texts(lang, profile):
        text = body[1:-1].strip("\n")  # the members, to go inside the braces already written
        items.append(
            Completion(
                label=label,
                kind=CompletionKind.snippet,
                detail=about,
                documentation=None,
                insert_text=text if not at.quoted else text.lstrip().lstrip('"'),
                sort_text="2" + name,
            )
        )
    return items


@cache
def _snippet_texts(lang: Lang, profile: str) -> tuple[tuple[str, str, str, str], ...]:
    from .jsonschema import SNIPPETS, M, snippet_body

    return tuple(
        (
            s.name,
            M.text(f"snippet_{s.name}", lang),
            M.text(f"snippet_{s.name}_about", lang),
            json.dumps(snippet_body(s, "hf" if profile == "hf" else "deepspeed"), indent=2, ensure_ascii=False),
        )
        for s in SNIPPETS
    )
