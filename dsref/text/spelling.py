"""Close spellings of a word among many known ones, as :func:`difflib.get_close_matches` finds them, faster.

``difflib`` looks at every candidate in turn, counting the letters of each in Python before it compares the two
words; a file of a hundred unknown top-level keys asks that of the same hundred known keys again and again.
:class:`Spellings` counts the letters of the known words once, so that only the candidates whose letters can
still reach the cutoff are compared letter by letter. The answer is the one ``difflib`` gives, in the same
order (``tests/test_spelling.py`` compares them).
"""

from __future__ import annotations

import heapq
from collections import Counter
from difflib import SequenceMatcher

__all__ = ["Spellings"]


class Spellings:
    """Known words, with what :meth:`close_to` needs of each worked out once."""

    __slots__ = ("_letters", "words")

    def __init__(self, words: list[str]) -> None:
        self.words = tuple(words)
        self._letters = tuple(Counter(word) for word in self.words)

    def close_to(self, word: str, n: int = 3, cutoff: float = 0.6) -> list[str]:
        """``difflib.get_close_matches(word, self.words, n, cutoff)``."""
        if n <= 0 or not 0.0 <= cutoff <= 1.0:
            raise ValueError(f"n must be > 0 and cutoff in [0, 1], got {n!r} and {cutoff!r}")
        own = Counter(word)
        size = len(word)
        scored: list[tuple[float, str]] = []
        matcher = SequenceMatcher()
        matcher.set_seq2(word)
        for candidate, letters in zip(self.words, self._letters, strict=True):
            total = len(candidate) + size
            if not total:
                bound = 1.0
            else:
                # difflib's real_quick_ratio and quick_ratio, the bounds it tests before the real ratio
                if 2.0 * min(len(candidate), size) / total < cutoff:
                    continue
                shared = sum(min(count, letters[letter]) for letter, count in own.items())
                bound = 2.0 * shared / total
            if bound < cutoff:
                continue
            matcher.set_seq1(candidate)
            score = matcher.ratio()
            if score >= cutoff:
                scored.append((score, candidate))
        return [candidate for _, candidate in heapq.nlargest(n, scored)]
