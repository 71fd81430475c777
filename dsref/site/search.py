"""Chinese search: the jieba user dictionary of DeepSpeed terms, generated from :mod:`dsref.text.glossary`.

MkDocs-Material segments the Chinese text of every page with jieba when it builds the search index
(``plugins.search.jieba_dict_user`` in ``mkdocs.yml``); this dictionary keeps the glossary's terms whole, so
that 梯度累积 or 优化器状态 are single words in the index rather than pairs of characters that match anything.

>>> words = user_dictionary().splitlines()
>>> "梯度累积" in words and "ZeRO-Offload" in words
True
"""

from __future__ import annotations

from ..text.glossary import TERMS

__all__ = ["USER_DICTIONARY", "user_dictionary"]

USER_DICTIONARY = "dsref/generated/jieba_userdict.txt"
"""Where the dictionary is committed, relative to the checkout (``mkdocs.yml`` names it)."""


def user_dictionary() -> str:
    """One term a line (jieba's format without a frequency: jieba then keeps each term whole).

    Every spelling of every glossary term that has no space in it (jieba's format cannot hold one), in both
    languages. Material passes only runs of Chinese characters to jieba, so the English spellings matter only
    where they are glued to Chinese; they keep terms such as ZeRO-Offload whole there.
    """
    seen: dict[str, None] = {}
    for term in TERMS:
        for spelling in (*term.chinese, *term.english):
            if spelling and not any(ch.isspace() for ch in spelling):
                seen.setdefault(spelling, None)
    return "".join(f"{word}\n" for word in seen)
