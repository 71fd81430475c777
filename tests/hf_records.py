"""The record of what each transformers and Accelerate release does with a ds_config (``tests/data/hf_releases.json``,
written by ``scripts/hf_releases.py`` from the releases themselves), and dsref's answer to each of its cases, for the
tests that hold one against the other (``tests/unit/launch/test_hf_records.py``) and the installed releases against
their record (``tests/functional/test_hf_records_live.py``)."""

from __future__ import annotations

import json
import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

from dsref.check.findings import Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.launch.accelerate import read_accelerate
from dsref.launch.read import read_launch
from dsref.launch.trainer import trainer_fill
from dsref.tree.options import OptionTree
from dsref.tree.profiles import HfReleases

DATA = Path(__file__).parent / "data"
RECORD = DATA / "hf_releases.json"
LAUNCHES = DATA / "launch"

_MISMATCH = re.compile(r"^- ds (?P<path>\S+?)=(?P<ds>.*) vs hf (?P<name>.+?)=(?P<hf>[^=]*)$")


@cache
def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text(encoding="utf-8"))
    return data


def results(library: str) -> list[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    """(release, case, the release's result) for every recorded release of ``library`` ("transformers" or
    "accelerate") and every case of the battery it ran: the record keeps each result once, with the releases that
    gave it."""
    data = record()
    cases = {c["name"]: c for c in data["battery"]["trainer" if library == "transformers" else "accelerate"]}
    found = []
    for name, groups in data[library]["results"].items():
        for group in groups:
            for release in group["releases"]:
                found.append((release, cases[name], name, group["result"]))
    return found


def mismatch(line: str) -> tuple[str, str, str]:
    """A line of Trainer's mismatch error as (option, the name Trainer gives the argument, the argument's value)."""
    matched = _MISMATCH.match(line)
    assert matched is not None, line
    return matched["path"], matched["name"], matched["hf"]


def trainer_launch_text(case: dict[str, Any], model: Path) -> tuple[str, str]:
    """The launch file's path and text dsref reads for a Trainer case: a real launch file as it is, a constructed
    case as a ``python`` line with the case's arguments and a local model folder (its hidden size)."""
    if case["launch"] is not None:
        path = LAUNCHES / case["launch"]
        return str(path), path.read_text(encoding="utf-8")
    words = " ".join(shlex.quote(w) for w in case["argv"])
    return str(model.parent / "run.sh"), f"python train.py --deepspeed ds.json --model_name_or_path {model} {words}\n"


def model_folder(folder: Path, hidden_size: int) -> Path:
    model = folder / "model"
    model.mkdir(parents=True, exist_ok=True)
    (model / "config.json").write_text(json.dumps({"hidden_size": hidden_size}))
    return model


def dsref_trainer(case: dict[str, Any], release: str, tree: OptionTree, model: Path) -> dict[str, Any]:
    """dsref's answer for a Trainer case as ``release`` fills it: the config with what the launch decides filled,
    the options it leaves to what the launch does not say, the mismatches it predicts (DS589: option, argument,
    value; DS588, a string no launch matches: option and argument), and the other errors it finds in the filled
    config (DeepSpeed's refusals, predicted)."""
    path, text = trainer_launch_text(case, model)
    launch = read_launch(path, text)
    if case["launch"] is not None and launch.hidden_size is None:
        from dataclasses import replace

        launch = replace(launch, hidden_size=case["hidden_size"])
    world_size = case["world_size"]
    filling = trainer_fill(case["config"], launch, world_size, tree, release)
    settings = CheckSettings("hf", world_size, hugging_face=HfReleases(transformers=release), launch=launch)
    report = check_text(json.dumps(case["config"]), "ds.json", settings)
    mismatches = sorted(
        (f.option or "", str(f.args.get("argument", "")), str(f.args["given"]) if f.code == "DS589" else "")
        for f in report.findings
        if f.code in ("DS589", "DS588")
    )
    errors = sorted(
        {f.code for f in report.findings if f.severity is Severity.error and f.code not in ("DS589", "DS588")}
    )
    return {
        "config": filling.config,
        "unknown": sorted(u.path for u in filling.unknown),
        "mismatches": mismatches,
        "errors": errors,
    }


def at(config: Any, path: str) -> Any:
    node = config
    for key in path.split("."):
        node = node[key]
    return node


def dsref_accelerate(case: dict[str, Any], release: str | None) -> dict[str, Any] | None:
    """The ds_config dsref says Accelerate ``release``'s plugin builds from an Accelerate config with the case's
    ``deepspeed_config`` section and ``mixed_precision``; None where dsref builds none."""
    import yaml

    text = yaml.safe_dump(
        {
            "distributed_type": "DEEPSPEED",
            "deepspeed_config": case["section"],
            "mixed_precision": case["mixed_precision"],
            "num_processes": 2,
        }
    )
    launch = read_accelerate(yaml.compose(text), "accelerate.yaml", text, release=release)
    return None if launch.built is None else launch.built.config
