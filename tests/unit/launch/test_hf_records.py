"""dsref's filling against the record of what each transformers and Accelerate release does
(``tests/data/hf_releases.json``, written by ``scripts/hf_releases.py`` from the releases' own code): for every
recorded release and every case of its battery (constructed launches and real launch files, on 1, 2 and 8
processes), the config dsref fills and the mismatches it predicts (DS589, DS588) are the release's, and the
``deepspeed_config`` section of an Accelerate config builds the ds_config each Accelerate release's plugin builds.
``tests/functional/test_hf_records_live.py`` holds the installed releases against the same record."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dsref.schema import HfAuto, HfChange
from dsref.tree.options import OptionTree, option_tree
from dsref.tree.profiles import release_number
from tests import hf_records

APEX = "dsref reads neither --fp16_backend nor --fp16_opt_level: Apex, which transformers 5 dropped"
"""Why the Apex cases' ``amp`` keys and ``fp16.enabled`` are not compared: what the releases did there is held
against the schema's facts instead (:func:`test_the_names_trainer_gives_are_the_facts`)."""
APEX_PATHS = ("amp.", "fp16.enabled")

REFUSED = {
    # (case, the releases that refuse it): why the release's TrainingArguments refuse the launch's arguments
    ("auto-warmup-fraction", "before 5.0.0"): "warmup_steps is an integer before transformers 5 (a fraction is "
    "refused); dsref reads the arguments as the newest release types them",
}


@pytest.fixture(scope="module")
def tree() -> OptionTree:
    return option_tree()


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return hf_records.model_folder(tmp_path_factory.mktemp("hf"), _hidden())


def _hidden() -> int:
    sizes = {case["hidden_size"] for case in hf_records.record()["battery"]["trainer"]}
    assert len(sizes) == 1
    return int(sizes.pop())


def _in_force(hf: HfAuto, release: str) -> HfChange | None:
    """The change of transformers that ``release`` predates, the earliest (None: it fills as the newest)."""
    number = release_number(release) or (0, 0, 0)
    later = [c for c in hf.changes if c.by == "transformers" and number < (release_number(c.release) or (0, 0, 0))]
    return min(later, key=lambda c: release_number(c.release) or (0, 0, 0)) if later else None


def _facts_at(tree: OptionTree, release: str) -> tuple[Any, ...]:
    """The schema's facts that decide dsref's filling at ``release``: the change each option is at. Releases with
    the same facts get the same answer from dsref, so it is worked out once for each."""
    return tuple(
        (opt.path, None if (change := _in_force(opt.meta.hf_auto, release)) is None else change.release)
        for opt in tree
        if opt.meta.hf_auto is not None
    )


_ANSWERS: dict[tuple[Any, ...], dict[str, Any]] = {}


def _dsref(case: dict[str, Any], release: str, tree: OptionTree, model: Path) -> dict[str, Any]:
    key = (case["name"], _facts_at(tree, release))
    if key not in _ANSWERS:
        _ANSWERS[key] = hf_records.dsref_trainer(case, release, tree, model)
    return _ANSWERS[key]


def _leaves(config: Any, path: str = "") -> dict[str, Any]:
    if not isinstance(config, dict):
        return {path: config}
    found: dict[str, Any] = {}
    for key, value in config.items():
        found.update(_leaves(value, f"{path}.{key}" if path else key))
    return found


