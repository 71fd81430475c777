"""`dsref estimate --config --model`: a Hugging Face config read as JSON, the peak part by part, "auto" filled as
Hugging Face does, the fit on a named GPU and the changes that make a run fit, and what bad input gets."""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import re
import subprocess
import sys
from typing import Any

import pytest

import dsref
from dsref.cli.main import main
from dsref.estimate.advice import CHANGES, advise
from dsref.estimate.gpus import GPUS, gpu_memory
from dsref.estimate.model import architecture_from_hf
from dsref.estimate.model_states import zero2_model_states, zero3_model_states
from dsref.estimate.peak import COMPONENTS, Run, peak_memory, run_from_config
from dsref.estimate.quantities import GIB, EstimateError
from tests.cli import run_dsref
from tests.conftest import require_deepspeed
from tests.models import SMALL_LLAMA

MODELS = pathlib.Path(__file__).parents[2] / "data" / "hf_models"

PARAMS = {
    "llama-3-8b": 8_030_261_248,
    "mistral-7b": 7_241_732_096,
    "qwen2-7b": 7_615_616_512,
    "qwen3-8b": 8_190_735_360,
    "gpt2": 124_439_808,
    "pythia-160m": 162_322_944,
}
"""What ``transformers`` builds from each config (counted once on the meta device; the activation test checks the
same arithmetic against small built models on every run)."""


