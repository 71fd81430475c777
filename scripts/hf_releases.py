"""Record what each transformers and Accelerate release does with a ds_config, from the releases themselves.

    python scripts/hf_releases.py build     # install each release into the scratch folder (network)
    python scripts/hf_releases.py record    # run each one on the battery → tests/data/hf_releases.json
    python scripts/hf_releases.py build record --release 4.45.0 --release accelerate==1.0.1

Each release is installed with ``pip install --no-deps --target`` into ``$DSREF_HF_RELEASES_DIR`` (default
``/tmp/dsref-hf-releases``, never committed), with the requirements the interpreter does not satisfy beside it (an
older ``huggingface_hub`` or ``tokenizers``), and run by this interpreter, whose torch and DeepSpeed it shares
(``scripts/hf_probe.py`` in a child process, that folder first on ``PYTHONPATH``). The installed releases are run as
they are. A transformers release runs with an Accelerate release of its time beside it (TrainingArguments needs one).

The battery (the Trainer cases: constructed launches and the real launch files of ``tests/data/launch``, each at
several world sizes; the Accelerate cases: the ``deepspeed_config`` sections of Accelerate configs) is written into
the record with each release's results, so the tests compare dsref with the record without running any release
(``tests/unit/launch/test_hf_records.py``) and compare the installed releases with their record
(``tests/functional/test_hf_records_live.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.trainer_filling import EVERY_AUTO, HIDDEN  # noqa: E402  (the battery shares the tests' config)

RECORD = ROOT / "tests" / "data" / "hf_releases.json"
LAUNCHES = ROOT / "tests" / "data" / "launch"
SCRATCH = Path(os.environ.get("DSREF_HF_RELEASES_DIR", "/tmp/dsref-hf-releases"))

TRANSFORMERS: dict[str, str] = {
    # release: the Accelerate release run beside it (one of its time that it accepts)
    "4.36.2": "0.25.0",
    "4.41.2": "0.30.1",
    "4.44.2": "0.33.0",
    "4.45.0": "0.34.2",
    "4.49.0": "1.4.0",
    "4.51.3": "1.6.0",
    "4.55.4": "1.10.0",
    "4.57.6": "1.11.0",
    "5.0.0": "1.12.0",
    "5.10.4": "1.13.0",
    "5.14.0": "1.13.0",
    "5.15.0": "1.13.0",
    "5.17.0": "1.13.0",
    "5.18.0": "1.14.0",
    "5.24.0": "1.15.0",
    "5.25.0": "1.16.0",
}
"""The transformers releases recorded: those LLaMA-Factory and axolotl users run (4.36 to 4.57), both sides of
each change of the filling, and the 5 line to the newest."""

ACCELERATE: tuple[str, ...] = (
    "0.25.0",
    "0.29.3",
    "0.30.0",
    "0.30.1",
    "0.33.0",
    "0.34.0",
    "0.34.2",
    "1.0.1",
    "1.5.2",
    "1.10.1",
    "1.15.0",
    "1.16.0",
)
"""The Accelerate releases whose ``DeepSpeedPlugin`` is recorded."""

_SHARED = {"torch", "deepspeed", "triton", "ninja"}


# -- the environments ------------------------------------------------------------------------------------------------


def folder(library: str, release: str) -> Path:
    return SCRATCH / f"{library}-{release}"


def installed(library: str) -> str | None:
    try:
        return metadata.version(library)
    except metadata.PackageNotFoundError:
        return None


def _pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True)


def _requirements(target: Path) -> list[Requirement]:
    found = []
    for dist in metadata.distributions(path=[str(target)]):
        for line in dist.requires or []:
            requirement = Requirement(line)
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            found.append(requirement)
    return found


def _satisfied(requirement: Requirement, target: Path) -> bool:
    if requirement.name.lower() in _SHARED:
        return True
    for path in ([str(target)], None):
        try:
            version = (
                metadata.distribution(requirement.name).version
                if path is None
                else next(
                    d for d in metadata.distributions(path=path) if d.name.lower() == requirement.name.lower()
                ).version
            )
        except (metadata.PackageNotFoundError, StopIteration):
            continue
        return requirement.specifier.contains(Version(version), prereleases=True)
    return False


def build_env(packages: list[str], target: Path) -> None:
    """``packages`` (``name==release``) into ``target``, with each requirement the interpreter does not satisfy."""
    if (target / ".complete").exists():
        return
    target.mkdir(parents=True, exist_ok=True)
    _pip("install", "--no-deps", "--target", str(target), *packages)
    for _round in range(4):
        missing = sorted({str(r) for r in _requirements(target) if not _satisfied(r, target)})
        if not missing:
            break
        _pip("install", "--no-deps", "--target", str(target), "--upgrade", *missing)
    (target / ".complete").write_text(" ".join(packages) + "\n")


def environments(selected: list[str] | None) -> list[tuple[str, str, Path | None]]:
    """(library, release, folder; None for the installed release) for each release to record."""
    wanted = []
    for release in TRANSFORMERS:
        if selected is None or release in selected or f"transformers=={release}" in selected:
            wanted.append(("transformers", release))
    for release in ACCELERATE:
        if selected is None or f"accelerate=={release}" in selected:
            wanted.append(("accelerate", release))
    return [
        (library, release, None if installed(library) == release else folder(library, release))
        for library, release in wanted
    ]


def build(selected: list[str] | None) -> None:
    for library, release, target in environments(selected):
        if target is None:
            continue
        started = time.perf_counter()
        packages = [f"{library}=={release}"]
        if library == "transformers":
            packages.append(f"accelerate=={TRANSFORMERS[release]}")
        build_env(packages, target)
        print(f"{library} {release}: {target} ({time.perf_counter() - started:.0f} s)", flush=True)


# -- the battery -----------------------------------------------------------------------------------------------------

STEPS = 40
WORLD_SIZES = (1, 2, 8)

AUTO = EVERY_AUTO  # each value Trainer fills, written as "auto": the config the tests of Trainer's filling share
STAGE2 = {
    **AUTO,
    "zero_optimization": {"stage": 2, "reduce_bucket_size": "auto", "stage3_prefetch_bucket_size": "auto"},
}
PINNED = {
    **AUTO,
    "train_micro_batch_size_per_gpu": 4,
    "bf16": {"enabled": True},
    "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": "auto", "eps": "auto", "weight_decay": 0.0}},
}
WRITTEN = {  # a value at every option Trainer compares, none its default; the batch agrees with one process
    "train_batch_size": 8,
    "train_micro_batch_size_per_gpu": 4,
    "gradient_accumulation_steps": 2,
    "gradient_clipping": 0.5,
    "fp16": {"enabled": False},
    "bf16": {"enabled": True},
    "optimizer": {
        "type": "AdamW",
        "params": {"lr": 2e-5, "betas": [0.8, 0.95], "eps": 1e-6, "weight_decay": 0.1},
    },
    "scheduler": {
        "type": "WarmupLR",
        "params": {"warmup_max_lr": 2e-5, "warmup_num_steps": 7, "total_num_steps": STEPS},
    },
}
BATCH_ONLY = {"train_batch_size": 512, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": "auto"}
STRINGS = {"train_batch_size": "auto", "gradient_accumulation_steps": "8", "bf16": {"enabled": "true"}}
APEX = {**AUTO, "amp": {"enabled": "auto", "opt_level": "auto"}}
APEX_WRITTEN = {"train_batch_size": "auto", "amp": {"enabled": True, "opt_level": "O2"}}
FP16_WRITTEN = {"train_batch_size": "auto", "fp16": {"enabled": True}, "bf16": {"enabled": False}}

CONSTRUCTED: list[tuple[str, dict[str, Any], str]] = [
    ("auto-bf16", AUTO, "--per_device_train_batch_size 2 --gradient_accumulation_steps 4 --learning_rate 3e-5 --bf16"),
    ("auto-defaults", AUTO, ""),
    ("auto-stage2", STAGE2, "--per_device_train_batch_size 3 --fp16"),
    ("auto-flags", AUTO, "--per_device_train_batch_size=1 --bf16=true --max_grad_norm 0.3 --weight_decay 0.1"),
    ("auto-fp16-betas", AUTO, "--fp16 True --adam_beta1 0.8 --adam_beta2 0.95 --adam_epsilon 1e-6 --warmup_steps 7"),
    ("auto-warmup-fraction", AUTO, "--warmup_steps 0.25"),
    ("auto-warmup-ratio", AUTO, "--warmup_ratio 0.1"),
    ("auto-fp16-apex", APEX, "--fp16 --fp16_backend apex --fp16_opt_level O2"),
    ("auto-apex-unused", APEX, "--bf16"),
    ("apex-written", APEX_WRITTEN, ""),
    ("fp16-written", FP16_WRITTEN, "--bf16"),
    ("warmup-written-ratio", {**WRITTEN, "train_batch_size": "auto"}, "--warmup_ratio 0.2 --warmup_steps 7"),
    ("pinned-matches", PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16"),
    ("pinned-bf16-off", PINNED, "--per_device_train_batch_size 4 --learning_rate 2e-5 --bf16 False"),
    ("pinned-three-off", PINNED, "--per_device_train_batch_size 2 --learning_rate 1e-4 --weight_decay 0.01 --bf16"),
    ("pinned-micro-0", PINNED, "--per_device_train_batch_size 0 --learning_rate 2e-5 --bf16"),
    ("auto-micro-0", AUTO, "--per_device_train_batch_size 0 --bf16"),
    (
        "written-matches",
        WRITTEN,
        "--per_device_train_batch_size 4 --gradient_accumulation_steps 2 --learning_rate 2e-5 --adam_beta1 0.8 "
        "--adam_beta2 0.95 --adam_epsilon 1e-6 --weight_decay 0.1 --max_grad_norm 0.5 --warmup_steps 7 --bf16",
    ),
    ("written-defaults", WRITTEN, ""),
    ("batch-only", BATCH_ONLY, "--per_device_train_batch_size 2 --gradient_accumulation_steps 32"),
    ("strings", STRINGS, "--gradient_accumulation_steps 8 --bf16"),
]
"""(name, ds_config, Trainer's arguments beside ``--max_steps``): every launch each case runs with."""

REAL: list[tuple[str, int]] = [
    # a launch file of tests/data/launch, and the steps Trainer counts (the epochs over the data, where it runs them)
    ("llamafactory/examples/train_full/llama3_full_sft.yaml", 100),
    ("malaya/session/tiny-llama/run-instructions-16k-rag.sh", 100),
    ("finlora/lora/example_config.yml", 100),
]

ACCELERATE_SECTIONS: list[tuple[str, dict[str, Any]]] = [
    (
        "z3-offload",
        {"zero_stage": 3, "offload_optimizer_device": "cpu", "offload_param_device": "cpu", "zero3_init_flag": True},
    ),
    (
        "z2-steps-clip",
        {
            "zero_stage": 2,
            "gradient_accumulation_steps": 4,
            "gradient_clipping": 1.0,
            "offload_optimizer_device": "none",
        },
    ),
    ("z3-save-nvme", {"zero_stage": 3, "zero3_save_16bit_model": True, "offload_param_device": "nvme"}),
    (
        "z3-nvme-paths",
        {
            "zero_stage": 3,
            "offload_optimizer_device": "nvme",
            "offload_optimizer_nvme_path": "/nvme",
            "offload_param_device": "nvme",
            "offload_param_nvme_path": "/nvme",
        },
    ),
    ("z1-no-clip", {"zero_stage": 1, "gradient_clipping": 0.0}),
    ("empty", {}),
]
PRECISIONS = ("no", "fp16", "bf16", "fp8")


def _real_case(relative: str, steps: int, world_size: int) -> dict[str, Any]:
    """A launch file of tests/data/launch as its tool hands it to TrainingArguments: a script's argv (the
    parser leaves the script's own flags), LLaMA-Factory's YAML as a dict (extra keys allowed), axolotl's YAML through
    the names dsref maps (its "auto" bf16 as a GPU with bfloat16 makes it)."""
    import yaml

    from dsref.launch.read import read_launch

    path = LAUNCHES / relative
    text = path.read_text(encoding="utf-8")
    launch = read_launch(str(path), text)
    assert launch.ds_config_path is not None, relative
    config = json.loads(Path(launch.ds_config_path).read_text(encoding="utf-8"))
    case: dict[str, Any] = {
        "name": f"{relative}@{world_size}",
        "launch": relative,
        "config": config,
        "world_size": world_size,
        "steps": steps,
        "hidden_size": HIDDEN,
        "argv": None,
        "arguments": None,
        "set": {},
    }
    if path.suffix == ".sh":
        words = shlex.split(text.replace("\\\n", " "))
        argv = words[words.index("--deepspeed") :]
        at = argv.index("--deepspeed")
        case["argv"] = argv[:at] + argv[at + 2 :]
        return case
    data = yaml.safe_load(text)
    if "base_model" in data:
        case["argv"] = [f"--{name}={given.written or given.value}" for name, given in launch.arguments.items()]
        if "bf16" in launch.unknown:
            case["set"] = {"bf16": True}
        return case
    case["arguments"] = {k: v for k, v in data.items() if k != "deepspeed"}
    return case


def battery() -> dict[str, list[dict[str, Any]]]:
    trainer = []
    for name, config, arguments in CONSTRUCTED:
        for world_size in WORLD_SIZES:
            argv = ["--max_steps", str(STEPS), *shlex.split(arguments)]
            trainer.append(
                {
                    "name": f"{name}@{world_size}",
                    "launch": None,
                    "config": config,
                    "world_size": world_size,
                    "steps": STEPS,
                    "hidden_size": HIDDEN,
                    "argv": argv,
                    "arguments": None,
                    "set": {},
                }
            )
    for relative, steps in REAL:
        for world_size in (1, 8):
            trainer.append(_real_case(relative, steps, world_size))
    accelerate = [
        {"name": f"{name}/{precision}", "section": section, "mixed_precision": precision}
        for name, section in ACCELERATE_SECTIONS
        for precision in PRECISIONS
    ]
    for relative in (
        "trl/examples/accelerate_configs/deepspeed_zero3.yaml",
        "trl/examples/accelerate_configs/deepspeed_zero2.yaml",
    ):
        import yaml

        data = yaml.safe_load((LAUNCHES / relative).read_text(encoding="utf-8"))
        section = {k: v for k, v in (data.get("deepspeed_config") or {}).items() if k in PROBED_KEYS}
        accelerate.append(
            {
                "name": relative,
                "launch": relative,
                "section": section,
                "mixed_precision": str(data.get("mixed_precision", "no")),
            }
        )
    return {"trainer": trainer, "accelerate": accelerate}


PROBED_KEYS = (
    "zero_stage",
    "gradient_accumulation_steps",
    "gradient_clipping",
    "offload_optimizer_device",
    "offload_param_device",
    "offload_optimizer_nvme_path",
    "offload_param_nvme_path",
    "zero3_init_flag",
    "zero3_save_16bit_model",
)


# -- running the releases --------------------------------------------------------------------------------------------


def write_stubs() -> Path:
    """An empty ``apex`` package (with ``apex.amp``, which 4.55 to 4.57 import to check it): releases that check for
    Apex when ``fp16_backend`` is ``apex`` find it (their filling never uses it)."""
    stubs = SCRATCH / "stubs"
    (stubs / "apex").mkdir(parents=True, exist_ok=True)
    (stubs / "apex" / "__init__.py").write_text('"""Written by scripts/hf_releases.py: an empty stand-in."""\n')
    (stubs / "apex" / "amp.py").write_text('"""Written by scripts/hf_releases.py: an empty stand-in."""\n')
    (stubs / "apex-0.1.dist-info").mkdir(exist_ok=True)
    (stubs / "apex-0.1.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: apex\nVersion: 0.1\n")
    return stubs


def probe(target: Path | None, cases: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    env = dict(os.environ, DS_BUILD_OPS="0", DS_ACCELERATOR="cpu", PYTHONNOUSERSITE="1", TRANSFORMERS_VERBOSITY="error")
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env["PYTHONPATH"] = os.pathsep.join(
        [*([str(target)] if target else []), str(write_stubs()), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "hf_probe.py")],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{target}: {done.stderr[-3000:]}")
    return json.loads(done.stdout)


def _grouped(raw: dict[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Each case's results, each distinct one once with the releases that gave it (oldest first)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for release in sorted(raw, key=Version):
        for name, result in raw[release].items():
            groups = grouped.setdefault(name, [])
            same = next((g for g in groups if g["result"] == result), None)
            if same is None:
                groups.append({"releases": [release], "result": result})
            else:
                same["releases"].append(release)
    return grouped


def record(selected: list[str] | None) -> None:
    """Run each selected release on the battery (its results kept in the scratch folder, so releases can be run
    one at a time), then write the record from every release of the tables that has run on this battery."""
    cases = battery()
    fingerprint = json.dumps(cases, sort_keys=True)
    for library, release, target in environments(selected):
        started = time.perf_counter()
        kind = "trainer" if library == "transformers" else "accelerate"
        got = probe(target, {kind: cases[kind]})
        found = got["transformers"] if library == "transformers" else got["accelerate_release"]
        assert found == release, (library, found, release)
        kept = SCRATCH / f"results-{library}-{release}.json"
        kept.write_text(json.dumps({"battery": fingerprint, "results": got[kind]}))
        print(f"{library} {release}: recorded ({time.perf_counter() - started:.0f} s)", flush=True)
    raw: dict[str, dict[str, dict[str, Any]]] = {"transformers": {}, "accelerate": {}}
    for library, releases in (("transformers", list(TRANSFORMERS)), ("accelerate", list(ACCELERATE))):
        for release in releases:
            kept = SCRATCH / f"results-{library}-{release}.json"
            if kept.exists() and json.loads(kept.read_text())["battery"] == fingerprint:
                raw[library][release] = json.loads(kept.read_text())["results"]
    data = {
        "about": "Recorded by scripts/hf_releases.py from each release's own code: do not edit.",
        "battery": cases,
        "transformers": {
            "releases": {r: {"accelerate": TRANSFORMERS[r]} for r in sorted(raw["transformers"], key=Version)},
            "results": _grouped(raw["transformers"]),
        },
        "accelerate": {
            "releases": {r: {} for r in sorted(raw["accelerate"], key=Version)},
            "results": _grouped(raw["accelerate"]),
        },
    }
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    temporary = RECORD.with_suffix(".json.tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(RECORD)
    print(f"wrote {RECORD.relative_to(ROOT)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("steps", nargs="+", choices=("build", "record"))
    parser.add_argument(
        "--release", action="append", help="only this release: 4.45.0, transformers==4.45.0 or accelerate==1.0.1"
    )
    args = parser.parse_args(argv)
    if "build" in args.steps:
        build(args.release)
    if "record" in args.steps:
        record(args.release)
    return 0


if __name__ == "__main__":
    sys.exit(main())
