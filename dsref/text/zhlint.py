"""The Chinese text linter: the house rules of :mod:`.glossary` checked over a text, each problem with its line, the
offending text and what to write instead.

English words are judged one by one: a word Chinese engineers keep (``glossary.KEEP``, a hyphenated one whole), an
option's key or value, or a name. A name is a word with a second capital or a digit (DeepSpeed, GPU, GH200), or a
capitalised word that dsref's English texts use as one inside a sentence (Adam, Llama) or ``glossary.NAMES`` lists:
a capital alone is no proof, since an English sentence left behind starts with one.

It reads only running text: code (fenced blocks, code spans), link targets, HTML, addresses, message placeholders
(``{name}``), page macros (``{{ … }}``), attribute lists (``{ .option }``) and quoted JSON strings are masked first
(:func:`prose`), so option names, values, JSON and command lines are never judged as Chinese prose. It lives in
:mod:`dsref.text` beside the glossary it enforces because more than the tests read it: the catalog check and the
site's doc checks can call :func:`lint` on any text.

>>> [p.rule for p in lint("类型: 整数，取值 1-3。 DeepSpeed 用 7B 参数")]
['count', 'halfwidth', 'range', 'space']
>>> [p.rule for p in lint("取值 1 到 3，打印汇总 profile时的 深度")]
['range', 'spacing', 'spacing']
>>> lint("用 `stage: 1-3` 和“auto”")
[]
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from ..records import record
from .glossary import KEEP_IN_ENGLISH, NAMES, TERMS

HAN = r"\u3400-\u9fff\uf900-\ufaff"
"""Chinese characters (CJK unified ideographs, extension A, compatibility)."""
FULL_PUNCT = "。，、；：？！（）"

_CODE = re.compile(
    r"```.*?```|~~~.*?~~~|``.*?``|`[^`]*`|\]\([^)\n]*\)|<!--.*?-->|<[A-Za-z/][^>\n]*>|https?://\S+|\{\{.*?\}\}"
    r"|\{[a-z_][a-z_0-9]*(?:![rsa])?(?::[^{}\n]*)?\}|\{ ?[.#][^}\n]*\}|\x1b\[[0-9;]*m"
    r"|(?<![\w-])--?[a-z][\w-]*(?:[ =](?![-\u3400-\u9fff])[\w.]+)?|\b[A-Za-z_][\w.]*\([^()\n]*\)"
    r"|\bdsref (?:check|explain|estimate|rule|options|schema|server|completion)\b|(?:^|(?<=\n))[!?]{3}\+? [a-z]+",
    re.S,
)
"""What is not running text, even in a Chinese sentence: code, links, HTML, placeholders, macros, attribute lists,
terminal colours, command-line options with their value (``--profile hf``), calls (``json.dump(config, f)``) and
dsref's commands."""
_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
"""ASCII-quoted strings: JSON keys and values, or words quoted the English way (judged by the quote rule)."""
MASK = "\x00"
_VERBATIM = re.compile(
    rf"“[\x00-\x7f…]*?”|(?<=\[)[\x00-\x7f]*?(?=\]\x00)|^#+ [\x00-\x7f]*$|(?<=[{HAN}*]（)[A-Za-z][\w -]*(?=[，）])"
    r"|(?<!\*)\*{1,2}(?=\S)[^*\n\u3400-\u9fff]+?(?<=\S)\*{1,2}(?!\*)",
    re.M,
)
"""English quoted verbatim (“ran out of swap buffers”), an English title of a link or heading, an English gloss in
brackets after a Chinese term (激活检查点（gradient checkpointing）), the English label of a program's menu or field in
emphasis (*Settings → Languages & Frameworks*): not judged as English left in Chinese text."""


@record
class Problem:
    """One place that breaks a house rule."""

    where: str
    line: int
    rule: str
    found: str
    use: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: [{self.rule}] “{self.found}” → {self.use}"


def _blank(match: re.Match[str]) -> str:
    return "".join("\n" if c == "\n" else MASK for c in match.group())