def model(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((MODELS / f"{name}.json").read_text())
    return result


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dsref("estimate", *args)


@pytest.mark.parametrize("name", sorted(PARAMS))
def test_real_configs_give_the_parameter_count_transformers_builds(name: str) -> None:
    assert architecture_from_hf(model(name)).params == PARAMS[name]


def test_gpt2_spellings_and_defaults() -> None:
    arch = architecture_from_hf(model("gpt2"))
    assert (arch.hidden, arch.intermediate, arch.layers, arch.heads, arch.kv_heads) == (768, 3072, 12, 12, 12)
    assert arch.tied_embeddings and arch.activation == "gelu_new" and arch.attention_dropout == 0.1
    llama = architecture_from_hf(model("llama-3-8b"))
    assert (llama.kv_heads, llama.head_dim, llama.tied_embeddings) == (8, 128, False)


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
@pytest.mark.parametrize("checkpointing", [False, True])
def test_parts_add_up_to_the_peak_of_its_phase(stage: int, checkpointing: bool) -> None:
    arch = architecture_from_hf(model("llama-3-8b"))
    peak = peak_memory(arch, Run(stage=stage, gpus_per_node=8, seq_len=4096, checkpointing=checkpointing))
    assert set(peak.parts) == set(COMPONENTS)
    assert sum(peak.parts.values()) == peak.bytes == max(peak.phases.values())
    assert peak.phases[peak.phase] == peak.bytes
    assert all(value >= 0 for value in peak.parts.values())


@pytest.mark.slow
def test_model_states_are_deepspeeds_figures() -> None:
    """With offload, the peak's model states are DeepSpeed's estimators' figures (stage 2: to the byte or two of
    rounding; stage 3: less its allowance of 4 bytes per largest-layer parameter, which the peak replaces with the
    gathered module and the prefetch). Without, they follow DeepSpeed's code phase by phase, and its estimators'
    single figure lies above the states held between steps (stage 2: not above those at the step's peak)."""
    require_deepspeed()
    from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs
    from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs

    arch = architecture_from_hf(model("qwen2-7b"))
    for gpus, nodes in ((1, 1), (8, 1), (8, 4)):
        for offload in (False, True):
            peak = peak_memory(arch, Run(stage=2, gpus_per_node=gpus, nodes=nodes, offload_optimizer="cpu" if offload
                                         else "none"))  # fmt: skip
            states = peak.parts["params"] + peak.parts["gradients"] + peak.parts["optimizer"]
            ds_cpu, ds_gpu = estimate_zero2_model_states_mem_needs(arch.params, gpus, nodes, offload, 1.5)
            assert (ds_cpu, ds_gpu) == zero2_model_states(arch.params, gpus, nodes, offload)
            if offload:
                assert abs(states - ds_gpu) <= 2
            else:
                step = peak.phases["step"] - peak.parts["context"]
                assert peak.steady_bytes < ds_gpu <= step, (peak.steady_bytes, ds_gpu, step)
            assert peak.cpu_bytes == int(ds_cpu)
        for opt, par in ((False, False), (True, False), (True, True)):
            run = Run(stage=3, gpus_per_node=gpus, nodes=nodes, offload_optimizer="cpu" if opt else "none",
                      offload_param="cpu" if par else "none")  # fmt: skip
            peak = peak_memory(arch, run)
            states = peak.parts["params"] + peak.parts["gradients"] + peak.parts["optimizer"]
            ds = estimate_zero3_model_states_mem_needs(
                arch.params, arch.largest_layer, gpus, nodes, opt, par, True, 1.5
            )
            if opt or par:
                assert abs(states - (ds[1] - 4 * arch.largest_layer)) <= 3
            else:
                # DeepSpeed's figure counts 18 bytes per parameter at once; the step converts one sub-group at a time
                assert peak.steady_bytes - run.reduce_bucket_size * 2 < ds[1] - 4 * arch.largest_layer
            assert ds == zero3_model_states(arch.params, arch.largest_layer, gpus, nodes, opt, par, True)
            assert peak.cpu_bytes == int(ds[0])


def test_auto_is_filled_as_hugging_face_fills_it() -> None:
    arch = architecture_from_hf(model("llama-3-8b"))
    values = {"zero_optimization.stage": 3}
    autos = {
        "train_micro_batch_size_per_gpu",
        "gradient_accumulation_steps",
        "bf16.enabled",
        "zero_optimization.reduce_bucket_size",
        "zero_optimization.stage3_prefetch_bucket_size",
    }
    run, filled = run_from_config(values, autos, arch)
    assert run.micro_batch == 8 and run.gradient_accumulation == 1 and run.precision == "bf16"
    assert run.reduce_bucket_size == 4096 * 4096 and run.prefetch_bucket_size == int(0.9 * 4096 * 4096)
    assert "zero_optimization.reduce_bucket_size = 16777216" in filled and len(filled) == 5
    run, _ = run_from_config(values, autos, arch, micro_batch=2, precision="fp16", seq_len=1024)
    assert (run.micro_batch, run.precision, run.seq_len) == (2, "fp16", 1024)


def test_a_train_batch_size_alone_is_divided_among_the_gpus() -> None:
    arch = architecture_from_hf(model("gpt2"))
    values = {"train_batch_size": 64, "gradient_accumulation_steps": 2}
    run, _ = run_from_config(values, set(), arch, gpus_per_node=8, nodes=2)
    assert run.micro_batch == 2


def test_more_memory_saving_never_raises_the_peak() -> None:
    arch = architecture_from_hf(model("mistral-7b"))
    base = Run(stage=0, gpus_per_node=8, seq_len=4096, micro_batch=4, attention="eager")
    previous = peak_memory(arch, base).bytes
    for change in (
        {"attention": "sdpa"},
        {"checkpointing": True},
        {"stage": 1},
        {"stage": 2},
        {"stage": 3},
        {"offload_optimizer": "cpu"},
        {"offload_param": "cpu"},
    ):
        base = Run(**{**base.__dict__, **change})
        now = peak_memory(arch, base).bytes
        assert now <= previous, change
        previous = now


def test_the_issue_example_fits_an_80gb_gpu_at_stage_3() -> None:
    """7B on 8 × 80 GB at 4,096 tokens, micro batch 1: what people train every day fits."""
    arch = architecture_from_hf(model("mistral-7b"))
    verdict = advise(arch, Run(stage=3, gpus_per_node=8, seq_len=4096, micro_batch=1), gpu_memory("H100"))
    assert verdict.fits and 30 * GIB < verdict.peak.bytes < 60 * GIB


def test_changes_are_ranked_and_each_edit_is_a_clean_config() -> None:
    arch = architecture_from_hf(model("llama-3-8b"))
    run = Run(stage=1, gpus_per_node=8, seq_len=4096, micro_batch=1)
    verdict = advise(arch, run, gpu_memory("A100-80G"))
    assert not verdict.fits and len(verdict.changes) >= 3
    keys = [change.key for change in verdict.changes]
    assert keys == sorted(keys, key=CHANGES.index)
    for change in verdict.changes:
        assert change.peak.bytes <= verdict.usable < verdict.peak.bytes
        config: dict[str, Any] = {"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": True},
                                  "zero_optimization": {"stage": 1}}  # fmt: skip
        for path, value in change.config.items():
            *parents, key = path.split(".")
            node = config
            for part in parents:
                node = node.setdefault(part, {})
            node[key] = value
        assert not [f for f in dsref.validate(config) if f.severity.value == "error"], (change.key, config)


