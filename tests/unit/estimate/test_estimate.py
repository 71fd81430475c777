"""`dsref estimate`: DeepSpeed's own estimator gives the same numbers; derived rows, parsing, fit, site output, CLI."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dsref
from dsref.check.settings import CheckSettings
from dsref.estimate.advice import advise
from dsref.estimate.fit import SUGGEST_ORDER, starting_config, suggest
from dsref.estimate.gpus import gpu_memory
from dsref.estimate.model import Architecture, architecture_from_flags
from dsref.estimate.model_states import SwapBuffers, zero2_model_states, zero3_model_states
from dsref.estimate.peak import Run, check_run, peak_memory
from dsref.estimate.quantities import (
    GIB,
    MAX_PARAMS,
    EstimateError,
    Param,
    format_bytes,
    format_count,
    parse_bytes,
    parse_count,
)
from dsref.estimate.render import render_svg, table_data
from dsref.estimate.table import estimate
from tests import needs
from tests.conftest import require_deepspeed

PARAMS = [1, 7, 999_999_937, 1_500_000_000, 6_738_415_616, 7_000_000_000, 70_000_000_000, 10**12, MAX_PARAMS]
GPUS_PER_NODE = [1, 2, 3, 8, 16]
NODES = [1, 2, 3, 7, 64]
FACTORS = [1.5, 1.0, 2.25]


# --------------------------------------------------------------------------------------------------------------
# Same numbers as DeepSpeed 0.19.8


@pytest.fixture(scope="module")
def ds_functions() -> tuple[Any, Any]:
    require_deepspeed()
    from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs
    from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs

    return estimate_zero2_model_states_mem_needs, estimate_zero3_model_states_mem_needs


@pytest.mark.slow
def test_zero2_matches_deepspeed_over_a_grid(ds_functions: tuple[Any, Any]) -> None:
    ds_zero2, _ = ds_functions
    for params, gpn, nodes, factor, offload in itertools.product(PARAMS, GPUS_PER_NODE, NODES, FACTORS, (True, False)):
        expected = ds_zero2(params, gpn, nodes, offload, factor)
        assert zero2_model_states(params, gpn, nodes, offload, factor) == expected, (params, gpn, nodes, offload)


@pytest.mark.slow
def test_zero3_matches_deepspeed_over_a_grid(ds_functions: tuple[Any, Any]) -> None:
    _, ds_zero3 = ds_functions
    choices = [(True, True), (True, False), (False, False)]
    for params, gpn, nodes, factor in itertools.product(PARAMS, GPUS_PER_NODE, NODES, FACTORS):
        for layer, (opt, par), zero_init in itertools.product({1, params // 7 or 1, params}, choices, (True, False)):
            expected = ds_zero3(params, layer, gpn, nodes, opt, par, zero_init, factor)
            got = zero3_model_states(params, layer, gpn, nodes, opt, par, zero_init, factor)
            assert got == expected, (params, layer, gpn, nodes, opt, par, zero_init)


@settings(max_examples=needs.examples(300), deadline=None)
@given(
    params=st.integers(1, MAX_PARAMS),
    layer_fraction=st.floats(0, 1),
    gpn=st.integers(1, 4096),
    nodes=st.integers(1, 100_000),
)
@pytest.mark.slow
def test_estimate_rows_match_deepspeed_for_any_counts(params: int, layer_fraction: float, gpn: int, nodes: int) -> None:
    require_deepspeed()
    from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs as ds_zero3
    from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs as ds_zero2

    layer = max(1, int(params * layer_fraction))
    est = estimate(params, gpus_per_node=gpn, nodes=nodes, largest_layer=layer)
    for row in est.rows:
        assert row.gpu_bytes >= 0 and row.cpu_bytes >= 0
        if row.source != "deepspeed":
            continue
        if row.stage == 2:
            expected = ds_zero2(params, gpn, nodes, row.offload_optimizer == "cpu")
        else:
            opt, par = row.offload_optimizer == "cpu", row.offload_param == "cpu"
            expected = ds_zero3(params, layer, gpn, nodes, opt, par, row.zero_init)[:2]
        assert (row.cpu_bytes, row.gpu_bytes) == expected, row


_DS_LINE = re.compile(r"^\s*([\d.]+)GB \|\s*([\d.]+)GB \| (.*)$")


def _printed_rows(text: str) -> dict[tuple[str, ...], tuple[str, str]]:
    """DeepSpeed's printed table: options (as key=value pairs) → (CPU GB, GPU GB) as printed.

    Depending on the Python version DeepSpeed prints the device as ``cpu`` or ``OffloadDeviceEnum.cpu``.
    """
    rows = {}
    for line in text.splitlines():
        match = _DS_LINE.match(line)
        if match:
            parts = (part.replace(" ", "").replace("OffloadDeviceEnum.", "") for part in match.group(3).split(","))
            options = tuple(sorted(parts))
            rows[options] = (match.group(1), match.group(2))
    return rows


def _our_printed_rows(est: dsref.estimate.table.Estimate, stage: int) -> dict[tuple[str, ...], tuple[str, str]]:
    rows = {}
    for row in est.rows:
        if row.stage != stage or row.source != "deepspeed":
            continue
        options = [f"offload_optimizer={row.offload_optimizer}"]
        if stage == 3:
            options += [f"offload_param={row.offload_param}", f"zero_init={int(bool(row.zero_init))}"]
        rows[tuple(sorted(options))] = (f"{row.cpu_bytes / 2**30:.2f}", f"{row.gpu_bytes / 2**30:.2f}")
    return rows


@pytest.mark.parametrize(("params", "layer", "gpn", "nodes"), [(7_000_000_000, 131_072_000, 8, 1), (2783, 32, 3, 2)])
@pytest.mark.slow
def test_all_cold_tables_match_deepspeed(params: int, layer: int, gpn: int, nodes: int) -> None:
    require_deepspeed()
    from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs_all_cold as cold3
    from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs_all_cold as cold2

    est = estimate(params, gpus_per_node=gpn, nodes=nodes, largest_layer=layer)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cold2(total_params=params, num_gpus_per_node=gpn, num_nodes=nodes)
    theirs = _printed_rows(out.getvalue())
    assert len(theirs) == 2
    assert theirs == _our_printed_rows(est, 2)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        cold3(total_params=params, largest_layer_params=layer, num_gpus_per_node=gpn, num_nodes=nodes)
    theirs = _printed_rows(out.getvalue())
    assert len(theirs) == 6
    assert theirs == _our_printed_rows(est, 3)


@pytest.mark.slow
def test_all_live_tables_match_deepspeed_for_a_real_model() -> None:
    """A small torch model with tied weights: count it as DeepSpeed does, feed the counts to dsref, compare."""
    require_deepspeed()
    import torch
    from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs_all_live as live3
    from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs_all_live as live2

    class Tiny(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.embed = torch.nn.Embedding(5000, 64)
            self.up = torch.nn.Linear(64, 256)
            self.down = torch.nn.Linear(256, 64)
            self.head = torch.nn.Linear(64, 5000, bias=False)
            self.head.weight = self.embed.weight

    model = Tiny()
    total = sum({p.data_ptr(): p.numel() for p in model.parameters()}.values())
    largest = max(sum(p.numel() for p in m.parameters(recurse=False)) for m in model.modules())
    assert (total, largest) == (5000 * 64 + 64 * 256 + 256 + 256 * 64 + 64, 5000 * 64)
    for gpn, nodes in [(1, 1), (8, 1), (4, 3)]:
        est = estimate(total, gpus_per_node=gpn, nodes=nodes, largest_layer=largest)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            live2(model, num_gpus_per_node=gpn, num_nodes=nodes)
        assert _printed_rows(out.getvalue()) == _our_printed_rows(est, 2)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            live3(model, num_gpus_per_node=gpn, num_nodes=nodes)
        assert _printed_rows(out.getvalue()) == _our_printed_rows(est, 3)


# --------------------------------------------------------------------------------------------------------------
# Derived rows: stages 0 and 1, NVMe


def test_derived_rows_follow_the_byte_accounting() -> None:
    p, n = 1_000_000_000, 8
    est = estimate(p, gpus_per_node=n, largest_layer=50_000_000, buffers=SwapBuffers(5, 100_000_000, 4, 10**9))
    assert est.row(0).gpu_bytes == 20 * p
    assert est.row(1).gpu_bytes == 4 * p + 16 * p // n
    assert est.row(1, "cpu").gpu_bytes == 4 * p
    assert est.row(0).cpu_bytes == est.row(1).cpu_bytes == est.row(2).cpu_bytes
    assert est.row(1, "cpu").cpu_bytes == est.row(2, "cpu").cpu_bytes
    nvme = est.row(3, "nvme", "nvme")
    assert nvme.gpu_bytes == est.row(3, "cpu", "cpu").gpu_bytes == 4 * 50_000_000
    assert nvme.nvme_bytes == 18 * p  # what DeepSpeed's CPU-offload row keeps in CPU memory, without the factor
    assert est.row(3, "cpu", "cpu").cpu_bytes == int(18 * p * 1.5)
    swap = 5 * 100_000_000 * 2 + 4 * (p // n) * 4
    assert nvme.cpu_bytes == int((50_000_000 * 4 * n + swap * n) * 1.5)
    assert {r.source for r in est.rows if r.stage in (0, 1) or r.offload_param == "nvme"} == {"dsref"}
    assert {r.source for r in est.rows if r.stage in (2, 3) and r.offload_param != "nvme"} == {"deepspeed"}


@settings(max_examples=needs.examples(200), deadline=None)
@given(params=st.integers(1, MAX_PARAMS), gpn=st.integers(1, 64), nodes=st.integers(1, 1000))
def test_more_partitioning_never_needs_more_gpu_memory(params: int, gpn: int, nodes: int) -> None:
    est = estimate(params, gpus_per_node=gpn, nodes=nodes)
    gpu = {row.key: row.gpu_bytes for row in est.rows}
    assert gpu[(0, "none", "none", None)] >= gpu[(1, "none", "none", None)] >= gpu[(2, "none", "none", None)]
    assert gpu[(1, "none", "none", None)] >= gpu[(1, "cpu", "none", None)]
    assert gpu[(2, "none", "none", None)] >= gpu[(2, "cpu", "none", None)]
    assert gpu[(3, "none", "none", True)] >= gpu[(3, "cpu", "none", True)] >= gpu[(3, "cpu", "cpu", True)]
    assert all(row.gpu_bytes > 0 and row.cpu_bytes >= 0 for row in est.rows)  # DeepSpeed truncates 0.96 to 0


def test_swap_buffer_defaults_are_the_schema_defaults() -> None:
    tree = dsref.option_tree()
    buffers = SwapBuffers.defaults()
    assert buffers.param_buffer_count == tree.get("zero_optimization.offload_param.buffer_count").default
    assert buffers.param_buffer_size == tree.get("zero_optimization.offload_param.buffer_size").default
    assert buffers.optimizer_buffer_count == tree.get("zero_optimization.offload_optimizer.buffer_count").default
    assert buffers.sub_group_size == tree.get("zero_optimization.sub_group_size").default


def test_nvme_param_buffer_grows_to_hold_the_largest_layer_share() -> None:
    est = estimate(70_000_000_000, gpus_per_node=2, largest_layer=1_050_000_000)
    assert est.buffers.param_buffer_size == 525_000_000
    config = starting_config(est.row(3, "nvme", "nvme"), buffers=est.buffers)
    assert config["zero_optimization"]["offload_param"]["buffer_size"] == 525_000_000


def test_largest_layer_estimate_is_stated_and_bounded() -> None:
    est = estimate(7_000_000_000, gpus_per_node=8)
    assert not est.layer_basis.given and est.layer_basis.vocab == 128_000
    assert 400_000_000 < est.largest_layer < 700_000_000
    assert estimate(1000).largest_layer == 1000  # capped at the parameter count
    assert estimate(7_000_000_000, hidden_size=4096, vocab_size=32000).largest_layer == 4096 * 32000
    assert estimate(10**9, hidden_size=4096, vocab_size=100).largest_layer == 4 * 4096 * 4096


# --------------------------------------------------------------------------------------------------------------
# Activations


def test_a_model_given_by_flags_has_the_parameters_given_and_says_what_it_assumed() -> None:
    for params in (10**6, 350_000_000, 7_000_000_000, 70_000_000_000, 10**12):
        flags = architecture_from_flags(params)
        assert abs(flags.arch.params - params) / params < 0.001, params
        assert flags.assumed == ("hidden_size", "num_hidden_layers", "num_attention_heads", "vocab_size")
        assert flags.arch.family == "llama" and flags.arch.kv_heads == flags.arch.heads
    given = architecture_from_flags(6_738_415_616, hidden=4096, layers=32, heads=32, vocab=32000)
    assert given.assumed == () and given.arch.intermediate == 11008  # Llama 2 7B, to the parameter
    with pytest.raises(EstimateError, match=re.escape("heads (65) cannot be larger than hidden_size (64)")) as info:
        architecture_from_flags(10**6, hidden=64, heads=65)
    assert info.value.parameter is Param.heads
    with pytest.raises(EstimateError, match=r"^layers must be at least 1") as info:
        architecture_from_flags(10**6, layers=0)
    assert info.value.parameter is Param.layers


def test_the_table_and_the_peak_describe_one_model() -> None:
    for kwargs in ({}, {"layers": 32}, {"hidden": 4096}, {"vocab": 32000}):
        flags = architecture_from_flags(7_000_000_000, **kwargs)  # type: ignore[arg-type]
        est = estimate(7_000_000_000, hidden_size=kwargs.get("hidden"), vocab_size=kwargs.get("vocab"),
                       layers=kwargs.get("layers"))  # fmt: skip
        assert est.layer_basis.hidden == flags.arch.hidden and est.layer_basis.vocab == flags.arch.vocab


# --------------------------------------------------------------------------------------------------------------
# Parsing and bad input


@pytest.mark.parametrize(
    ("text", "value"),
    [("7B", 7 * 10**9), ("7b", 7 * 10**9), ("1.5e9", 1_500_000_000), ("350M", 350_000_000), ("2T", 2 * 10**12),
     (" 13 B ", 13 * 10**9), ("1_000", 1000), ("0.5K", 500), ("1e15", 10**15)],
)  # fmt: skip
def test_parse_count_accepts_what_people_write(text: str, value: int) -> None:
    assert parse_count(text, Param.params) == value


@pytest.mark.parametrize(
    ("text", "message"),
    [("-3", "at least 1"), ("7X", "unknown unit 'X'"), ("1e30", "at most 1e15"), ("0", "at least 1"),
     ("nan", "not a number"), ("inf", "not a number"), ("", "not a number"), ("0x10", "not a number"),
     ("1e999999999", "at most"), ("1e-999999999", "at least 1"), ("٣", "not a number"), ("7BB", "unknown unit")],
)  # fmt: skip
def test_parse_count_rejects_with_a_message(text: str, message: str) -> None:
    with pytest.raises(EstimateError, match=re.escape(message)):
        parse_count(text, Param.params)


def test_parse_count_whole_refuses_fractions_and_parse_bytes_units() -> None:
    with pytest.raises(EstimateError, match="whole number"):
        parse_count("1.5", Param.nodes, whole=True)
    assert parse_bytes("80GB", Param.gpu_memory) == parse_bytes("80 GiB", Param.gpu_memory) == 80 * GIB
    assert parse_bytes("512g", Param.cpu_memory) == 512 * GIB
    assert parse_bytes("1.5TB", Param.cpu_memory) == int(1.5 * 2**40)
    with pytest.raises(EstimateError, match="unknown unit"):
        parse_bytes("80XB", Param.gpu_memory)


@pytest.mark.parametrize(
    "kwargs",
    [{"params": -3}, {"params": 0}, {"params": 10**30}, {"params": 7, "gpus_per_node": 0}, {"params": 7, "nodes": -1},
     {"params": 7, "largest_layer": 8}, {"params": 7, "buffer_factor": float("nan")}, {"params": True}],
)  # fmt: skip
def test_library_refuses_bad_counts(kwargs: dict[str, Any]) -> None:
    with pytest.raises(EstimateError):
        estimate(**kwargs)


def test_formatting_helpers() -> None:
    assert format_bytes(80 * GIB, "en") == "80.0 GB"
    assert format_bytes(1300 * GIB, "en") == "1,300.0 GB"
    assert format_bytes(10, "en") == "< 0.1 GB"
    assert format_count(175_000_000_000, "en") == "175B"
    assert format_count(1_000_000_000_000, "en") == "1T"
    assert format_count(999_950_000, "en") == "1B"


# --------------------------------------------------------------------------------------------------------------
# Suggestion and the starting config


def _suggest(params: int, memory: int, gpus: int = 1, checkpointing: bool = False, **kwargs: Any) -> Any:
    est = estimate(params, gpus_per_node=gpus)
    run = Run(gpus_per_node=gpus, checkpointing=checkpointing)
    return suggest(est, architecture_from_flags(params).arch, run, memory, **kwargs)


def test_suggest_takes_the_fastest_choice_that_fits() -> None:
    seven = 7_000_000_000
    assert _suggest(seven, 80 * GIB, 8).row == estimate(seven, gpus_per_node=8).row(1)
    one_gpu = _suggest(seven, 80 * GIB)
    assert one_gpu.row is not None and one_gpu.row.key == (2, "cpu", "none", None)
    assert one_gpu.config is not None
    assert one_gpu.config["zero_optimization"] == {
        "stage": 2,
        "offload_optimizer": {"device": "cpu", "pin_memory": True},
    }
    big = _suggest(70_000_000_000, 24 * GIB, 8, cpu_memory=512 * GIB)
    assert big.row is None  # 80 layers' activations at 2,048 tokens: more than any offload frees
    big = _suggest(70_000_000_000, 24 * GIB, 8, checkpointing=True, cpu_memory=512 * GIB)
    assert big.row is not None and big.row.offload_param == "nvme"
    assert _suggest(10**15, 80 * GIB).row is None


def test_a_row_fits_by_the_same_peak_as_a_run_read_from_files() -> None:
    """Flags and --model answer by one method: the fits column is peak_memory's peak of the run on the row, within
    the stage's reserve, and a longer sequence or checkpointing moves it as it moves the peak."""
    from dsref.estimate.advice import fragmentation_reserve
    from dsref.estimate.fit import row_run

    params = 7_000_000_000
    est = estimate(params, gpus_per_node=8)
    arch = architecture_from_flags(params).arch
    for run in (Run(seq_len=4096, micro_batch=4), Run(seq_len=4096, micro_batch=4, checkpointing=True)):
        verdict = suggest(est, arch, run, 80 * GIB)
        for fit in verdict.rows:
            alone = peak_memory(arch, row_run(est, fit.row, run))
            assert fit.peak.bytes == alone.bytes and fit.peak.parts["logits"] > 0 and fit.peak.parts["context"] > 0
            assert fit.fits is (alone.bytes <= int(80 * GIB * (100 - fragmentation_reserve(fit.row.stage)) / 100))
    plain = suggest(est, arch, Run(seq_len=4096, micro_batch=2), 80 * GIB).row
    ckpt = suggest(est, arch, Run(seq_len=4096, micro_batch=2, checkpointing=True), 80 * GIB).row
    assert plain is not None and ckpt is not None
    order = [(row.stage, row.offload_optimizer, row.offload_param) for row in (ckpt, plain)]
    assert SUGGEST_ORDER.index(order[0]) < SUGGEST_ORDER.index(order[1])


