"""Which close spellings of an unknown key are offered as what the file meant: only those that keep its meaning.

A close spelling is a guess, and ``--unsafe-fixes`` makes it. It is offered only where the difference is a slip of
the keyboard, never a different word:

* keys DeepSpeed ignores by design are nobody's typo: a comment (``comment``, ``_comment``, ``//``, ``#note``) or a
  key switched off by a leading underscore (``_stage3_param_persistence_threshold``);
* the same words written with other separators or case (``randomltd_schedule`` → ``random_ltd_schedule``) are the
  same key;
* otherwise the two keys have the same words, but for words misspelled (``persitance`` → ``persistence``, a plural:
  ``overlap_comms``): a word any option of DeepSpeed uses (``model`` in ``model_parallel_size``, ``checkpointing``)
  is never read as a misspelling of another (``data_parallel_size``, ``checkpoint``), and a word is never dropped
  (``tensorboard_dir`` is not ``tensorboard``); a key of three words or more may miss one the option begins or ends
  with (``micro_batch_size_per_gpu`` → ``train_micro_batch_size_per_gpu``).

>>> words = frozenset({"model", "data", "parallel", "size", "checkpoint", "checkpointing", "activation"})
>>> pairs = [("model_parallel_size", "data_parallel_size"), ("stgae", "stage"), ("checkpointing", "checkpoint"),
...     ("tensorboard_dir", "tensorboard"), ("randomltd_schedule", "random_ltd_schedule")]
>>> [meaning_kept(key, suggestion, words) for key, suggestion in pairs]
[False, True, False, False, True]
>>> by_design_ignored("_comment"), by_design_ignored("comments"), by_design_ignored("stage")
(True, True, False)
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from difflib import SequenceMatcher
from functools import cache

from ...tree.options import OptionTree

__all__ = ["by_design_ignored", "meaning_kept", "option_words"]

_COMMENT_WORDS = frozenset({"comment", "comments", "note", "notes", "remark", "remarks", "description", "todo"})
"""Words that make a key a comment, the way JSON files write one (``"_comment": "..."``)."""

_WORD = re.compile(r"[a-z]+|[0-9]+")

MIN_WORD_RATIO = 0.5
"""How alike a misspelled word must be to the word it stands for (difflib's ratio)."""


def by_design_ignored(key: str) -> bool:
    """A key a person writes for DeepSpeed to ignore: a comment, or a key switched off with a leading ``_``, ``#``
    or ``//``."""
    if key.startswith(("_", "#", "//", "/*")):
        return True
    return any(word in _COMMENT_WORDS for word in _words(key))


def meaning_kept(key: str, suggestion: str, words: frozenset[str]) -> bool:
    """Whether ``suggestion`` is ``key`` spelled right, not another key (``words``: every word of DeepSpeed's
    option names, :func:`option_words`)."""
    mine, theirs = _words(key), _words(suggestion)
    if "".join(mine) == "".join(theirs):
        return True  # separators and case only
    if len(mine) != len(theirs):
        # a specific key may miss the word its option starts or ends with, no other; never gain one
        if len(mine) < 3 or len(theirs) != len(mine) + 1:
            return False
        return theirs[1:] == mine or theirs[:-1] == mine
    return all(_misspelled(a, b, words) for a, b in zip(mine, theirs, strict=True) if a != b)


def _misspelled(written: str, meant: str, words: frozenset[str]) -> bool:
    if written.rstrip("s") == meant.rstrip("s") or written + "d" == meant:  # a plural, or "enable" for "enabled"
        return True
    if written in words or written.isdigit() or meant.isdigit():
        return False  # a word of its own (another option's), or another number: a different key
    return SequenceMatcher(None, written, meant).ratio() >= MIN_WORD_RATIO


@cache
def option_words(tree: OptionTree) -> frozenset[str]:
    """Every word of every option's key in ``tree`` (``stage3_prefetch_bucket_size``: ``stage``, ``3``, ...)."""
    return frozenset(_all_words(opt.key for opt in tree))


def _all_words(keys: Iterable[str]) -> Iterable[str]:
    for key in keys:
        yield from _words(key)


def _words(key: str) -> list[str]:
    """The words of a key, lowercased, split at separators and between letters and digits."""
    return _WORD.findall(key.lower())