def test_no_single_change_then_changes_combined() -> None:
    arch = architecture_from_hf(model("llama-3-8b"))
    verdict = advise(arch, Run(stage=0, seq_len=4096, micro_batch=2, attention="eager"), gpu_memory("4090"))
    assert not verdict.fits and not verdict.changes and verdict.combined
    peaks = [change.peak.bytes for change in verdict.combined]
    assert peaks == sorted(peaks, reverse=True)


def test_a_smaller_auto_micro_batch_is_a_trainer_argument() -> None:
    arch = architecture_from_hf(model("llama-3-8b"))
    run = Run(stage=3, gpus_per_node=8, seq_len=4096, micro_batch=8, checkpointing=True)
    for batch_auto, where in ((False, "config"), (True, "training")):
        verdict = advise(arch, run, gpu_memory("A100-40G"), batch_auto=batch_auto)
        change = next(change for change in verdict.changes if change.key == "micro_batch")
        edits = change.config if where == "config" else change.training
        assert edits["gradient_accumulation_steps"] * change.run.micro_batch == 8
        assert ("per_device_train_batch_size" in edits) is batch_auto


def test_gpu_names() -> None:
    assert (
        gpu_memory("A100-40G") == 40 * GIB and gpu_memory("h20") == 96 * GIB and gpu_memory("Ascend 910B") == 64 * GIB
    )
    assert gpu_memory("RTX 4090") == gpu_memory("4090") == gpu_memory("24GB")
    assert all(gpu_memory(name) > 0 for name in GPUS)
    with pytest.raises(EstimateError) as info:
        gpu_memory("B300X")
    assert "A100-80G" in str(info.value)


# --------------------------------------------------------------------------------------------------------------
# The command


@pytest.fixture()
def ds_config(tmp_path: pathlib.Path) -> str:
    path = tmp_path / "ds_config.json"
    path.write_text(
        '{\n  "train_micro_batch_size_per_gpu": "auto",\n'
        '  "gradient_accumulation_steps": "auto",\n  "bf16": {"enabled": "auto"},\n'
        '  "zero_optimization": {"stage": 3, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto"}\n}\n'
    )
    return str(path)


def test_cli_text_end_to_end(ds_config: str) -> None:
    proc = run_cli("--config", ds_config, "--model", str(MODELS / "llama-3-8b.json"), "--seq-len", "4096",
                   "--micro-batch", "1", "--gpus-per-node", "8", "--gpu-memory", "H100", "--lang", "en")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith("Peak GPU memory: llama (8B parameters), ZeRO stage 3, 1 node(s) × 8 GPU(s) per node")
    assert re.search(r"^activations kept for backward\s+\d+\.\d GB$", out, re.M)
    assert re.search(r"^Peak \d+\.\d GB per GPU, during the (backward pass|end of the forward pass)\.$", out, re.M)
    assert "Fits 80.0 GB per GPU" in out and "train_micro_batch_size_per_gpu = 1" in out


def test_cli_json_and_chinese(ds_config: str) -> None:
    args = ["--config", ds_config, "--model", str(MODELS / "qwen2-7b.json"), "--seq-len", "8192", "--micro-batch",
            "4", "--gpus-per-node", "8", "--gpu-memory", "A100-40G"]  # fmt: skip
    proc = run_cli(*args, "--format", "json")
    assert proc.returncode == 1, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["model"]["params"] == PARAMS["qwen2-7b"] and payload["run"]["stage"] == 3
    assert payload["peak_bytes"] == sum(payload["parts_bytes"].values())
    assert payload["peak_phase"] in ("forward", "backward", "step")
    assert payload["fit"]["fits"] is False and payload["fit"]["changes"] + payload["fit"]["combined"]
    zh = run_cli(*args, "--lang", "zh")
    assert zh.returncode == 1
    assert zh.stdout.startswith("显存峰值：qwen2") and "为反向传播保存的激活" in zh.stdout and "放不下" in zh.stdout


