"""The test helpers' own rules: the slow-only libraries and the examples a property test draws."""

from __future__ import annotations

import pytest

from tests import needs


def test_a_fast_test_asking_for_torch_or_deepspeed_fails_saying_to_mark_it_slow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert needs.TIER.fast  # this test is in the fast tier: conftest said so before it started
    for name in ("torch", "deepspeed", "deepspeed.runtime.config", "transformers", "accelerate"):
        with pytest.raises(pytest.fail.Exception, match=r"mark it @pytest\.mark\.slow"):
            needs.module(name)
    assert needs.module("json").__name__ == "json"  # anything else is imported as before


@pytest.mark.slow
def test_a_slow_test_is_not_told_to_be_slow() -> None:
    assert not needs.TIER.fast


def test_property_tests_draw_every_example_in_ci_and_a_fifth_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "1")
    assert needs.examples(1500) == 1500
    monkeypatch.setenv("CI", "0")
    assert (needs.examples(1500), needs.examples(40)) == (300, 20)
