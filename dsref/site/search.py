"""Chinese search: what the site's search needs from :mod:`dsref.text.glossary`.

* The jieba user dictionary. MkDocs-Material segments the Chinese text of every page with jieba when it builds the
  search index (``plugins.search.jieba_dict_user`` in ``mkdocs.yml``); this dictionary keeps the glossary's terms
  whole, so that 梯度累积 or 优化器状态 are single words in the index rather than pairs of characters that match
  anything.
* Synonyms (:func:`synonyms`): the Chinese reference keeps many terms in English (offload, partition, …), as the
  glossary says; a Chinese entry that uses the English term also gets the glossary's Chinese terms in the index, so
  that 卸载 finds the ``offload_*`` options. Only the terms of the entry itself count (:func:`entry_synonyms`): an
  option's own key in its title (not the sections above it in its path), and its prose (not its example config or
  the other options its text names in code), so that 微批次 is not on every option whose example sets
  ``train_micro_batch_size_per_gpu``.
* The index on first use (:func:`index_on_first_use`): Material's bundle fetches the search index on every page
  load; the site's bundle fetches it when the search box is first opened, as Material does for pages opened from
  files.
* Whole words in queries (:func:`whole_word_queries`): Material's search worker cuts a Chinese query into words it
  finds in the index, but never lets a word end on the query's last character, so 梯度累积 was searched (and
  highlighted) as 梯度 alone; the site's worker is Material's with that one comparison changed.

>>> words = user_dictionary().splitlines()
>>> "梯度累积" in words and "ZeRO-Offload" in words
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from ..text.glossary import TERMS

__all__ = [
    "USER_DICTIONARY",
    "entry_synonyms",
    "index_on_first_use",
    "synonyms",
    "user_dictionary",
    "whole_word_queries",
]

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


_HAN = re.compile(r"[\u4e00-\u9fff]")
_WORD_SPLIT = re.compile(r"[\s_\-]+")


@cache
def _pairs() -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
    """For each glossary term: its English spellings as phrases of lower-case words, and its Chinese spellings
    that hold Chinese characters and no space (one word each in the index)."""
    pairs = []
    for term in TERMS:
        chinese = tuple(s for s in term.chinese if _HAN.search(s) and not any(c.isspace() for c in s))
        english = tuple(" ".join(w for w in _WORD_SPLIT.split(s.lower()) if w) for s in (*term.english, *term.chinese))
        english = tuple(s for s in english if s and not _HAN.search(s))
        if chinese and english:
            pairs.append((english, chinese))
    return tuple(pairs)


def synonyms(words: Iterable[str]) -> list[str]:
    """The glossary's Chinese terms for the English terms among ``words`` (a text's words, in order, as the
    search index splits them), less the ones the text already has.

    >>> synonyms("把 优化器状态 offload 到 cpu".split())
    ['卸载']
    >>> synonyms(["gradient", "accumulation", "steps", "梯度累积步数"])
    ['梯度累积', '梯度']
    >>> synonyms(["mixed", "precision", "混合精度"]), synonyms(["stage"])
    ([], [])
    """
    listed = [w.lower() for w in words]
    present, text = set(listed), f" {' '.join(listed)} "
    found: dict[str, None] = {}
    for english, chinese in _pairs():
        if any(f" {phrase} " in text for phrase in english):
            for word in chinese:
                if word not in present:
                    found.setdefault(word, None)
    return list(found)


_CODE = re.compile(r"<code>(.*?)</code>", re.S)
_PRE = re.compile(r"<pre\b.*?</pre>", re.S)
_HIDDEN = re.compile(r"<span hidden>.*?</span>", re.S)
_TAG = re.compile(r"<[^>]+>")


def entry_synonyms(title: str, text: str, separator: re.Pattern[str]) -> tuple[list[str], list[str]]:
    r"""The glossary's Chinese terms a search entry gets for the English ones it uses: those of its title, and the
    further ones of its text. The title counts an option path in code by its last key (the option it names, not
    the sections above it); the text counts its prose only, not its example configs nor the code that names other
    options.

    >>> split = re.compile(r"[\s\u200b_.]+")
    >>> entry_synonyms("<code>zero_optimization.offload_optimizer.ratio</code>", "", split)
    ([], [])
    >>> entry_synonyms("<code>zero_optimization.offload_param</code>", "", split)
    (['卸载'], [])
    >>> example = '<pre><code>{"train_micro_batch_size_per_gpu": 1}</code></pre>'
    >>> entry_synonyms("<code>fp16.loss_scale</code>", f"<p>把 gradient clipping 关掉</p>{example}", split)
    (['损失缩放'], ['梯度裁剪', '梯度'])
    """

    def words(html: str) -> list[str]:
        return [w for w in separator.split(_TAG.sub(" ", html)) if w]

    title_words = words(_CODE.sub(lambda m: " " + _TAG.sub("", m[1]).rsplit(".", 1)[-1] + " ", _HIDDEN.sub("", title)))
    prose = _CODE.sub(" ", _PRE.sub(" ", _HIDDEN.sub("", text)))
    in_title = synonyms(title_words)
    in_text = [w for w in synonyms([*title_words, *words(prose)]) if w not in in_title]
    return in_title, in_text


_LAST_CHARACTER = "for(let o=s+1;o<t.length;o++)t.slice(s,o)in e&&(n[s]=o-s)"
"""Where Material's worker looks for index words at each place of a Chinese query: every end but the last."""