@pytest.mark.parametrize("precision", ["bf16", "fp16"])
@pytest.mark.parametrize("choice", SUGGEST_ORDER)
def test_every_starting_config_passes_dsref_check(
    choice: tuple[int, str, str], precision: str, tmp_path: pathlib.Path
) -> None:
    """What --suggest prints, written to a file, is accepted by `dsref check` (schema and cross-field rules)."""
    from dsref.check.pipeline import check_file

    est = estimate(70_000_000_000, gpus_per_node=2)
    config = starting_config(est.row(*choice), micro_batch=2, precision=precision, buffers=est.buffers)  # type: ignore[arg-type]
    assert config["zero_optimization"]["stage"] == choice[0]
    path = tmp_path / "ds_config.json"
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    report = check_file(str(path), settings=CheckSettings(world_size=2))
    assert report.error is None
    assert [f for f in report.findings if f.severity.value in ("error", "warning")] == []
    assert [f for f in dsref.validate(config) if f.severity.value in ("error", "warning")] == []


# --------------------------------------------------------------------------------------------------------------
# Site: table data and SVG chart


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_table_data_for_the_site(lang: str) -> None:
    data = table_data([1_500_000_000, 7_000_000_000, 70_000_000_000], lang=lang, gpu_memory=80 * GIB)  # type: ignore[arg-type]
    assert len(data["tables"]) == 3
    assert set(data["columns"]) >= {"stage", "gpu", "cpu", "fits", "source"}
    seven = data["tables"][1]
    row = next(r for r in seven["rows"] if r["stage"] == 2 and r["offload_optimizer"] == "none")
    assert row["gpu_bytes_per_gpu"] == 2 * 7_000_000_000 + 18 * 7_000_000_000 // 8
    assert row["cells"]["gpu"].startswith("27.7") and row["fits"] is True
    assert seven["assumptions"] and all(isinstance(line, str) for line in seven["assumptions"])
    json.dumps(data)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_render_svg_is_well_formed_and_complete(lang: str) -> None:
    est = estimate(7_000_000_000, gpus_per_node=8)
    svg = render_svg(est, lang, gpu_memory=80 * GIB)  # type: ignore[arg-type]
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    bars = [r for r in root.iter(f"{ns}rect") if r.find(f"{ns}title") is not None]
    charted = [r for r in est.rows if r.zero_init is not False]
    assert len(bars) == 2 * len(charted)
    widths = [float(r.get("width", "-1")) for r in bars]
    assert all(w >= 0 for w in widths) and max(widths) <= 800 - 290
    assert svg == render_svg(est, lang, gpu_memory=80 * GIB)  # type: ignore[arg-type]
    assert "<script" not in svg


