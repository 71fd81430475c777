"""``dsref explain --search WORDS``: options whose path or text holds every word, in English or Chinese.

A word also finds the other renderings the glossary gives it, so ``卸载`` finds the options written "offload", and
a rendering the glossary rules out finds its term (``归约`` finds 规约, ``聚合`` finds 收集), ranked below the matches
of the chosen terms (:func:`dsref.text.glossary.search_forms`).
"""

from __future__ import annotations

from ..text.facts import shown_summary
from ..text.glossary import search_forms
from ..text.i18n import Lang, option_text
from ..tree.index import OptionIndex

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tree.record import OptionRecord

__all__ = ["search", "texts_for"]


def texts_for(lang: Lang, index: OptionIndex | None = None) -> dict[str, str]:
    """Every option's description in ``lang``, by path (for searching in that language)."""
    index = index or OptionIndex.load()
    return {
        record.path: f"{option_text(record.path, record.description, lang) or ''} {shown_summary(record, lang)}"
        for record in index
    }


def search(words: str, lang: Lang, index: OptionIndex | None = None, limit: int = 30) -> list[OptionRecord]:
    """Options whose path, key or text contains every word (case-insensitive), best matches first; in a language
    other than English the option texts in that language are searched too."""
    index = index or OptionIndex.load()
    texts = texts_for(lang, index) if lang != "en" else None
    forms = [search_forms(w) for w in words.split() if w.strip()]
    if not forms:
        return []
    scored: list[tuple[int, int, int, str, OptionRecord]] = []
    for record in index:
        name = record.path.lower().replace("_", " ")
        body = f"{record.description or ''} {record.summary or ''}".lower()
        local = (texts or {}).get(record.path, "").lower()
        haystack = " ".join((record.path.lower(), name, body, local))
        strong = [any(t in haystack for t in form.spellings) for form in forms]
        if all(hit or any(t in haystack for t in form.ruled_out) for hit, form in zip(strong, forms, strict=True)):
            # a word found only through a rendering the glossary rules out ranks below the chosen terms
            weak = strong.count(False)
            in_name = sum(any(t in name or t in record.path.lower() for t in form.spellings) for form in forms)
            scored.append((weak, -in_name, record.path.count("."), record.path, record))
    scored.sort(key=lambda row: row[:4])
    return [row[4] for row in scored[:limit]]
