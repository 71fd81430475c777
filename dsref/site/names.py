"""The site search's index of names: what a reader types for a thing, and where that thing is.

Material's search ranks by words: ``overlap_comm`` is the words "overlap" and "comm", found in many pages, so the
page that only names the option could win over the option itself. In front of it, the site's search worker looks
the whole query up here (:func:`normalize` on both sides) and lists what it names first; any other query is
Material's alone. Every name is derived, none written by hand:

1. an option's dotted path (and its aliases), a finding code (``DS600``) and a rule's name (``overlap-comm-off``);
2. a glossary term (:mod:`dsref.text.glossary`, every spelling in both languages, and the Chinese renderings it
   rules out) names the guides and pages whose file name is its words (``offload`` → ``guides/offload/``) and the
   options whose key, or another name DeepSpeed accepts for it, is its words, one to one, a key word being the word
   or its start (``优化器卸载`` = "optimizer offload" → ``offload_optimizer``, ``参数卸载`` → ``offload_param``,
   "max live parameters" → ``stage3_max_live_parameters``, also read as ``max_live_parameters``);
3. two glossary terms written together name the options whose key is both their words
   (``通信`` + ``重叠`` = "communication overlap" → ``overlap_comm``);
4. an option's key, the end of its path (``offload_optimizer.device``), each of them as space-separated words
   (``loss scale window``), and the Chinese names of the glossary terms its key spells
   (:func:`dsref.site.keyterms.key_terms`: the one its heading shows, the term's other Chinese spellings, and the
   renderings the glossary rules out, which readers type: ``最大活跃参数`` → ``stage3_max_live_parameters``), for
   every option so written;
5. the inline code of a section heading (``"auto"`` → the Hugging Face guide's section on it).

A name lists its places in that order (the kinds above; among options alike, the one the pages write most often in
code first; else the pages' order), each place once.

>>> normalize("  `Zero_Optimization.Stage` "), normalize("通信 重叠"), normalize('"auto"'), normalize("ＤＳ６００")
('zero_optimization.stage', '通信重叠', 'auto', 'ds600')
>>> words_match(("optimizer", "offload"), ("offload", "optimizer")), words_match(("overlap",), ("overlap", "comm"))
(True, False)
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import permutations

from ..records import record
from ..text.glossary import TERMS, Term
from ..tree.index import OptionIndex
from ..tree.links import reference_page

__all__ = ["Place", "glossary_words", "name_index", "normalize", "words_match"]

_HAN = r"\u3400-\u9fff\uf900-\ufaff"
_SPACE_BY_HAN = re.compile(rf"(?<=[{_HAN}])\s+|\s+(?=[{_HAN}])")
_QUOTES = "`\"'“”‘’「」"


def normalize(query: str) -> str:
    """A query or a name as the two are compared: NFKC (full-width letters and digits as ASCII), lower case,
    quotes and backticks around it dropped, runs of spaces as one, none beside a Chinese character.

    ``overrides/assets/javascripts/search-names.js`` does the same to the reader's query."""
    text = unicodedata.normalize("NFKC", query).lower().strip().strip(_QUOTES).strip()
    return _SPACE_BY_HAN.sub("", re.sub(r"\s+", " ", text))


_MIN_ABBREVIATION = 3
_MIN_CUT = 2  # "profile" is not an abbreviation of "profiler"


def _word_match(key_word: str, word: str) -> bool:
    """A word of a key stands for a word of a term: the same, the singular, or its start (``comm`` for
    communication, ``param`` for parameter).

    >>> _word_match("comm", "communication"), _word_match("profile", "profiler"), _word_match("state", "states")
    (True, False, True)
    """
    if key_word == word or key_word.rstrip("s") == word.rstrip("s"):
        return True
    return len(key_word) >= _MIN_ABBREVIATION and len(word) - len(key_word) >= _MIN_CUT and word.startswith(key_word)


def words_match(term_words: Sequence[str], key_words: Sequence[str]) -> bool:
    """Whether the words of a term and of a key pair off one to one (:func:`_word_match`), in any order."""
    if len(term_words) != len(key_words) or not key_words:
        return False
    return any(
        all(_word_match(k, w) for k, w in zip(order, term_words, strict=True)) for order in permutations(key_words)
    )


def _phrases(term: Term) -> list[tuple[str, ...]]:
    """A term's English spellings (and its Latin Chinese ones) as lower-case words."""
    found: dict[tuple[str, ...], None] = {}
    for spelling in (*term.english, *term.chinese):
        if re.search(f"[{_HAN}]", spelling):
            continue
        words = tuple(w for w in re.split(r"[\s\-_+]+", spelling.lower()) if w)
        if words:
            found.setdefault(words, None)
    return list(found)