def test_cli_flags_override_the_model(ds_config: str) -> None:
    base = ["--config", ds_config, "--model", str(MODELS / "gpt2.json"), "--format", "json", "--micro-batch", "1"]
    small, more = (json.loads(run_cli(*base, "--layers", layers).stdout) for layers in ("6", "24"))
    assert small["model"]["num_hidden_layers"] == 6 and more["model"]["num_hidden_layers"] == 24
    assert small["peak_bytes"] < more["peak_bytes"]
    ckpt = json.loads(run_cli(*base, "--gradient-checkpointing").stdout)
    assert ckpt["run"]["gradient_checkpointing"] is True
    assert ckpt["activations"]["total_bytes"] < small["activations"]["total_bytes"] * 2


def test_model_alone_is_enough() -> None:
    proc = run_cli("--model", str(MODELS / "pythia-160m.json"), "--seq-len", "2048", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    payload = json.loads(proc.stdout)
    assert payload["run"]["stage"] == 0 and payload["model"]["family"] == "gpt_neox"


def test_a_model_folder_and_a_text_config(tmp_path: pathlib.Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "llava", "text_config": model("qwen2-7b")}))
    proc = run_cli("--model", str(tmp_path), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["model"]["params"] == PARAMS["qwen2-7b"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("model_json", "args", "needle"),
    [
        ({"model_type": "t5", "d_model": 512}, [], "hidden_size"),
        ({"model_type": "llama", "hidden_size": 64}, [], "intermediate_size, num_hidden_layers"),
        ({"model_type": "llama", "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 0,
          "num_attention_heads": 4, "vocab_size": 100}, [], "num_hidden_layers"),
        ([1, 2], [], "JSON object"),
        ("{not json", [], "not JSON"),
        (None, [], "cannot read the model config"),
        ({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100}, ["--seq-len", "0"],
         "--seq-len"),
        ({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100},
         ["--gpu-memory=-5GB"], "--gpu-memory"),
        ({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100},
         ["--gpu-memory", "H999"], "neither a memory size"),
        ({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100},
         ["--config", "/no/such/ds_config.json"], "cannot read the DeepSpeed config"),
        ({"model_type": "gpt2", "n_embd": 64, "n_layer": 2, "n_head": 4, "vocab_size": 100},
         ["--micro-batch", "-1"], "--micro-batch"),
    ],
)  # fmt: skip
def test_bad_input_is_one_translated_line(
    tmp_path: pathlib.Path, model_json: Any, args: list[str], needle: str
) -> None:
    path = tmp_path / "config.json"
    if model_json is not None:
        path.write_text(model_json if isinstance(model_json, str) else json.dumps(model_json))
    for lang in ("en", "zh"):
        proc = run_cli("--model", str(path), *args, "--lang", lang)
        assert proc.returncode == 2, (proc.stdout, proc.stderr)
        assert "Traceback" not in proc.stderr and proc.stdout == ""
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("dsref estimate"), lines
        if lang == "en":
            assert needle in lines[0]
        else:
            assert re.search(r"[\u4e00-\u9fff]", lines[0]), lines[0]


def test_config_without_model_says_what_is_missing(ds_config: str) -> None:
    proc = run_cli("--config", ds_config)
    assert proc.returncode == 2 and "--config needs --model" in proc.stderr
    proc = run_cli()
    assert proc.returncode == 2 and "--params" in proc.stderr and "--model" in proc.stderr


def test_the_command_imports_neither_torch_nor_transformers(ds_config: str) -> None:
    code = (
        "import sys, contextlib, io\n"
        "from dsref.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['estimate', '--config', {ds_config!r}, '--model', {str(MODELS / 'gpt2.json')!r},"
        " '--gpu-memory', '4090'])\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'transformers', 'deepspeed')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# --------------------------------------------------------------------------------------------------------------
# What a model config can get wrong, said in the config's words (issue 28, part 5)

SMALL = SMALL_LLAMA


@pytest.mark.parametrize(
    ("changed", "field", "said"),
    [
        (
            {"hidden_size": "4096"},
            ("hidden_size",),
            'hidden_size must be a whole number, got the text "4096"; write 4096 without quotes',
        ),
        ({"hidden_size": 4096.0}, ("hidden_size",), "hidden_size must be a whole number, got the number 4096.0"),
        ({"num_hidden_layers": True}, ("num_hidden_layers",), "num_hidden_layers must be a whole number, got true"),
        ({"vocab_size": [100]}, ("vocab_size",), "vocab_size must be a whole number, got an array"),
        ({"hidden_size": 0}, ("hidden_size",), "hidden_size is 0, which no model can have; it must be from 1 to 1e6"),
        ({"vocab_size": 10**40}, ("vocab_size",), "vocab_size is a number of 41 digits, which no model can have"),
        ({"vocab_size": 10**5000}, ("vocab_size",), "vocab_size is a number of 5,001 digits, which no model can have"),
        ({"attention_dropout": "0.1"}, ("attention_dropout",), 'must be a number from 0 to 1, got the text "0.1"'),
        ({"attention_dropout": 2}, ("attention_dropout",), "attention_dropout must be a number from 0 to 1, got 2"),
        (
            {"num_attention_heads": 7, "num_key_value_heads": 8},
            ("num_attention_heads",),
            "num_attention_heads (7) must be a multiple of its num_key_value_heads (8): each key-value head is shared "
            "by the same number of attention heads; correct one of the two",
        ),
        (
            {"num_attention_heads": 8, "num_key_value_heads": 3},
            ("num_attention_heads",),
            "num_attention_heads (8) must be a multiple of its num_key_value_heads (3)",
        ),
        (
            {"num_attention_heads": 7},
            ("hidden_size",),
            "hidden_size (64) must be a multiple of its num_attention_heads (7): each attention head takes an equal "
            "share of the hidden size",
        ),
    ],
)
def test_a_wrong_model_value_is_named_with_the_type_or_rule_it_breaks(
    changed: dict[str, Any], field: tuple[str, ...], said: str
) -> None:
    for config, at in (
        ({**SMALL, **changed}, ()),
        ({"model_type": "llava", "text_config": {**SMALL, **changed}}, None),
    ):
        with pytest.raises(EstimateError) as info:
            architecture_from_hf(config)
        error = info.value
        assert said in str(error), str(error)
        assert error.field == (field if at is not None else ("text_config", *field))
        zh = error.message("zh")
        assert re.search(r"[\u4e00-\u9fff]", zh) and zh != str(error)


def test_a_wrong_model_value_is_shown_where_it_is_written(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:

    path = tmp_path / "config.json"
    path.write_text(json.dumps({**SMALL, "hidden_size": "4096"}, indent=2))  # line 3, the value at column 18
    assert main(["estimate", "--model", str(path), "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        f"dsref estimate: {path}:3:18: the model config's hidden_size must be a whole number, got the text "
        '"4096"; write 4096 without quotes\n'
    )
    assert main(["estimate", "--model", str(path), "--lang", "zh"]) == 2
    assert capsys.readouterr().err == (
        f"dsref estimate：{path}:3:18：模型配置中的 hidden_size 必须是整数，"
        '实际是字符串 "4096"；请去掉引号，写成 4096\n'
    )


def test_a_wrong_deepspeed_value_is_shown_where_it_is_written(tmp_path: pathlib.Path) -> None:
    config = tmp_path / "ds.json"
    config.write_text('{\n  "zero_optimization": {\n    "stage": "three"\n  },\n  "train_batch_size": 8\n}\n')
    proc = run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(config), "--lang", "en")
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()  # check's finding, where it is written, then why nothing is estimated
    assert lines[0].startswith(f"dsref estimate: {config}:3:14: error[DS204] ") and "refuses" in lines[-1], lines


LLAVA = {
    "model_type": "llava",
    "text_config": model("llama-3-8b"),
    "vision_config": {"model_type": "clip_vision_model", "hidden_size": 1024},
}


@pytest.mark.parametrize(
    ("config", "note_en", "note_zh", "not_counted"),
    [
        (
            LLAVA,
            "estimated from text_config (the language model); the vision tower is not counted",
            "按 text_config（语言模型）估算；视觉塔不计在内",
            ["vision_config"],
        ),
        (  # Qwen2-VL and LLaVA-OneVision write a qwen2 language model the same way
            {"model_type": "llava_onevision", "text_config": model("qwen2-7b"), "vision_config": {}},
            "estimated from text_config (the language model); the vision tower is not counted",
            "按 text_config（语言模型）估算；视觉塔不计在内",
            ["vision_config"],
        ),
        (
            {"model_type": "qwen2_audio", "text_config": model("qwen2-7b"), "audio_config": {}},
            "estimated from text_config (the language model); the rest of the model is not counted",
            "按 text_config（语言模型）估算；模型的其余部分不计在内",
            ["audio_config"],
        ),
    ],
)
def test_a_multimodal_config_says_which_part_is_estimated(
    tmp_path: pathlib.Path, config: dict[str, Any], note_en: str, note_zh: str, not_counted: list[str]
) -> None:

    path = tmp_path / "config.json"
    path.write_text(json.dumps(config))
    arch = architecture_from_hf(config)
    assert arch.params == architecture_from_hf(config["text_config"]).params  # the language model alone
    for lang, note in (("en", note_en), ("zh", note_zh)):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["estimate", "--model", str(path), "--lang", lang]) == 0
        assert out.getvalue().splitlines()[2] == note  # under the title and the run's setup
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["estimate", "--model", str(path), "--lang", lang, "--format", "json"]) == 0
        described = json.loads(out.getvalue())["model"]
        assert described["estimated_from"] == "text_config" and described["not_counted"] == not_counted
        assert described["note"] == note
    plain = io.StringIO()
    with contextlib.redirect_stdout(plain):
        main(["estimate", "--model", str(MODELS / "qwen2-7b.json"), "--format", "json"])
    assert "estimated_from" not in json.loads(plain.getvalue())["model"]  # one model: nothing to say


def test_a_multimodal_config_with_an_unknown_language_model_says_which(tmp_path: pathlib.Path) -> None:
    config = {"model_type": "qwen2_vl", "text_config": {**model("qwen2-7b"), "model_type": "qwen2_vl_text"}}
    with pytest.raises(EstimateError, match="model_type 'qwen2_vl_text' is not a transformer") as info:
        architecture_from_hf(config)
    assert info.value.field == ("text_config", "model_type")


# --------------------------------------------------------------------------------------------------------------
# The input read as `dsref check` reads it (issue 26, part 6)


@pytest.mark.parametrize(
    ("config", "codes"),
    [
        ({"bf16": {"enabled": True}, "fp16": {"enabled": True}}, ["DS510"]),
        ({"zero_optimization": {"stage": 3, "offload_param": {"device": "nvme"}}}, ["DS531"]),
        ({"zero_optimization": {"stage": "three"}}, ["DS204"]),
    ],
)
def test_a_config_deepspeed_refuses_gets_checks_findings_and_no_estimate(
    tmp_path: pathlib.Path, config: dict[str, Any], codes: list[str]
) -> None:
    from dsref.check.pipeline import check_text

    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_micro_batch_size_per_gpu": 1, **config}))
    expected = [f.code for f in check_text(path.read_text(), str(path)).findings if f.severity.value == "error"]
    assert expected == codes  # what check finds, the estimate refuses with
    for lang in ("en", "zh"):
        proc = run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(path), "--lang", lang)
        assert proc.returncode == 2 and proc.stdout == "", proc.stdout
        said = re.findall(r"(?:error|错误)\[(DS\d+)\]", proc.stderr)
        assert said == codes, proc.stderr
        assert f"{path}:1:" in proc.stderr
        last = proc.stderr.strip().splitlines()[-1]
        assert ("refuses this config" in last) if lang == "en" else re.search(r"[\u4e00-\u9fff]", last)


