"""Completion at the cursor, as the Language Server Protocol writes it: :func:`dsref.editor.completion.complete`'s
items (the keys valid at that depth, the values an option allows, section skeletons) as ``CompletionItem``.

>>> [i.label for i in complete('{"zero_optimization": {"stage": ', 32, "en")]
['0', '1', '2', '3']
"""

from __future__ import annotations

from lsprotocol import types as lsp

from ..editor import completion
from ..editor.completion import Completion, CompletionKind
from ..text.i18n import Lang

__all__ = ["complete"]

KINDS = {
    CompletionKind.section: lsp.CompletionItemKind.Module,
    CompletionKind.option: lsp.CompletionItemKind.Property,
    CompletionKind.enum: lsp.CompletionItemKind.EnumMember,
    CompletionKind.value: lsp.CompletionItemKind.Value,
    CompletionKind.snippet: lsp.CompletionItemKind.Snippet,
}


def complete(text: str, offset: int, lang: Lang, profile: str = "deepspeed") -> list[lsp.CompletionItem]:
    """The completion items at ``offset`` of ``text``."""
    return [_item(found) for found in completion.complete(text, offset, lang, profile)]


def _item(found: Completion) -> lsp.CompletionItem:
    documentation = (
        None if found.documentation is None else lsp.MarkupContent(lsp.MarkupKind.Markdown, found.documentation)
    )
    data = None if found.start is None else {"path": found.path, "start": found.start, "end": found.end}
    return lsp.CompletionItem(
        label=found.label,
        kind=KINDS[found.kind],
        detail=found.detail,
        documentation=documentation,
        tags=[lsp.CompletionItemTag.Deprecated] if found.deprecated else None,
        sort_text=found.sort_text,
        filter_text=found.filter_text,
        insert_text=found.insert_text,
        insert_text_format=lsp.InsertTextFormat.PlainText if found.kind is CompletionKind.snippet else None,
        data=data,
    )