# --------------------------------------------------------------------------------------------------------------
# The command line


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dsref", "estimate", *args], capture_output=True, text=True)


def test_cli_example_from_the_issue() -> None:
    proc = run_cli("--params", "7B", "--gpus-per-node", "8", "--nodes", "1", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "7B parameters" in out
    assert re.search(r"^2\s+none\s+none\s+–\s+27\.7 GB\s+312\.9 GB\s+–\s+DeepSpeed$", out, re.M)
    assert re.search(r"^0\s+none\s+none\s+–\s+130\.4 GB", out, re.M)
    assert "bytes per parameter: 2 (16-bit weights)" in out
    assert "derived by dsref" in out and "estimate_zero3_model_states_mem_needs" in out
    assert len(re.findall(r"^[0-3]\s", out, re.M)) == 13


def test_cli_json_and_suggest() -> None:
    proc = run_cli("--params", "1.5e9", "--gpus-per-node", "2", "--gpu-memory", "24GB", "--suggest", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["deepspeed"] == "0.19.8" and payload["params"] == 1_500_000_000
    assert len(payload["rows"]) == 13 and all("fits" in r for r in payload["rows"])
    config = payload["fit"]["config"]
    assert config["zero_optimization"]["stage"] in (0, 1, 2, 3)
    assert not [f for f in dsref.validate(config) if f.severity.value != "info"]


def test_cli_suggest_prints_a_config_and_the_peak_of_the_model_it_built() -> None:
    args = ["--params", "7B", "--gpus-per-node", "8", "--hidden-size", "4096", "--layers", "32", "--seq-len", "4096",
            "--micro-batch", "1", "--heads", "32", "--checkpointing"]  # fmt: skip
    proc = run_cli(*args, "--gpu-memory", "80GB", "--suggest", "--lang", "en")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "34" not in out.split("Assumptions:")[0].replace("34.", "")  # no second activation formula
    assert "Llama-family decoder" in out and "vocab_size assumed" in out and "gradient checkpointing on" in out
    assert "\nHeadroom " in out and "\nNot modelled: " in out
    config = json.loads(out[out.index("\n{") :])
    assert config["train_micro_batch_size_per_gpu"] == 1
    payload = json.loads(run_cli(*args, "--gpu-memory", "80GB", "--format", "json").stdout)
    arch = architecture_from_flags(7_000_000_000, hidden=4096, layers=32, heads=32).arch
    est = estimate(7_000_000_000, gpus_per_node=8, hidden_size=4096, layers=32)
    run = Run(seq_len=4096, checkpointing=True, gpus_per_node=8)
    expected = [fit.peak.bytes for fit in suggest(est, arch, run, 80 * GIB).rows]
    assert [row["peak_bytes"] for row in payload["rows"]] == expected
    assert payload["model"]["assumed"] == ["vocab_size"] and payload["assumed"] == ["attention"]
    zh = run_cli(*args, "--gpu-memory", "80GB", "--lang", "zh").stdout
    assert "Llama" in zh and re.search(r"[\u4e00-\u9fff]", zh.split("\n\n")[1])


def test_cli_without_a_run_shows_model_states_alone() -> None:
    out = run_cli("--params", "7B", "--gpus-per-node", "8", "--lang", "en").stdout
    assert "Llama-family" not in out and " peak " not in out.splitlines()[2]


@pytest.mark.parametrize(
    "args",
    [["--params", "-3"], ["--params", "7X"], ["--params", "1e30"], ["--params", "7B", "--gpus-per-node", "0"],
     ["--params", "7B", "--nodes", "0"], ["--params", "7B", "--suggest"], ["--params", "7B", "--heads", "99999"],
     ["--params", "7B", "--gpu-memory=-80GB"], ["--params", "7B", "--lang", "xx"],
     ["--params", "7B", "--buffer-factor", "abc"], ["--params", "7B", "--gpu-memory", "80GB", "--reserve", "100"]],
)  # fmt: skip
def test_cli_bad_input_is_one_clear_line(args: list[str]) -> None:
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(("dsref estimate: ", "dsref: "))
    assert not re.search(r"-\d[\d.]* GB", proc.stderr)


def test_cli_nothing_fits_exits_1() -> None:
    proc = run_cli("--params", "1e15", "--gpu-memory", "80GB", "--suggest")
    assert proc.returncode == 1
    assert "Nothing fits" in proc.stdout


# --------------------------------------------------------------------------------------------------------------
# The library names its parameters; the command line names its flags (issue 22, item 4)

SMALL_ARCH = Architecture("llama", "llama", 64, 128, 2, 2, 2, 32, 100, False)


def _raised_keys() -> set[str]:
    """The message of each ``raise EstimateError("key", ...)`` in dsref/estimate/."""
    folder = pathlib.Path(dsref.__file__).parent / "estimate"
    return {key for path in folder.glob("*.py") for key in re.findall(r'EstimateError\(\s*"(\w+)"', path.read_text())}


def test_no_library_error_names_a_command_line_flag() -> None:
    from dsref.estimate.messages import M

    keys = _raised_keys()
    assert {"too_small", "layer_over_params", "heads_over_hidden", "bad_choice", "model_heads_kv"} <= keys
    assert sorted(key for key in keys if "--" in M.text(key, "en")) == []


@pytest.mark.parametrize(
    ("call", "parameter", "library_says", "flag_says"),
    [
        (lambda: estimate(7, gpus_per_node=0), Param.gpus_per_node, "gpus_per_node must be at least 1, got 0",
         "--gpus-per-node must be at least 1, got 0"),
        (lambda: estimate(7, largest_layer=8), Param.largest_layer,
         "largest_layer (8) cannot be larger than params (7)",
         "--largest-layer (8) cannot be larger than --params (7)"),
        (lambda: estimate(7, buffer_factor=0.5), Param.buffer_factor, "buffer_factor must be at least 1, got 0.5",
         "--buffer-factor must be at least 1, got 0.5"),
        (lambda: _suggest(7, 0), Param.gpu_memory, "gpu_memory must be at least 1, got 0",
         "--gpu-memory must be at least 1, got 0"),
        (lambda: _suggest(7, GIB, reserve_percent=95), Param.reserve_percent,
         "reserve_percent must be from 0 to 90, got 95", "--reserve must be from 0 to 90, got 95"),
        (lambda: check_run(Run(seq_len=0)), Param.seq_len, "seq_len must be at least 1, got 0",
         "--seq-len must be at least 1, got 0"),
        (lambda: check_run(Run(attention="fast")), Param.attention,  # type: ignore[arg-type]
         'attention must be one of eager, sdpa, flash, got the text "fast"',
         '--attention must be one of eager, sdpa, flash, got the text "fast"'),
        (lambda: check_run(Run(gradient_accumulation=10**7)), Param.gradient_accumulation,
         "gradient_accumulation 10000000 is more than dsref can estimate for (at most 1e6)",
         "gradient_accumulation_steps 10000000 is more than dsref can estimate for (at most 1e6)"),
        (lambda: advise(SMALL_ARCH, Run(), GIB, cpu_memory=-1), Param.cpu_memory,
         "cpu_memory must be at least 1, got -1", "--cpu-memory must be at least 1, got -1"),
        (lambda: architecture_from_flags(10**6, hidden=64, heads=65), Param.heads,
         "heads (65) cannot be larger than hidden_size (64)", "--heads (65) cannot be larger than --hidden-size (64)"),
        (lambda: gpu_memory("H999"), Param.gpu_memory, "gpu_memory: 'H999' is neither a memory size",
         "--gpu-memory: 'H999' is neither a memory size"),
    ],
)  # fmt: skip
def test_library_errors_name_the_parameter_and_the_cli_its_flag(
    call: Callable[[], object], parameter: Param, library_says: str, flag_says: str
) -> None:
    from dsref.cli.estimate import input_names

    with pytest.raises(EstimateError) as info:
        call()
    error = info.value
    assert error.parameter is parameter
    assert str(error).startswith(library_says) and "--" not in str(error)
    assert error.message("en", input_names()).startswith(flag_says)
    assert error.message("zh", input_names()) != error.message("en", input_names())


def test_the_cli_names_every_input_by_a_flag_it_has_or_the_option_it_reads() -> None:
    import argparse

    from dsref.cli.estimate import FLAGS, configure, input_names
    from dsref.estimate.peak import CONFIG_PATHS

    parser = argparse.ArgumentParser()
    configure(parser)
    usage = parser.format_help()
    assert all(f"{flag} " in usage for flag in FLAGS.values())
    assert sorted(p.value for p in Param if p.value not in input_names()) == []
    assert (
        input_names()["gradient_accumulation"] == CONFIG_PATHS["gradient_accumulation"] == "gradient_accumulation_steps"
    )


def test_the_cli_says_its_flags_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.cli.main import main

    for args, said in (
        (["--params", "7B", "--largest-layer", "8B"],
         "--largest-layer (8000000000) cannot be larger than --params (7000000000)"),
        (["--params", "7B", "--gpu-memory", "80", "--reserve", "95"], "--reserve must be from 0 to 90, got 95"),
        (["--params", "0"], "--params must be at least 1, got 0"),
    ):  # fmt: skip
        assert main(["estimate", *args, "--lang", "en"]) == 2
        assert capsys.readouterr().err == f"dsref estimate: {said}\n"