def test_an_auto_config_is_checked_as_hugging_face_reads_it(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text('{\n  // a comment json.load refuses\n  "train_micro_batch_size_per_gpu": "auto"\n}\n')
    proc = run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(path), "--lang", "en")
    assert proc.returncode == 2 and "error[DS000]" in proc.stderr and "--profile hf" in proc.stderr
    path.write_text('{\n  "train_micro_batch_size_per_gpu": "auto"\n}\n')  # "auto" is no error for Hugging Face
    proc = run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(path), "--seq-len", "512")
    assert proc.returncode == 0 and "DS402" not in proc.stderr, proc.stderr


def test_a_warning_of_check_is_said_and_the_estimate_follows(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "ds.json"
    config = {
        "train_micro_batch_size_per_gpu": 1,
        "zero_optimization": {"stage": 2, "offload_param": {"device": "cpu"}},
    }
    path.write_text(json.dumps(config))
    proc = run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(path), "--seq-len", "512", "--lang", "en")
    assert proc.returncode == 0 and "warning[DS530]" in proc.stderr
    assert proc.stdout.startswith("Peak GPU memory")
    payload = json.loads(run_cli("--model", str(MODELS / "gpt2.json"), "--config", str(path), "--seq-len", "512",
                                 "--format", "json").stdout)  # fmt: skip
    assert [f["code"] for f in payload["findings"]] == ["DS530"]


