"""Close spellings offered for an unknown key keep its meaning (issue 38: no ``model_parallel_size`` ->
``data_parallel_size``, no comment -> ``comet``, no "move it to fp16.enabled" for a generic word)."""

from __future__ import annotations

from typing import Any

import pytest

from dsref.check.findings import Kind
from dsref.check.validate.near_miss import by_design_ignored, meaning_kept, option_words
from dsref.check.validate.validation import validate
from dsref.tree.options import option_tree


def _unknown(config: dict[str, Any]) -> dict[str, tuple[list[str], list[str]]]:
    return {
        f.where: (list(f.args["suggestions"]), list(f.args["elsewhere"]))
        for f in validate(config)
        if f.kind is Kind.unknown_key
    }


@pytest.mark.parametrize(
    ("config", "where", "suggestions"),
    [
        ({"model_parallel_size": 2}, "model_parallel_size", []),  # a word of its own: another option
        ({"pipe_parallel_size": 2}, "pipe_parallel_size", []),
        ({"comment": "x"}, "comment", []),
        ({"_comment": "x"}, "_comment", []),
        (
            {"zero_optimization": {"_stage3_param_persistence_threshold": 1}},
            "zero_optimization._stage3_param_persistence_threshold",
            [],
        ),
        ({"tensorboard_dir": "runs"}, "tensorboard_dir", []),  # a word dropped
        ({"checkpointing": {}}, "checkpointing", []),  # activation_checkpointing's word, not checkpoint's
        ({"zero_optimization": {"stgae": 2}}, "zero_optimization.stgae", ["stage"]),
        ({"zero_optimization": {"overlap_comms": True}}, "zero_optimization.overlap_comms", ["overlap_comm"]),
        (
            {"zero_optimization": {"stage3_param_persitance_threshold": 1}},
            "zero_optimization.stage3_param_persitance_threshold",
            ["stage3_param_persistence_threshold"],  # not stage3_model_persistence_threshold: param is not model
        ),
        ({"micro_batch_size_per_gpu": 2}, "micro_batch_size_per_gpu", ["train_micro_batch_size_per_gpu"]),
    ],
)
def test_close_spellings_keep_the_meaning(config: dict[str, Any], where: str, suggestions: list[str]) -> None:
    assert _unknown(config)[where][0] == suggestions


def test_a_word_many_sections_use_is_not_sent_to_one_of_them() -> None:
    assert _unknown({"compile": {"enabled": True}})["compile.enabled"] == ([], [])
    assert _unknown({"loss_scale": 0})["loss_scale"][1] == ["fp16.loss_scale"]  # one place: still said


def test_rules_of_their_own() -> None:
    words = option_words(option_tree())
    assert {"model", "data", "checkpointing", "persistence"} <= words
    assert not meaning_kept("model_parallel_size", "data_parallel_size", words)
    assert meaning_kept("randomltd_schedule", "random_ltd_schedule", words)
    assert meaning_kept("enable", "enabled", words)
    assert not meaning_kept("stage2_x", "stage3_x", words)  # another number
    assert not meaning_kept("batch_size", "train_batch_size", words)  # two words: too short to add one
    assert by_design_ignored("// note") and by_design_ignored("#stage") and not by_design_ignored("stage")
