"""What each release does with each option, from the one-option battery run on the release itself.

:mod:`.release_battery` builds the battery from the schema; the probe (``release_probe.py behaviour``) builds each
config with the release's ``DeepSpeedConfig`` and reports, per option, whether the release reads it, its default
there and its verdict on each variant. The raw report of each release is kept in the scratch folder
(``<scratch>/behaviour/<release>.json``), so that releases are probed one at a time and the committed file is
written from every release probed so far:

``dsref/generated/releases/behaviour.json``::

    {"releases": [...],            # the releases probed, oldest first
     "errors": [...],              # each error text once
     "configs": {path: {variant: sha}},   # the first digits of the sha256 of each battery config
     "values": {path: {variant: value}},  # the value each variant writes
     "options": {path: [[first release, reads, default, {variant: error index or null}], ...]}}

Each option's list holds runs of releases that behave alike, each lasting until the next (as ``verdicts.json``).
``reads`` is true, false or null (the probe could not tell); ``default`` is the value the release uses when the
option is not written, or ``"<unknown>"`` where the probe could not find it in the built object.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from ..tree.options import OptionTree
from ..tree.versions import parse_version
from .line_json import write_by_lines
from .release_battery import battery
from .release_env import DEFAULT_SCRATCH, build, run_in_release

BEHAVIOUR_FILE = Path(__file__).resolve().parents[1] / "generated" / "releases" / "behaviour.json"
UNKNOWN = "<unknown>"
_ERROR_CHARS = 160


def config_sha(config: Any) -> str:
    """The first 12 hex digits of the sha256 of ``config`` as canonical JSON."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def raw_behaviour_path(release: str, scratch: Path = DEFAULT_SCRATCH) -> Path:
    return scratch / "behaviour" / f"{release}.json"


def probe_behaviour(
    release: str, tree: OptionTree, scratch: Path = DEFAULT_SCRATCH, *, again: bool = False
) -> dict[str, Any]:
    """Run the battery on ``release`` (installed first when needed); its raw report, also kept in the scratch.

    A report kept from an earlier run is reused for every option whose battery configs are the same (by sha256):
    only options added or changed since are run again, unless ``again``."""
    items = battery(tree)
    configs = {path: {v: config_sha(c) for v, c in item["configs"].items()} for path, item in items.items()}
    path = raw_behaviour_path(release, scratch)
    kept: dict[str, Any] = {}
    if path.exists() and not again:
        old = json.loads(path.read_text(encoding="utf-8"))
        kept = {p: found for p, found in old["options"].items() if old["configs"].get(p) == configs.get(p)}
    wanted = {p: item for p, item in items.items() if p not in kept}
    report: dict[str, Any] = {"release": release, "options": {}}
    if wanted:
        env = build(release, scratch)
        report = run_in_release(env, "behaviour", {"battery": wanted})
        assert report["release"] == release, f"asked for DeepSpeed {release}, the probe ran {report['release']}"
    report["options"] = {p: {**kept, **report["options"]}[p] for p in items}
    report["configs"] = configs
    report["values"] = {p: item["values"] for p, item in items.items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=1, sort_keys=True), encoding="utf-8")
    return report


def _default(found: Any) -> Any:
    if not isinstance(found, dict):
        return UNKNOWN
    if "same_as_written" in found:
        return found["same_as_written"]
    if "value" in found:
        return found["value"]
    return UNKNOWN


def compact_behaviour(reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The reports of the releases probed, as ``behaviour.json`` holds them (module docstring)."""
    releases = sorted(reports, key=parse_version)
    newest = reports[releases[-1]]
    errors = sorted(
        {
            str(error)[:_ERROR_CHARS]
            for report in reports.values()
            for option in report["options"].values()
            for error in option["verdicts"].values()
            if error is not None
        }
    )
    index = {error: n for n, error in enumerate(errors)}
    options: dict[str, list[list[Any]]] = {}
    for path in sorted(newest["options"]):
        runs: list[list[Any]] = []
        for release in releases:
            found = reports[release]["options"].get(path)
            if found is None:
                continue
            verdicts = {
                variant: None if error is None else index[str(error)[:_ERROR_CHARS]]
                for variant, error in sorted(found["verdicts"].items())
            }
            entry = [found.get("reads"), _default(found.get("default")) if found.get("reads") else None, verdicts]
            if not runs or runs[-1][1:] != entry:
                runs.append([release, *entry])
        options[path] = runs
    return {
        "header": "Recorded from the DeepSpeed releases themselves by `python scripts/releases.py behaviour` "
        "(dsref/generator/release_behaviour.py): do not edit.",
        "releases": releases,
        "errors": errors,
        "configs": newest["configs"],
        "values": newest["values"],
        "options": options,
    }


def probed_reports(scratch: Path = DEFAULT_SCRATCH) -> dict[str, dict[str, Any]]:
    """The raw reports kept in the scratch folder, by release."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((scratch / "behaviour").glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        found[report["release"]] = report
    return found


def write_behaviour(reports: dict[str, dict[str, Any]], path: Path = BEHAVIOUR_FILE) -> Path:
    """``behaviour.json``, one option a line so that two runs diff readably."""
    return write_by_lines(path, compact_behaviour(reports))
