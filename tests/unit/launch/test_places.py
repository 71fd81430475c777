"""dsref.launch.places: the launch's values behind each argument Trainer compares, the same lines Trainer's
predicted mismatch names (dsref.launch.trainer.trainer_holds)."""

from __future__ import annotations

import pytest

from dsref.check.validate.checktree import check_tree
from dsref.launch.arguments import TRAINING_ARGUMENTS
from dsref.launch.model import Given, Launch
from dsref.launch.places import arguments_of, givens
from dsref.launch.trainer import Holds, trainer_holds

COMPARED = sorted({opt.meta.hf_auto.compared for opt in check_tree() if opt.meta.hf_auto and opt.meta.hf_auto.compared})
"""Every argument the schema says Trainer compares an option with."""

VALUES = {"bf16": True, "fp16": False, "max_steps": 1000, "warmup_steps": 0.1, "adam_beta1": 0.9, "adam_beta2": 0.95}


def _launch() -> Launch:
    """A launch that gives every argument behind those comparisons, each on a line of its own."""
    names = sorted({name for compared in COMPARED for name in arguments_of(compared)})
    arguments = {name: Given(VALUES.get(name, 2), line, 3, "2") for line, name in enumerate(names, start=10)}
    return Launch("run.sh", "shell", None, None, arguments, processes_per_node=Given(8, 1, 22, "8"))


@pytest.mark.parametrize("compared", COMPARED)
def test_the_places_are_the_lines_trainers_comparison_names(compared: str) -> None:
    launch = _launch()
    assert all(name in TRAINING_ARGUMENTS for name in arguments_of(compared))
    held = trainer_holds(compared, launch, launch.world_size)
    assert isinstance(held, Holds)
    named = {int(place.rsplit(":", 1)[1]) for place in held.where.split(", ")}
    lines = {given.line for given in givens(compared, launch)}
    assert named and named <= lines
    if compared == "train_batch_size (calculated)":
        assert lines == named | {1}  # and the launcher's --num_gpus, the third factor


def test_a_launch_that_gives_none_of_them_has_no_place() -> None:
    empty = Launch("run.sh", "shell", None, None, {})
    assert all(givens(compared, empty) == () for compared in COMPARED if "calculated" not in compared)
