"""Run inside one transformers/Accelerate release's environment (``scripts/hf_releases.py`` starts it): read the
battery (JSON on stdin), run the release's own code on each case and print what it did (JSON on stdout).

* A Trainer case: ``TrainingArguments`` from the release's own ``HfArgumentParser`` (a command line, or a dict as
  LLaMA-Factory hands it), seen on ``world_size`` processes, then its ``HfTrainerDeepSpeedConfig``:
  ``trainer_config_process`` and ``trainer_config_finalize`` (a model whose config has ``hidden_size``, and the
  number of training steps). Recorded: the filled config and the mismatch lines it raises, or the parser's refusal.
* An Accelerate case: the environment ``accelerate launch`` hands the training process for an Accelerate config's
  ``deepspeed_config`` section, then the release's ``DeepSpeedPlugin`` and ``set_mixed_precision``. Recorded: the
  ds_config the plugin holds (``float("inf")``, its way to keep DeepSpeed quiet, as the string ``"inf"``).

fp16: releases before 4.4x refuse ``--fp16`` in ``TrainingArguments`` on a machine without CUDA, so the fp16
switches are taken out of the arguments and set on the parsed ones (as a GPU machine parses them).

Apex: releases that check for it when ``fp16_backend`` is ``apex`` find an empty stand-in package in the scratch
folder (``scripts/hf_releases.py`` writes it); their filling never imports it.

The world size: ``TrainingArguments.world_size`` is a property that asks the distributed state started by
``PartialState``; making that state see N processes means starting N processes (``WORLD_SIZE`` alone makes it wait
for the others to join). Trainer's filling reads the world size only through that property, so each case's
arguments are given a subclass of the release's ``TrainingArguments`` whose only change is ``world_size``
returning N. Nothing of dsref is imported here.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import tempfile
import warnings
from types import SimpleNamespace
from typing import Any


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _at_world_size(args: Any, world_size: int) -> Any:
    cls = type(args)
    seen = type(f"{cls.__name__}AtWorldSize{world_size}", (cls,), {"world_size": property(lambda self: world_size)})
    args.__class__ = seen
    return args


_SWITCH_WORDS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def _gpu_switches(argv: list[str]) -> tuple[list[str], dict[str, bool]]:
    """``argv`` without ``--fp16``/``--fp16_full_eval`` (bare, ``=value`` or followed by a true/false word), and the
    values they give: older releases refuse fp16 in ``TrainingArguments`` on a machine without CUDA, so they are set
    on the parsed arguments, as a GPU machine would parse them."""
    kept: list[str] = []
    switches: dict[str, bool] = {}
    words = iter(range(len(argv)))
    for at in words:
        word = argv[at]
        name, _, value = word.partition("=")
        if name not in ("--fp16", "--fp16_full_eval"):
            kept.append(word)
            continue
        if value:
            switches[name[2:]] = _SWITCH_WORDS[value.lower()]
        elif at + 1 < len(argv) and argv[at + 1].lower() in _SWITCH_WORDS:
            switches[name[2:]] = _SWITCH_WORDS[argv[at + 1].lower()]
            next(words)
        else:
            switches[name[2:]] = True
    return kept, switches


def trainer_case(case: dict[str, Any], out: str) -> dict[str, Any]:
    import transformers
    from transformers.integrations.deepspeed import HfTrainerDeepSpeedConfig

    parser = transformers.HfArgumentParser(transformers.TrainingArguments)
    base = {"output_dir": out, "use_cpu": True}
    later: dict[str, Any] = dict(case.get("set", {}))
    try:
        if case.get("arguments") is not None:
            arguments = dict(case["arguments"])
            for name in ("fp16", "fp16_full_eval"):
                if name in arguments:
                    later[name] = arguments.pop(name)
            (args,) = parser.parse_dict({**arguments, **base}, allow_extra_keys=True)
        else:
            argv, switches = _gpu_switches(case["argv"])
            later.update(switches)
            argv = ["--output_dir", out, "--use_cpu", *argv]
            args, _rest = parser.parse_args_into_dataclasses(args=argv, return_remaining_strings=True)
    except (SystemExit, ValueError, TypeError, ImportError) as exc:
        return {"refused_by": "arguments", "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    for name, value in later.items():
        setattr(args, name, value)
    _at_world_size(args, case["world_size"])
    filling = HfTrainerDeepSpeedConfig(json.loads(json.dumps(case["config"])))
    mismatches: list[str] = []
    try:
        filling.trainer_config_process(args)
        model = SimpleNamespace(config=SimpleNamespace(hidden_size=case["hidden_size"]))
        filling.trainer_config_finalize(args, model, case["steps"])
    except ValueError as exc:
        mismatches = [line for line in str(exc).splitlines() if line.startswith("- ds ")]
        if not mismatches:
            return {"refused_by": "trainer", "error": str(exc).splitlines()[0]}
    return {"config": _jsonable(filling.config), "mismatches": mismatches}


# What accelerate launch puts in the environment for each key of deepspeed_config (commands/launch.py and
# utils/launch.py, prepare_deepspeed_cmd_env): the value's str(), lower case for these.
_LOWER = {
    "gradient_clipping",
    "offload_optimizer_device",
    "offload_param_device",
    "zero3_init_flag",
    "zero3_save_16bit_model",
}
_ENVIRONMENT = {
    "zero_stage": "ACCELERATE_DEEPSPEED_ZERO_STAGE",
    "gradient_accumulation_steps": "ACCELERATE_GRADIENT_ACCUMULATION_STEPS",
    "gradient_clipping": "ACCELERATE_GRADIENT_CLIPPING",
    "offload_optimizer_device": "ACCELERATE_DEEPSPEED_OFFLOAD_OPTIMIZER_DEVICE",
    "offload_param_device": "ACCELERATE_DEEPSPEED_OFFLOAD_PARAM_DEVICE",
    "offload_optimizer_nvme_path": "ACCELERATE_DEEPSPEED_OFFLOAD_OPTIMIZER_NVME_PATH",
    "offload_param_nvme_path": "ACCELERATE_DEEPSPEED_OFFLOAD_PARAM_NVME_PATH",
    "zero3_init_flag": "ACCELERATE_DEEPSPEED_ZERO3_INIT",
    "zero3_save_16bit_model": "ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL",
}


def accelerate_case(case: dict[str, Any]) -> dict[str, Any]:
    from accelerate.utils import DeepSpeedPlugin

    for name in [*_ENVIRONMENT.values(), "ACCELERATE_DEEPSPEED_CONFIG_FILE", "ACCELERATE_MIXED_PRECISION"]:
        os.environ.pop(name, None)
    for key, value in case["section"].items():
        text = str(value)
        os.environ[_ENVIRONMENT[key]] = text.lower() if key in _LOWER else text
    try:
        plugin = DeepSpeedPlugin()
        plugin.set_mixed_precision(case["mixed_precision"])
    except (ValueError, TypeError, KeyError) as exc:
        return {"refused_by": "plugin", "error": str(exc).splitlines()[0] if str(exc) else type(exc).__name__}
    return {"config": _jsonable(dict(plugin.deepspeed_config))}


def main() -> int:
    warnings.simplefilter("ignore")
    logging.disable(logging.WARNING)
    battery = json.load(sys.stdin)
    results: dict[str, Any] = {"trainer": {}, "accelerate": {}}
    with tempfile.TemporaryDirectory() as out:
        if battery.get("trainer"):
            import transformers

            results["transformers"] = transformers.__version__
            for case in battery["trainer"]:
                results["trainer"][case["name"]] = trainer_case(case, out)
        if battery.get("accelerate"):
            import accelerate

            results["accelerate_release"] = accelerate.__version__
            for case in battery["accelerate"]:
                results["accelerate"][case["name"]] = accelerate_case(case)
    json.dump(results, sys.stdout, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