def differences(case: dict[str, Any], release: str, result: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """Where dsref's answer for ``case`` at ``release`` is not the release's ``result``: each value filled (what dsref
    leaves to the launch's unsaid part must be filled by the release, with anything), then each mismatch Trainer
    raises, as (option, its value)."""
    skipped = APEX_PATHS if "apex" in case["name"] else ()
    theirs, filled = _leaves(result["config"]), _leaves(ours["config"])
    found = []
    for path in sorted(set(theirs) | set(filled)):
        if path.startswith(skipped):
            continue
        if path in ours["unknown"]:
            if theirs.get(path, "auto") == "auto":
                found.append(f"{path}: dsref says the launch does not decide it; {release} leaves it auto")
            continue
        mine, real = filled.get(path, "<absent>"), theirs.get(path, "<absent>")
        if mine != real or type(mine) is not type(real):
            found.append(f"{path}: dsref fills {mine!r}, {release} {real!r}")
    raised = sorted(
        (path, value)
        for path, _name, value in map(hf_records.mismatch, result["mismatches"])
        if not path.startswith(skipped)
    )
    said = sorted((path, value) for path, _name, value in ours["mismatches"])
    if {p for p, _ in said} != {p for p, _ in raised} or any(v and (p, v) not in raised for p, v in said):
        found.append(f"mismatches: dsref {said}, {release} {raised}")  # DS588 names no value: the path alone
    return found


def _refused_reason(name: str, release: str) -> str | None:
    base = name.split("@")[0]
    for (case, when), reason in REFUSED.items():
        if case == base and when.startswith("before ") and release_number(release) < release_number(when[7:]):  # type: ignore[operator]
            return reason
    return None


RELEASES = list(hf_records.record()["transformers"]["releases"])


@pytest.mark.parametrize("release", RELEASES)
def test_dsref_fills_and_refuses_as_each_recorded_transformers(release: str, tree: OptionTree, model: Path) -> None:
    checked = 0
    for at, case, name, result in hf_records.results("transformers"):
        if at != release:
            continue
        reason = _refused_reason(name, release)
        if "refused_by" in result:
            assert reason is not None, (name, result)  # a refusal the test does not know of
            continue
        assert reason is None, f"{name}: recorded as accepted at {release}, but {reason}"
        assert differences(case, release, result, _dsref(case, release, tree, model)) == [], name
        checked += 1
    assert checked >= 50  # the battery ran on this release


def test_the_record_covers_each_change_of_the_filling_on_both_sides(tree: OptionTree) -> None:
    """Each release at which the schema says transformers' filling changed is recorded, and so is the release just
    before it: the record shows both sides."""
    recorded = [release_number(r) for r in RELEASES]
    for opt in tree:
        for change in opt.meta.hf_auto.changes if opt.meta.hf_auto is not None else ():
            if change.by != "transformers" or release_number(change.release) < recorded[0]:  # type: ignore[operator]
                continue
            number = release_number(change.release)
            assert number in recorded, (opt.path, change.release)
            assert any(r < number for r in recorded), (opt.path, change.release)  # type: ignore[operator]


def test_the_names_trainer_gives_are_the_facts(tree: OptionTree) -> None:
    """Each mismatch line a release raises names the argument as the schema's facts name it at that release
    (``HfChange.compared`` where older releases name it otherwise), the Apex keys included."""
    seen = set()
    for release, _case, _name, result in hf_records.results("transformers"):
        for line in result.get("mismatches", ()):
            path, name, _value = hf_records.mismatch(line)
            hf = tree.get(path).meta.hf_auto
            assert hf is not None, path
            change = _in_force(hf, release)
            assert name == (change.compared if change is not None and change.compared else hf.compared), line
            seen.add((path, name))
    assert ("fp16.enabled", "fp16|fp16_full_eval+fp16_backend(amp)") in seen  # both sides of 5.0 are recorded
    assert ("fp16.enabled", "fp16|fp16_full_eval") in seen


def test_the_apex_cases_fill_as_the_facts_say() -> None:
    """What dsref leaves out (:data:`APEX`), the record still shows as the facts say: transformers before 5 fills
    amp from --fp16 with the Apex backend and leaves fp16 off; 5 and later fill no amp key."""
    for release, _case, name, result in hf_records.results("transformers"):
        if not name.startswith("auto-fp16-apex@") or "config" not in result:
            continue
        config = result["config"]
        if release_number(release) < (5, 0, 0):  # type: ignore[operator]
            assert config["amp"] == {"enabled": True, "opt_level": "O2"} and config["fp16"]["enabled"] is False
        else:
            assert config["amp"] == {"enabled": "auto", "opt_level": "auto"} and config["fp16"]["enabled"] is True


@pytest.mark.parametrize(
    "mutate",
    [
        lambda r: r["config"]["zero_optimization"].__setitem__("reduce_bucket_size", 4097),
        lambda r: r["config"].__setitem__("train_batch_size", r["config"]["train_batch_size"] * 2),
        lambda r: r["mismatches"].append("- ds train_batch_size=8 vs hf train_batch_size (calculated)=16"),
        lambda r: r["config"]["scheduler"]["params"].__setitem__("warmup_num_steps", 3),
    ],
)
def test_a_changed_record_entry_fails(mutate: Any, tree: OptionTree, model: Path) -> None:
    release, case, _name, result = next(
        item for item in hf_records.results("transformers") if item[2] == "auto-bf16@2" and "config" in item[3]
    )
    ours = _dsref(case, release, tree, model)
    assert differences(case, release, result, ours) == []
    changed = copy.deepcopy(result)
    mutate(changed)
    assert differences(case, release, changed, ours) != []


def test_the_battery_is_the_launch_files_as_they_are_now() -> None:
    """A real launch file of the battery still names the ds_config the record ran (else: record again)."""
    from dsref.launch.read import read_launch

    for case in hf_records.record()["battery"]["trainer"]:
        if case["launch"] is None:
            continue
        path = hf_records.LAUNCHES / case["launch"]
        launch = read_launch(str(path), path.read_text(encoding="utf-8"))
        assert launch.ds_config_path is not None
        assert json.loads(Path(launch.ds_config_path).read_text(encoding="utf-8")) == case["config"], case["name"]


# -- Accelerate ------------------------------------------------------------------------------------------------------

ACCELERATE = list(hf_records.record()["accelerate"]["releases"])


def _plugin_config(result: dict[str, Any]) -> dict[str, Any]:
    config = dict(result["config"])
    assert config.pop("steps_per_print") == "inf"  # float("inf"): Accelerate's way to keep DeepSpeed quiet
    return config


@pytest.mark.parametrize("release", ACCELERATE)
def test_dsref_builds_the_config_each_recorded_accelerate_builds(release: str) -> None:
    checked = 0
    for at, case, name, result in hf_records.results("accelerate"):
        if at != release:
            continue
        assert "config" in result, (name, result)
        assert hf_records.dsref_accelerate(case, release) == _plugin_config(result), name
        checked += 1
    assert checked == len(hf_records.record()["battery"]["accelerate"])


def test_the_record_covers_each_change_of_the_plugin_on_both_sides() -> None:
    from dsref.launch.accelerate import PLUGIN_CHANGES

    recorded = [release_number(r) for r in ACCELERATE]
    for change in PLUGIN_CHANGES:
        number = release_number(change.release)
        assert number in recorded and any(r < number for r in recorded), change  # type: ignore[operator]