def _spellings(term: Term) -> list[str]:
    return list(dict.fromkeys(normalize(s) for s in (*term.english, *term.chinese) if s.strip()))


def _typed(term: Term) -> list[str]:
    """A term's spellings, then the Chinese renderings the glossary rules out: dsref's texts never use them, but
    readers type them (微批大小, 最大活跃参数), and they name what the term names."""
    ruled_out = (normalize(s) for s in term.avoid if re.search(f"[{_HAN}]", s))
    return list(dict.fromkeys([*_spellings(term), *ruled_out]))


def _chinese_names(key: str) -> list[str]:
    """The Chinese names of an option's key: each Chinese spelling (ruled-out ones too) of the glossary terms it
    spells, one per term, written together in the key's order, the one its heading shows first; then the same with
    the key's other words kept (``bf16 优化器状态`` for ``bf16_optimizer_states``, which 优化器状态 alone does not
    single out).

    >>> _chinese_names("stage3_max_live_parameters")[:4]
    ['驻留参数上限', '已收集参数', '最大活跃参数', '活跃参数上限']
    >>> _chinese_names("bf16_optimizer_states")
    ['优化器状态', 'bf16优化器状态']
    """
    from .keyterms import key_terms

    spelled = key_terms(key)
    if not spelled:
        return []
    words = _key_words(key)
    chinese = [[s for s in _typed(t.term) if re.search(f"[{_HAN}]", s)] for t in spelled]
    pure, mixed = [""], [" ".join(words[: spelled[0].start])]
    for n, (at, spellings) in enumerate(zip(spelled, chinese, strict=True)):
        after = spelled[n + 1].start if n + 1 < len(spelled) else len(words)
        rest = " ".join(words[at.end : after])
        pure = [before + s for before in pure for s in spellings]
        mixed = [f"{before} {s} {rest}" for before in mixed for s in spellings]
    return list(dict.fromkeys(name for name in (*pure, *map(normalize, mixed)) if name))


def glossary_words() -> list[str]:
    """Every spelling of every glossary term, and the Chinese renderings it rules out, as :func:`normalize` writes
    them: the words the site's search worker lets stand beside an option's name in a query ("混合精度 bf16").

    >>> words = glossary_words()
    >>> "混合精度" in words and "mixed precision" in words and "最大活跃参数" in words
    True
    """
    return sorted({spelling for term in TERMS for spelling in _typed(term)})


@record
class Place:
    """Where a name leads: a search entry's location (``reference/fp16/#fp16.enabled``), and how strongly the name
    names it (the kind of name, 1-5 as the module says; lower first)."""

    location: str
    kind: int


@record
class _Thing:
    location: str
    words: tuple[str, ...]
    is_page: bool


