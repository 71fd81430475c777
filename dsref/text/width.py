"""How many terminal columns a text takes: wide (CJK) characters take two.

>>> display_width("stage"), display_width("阶段"), display_width("ZeRO 阶段，")
(5, 4, 11)
"""

from __future__ import annotations

from unicodedata import east_asian_width


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: two for each wide or full-width character, one for any other."""
    return sum(2 if east_asian_width(ch) in "WF" else 1 for ch in text)
