"""Close spellings of a word among many known ones, as :func:`difflib.get_close_matches` finds them, faster.

``difflib`` looks at every candidate in turn, counting the letters of each in Python before it compares the two
words; a file of a hundred unknown top-level keys asks that of the same hundred known keys again and again.
:class:`Spellings` counts the letters of the known words once, so that only the candidates whose letters can
still reach the cutoff are compared letter by letter. The answer is the one ``difflib`` gives, in the same
order (``tests/unit/text/test_spelling.py`` compares them).
"""

from __future__ import annotations

import heapq
from collections import Counter
from difflib import SequenceMatcher
from itertools import repeat

__all__ = ["Spellings"]


class Spellings:
    """Known words, with what :meth:`close_to` needs of each worked out once."""

    __slots__ = ("_capped", "_columns", "_lengths", "words")

    def __init__(self, words: list[str]) -> None:
        self.words = tuple(words)
        self._lengths = tuple(map(len, self.words))
        columns: dict[str, list[int]] = {}
        for index, word in enumerate(self.words):
            for letter, count in Counter(word).items():
                columns.setdefault(letter, [0] * len(self.words))[index] = count
        self._columns = {letter: tuple(column) for letter, column in columns.items()}
        """For each letter, how often each word has it."""
        self._capped: dict[tuple[str, int], tuple[int, ...]] = {}
        """A letter's column with each count capped at a number, once asked for: what a word with the letter that
        many times shares of it with each known word. The letters two words share are then added up for every
        known word at once (a ``min`` per word and letter, in Python, would cost most of the time)."""

    def close_to(self, word: str, n: int = 3, cutoff: float = 0.6) -> list[str]:
        """``difflib.get_close_matches(word, self.words, n, cutoff)``."""
        if n <= 0 or not 0.0 <= cutoff <= 1.0:
            raise ValueError(f"n must be > 0 and cutoff in [0, 1], got {n!r} and {cutoff!r}")
        size = len(word)
        columns = [self._shared_of(letter, count) for letter, count in Counter(word).items()]
        shared = map(sum, zip(*columns, strict=True)) if columns else repeat(0, len(self.words))
        scored: list[tuple[float, str]] = []
        matcher: SequenceMatcher[str] | None = None  # made for the first word that passes the bound (most fail)
        for candidate, length, common in zip(self.words, self._lengths, shared, strict=True):
            total = length + size
            # difflib's quick_ratio (letters in common), the bound it tests before the real ratio; its
            # real_quick_ratio (lengths alone) is never lower, so it rules out nothing more
            if total and 2.0 * common / total < cutoff:
                continue
            if matcher is None:
                matcher = SequenceMatcher(None, candidate, word)
            else:
                matcher.set_seq1(candidate)
            score = matcher.ratio()
            if score >= cutoff:
                scored.append((score, candidate))
        return [candidate for _, candidate in heapq.nlargest(n, scored)]

    def _shared_of(self, letter: str, count: int) -> tuple[int, ...]:
        """How many of ``count`` times ``letter`` each known word has too."""
        capped = self._capped.get((letter, count))
        if capped is None:
            column = self._columns.get(letter) or (0,) * len(self.words)
            capped = self._capped[letter, count] = tuple(map(min, column, repeat(count)))
        return capped
