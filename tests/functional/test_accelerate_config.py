"""An Accelerate config YAML read by dsref (dsref/launch/accelerate.py) against the installed Accelerate's own
``DeepSpeedPlugin``: the ds_config dsref says it builds is the one the plugin builds from the environment
``accelerate launch`` hands the training process, and dsref's findings point at the YAML's lines."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dsref.check.pipeline import check_built
from dsref.check.settings import CheckSettings
from dsref.cli.main import main
from dsref.launch.accelerate import read_accelerate
from dsref.launch.read import read_launch
from tests import needs

# What accelerate/utils/launch.py (prepare_deepspeed_cmd_env) puts in the environment for each key of the YAML.
ENVIRONMENT: dict[str, tuple[str, Callable[[Any], str]]] = {
    "zero_stage": ("ACCELERATE_DEEPSPEED_ZERO_STAGE", str),
    "gradient_accumulation_steps": ("ACCELERATE_GRADIENT_ACCUMULATION_STEPS", str),
    "gradient_clipping": ("ACCELERATE_GRADIENT_CLIPPING", lambda v: str(v).lower()),
    "offload_optimizer_device": ("ACCELERATE_DEEPSPEED_OFFLOAD_OPTIMIZER_DEVICE", lambda v: str(v).lower()),
    "offload_param_device": ("ACCELERATE_DEEPSPEED_OFFLOAD_PARAM_DEVICE", lambda v: str(v).lower()),
    "zero3_init_flag": ("ACCELERATE_DEEPSPEED_ZERO3_INIT", lambda v: str(v).lower()),
    "zero3_save_16bit_model": ("ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL", lambda v: str(v).lower()),
}

CONFIGS = [
    {"zero_stage": 3, "offload_optimizer_device": "cpu", "offload_param_device": "cpu", "zero3_init_flag": True},
    {"zero_stage": 2, "gradient_accumulation_steps": 4, "gradient_clipping": 1.0, "offload_optimizer_device": "none"},
    {"zero_stage": 3, "zero3_save_16bit_model": True, "offload_param_device": "nvme"},
    {"zero_stage": 1, "gradient_clipping": 0.0},
    {},
]


def _yaml(section: dict[str, Any], precision: str) -> str:
    lines = ["compute_environment: LOCAL_MACHINE", "deepspeed_config:"]
    lines += [f"  {key}: {json.dumps(value)}" for key, value in section.items()] or ["  {}"]
    lines += ["distributed_type: DEEPSPEED", f"mixed_precision: {precision}", "num_machines: 1", "num_processes: 8"]
    if not section:
        lines[1] = "deepspeed_config: {}"
        del lines[2]
    return "\n".join(lines) + "\n"


@pytest.mark.slow
@pytest.mark.parametrize("precision", ["bf16", "fp16", "no"])
@pytest.mark.parametrize("section", CONFIGS)
def test_the_config_dsref_builds_is_the_one_deepspeed_plugin_builds(
    section: dict[str, Any], precision: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    launch = read_launch("accelerate.yaml", _yaml(section, precision))
    assert launch.form == "accelerate" and launch.world_size == 8
    assert launch.built is not None and launch.built.config is not None

    needs.module("torch")
    needs.module("accelerate")
    from accelerate.utils import DeepSpeedPlugin

    for name in [env for env, _ in ENVIRONMENT.values()] + ["ACCELERATE_DEEPSPEED_CONFIG_FILE"]:
        monkeypatch.delenv(name, raising=False)
    for key, value in section.items():
        env, written = ENVIRONMENT[key]
        monkeypatch.setenv(env, written(value))
    plugin = DeepSpeedPlugin()
    plugin.set_mixed_precision(precision)
    theirs = dict(plugin.deepspeed_config)
    theirs.pop("steps_per_print")  # float("inf"): Accelerate's way to keep DeepSpeed quiet, not JSON
    import accelerate
    import yaml

    text = _yaml(section, precision)
    installed = read_accelerate(yaml.compose(text), "accelerate.yaml", text, release=accelerate.__version__)
    assert installed.built is not None and installed.built.config == theirs


def test_findings_point_at_the_yaml_lines() -> None:
    text = (
        "distributed_type: DEEPSPEED\n"
        "deepspeed_config:\n"
        "  zero_stage: 2\n"
        "  offload_param_device: gpu\n"
        "mixed_precision: bf16\n"
        "num_processes: 2\n"
    )
    launch = read_launch("acc.yaml", text)
    assert launch.built is not None
    report = check_built(text, "acc.yaml", launch.built, CheckSettings("hf", 2, launch=launch))
    assert report.loaded is not None
    where = {f.code: report.loaded.locate(f.location, "value").line for f in report.findings}
    assert where.get("DS204") == 4  # "gpu" is no offload device
    stage_2 = text.replace("gpu", "cpu")
    launch = read_launch("acc.yaml", stage_2)
    assert launch.built is not None
    report = check_built(stage_2, "acc.yaml", launch.built, CheckSettings("hf", 2, launch=launch))
    assert report.loaded is not None
    where = {f.code: report.loaded.locate(f.location).line for f in report.findings}
    assert where.get("DS530") == 4  # parameters offloaded below stage 3: DeepSpeed ignores it
    assert all(f.fix is None for f in report.findings)  # a fix edits JSON: none for a YAML


def test_an_accelerate_config_naming_a_file_checks_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("ds.json").write_text(json.dumps({"train_micro_batch_size_per_gpu": 4, "train_batch_size": 12}))
    Path("acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\nnum_processes: 2\n"
    )
    assert main(["check", "acc.yaml", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["files"][0]["findings"]
    assert "DS502" in {f["code"] for f in found}  # 12 is no multiple of 4 x 2: the world size is num_processes
    Path("acc.yaml").write_text(
        "distributed_type: DEEPSPEED\ndeepspeed_config:\n  deepspeed_config_file: ds.json\n  zero_stage: 3\n"
        "num_processes: 3\n"
    )
    assert main(["check", "acc.yaml"]) == 1  # the file fits 3 processes, but Accelerate refuses the zero_stage
    err = capsys.readouterr().err
    assert "acc.yaml:4:" in err and "zero_stage" in err and "deepspeed_config_file" in err


def test_a_key_accelerate_does_not_read_is_named_at_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    launch = read_launch("acc.yaml", "distributed_type: DEEPSPEED\ndeepspeed_config:\n  zero_stag: 3\n")
    assert launch.built is not None
    assert [(g.value, g.line) for g in launch.built.ignored] == [("zero_stag", 3)]