def _key_words(key: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[_\-]+", key.lower()) if w)


def name_index(docs: Sequence[Mapping[str, str]], index: OptionIndex | None = None) -> dict[str, list[int]]:
    """Every name of :func:`names` in one language's search entries ``docs`` (``location``, ``title``), each with
    the entries it leads to, best first, as their places in ``docs``: the ``names`` the site's search worker reads."""
    at = {str(doc["location"]): n for n, doc in enumerate(docs)}
    return {name: [at[place.location] for place in places] for name, places in names(docs, index).items()}


def names(docs: Iterable[Mapping[str, str]], index: OptionIndex | None = None) -> dict[str, list[Place]]:
    """Every name of a thing among ``docs`` and the places it leads to, best first (see the module)."""
    from .rules import codes

    docs = list(docs)
    order = {str(doc["location"]): n for n, doc in enumerate(docs)}
    index = index or OptionIndex.load()
    found = _Found(order)
    add = found.add

    options: list[tuple[str, str]] = []  # (path, location)
    aliases: dict[str, tuple[str, ...]] = {}  # path -> the other keys DeepSpeed reads it under
    for option in index:
        page = reference_page(option.path)
        location = f"reference/{page}/" if option.path == page else f"reference/{page}/#{option.path}"
        if location in order:
            options.append((option.path, location))
            aliases[option.path] = tuple(a.rsplit(".", 1)[-1] for a in option.aliases)
            for path in (option.path, *option.aliases, *option.deprecated_aliases):
                add(path, location, 1)
    for code, name, *_ in codes():
        add(code, f"rules/{code}/", 1)
        add(name, f"rules/{code}/", 1)

    # Among options a name reaches alike, the one the pages write most often first (zero_optimization.offload_param
    # before compile.offload_parameters for 参数卸载; bf16.enabled before amp.enabled for "enabled").
    mentions = Counter(normalize(c) for doc in docs for c in _CODE.findall(f"{doc['title']} {doc['text']}"))
    options.sort(key=lambda option: (-mentions[normalize(option[0])], order[option[1]]))
    rank: dict[str, int] = {}
    for location in [*(loc for _, loc in options), *order]:
        rank.setdefault(location, len(rank))
    things = [
        _Thing(location, _key_words(key), False)
        for path, location in options
        for key in dict.fromkeys((path.rsplit(".", 1)[-1], *aliases[path]))
    ]
    things += [
        _Thing(location, _key_words(location.rstrip("/").rsplit("/", 1)[-1]), True)
        for location in order
        if location and "#" not in location and not location.startswith(("reference/", "rules/"))
    ]
    by_length: dict[int, dict[tuple[str, ...], list[_Thing]]] = {}
    for thing in sorted(things, key=lambda t: not t.is_page):
        by_length.setdefault(len(thing.words), {}).setdefault(thing.words, []).append(thing)

    def named_by(phrase: tuple[str, ...]) -> list[_Thing]:
        group = by_length.get(len(phrase), {})
        return [thing for words, same in group.items() if words_match(phrase, words) for thing in same]

    for term in TERMS:
        for phrase in _phrases(term):
            for thing in named_by(phrase):
                for spelling in _typed(term):
                    add(spelling, thing.location, 2, 0 if thing.is_page else 1)
    _compounds(found, by_length.get(2, {}))

    for path, location in options:
        parts = path.split(".")
        for start in range(len(parts)):
            tail = ".".join(parts[start:])
            if start:
                add(tail, location, 4)
            add(" ".join(_key_words(tail.replace(".", "_"))), location, 4)  # "loss scale window"
        for name in _chinese_names(parts[-1]):
            add(name, location, 4)
    _headings(found, docs)
    return {
        name: [Place(loc, kind) for loc, (kind, _) in sorted(places.items(), key=lambda p: (p[1], rank[p[0]]))]
        for name, places in sorted(found.places.items())
    }


class _Found:
    """The names found so far, each with its places and, for each place, its (kind, rank within the kind)."""

    def __init__(self, order: Mapping[str, int]) -> None:
        self.order = order
        self.places: dict[str, dict[str, tuple[int, int]]] = {}

    def add(self, name: str, location: str, kind: int, rank: int = 0) -> None:
        name = normalize(name)
        if name and location in self.order:
            places = self.places.setdefault(name, {})
            places[location] = min((kind, rank), places.get(location, (kind, rank)))


def _compounds(found: _Found, two_words: Mapping[tuple[str, ...], list[_Thing]]) -> None:
    """Two glossary terms written one after the other (in either order) name what both their words name."""
    singles = [(phrase[0], _spellings(term)) for term in TERMS for phrase in _phrases(term) if len(phrase) == 1]
    for (k1, k2), things in two_words.items():
        firsts = [spellings for word, spellings in singles if _word_match(k1, word)]
        seconds = [spellings for word, spellings in singles if _word_match(k2, word)]
        for one in firsts:
            for other in seconds:
                for a in one:
                    for b in other:
                        for name in (a + b, b + a):
                            if a != b and re.search(f"[{_HAN}]", name):
                                for thing in things:
                                    found.add(name, thing.location, 3)


_FEW_HEADINGS = 3
_CODE = re.compile(r"<code>([^<]+)</code>")
_HIDDEN = re.compile(r"<span hidden>.*?</span>|<[^>]+>|\u200b")


def _headings(found: _Found, docs: Sequence[Mapping[str, str]]) -> None:
    """The inline code of section headings (a page with more such headings first), then the glossary's Chinese
    terms that no other name reaches, in the headings that show them (shorter headings first)."""
    sections = [(str(d["location"]), str(d["title"])) for d in docs if "#" in str(d["location"])]
    guides = [(location, title) for location, title in sections if not location.startswith("reference/")]
    per_page: dict[tuple[str, str], int] = {}
    for location, title in guides:
        for code in _CODE.findall(title):
            key = (normalize(code), location.split("#")[0])
            per_page[key] = per_page.get(key, 0) + 1
    for location, title in guides:
        for code in _CODE.findall(title):
            found.add(code, location, 5, -per_page[(normalize(code), location.split("#")[0])])
    shown = [(location, _HIDDEN.sub("", title)) for location, title in sections]
    for term in TERMS:
        for spelling in _spellings(term):
            if len(spelling) < 2 or not re.fullmatch(f"[{_HAN}]+", spelling) or spelling in found.places:
                continue
            showing = [(location, text) for location, text in shown if spelling in text]
            if len(showing) <= _FEW_HEADINGS:  # a word of many headings names none of them
                for location, text in showing:
                    found.add(spelling, location, 6, len(text))