def test_the_world_size_given_is_checked_against_the_batch(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(
        json.dumps({"train_batch_size": 12, "train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": 1})
    )
    model_flags = ["--model", str(MODELS / "gpt2.json"), "--config", str(path), "--seq-len", "512"]
    assert run_cli(*model_flags).returncode == 0  # no GPU count given: nothing to hold the batch against
    refused = run_cli(*model_flags, "--gpus-per-node", "8")  # 12 ≠ 1 × 1 × 8
    assert refused.returncode == 2 and re.search(r"error\[DS5\d\d\]", refused.stderr), refused.stderr


@pytest.mark.parametrize(
    ("name", "seq", "key", "consequence"),
    [("mistral-7b", 100_000, "max_position_embeddings", "not trained"), ("gpt2", 4096, "n_positions", "fails")],
)
def test_a_sequence_beyond_the_models_positions_is_a_warning_then_the_estimate(
    name: str, seq: int, key: str, consequence: str
) -> None:
    limit = model(name).get(key, 1024)
    proc = run_cli("--model", str(MODELS / f"{name}.json"), "--seq-len", str(seq), "--lang", "en")
    assert proc.returncode == 0 and proc.stdout.startswith("Peak GPU memory")
    assert f"warning: the sequence length {seq:,} is longer than the model's {key} ({limit:,})" in proc.stderr
    assert consequence in proc.stderr
    quiet = run_cli("--model", str(MODELS / f"{name}.json"), "--seq-len", str(limit), "--lang", "en")
    assert quiet.returncode == 0 and quiet.stderr == ""
    zh = run_cli("--model", str(MODELS / f"{name}.json"), "--seq-len", str(seq), "--lang", "zh")
    assert "警告" in zh.stderr and key in zh.stderr


def test_every_default_taken_is_named_with_its_flag() -> None:
    bare = run_cli("--model", str(MODELS / "gpt2.json"), "--lang", "en")
    line = next(line for line in bare.stdout.splitlines() if line.startswith("Not given, so assumed:"))
    for said in ("sequence length 2,048 (--seq-len)", "micro batch 1 (--micro-batch)", "fp32,", "(--precision)",
                 "sdpa attention", "(--attention)", "gradient checkpointing off"):  # fmt: skip
        assert said in line, line
    given = run_cli("--model", str(MODELS / "gpt2.json"), "--seq-len", "1024", "--micro-batch", "2", "--precision",
                    "bf16", "--attention", "eager", "--gradient-checkpointing", "--lang", "en")  # fmt: skip
    assert "assumed" not in given.stdout.split("\n\n")[0]
    payload = json.loads(run_cli("--model", str(MODELS / "gpt2.json"), "--seq-len", "1024", "--format", "json").stdout)
    assert payload["assumed"] == ["micro_batch", "precision", "attention", "checkpointing"]
    zh = run_cli("--model", str(MODELS / "gpt2.json"), "--lang", "zh").stdout
    assert "以下未指定" in zh and "--seq-len" in zh


@pytest.mark.parametrize(
    ("run", "label"),
    [
        (Run(stage=0), "parameters (16-bit, whole on every GPU)"),
        (Run(stage=2, gpus_per_node=8), "parameters (16-bit, whole on every GPU)"),
        (Run(stage=3, gpus_per_node=8), "parameters (16-bit, this GPU's share of 8)"),
        (Run(stage=3, gpus_per_node=8, precision="fp32"), "parameters (32-bit, this GPU's share of 8)"),
        (Run(stage=3, offload_optimizer="cpu", offload_param="cpu"), "parameters (offloaded to CPU"),
    ],
)
def test_the_parameters_line_says_what_the_stage_keeps(run: Run, label: str) -> None:
    from dsref.estimate.render import render_peak

    arch = architecture_from_hf(model("gpt2"))
    text = render_peak(peak_memory(arch, run), "en")
    assert re.search(rf"^{re.escape(label)}.*\s\d+\.\d GB$", text, re.M), text
    assert "stage 3" not in text.split("\n\n")[1] or run.stage == 3
    zh = render_peak(peak_memory(arch, run), "zh")
    assert "stage 3 下" not in zh


# --------------------------------------------------------------------------------------------------------------
# How sure the answer is (issue 26, part 4)


def _memory_for(peak_bytes: int, reserve: float, headroom: float) -> int:
    """The GPU memory at which ``peak_bytes`` leaves ``headroom`` (a share of the peak) once ``reserve`` % is kept."""
    return int(peak_bytes * (1 + headroom) / (1 - reserve / 100)) + 1


@pytest.mark.parametrize(("headroom", "tight"), [(0.05, True), (0.14, True), (0.16, False), (0.5, False)])
def test_every_fit_answer_states_its_headroom_and_near_the_line_says_tight(headroom: float, tight: bool) -> None:
    from dsref.estimate.advice import NOT_MODELLED, TIGHT_PERCENT
    from dsref.estimate.render import fit_lines

    arch = architecture_from_hf(model("llama-3-8b"))
    run = Run(stage=2, gpus_per_node=8, seq_len=4096, checkpointing=True)
    peak = peak_memory(arch, run)
    verdict = advise(arch, run, _memory_for(peak.bytes, 10, headroom))
    assert verdict.fits and verdict.reserve_percent == 10 and not verdict.reserve_given
    assert verdict.headroom == verdict.usable - peak.bytes
    assert abs(verdict.headroom_percent - 100 * headroom) < 0.1
    assert verdict.tight is tight and (headroom * 100 < TIGHT_PERCENT) is tight
    lines = fit_lines(verdict, "en")
    assert lines[1].startswith(f"Headroom {format(verdict.headroom / GIB, '.1f')} GB, {round(headroom * 100)}% of")
    assert any(line.startswith("Tight:") and "max_memory_reserved" in line for line in lines) is tight
    assert lines[-1].startswith("Not modelled: fragmentation beyond the reserve;") and "selective" in lines[-1]
    payload = verdict.to_json()
    assert payload["tight"] is tight and payload["not_modelled"] == list(NOT_MODELLED)
    assert payload["headroom_bytes"] == verdict.headroom
    zh = fit_lines(verdict, "zh")
    assert len(zh) == len(lines) and all(re.search(r"[\u4e00-\u9fff]", line) for line in zh)


def test_a_run_that_does_not_fit_says_by_how_much() -> None:
    from dsref.estimate.render import fit_lines

    arch = architecture_from_hf(model("llama-3-8b"))
    run = Run(stage=2, gpus_per_node=8, seq_len=4096)
    verdict = advise(arch, run, 24 * GIB, reserve_percent=10)
    assert not verdict.fits and verdict.headroom < 0 and not verdict.tight
    short = format(-verdict.headroom / GIB, ".1f")
    assert fit_lines(verdict, "en")[1].startswith(f"Short by {short} GB")


def test_the_reserve_follows_the_stage_unless_one_is_given() -> None:
    from dsref.estimate.advice import fragmentation_reserve

    arch = architecture_from_hf(model("llama-3-8b"))
    stage3 = Run(stage=3, gpus_per_node=8, seq_len=4096, checkpointing=True)
    peak = peak_memory(arch, stage3).bytes
    # between what 10 % and 20 % kept back leave: fits with the first, not with stage 3's own
    memory = int(peak / 0.85)
    assert fragmentation_reserve(3) > fragmentation_reserve(2) == 10
    assert not advise(arch, stage3, memory).fits
    assert advise(arch, stage3, memory, reserve_percent=10).fits
    # a change to stage 3 is judged with stage 3's reserve too
    stage2 = replace_run(stage3, stage=2, checkpointing=True)
    changes = advise(arch, stage2, memory).changes
    assert "stage3" not in [change.key for change in changes]
    assert "stage3" in [change.key for change in advise(arch, stage2, memory, reserve_percent=10).changes]


def replace_run(run: Run, **changed: Any) -> Run:
    import dataclasses

    return dataclasses.replace(run, **changed)


def test_the_command_says_the_headroom_and_the_stage_3_reserve(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "ds.json"
    path.write_text(json.dumps({"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3}}))
    args = ["--model", str(MODELS / "gpt2.json"), "--config", str(path), "--seq-len", "512", "--gpu-memory", "24GB"]
    out = run_cli(*args, "--lang", "en").stdout
    assert "(20% kept back for fragmentation, more at stage 3" in out and "\nHeadroom " in out
    assert "\nNot modelled: " in out
    given = run_cli(*args, "--reserve", "5", "--lang", "en").stdout
    assert "(5% kept back for fragmentation)" in given
    payload = json.loads(run_cli(*args, "--format", "json").stdout)
    assert payload["fit"]["reserve_percent"] == 20 and payload["fit"]["tight"] is False