def prose(text: str, *, quotes: bool = False) -> str:
    """``text`` with everything that is not running text masked (same length, same lines), quoted strings too
    unless ``quotes``."""
    masked = _CODE.sub(_blank, text)
    return masked if quotes else _QUOTED.sub(_blank, masked)


def _avoided() -> list[tuple[re.Pattern[str], str, re.Pattern[str] | None]]:
    """Each ruled-out rendering's pattern, the term to use instead, and the phrases that hold it and stay right."""
    found = []
    for term in TERMS:
        kept = re.compile("|".join(map(re.escape, term.keep))) if term.keep else None
        for rendering in term.avoid:
            if re.fullmatch(r"[A-Za-z ]+", rendering):  # an English word left in Chinese running text
                pattern = re.compile(rf"(?<![\w.\-\x00]){re.escape(rendering)}(?![\w\-\x00])")
            else:
                pattern = re.compile(re.escape(rendering))
            found.append((pattern, term.chinese[0], kept))
    return found


def _inside(kept: re.Pattern[str] | None, text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` lies inside one of the phrases ``kept`` matches."""
    return kept is not None and any(
        m.start() <= start and end <= m.end() for m in kept.finditer(text, max(0, start - 20), end + 20)
    )


_AVOIDED = _avoided()

_H = f"[{HAN}]"
_NUM = r"\d+(?:\.\d+)*"
_CHECKS: tuple[tuple[str, re.Pattern[str], str], ...] = (
    # half-width punctuation touching a Chinese character (through emphasis marks), or brackets around Chinese
    (
        "halfwidth",
        re.compile(rf"(?<={_H})\**[,;:?](?=\s|$|{_H}|\*)|(?<={_H})\s?\((?=[^()\n\u3400-\u9fff]*\))"),
        "全角标点",
    ),
    # brackets around Chinese words, unless they group a formula (×, /, +, =) or hold a call's arguments
    ("halfwidth", re.compile(rf"(?<![\w\x00])\((?![^()\n]*[×/+=*−])[^()\n]*{_H}[^()\n]*\)"), "全角括号（…）"),
    ("halfwidth", re.compile(rf"[,;:?](?={_H})"), "全角标点"),
    # a space beside full-width punctuation, inside a line
    # (two spaces or more are a column gap in a terminal table, not a space in a sentence)
    ("space", re.compile(rf"(?<=[{FULL_PUNCT}]) (?=[^\s|\x00✗✓⚠])|(?<=[^\s\x00|]) (?=[{FULL_PUNCT}])"), "去掉空格"),
    ("space", re.compile(rf"(?<={_H}) +(?=“)|(?<=”) +(?={_H})"), "去掉空格"),
    ("range", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?\s?[-–—~]\s?\d+(?:\.\d+)?(?![\w.\-/\x00])"), "浪纹线：1～3"),
    # a range written out (1 到 3, 0.17.1 至 0.19.2, 1 到 {maximum}): the house style writes every range with ～
    (
        "range",
        re.compile(rf"(?<![\w.\-/\x00])(?:{_NUM} ?[到至] ?(?:{_NUM}|\x00+)|\x00+ ?[到至] ?{_NUM})(?![\w.\-/])"),
        "浪纹线：1～3",
    ),
    # one space between two Chinese characters (through emphasis marks): Chinese words are not spaced; runs of
    # spaces are a terminal table's column gap
    (
        "spacing",
        re.compile(rf"(?<={_H}) (?=\**{_H})|(?<={_H}\*) (?={_H})|(?<={_H}\*\*) (?={_H})"),
        "去掉汉字之间的空格",
    ),
    # English glued to Chinese: the texts put a space between a Chinese character and a Latin letter
    # (a link's text counts: 与[ZeRO 对比](…); a finding's code does not: 错误[DS101])
    (
        "spacing",
        re.compile(rf"(?<={_H})(?:\[(?=[A-Za-z][^\[\]\n]*\x00))?[A-Za-z]|[A-Za-z](?={_H})"),
        "汉字与英文之间空一格",
    ),
    # a space beside inline markup where the text on both sides is Chinese: the markup shows no space, so the space
    # shows on its own: after a bold that ends in full-width punctuation (“一点都不省。** 没有”), before a link whose
    # text is Chinese (“见 [如何选择”); Chinese beside bold is the spacing rule's, a link's end is _LINK_END's
    # (“各 **stage** 的”: Latin inside, the spaces stay)
    (
        "space",
        re.compile(rf"(?<=[{FULL_PUNCT}])\*{{1,2}} +(?=[{HAN}{FULL_PUNCT}])|(?<=[{HAN}]) +(?=\[[{HAN}{FULL_PUNCT}])"),
        "去掉标记旁的空格",
    ),
    # an ASCII letter x standing for “by” or “times” between Chinese words (数据 x 序列)
    ("times", re.compile(rf"(?<=[{HAN}）”]) ?x ?(?=[{HAN}“（])"), "乘号“×”，或用文字写出（数据并行与序列并行）"),
    # italics on Chinese: Chinese type has no italic; a browser slants the glyphs
    (
        "emphasis",
        re.compile(rf"(?<![*A-Za-z0-9_\x00])\*(?=[^\s*])[^*\n]*{_H}[^*\n]*(?<=[^\s*])\*(?![*A-Za-z0-9_])"),
        "中文不用斜体：加粗，或不加强调",
    ),
    ("count", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?\s?[KMBT](?![\w\-\x00])"), "以万、亿计：5亿"),
    ("bytes", re.compile(r"(?<![\w.\-/\x00])\d+(?:\.\d+)?(?:GiB|MiB|KiB|TiB|G|M|K|T|GB|MB|KB|TB)\b"), "16 GB"),
)


_LINK_END = re.compile(rf"(?<=[{HAN}{FULL_PUNCT}])\]\([^)\n]*\) +(?=[*\[]*[{HAN}{FULL_PUNCT}])")
"""A link whose text ends in Chinese, then a space, then Chinese: the space shows (“[ZeRO 各 stage 对比](x.md) 中”)."""

_CODE_SPACE = re.compile(rf"[{HAN}{FULL_PUNCT}] +(?=`[{HAN}])|(?<=[{HAN}]`) +[{HAN}{FULL_PUNCT}]")
"""A space between Chinese and a code span whose own text is Chinese on that side (“例如 `检查对象：…`”): the space
shows between two Chinese characters."""

_NAMED = re.compile(r"[A-Z][\w-]* (?:\d+ )?$")
"""What a count written the English way may follow: a model's name (Llama 2 7B)."""


def _around(text: str, start: int, end: int) -> str:
    """The offending text with a few characters either side, on its own line."""
    left = max(text.rfind("\n", 0, start) + 1, start - 8)
    right = text.find("\n", end)
    return text[left : min(end + 8, len(text) if right < 0 else right)]


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def lint(text: str, where: str = "", *, line: int = 1) -> list[Problem]:
    """Every problem of one message or page; ``line`` is where ``text`` starts in its file."""
    if not re.search(_H, text):
        return []
    running = prose(text)
    found: list[Problem] = []

    def add(index: int, rule: str, what: str, use: str) -> None:
        found.append(Problem(where, line + _line_of(text, index) - 1, rule, what.strip() or what, use))

    verbatim = _VERBATIM.sub(_blank, running)
    for pattern, use, kept in _AVOIDED:
        for m in pattern.finditer(verbatim):
            if not _inside(kept, verbatim, m.start(), m.end()):
                add(m.start(), "term", m.group(), use)
    for rule, pattern, use in _CHECKS:
        for m in pattern.finditer(verbatim if rule in ("count", "bytes", "range") else running):
            if rule == "count" and _NAMED.search(verbatim, 0, m.start()):
                continue
            add(m.start(), rule, _around(text, m.start(), m.end()), use)
    for m in _LINK_END.finditer(text):
        if running[m.start() - 1] == text[m.start() - 1]:  # in running text, not in code
            add(m.start(), "space", _around(text, m.start() - 1, m.end()), "去掉链接后的空格")
    for m in _CODE_SPACE.finditer(text):
        if running[m.start()] == text[m.start()]:  # the Chinese beside it is running text, not code
            add(m.start(), "space", _around(text, m.start(), m.end()), "去掉空格：代码两侧都是汉字时不留空格")
    found += [Problem(where, line + n - 1, "quotes", q, "同一条消息只用一种引号：“…”") for n, q in _mixed_quotes(text)]
    for m in re.finditer(r"(?<![\w\x00.\-/'])[A-Za-z][a-z]+(?:[ -][a-z]+)*(?![\w\x00.\-/'])", verbatim):
        words = m.group()
        if not _kept(words):
            add(m.start(), "english", words, "译成中文，或写作代码，或加入 glossary.KEEP_IN_ENGLISH")
    return sorted(set(found), key=lambda p: (p.line, p.rule, p.found))


def _kept(words: str) -> bool:
    """Whether English words are ones Chinese running text keeps: names, the glossary's list (a hyphenated spelling
    whole: all-to-all, not "to"), or an option's key or value (written bare)."""
    if words.lower() in KEEP_IN_ENGLISH:
        return True
    return all(
        w.lower() in KEEP_IN_ENGLISH or w in _option_words() or w in _names() or _kept_parts(w) for w in words.split()
    )


def _kept_parts(word: str) -> bool:
    """A hyphenated word not listed whole (layer-token, micro-step): kept if each part is."""
    return "-" in word and all(p.lower() in KEEP_IN_ENGLISH or p in _names() for p in word.split("-"))


@functools.cache
def _names() -> frozenset[str]:
    """Capitalised words that are names: the ones dsref's English texts (the catalog template) use inside a sentence,
    after a lower-case word (Adam, Llama, Comet, Hugging Face), and the glossary's spellings. A capitalised word is
    not a name by its capital alone: an English sentence left in a Chinese text starts with one (Note, Whether).
    Words with a second capital or a digit (DeepSpeed, GPU, GH200) are never matched as words, so they need no list."""
    from .catalog import pot_path

    lines = pot_path().read_text(encoding="utf-8").splitlines()
    english = "".join(line[line.index('"') + 1 : -1] for line in lines if line.startswith(('msgid "', '"')))
    english = english.replace("\\n", " ")
    found = {m.group(1) for m in re.finditer(r"(?<=[a-z,;(] )([A-Z][a-z]+)\b", english)}
    found |= {w for term in TERMS for s in (*term.english, *term.chinese) for w in s.split() if w[:1].isupper()}
    return frozenset(found | {w for _, group in NAMES for w in group.split()})


@functools.cache
def _option_words() -> frozenset[str]:
    """Every option's key and every allowed string value: names from the config, even when not in backticks."""
    from ..tree.index import OptionIndex

    words: set[str] = set()
    for option in OptionIndex.load():
        words.add(option.key)
        words.update(v for v in option.allowed or () if isinstance(v, str))
    return frozenset(words)


def _mixed_quotes(text: str) -> Iterator[tuple[int, str]]:
    """Where a paragraph (of a page, or a whole message) that has quoted a word one way (English 'x' or Chinese “x”)
    first quotes one the other way. Double ASCII quotes are JSON's ("auto", {"stage": 3}), not a way of quoting."""
    start = 0
    for block in re.split(r"\n\s*\n", text):
        offset = text.index(block, start)
        running = prose(block, quotes=True)
        firsts = sorted(
            (m.start(), name)
            for name, pattern in (("'", r"(?<![\w])'[^'\n\x00]+'(?![\w])"), ("“", r"“[^”\n]+”"))
            if (m := re.search(pattern, running))
        )
        if len(firsts) > 1 and re.search(_H, running):
            yield _line_of(text, offset + firsts[1][0]), " ".join(sorted(name for _, name in firsts))
        start = offset + len(block)


def lint_all(texts: Iterable[tuple[str, int, str]]) -> list[Problem]:
    """Every problem in ``(where, first line, text)`` triples."""
    return [problem for where, line, text in texts for problem in lint(text, where, line=line)]
