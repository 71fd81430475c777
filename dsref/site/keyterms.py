"""The glossary terms an option's key spells out in English words: what the Chinese reference shows beside the key
(:func:`dsref.site.reference.glossary_terms`) and the Chinese names the site search knows it by
(:mod:`dsref.site.names`).

>>> [(t.term.chinese[0], t.start, t.end) for t in key_terms("fp16_master_weights_and_grads")]
[('主权重', 1, 3)]
"""

from __future__ import annotations

from ..records import record
from ..text.glossary import TERMS, Term

__all__ = ["KeyTerm", "key_terms"]


@record
class KeyTerm:
    """A glossary term an option's key spells: the term, and the words of the key (split at ``_``) it spans."""

    term: Term
    start: int
    end: int


def key_terms(key: str) -> list[KeyTerm]:
    """The glossary terms an option's key spells out in English words (two words or more), longest first from the
    key's start, whose first Chinese spelling is Chinese (what :func:`dsref.site.reference.glossary_terms` shows).

    >>> [(t.term.english[0], t.start, t.end) for t in key_terms("stage3_max_live_parameters")]
    [('max live parameters', 1, 4)]
    """
    words = key.lower().split("_")
    found: list[KeyTerm] = []
    i = 0
    while i < len(words):
        step = 1
        for j in range(len(words), i + 1, -1):
            phrase = " ".join(words[i:j])
            term = next((t for t in TERMS if {phrase, phrase + "s"} & {s.lower() for s in t.english}), None)
            if term is not None and any("\u4e00" <= ch <= "\u9fff" for ch in term.chinese[0]):
                found.append(KeyTerm(term, i, j))
                step = j - i
                break
        i += step
    return found
