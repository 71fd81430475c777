"""Each option's example (``dsref/tree/examples.py``): a whole config, derived from the schema, that ``dsref check``
accepts without an error or a warning and that DeepSpeed 0.19.8's ``DeepSpeedConfig`` builds; shown on the option's
reference page in both languages and by ``dsref explain``. A failure names the option, the page and the line."""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dsref.explain.render import json_lines
from dsref.site import doccheck
from dsref.tree.examples import BATCH, example_config, why_none
from dsref.tree.index import OptionIndex
from dsref.tree.options import option_tree
from tests.conftest import require_deepspeed

ROOT = Path(__file__).resolve().parents[3]
_HEADING = re.compile(r"^#+ `(?P<path>[^`]+)`.*\{ \.option")


def _examples(lang: str) -> Iterator[tuple[str, str, doccheck.Block]]:
    """(option path, page, block) for every example on the reference pages of ``lang``, as committed."""
    for page in sorted((ROOT / "docs" / lang / "reference").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        headings = [(i + 1, m["path"]) for i, line in enumerate(text.splitlines()) if (m := _HEADING.match(line))]
        name = page.relative_to(ROOT).as_posix()
        for block in doccheck.blocks(text, name):
            path = next(path for line, path in reversed(headings) if line < block.line)
            yield path, name, block


def _where(lang: str) -> dict[str, str]:
    """Option path → ``page:line`` of its example."""
    return {path: f"{page}:{block.line}" for path, page, block in _examples(lang)}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_option_page_shows_its_example_and_it_checks_clean(lang: str) -> None:
    """The block under an option's heading is its example config, as the index has it, and ``dsref check`` finds
    no error and no warning in it (notes are fine), checked as a whole config: the cross-field rules run too."""
    index = OptionIndex.load()
    problems: list[str] = []
    shown: set[str] = set()
    for path, page, block in _examples(lang):
        where = f"{path}: {page}:{block.line}"
        record = index.get(path)
        if block.marker != doccheck.Marker() or json.loads(block.text) != record.example_config:
            problems.append(f"{where}: the block is not the option's example config, unmarked")
        problems += [f"{where}: {problem}" for problem in doccheck.check(block).problems]
        shown.add(path)
    wanted = {record.path for record in index if record.example_config is not None}
    problems += [f"{path}: has an example config that no reference page shows" for path in sorted(wanted - shown)]
    assert problems == []


@pytest.mark.slow
def test_each_example_builds_with_deepspeed(monkeypatch: pytest.MonkeyPatch) -> None:
    """``DeepSpeedConfig`` (world size 1, torch.distributed not initialised) builds every example config."""
    require_deepspeed()
    from deepspeed import comm as dist
    from deepspeed.runtime.config import DeepSpeedConfig
    from deepspeed.runtime.swap_tensor import aio_config
    from deepspeed.utils import logger

    assert not dist.is_initialized()

    class _Cuda:  # aio.use_gds asserts a CUDA accelerator when the config is read; this machine may have none
        def device_name(self) -> str:
            return "cuda"

    monkeypatch.setattr(aio_config, "get_accelerator", _Cuda)
    where = _where("en")
    failed = []
    level = logger.level
    logger.setLevel(logging.ERROR)  # DeepSpeed logs every config it builds
    try:
        for record in OptionIndex.load():
            config = record.example_config
            if config is None:
                continue
            try:
                DeepSpeedConfig(copy.deepcopy(config))  # DeepSpeed writes defaults into nested dicts
            except Exception as exc:
                first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                failed.append(f"{record.path}: {where.get(record.path, '?')}: {type(exc).__name__}: {first}")
    finally:
        logger.setLevel(level)
    assert failed == []


def test_every_option_that_can_show_an_example_has_one() -> None:
    """An option gets no example only for a reason its facts state; one that just lacks a value to show (no
    ``example=`` and a default of null) fails here: give it ``example=`` in its schema module."""
    tree = option_tree()
    lacking = [opt.path for opt in tree if why_none(opt) == "no_value"]
    assert lacking == [], "add example= (and requires= where it needs other keys) to these fields"
    reasons = {why_none(opt) for opt in tree if opt.kind == "leaf"}
    assert reasons == {
        None,
        "removed",
        "docs_only",
        "deprecated",
        "parsed_unused",
        "refused",
        "set_in_code",
        "filled_in",
    }


def test_an_example_written_for_an_option_changes_its_default() -> None:
    """An option's own example (``example=`` in its schema module) is written to show a change: one equal to the
    default shows where the key goes and changes nothing (eight did, gradient_clipping's 1.0 among them)."""
    from dsref.schema import UNSET

    same = [
        opt.path
        for opt in option_tree()
        if opt.kind == "leaf"
        and opt.meta.example is not UNSET
        and opt.default is not UNSET
        and type(opt.meta.example) is type(opt.default)
        and opt.meta.example == opt.default
    ]
    assert same == [], "give these fields an example= that differs from their default"


SHOWS_THE_DEFAULT = {
    # the value to write is the default: FAST is why one configures the writer; the others are sentinels
    "checkpoint.writer.type",
    "scheduler.params.last_batch_iteration",
    "zero_optimization.stage3_model_persistence_threshold",
    "zero_optimization.stage3_module_granularity_threshold",
    "zero_optimization.zenflow.select_interval",
    "zero_optimization.zenflow.update_interval",
    # another value draws a finding (DS550 for "sum")
    "gradient_allreduce_op",
    # another value needs model-, sequence- or expert-parallel groups, DeepEP or liger-kernel beside it: not yet
    # given an example
    "autotuning.mp_size",
    "sequence_parallel_size",
    "seq_parallel_communication_data_type",
    "hybrid_engine.inference_tp_size",
    "hybrid_engine.tp_gather_partition_size",
    "tensor_parallel.vocab_parallel_ce_backend",
    "tensor_parallel.tp.tp_size",
    "tensor_parallel.tp.tp_grain_size",
    "tensor_parallel.partition_config.lm_head_patterns",
    *(
        f"expert_parallel.{key}"
        for key in (
            "expert_tensor_parallel_size",
            "route_scale",
            "score_apply",
            "combine_impl",
            "row_weighting_impl",
            "gate_up_impl",
            "comm_backend",
            "comm_num_sm",
            "comm_qp_margin",
            "comm_max_tokens_per_rank",
            "score_func",
            "top_k",
            "routed_scaling_factor",
        )
    ),
}
"""Options whose example still writes their default (it shows where the key goes, not a change), each for the reason
its group says; 94 did (issue 39)."""


def test_an_example_shows_a_value_other_than_the_default() -> None:
    """An example derived without ``example=`` writes the default, which changes nothing: every option but those of
    :data:`SHOWS_THE_DEFAULT` has an example of its own, and a new option must come with one."""
    from dsref.schema import UNSET

    tree = option_tree()
    shown = set()
    for opt in tree:
        config = example_config(opt, tree) if opt.kind == "leaf" else None
        if config is None or opt.default is UNSET:
            continue
        value: Any = config
        for step in opt.path.split("."):  # a key under a map's <name> or a list's [] is not followed
            value = value.get(step, UNSET) if isinstance(value, dict) else UNSET
        if value is not UNSET and type(value) is type(opt.default) and value == opt.default:
            shown.add(opt.path)
    assert shown <= SHOWS_THE_DEFAULT, "give these fields an example= that differs from their default"
    assert shown >= SHOWS_THE_DEFAULT, "these now show a change: take them out of SHOWS_THE_DEFAULT"


def test_an_example_holds_what_the_option_needs() -> None:
    tree = option_tree()

    def example(path: str) -> dict[str, Any]:
        config = example_config(tree.get(path), tree)
        assert config is not None, path
        assert config[BATCH[0]] == BATCH[1], path
        return config

    # the stage an option works at, the device beside an offload knob, NVMe with its path for an NVMe knob
    assert example("zero_optimization.offload_param.pin_memory")["zero_optimization"] == {
        "stage": 3,
        "offload_param": {"device": "cpu", "pin_memory": False},
    }
    assert example("zero_optimization.offload_param.buffer_count")["zero_optimization"]["offload_param"] == {
        "device": "nvme",
        "nvme_path": "/local_nvme",
        "buffer_count": 8,
    }
    # a key of one optimizer or scheduler comes with that optimizer or scheduler, and the keys it cannot do without
    assert example("optimizer.params.max_coeff")["optimizer"] == {"type": "Lamb", "params": {"max_coeff": 5.0}}
    assert example("scheduler.params.cycle_momentum")["scheduler"] == {
        "type": "OneCycle",
        "params": {"cycle_min_lr": 1e-05, "cycle_max_lr": 0.0001, "cycle_momentum": False},
    }
    # every section switch on the way is on; a map entry takes the name of the map's example
    sampling = example("data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.<metric>.max_difficulty")
    assert sampling["data_efficiency"]["enabled"] and sampling["data_efficiency"]["data_sampling"]["enabled"]
    learning = sampling["data_efficiency"]["data_sampling"]["curriculum_learning"]
    assert learning["enabled"] and list(learning["curriculum_metrics"]) == ["seqlen"]
    # the option's own section comes first, then what it needs elsewhere
    assert list(example("bf16.bf16_master_weights_and_grads")) == [BATCH[0], "bf16", "zero_optimization", "optimizer"]


def test_deriving_an_example_leaves_the_schema_as_it_was() -> None:
    """Values taken from ``requires=`` are copied: adding a key beside one must not change the schema's fact."""
    tree = option_tree()
    learning = tree.get("data_efficiency.data_sampling.curriculum_learning")
    before = copy.deepcopy(learning.meta.requires)
    for opt in tree.iter_subtree(learning.path):
        example_config(opt, tree)
    assert learning.meta.requires == before


def test_options_without_an_example_say_why() -> None:
    tree = option_tree()
    assert why_none(tree.get("amp.enabled")) == "removed"
    assert why_none(tree.get("zero_optimization.grad_hooks")) == "docs_only"
    assert why_none(tree.get("zero_optimization.cpu_offload")) == "deprecated"
    assert why_none(tree.get("pipeline.stages")) == "parsed_unused"
    assert why_none(tree.get("zero_optimization.legacy_stage1")) == "refused"
    assert why_none(tree.get("tensor_parallel.dtype")) == "set_in_code"
    assert why_none(tree.get("zero_optimization")) == "section"


def test_explain_shows_the_same_example_in_text_and_json() -> None:
    from dsref.explain.render import explain, render_json, render_text

    exp = explain("zero_optimization.offload_optimizer.ratio")
    config = json.loads(render_json(exp, "zh"))["option"]["example_config"]
    assert exp.record is not None and config == exp.record.example_config
    text = render_text(exp, "en")
    assert "\n".join("    " + line for line in json_lines(config)) in text


def test_json_lines_keeps_short_values_on_one_line_and_spreads_long_ones() -> None:
    assert json_lines({"a": {"b": 1}}) == ["{", '  "a": {"b": 1}', "}"]
    long = {"k": {f"key_{i}": "x" * 10 for i in range(6)}}
    lines = json_lines(long, width=40)
    assert lines[1] == '  "k": {' and lines[-2] == "  }" and json.loads("\n".join(lines)) == long
