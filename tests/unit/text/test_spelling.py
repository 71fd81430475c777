"""``Spellings.close_to`` answers as ``difflib.get_close_matches`` does, in the same order."""

from __future__ import annotations

import difflib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.text.spelling import Spellings
from dsref.tree.options import option_tree
from tests import needs

KEYS = sorted({opt.key for opt in option_tree()})

words = st.text(alphabet="abcdeilmnoprstuz_-0", max_size=24)


@settings(max_examples=needs.examples(400), deadline=None)
@given(word=words, known=st.lists(words, max_size=30), cutoff=st.sampled_from([0.0, 0.5, 0.6, 0.75, 0.9, 1.0]))
def test_same_answer_as_difflib_on_any_words(word: str, known: list[str], cutoff: float) -> None:
    assert Spellings(known).close_to(word, n=3, cutoff=cutoff) == difflib.get_close_matches(word, known, 3, cutoff)


@pytest.mark.parametrize("word", ["stage3_prefetch_bucket", "bp16", "fp16_opt_level", "offload_optimiser", "lr", ""])
def test_same_answer_as_difflib_on_option_keys(word: str) -> None:
    known = Spellings(KEYS)
    for cutoff in (0.6, 0.75):
        assert known.close_to(word, n=5, cutoff=cutoff) == difflib.get_close_matches(word, KEYS, 5, cutoff)
    assert known.close_to("stage3_prefetch_bucket", cutoff=0.75)  # the test compares something


def test_bad_arguments_are_refused_as_difflib_refuses_them() -> None:
    with pytest.raises(ValueError):
        Spellings(["a"]).close_to("a", n=0)
    with pytest.raises(ValueError):
        Spellings(["a"]).close_to("a", cutoff=1.5)
