"""Numbers in each language's short form and with digit grouping, written by dsref's own code as Babel's locale data
writes them (Babel is the catalog tools' dependency, not the base install's)."""

from __future__ import annotations

import pytest
from babel.numbers import format_compact_decimal, format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st

from dsref.text.numbers import grouped, human_count
from tests import needs

BABEL_LOCALES = {"en": "en", "zh": "zh_Hans_CN"}

# Around every step where rounding carries into the next short form (999.95K is 1M; 9999.95万 is 1亿).
EDGES = [
    sign * (base * scale + delta)
    for sign in (1, -1)
    for base in (10**3, 10**4, 10**6, 10**8, 10**9, 10**12)
    for scale in (1, 10, 100, 1000)
    for delta in (-1, 0, 1, -base // 20, -base // 20 - 1, -base // 20 + 1)
]
NUMBERS = st.one_of(
    st.integers(min_value=-(10**22), max_value=10**22),
    st.floats(min_value=-1e22, max_value=1e22, allow_nan=False),
    st.sampled_from(EDGES),
    st.decimals(min_value=0, max_value=10**16, places=2, allow_nan=False).map(float),
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_steps_and_their_rounding_are_babels(lang: str) -> None:
    for value in [*EDGES, 1_250_000, 1_150_000, 1.05e6, 0.55, 1e-7]:
        babel = format_compact_decimal(value, format_type="short", locale=BABEL_LOCALES[lang], fraction_digits=1)
        assert human_count(value, lang) == babel, value  # type: ignore[arg-type]


@given(NUMBERS, st.sampled_from(["en", "zh"]))
@settings(max_examples=needs.examples(1500), deadline=None)
def test_short_forms_are_babels(value: float, lang: str) -> None:
    babel = format_compact_decimal(value, format_type="short", locale=BABEL_LOCALES[lang], fraction_digits=1)
    assert human_count(value, lang) == babel  # type: ignore[arg-type]


@given(NUMBERS, st.sampled_from(["en", "zh"]))
@settings(max_examples=needs.examples(800), deadline=None)
def test_grouping_is_babels(value: float, lang: str) -> None:
    assert grouped(value, lang) == format_decimal(value, locale=BABEL_LOCALES[lang])  # type: ignore[arg-type]
