"""DS501, DS502 and DS503 against DeepSpeed 0.19.8's own batch arithmetic, under faked world sizes.

``DeepSpeedConfig`` asks ``deepspeed.comm`` for the rank and the world size; here it gets a stand-in that says
2, 8 or 12 GPUs, so the batch keys are derived and asserted exactly as on a cluster. With ``sequence_parallel_size``
in the config (and no mpu, as under Hugging Face's zero.init) DeepSpeed divides the GPUs by it; dsref's
``--world-size`` is the data-parallel size, that quotient.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from dsref.check.rules import run_rules
from dsref.check.settings import CheckSettings
from tests.conftest import require_deepspeed

BATCH_RULES = {"DS501", "DS502", "DS503"}

TBS = (None, 7, 8, 12, 16, 24, 48)
MICRO = (None, 1, 2, 3, 4)
GAS = (None, 1, 2, 4)
GPUS = (2, 8, 12)
SEQUENCE_PARALLEL = (None, 2, 4)


class _FakeDist:
    """What ``DeepSpeedConfig.__init__`` asks of ``deepspeed.comm``: this process's rank and the world's size."""

    def __init__(self, gpus: int) -> None:
        self.gpus = gpus

    def get_rank(self) -> int:
        return 0

    def get_world_size(self, group: Any = None) -> int:
        return self.gpus


@pytest.fixture(scope="module")
def deepspeed_batch() -> Iterator[Any]:
    """``verdict(config, gpus)``: DeepSpeed's three batch values, or the batch assertion it stops with."""
    require_deepspeed()
    import deepspeed.runtime.config as ds_config
    from deepspeed.utils import logger

    level = logger.level
    logger.setLevel(logging.ERROR)
    real = ds_config.dist

    def verdict(config: dict[str, Any], gpus: int) -> tuple[Any, ...] | str:
        ds_config.dist = _FakeDist(gpus)
        try:
            built = ds_config.DeepSpeedConfig(dict(config))
        except AssertionError as exc:
            return f"refused: {exc}"
        finally:
            ds_config.dist = real
        return built.train_batch_size, built.train_micro_batch_size_per_gpu, built.gradient_accumulation_steps

    yield verdict
    logger.setLevel(level)


def _config(tbs: int | None, micro: int | None, gas: int | None, sp: int | None) -> dict[str, Any]:
    config: dict[str, Any] = {}
    for key, value in (
        ("train_batch_size", tbs),
        ("train_micro_batch_size_per_gpu", micro),
        ("gradient_accumulation_steps", gas),
        ("sequence_parallel_size", sp),
    ):
        if value is not None:
            config[key] = value
    return config


def _codes(config: dict[str, Any], world_size: int | None) -> set[str]:
    return {
        f.code for f in run_rules(config, settings=CheckSettings(world_size=world_size), select=BATCH_RULES).findings
    }


@pytest.mark.slow
def test_ds501_and_ds502_fire_exactly_when_deepspeed_stops(deepspeed_batch: Any) -> None:
    fired = {"DS501": 0, "DS502": 0, "quiet": 0}
    for tbs, micro, gas, gpus, sp in itertools.product(TBS, MICRO, GAS, GPUS, SEQUENCE_PARALLEL):
        if sp is not None and gpus % sp:
            continue
        config = _config(tbs, micro, gas, sp)
        world = gpus // (sp or 1)
        built = deepspeed_batch(config, gpus)
        codes = _codes(config, world)
        case = f"{config} on {gpus} GPUs (data-parallel {world}): DeepSpeed {built}, dsref {sorted(codes)}"
        if isinstance(built, str) and "needs to be provided" in built:
            assert codes == {"DS501"}, case
            fired["DS501"] += 1
        elif isinstance(built, str):
            assert codes == {"DS502"}, case
            fired["DS502"] += 1
        else:
            assert codes == set(), case
            fired["quiet"] += 1
    assert min(fired.values()) > 20, fired  # every verdict is tried many times


@pytest.mark.parametrize(
    ("config", "gpus", "said"),
    [
        # 16 = 2 × 1 × 8, but 16 ≠ 2 × 1 × 12
        (
            {"train_batch_size": 16, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1},
            12,
            (16, 2, 1),
        ),
        # DeepSpeed derives 16 // 4 // 8 = 0 accumulation steps
        ({"train_batch_size": 16, "train_micro_batch_size_per_gpu": 4}, 8, (16, 4, 0)),
        # sequence parallelism halves the data-parallel GPUs: 48 // 4 // (8 / 2) = 3 steps, fine; 2 GPUs of 4-way SP
        ({"train_batch_size": 12, "train_micro_batch_size_per_gpu": 4, "sequence_parallel_size": 4}, 8, (12, 4, 1)),
    ],
)
@pytest.mark.slow
def test_ds502_says_the_values_deepspeed_uses(
    deepspeed_batch: Any, config: dict[str, Any], gpus: int, said: tuple[int, int, int]
) -> None:
    world = gpus // config.get("sequence_parallel_size", 1)
    findings = run_rules(config, settings=CheckSettings(world_size=world), select={"DS502"}).findings
    built = deepspeed_batch(config, gpus)
    if not findings:
        assert not isinstance(built, str), built
        assert built == said
        return
    (finding,) = findings
    assert isinstance(built, str) and ("has to be greater than 0" in built or "Check batch related" in built)
    assert (finding.args["tbs"], finding.args["micro"], finding.args["gas"]) == said
    assert finding.args["world"] == world


@pytest.mark.slow
def test_ds503_fires_only_when_no_gpu_count_works(deepspeed_batch: Any) -> None:
    tried = fired = 0
    for tbs, micro, gas in itertools.product(TBS, MICRO, GAS):
        config = _config(tbs, micro, gas, None)
        codes = _codes(config, None)
        if "DS501" in codes:
            continue
        somewhere = any(not isinstance(deepspeed_batch(config, gpus), str) for gpus in range(1, 49))
        assert ("DS503" in codes) == (not somewhere), f"{config}: dsref {sorted(codes)}, DeepSpeed accepts: {somewhere}"
        tried += 1
        fired += "DS503" in codes
    assert tried > 80 and fired > 10


def test_the_batch_rules_are_quiet_on_auto_under_hugging_face() -> None:
    config = {"train_batch_size": "auto", "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 4}
    assert {
        f.code
        for f in run_rules(config, settings=CheckSettings(profile="hf", world_size=8), select=BATCH_RULES).findings
    } == set()
    only_steps = {"gradient_accumulation_steps": 4}
    assert {
        f.code
        for f in run_rules(only_steps, settings=CheckSettings(profile="hf", world_size=8), select=BATCH_RULES).findings
    } == {"DS501"}