def whole_word_queries(worker: str) -> str:
    """Material's search worker (``assets/javascripts/workers/search.*.min.js``), changed so that a word of a
    Chinese query may end on its last character: 梯度累积 is then searched, and highlighted, as 梯度累积.

    A query that ends inside a word (梯度累, typed on the way to 梯度累积) is cut as before.

    >>> whole_word_queries("x;" + _LAST_CHARACTER + ";y")
    'x;for(let o=s+1;o<=t.length;o++)t.slice(s,o)in e&&(n[s]=o-s);y'
    >>> whole_word_queries("another worker")
    Traceback (most recent call last):
    ...
    ValueError: Material's search worker has changed: its Chinese query segmentation was not found
    """
    if worker.count(_LAST_CHARACTER) != 1:
        raise ValueError("Material's search worker has changed: its Chinese query segmentation was not found")
    patched = worker.replace(_LAST_CHARACTER, _LAST_CHARACTER.replace("o<t.length", "o<=t.length"))
    return re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", patched)


_ON_LOAD = 'location.protocol!=="file:"'
"""Where Material's bundle decides to set up search when the page loads (over HTTP) instead of on first use."""
_HIGHLIGHT = re.compile(r'(\b\w+\("search\.highlight"\))\?')
"""Where Material's bundle decides to highlight the words of ``?h=`` on a page, which needs the search index."""


def index_on_first_use(bundle: str) -> str:
    """Material's bundle (``assets/javascripts/bundle.*.min.js``), changed so that the search index is fetched when
    the search box is first opened (focused, or its icon pressed), not when the page loads.

    Material subscribes to the index once the first of two values is true: "served over HTTP" (at once) or "search
    open"; with the first made false, search is set up on first use, which Material already does for ``file:``.
    Highlighting a result's words on the page it leads to needs the index too: only a page opened from a search
    result (``?h=`` in its address) loads it for that.

    >>> index_on_first_use('x(' + _ON_LOAD + '),y("search");V("search.highlight")?A(e):y')
    'x(!1),y("search");V("search.highlight")&&new URLSearchParams(location.search).has("h")?A(e):y'
    >>> index_on_first_use("another bundle")
    Traceback (most recent call last):
    ...
    ValueError: Material's bundle has changed: where it sets up search on page load was not found
    """
    if bundle.count(_ON_LOAD) != 1 or len(_HIGHLIGHT.findall(bundle)) != 1:
        raise ValueError("Material's bundle has changed: where it sets up search on page load was not found")
    patched = bundle.replace(_ON_LOAD, "!1")
    patched = _HIGHLIGHT.sub(lambda m: f'{m[1]}&&new URLSearchParams(location.search).has("h")?', patched)
    return re.sub(r"\n//# sourceMappingURL=\S+\s*$", "\n", patched)
