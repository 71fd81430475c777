"""Where each cross-field rule holds, from the releases themselves: each rule's example config (which sets the rule
off) and its repaired config, built with each release's ``DeepSpeedConfig`` (``release_probe.py rules``).

A rule that DeepSpeed 0.19.8 enforces while it reads the config (its ``_do_error_check``, the batch assertion, a
config validator) refuses the example and takes the repair there; each release's verdicts on the same two configs
then say whether that release makes the same check (:mod:`dsref.tree.rule_releases` reads them). The raw report of
each release is kept in the scratch folder (``<scratch>/rules/<release>.json``), so that releases are probed one
at a time and the committed file is written from every release probed so far:

``dsref/generated/releases/rules.json``::

    {"releases": [...],                    # the releases probed, oldest first
     "errors": [...],                      # each error text once
     "configs": {code: {variant: sha}},    # the first digits of the sha256 of each config probed
     "about": {code: [path, ...]},         # the options the repair changes: what the rule is about
     "retired": [code, ...],               # rules about a check only older releases make
     "rules": {code: [[first release, {variant: error index or null}], ...]}}

Each rule's list holds runs of releases that judge its configs alike, each lasting until the next (as
``verdicts.json``). The variants are ``example`` and ``repaired`` (where the rule's example has a repair written by
hand); a config is built with the example's world size (``mpu`` answering the data-parallel size) where it has one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..check.findings import Severity
from ..check.rules import all_rules
from ..tree.versions import DEEPSPEED_VERSION, parse_version
from .line_json import write_by_lines
from .release_behaviour import config_sha
from .release_env import DEFAULT_SCRATCH, build, release_env, run_in_release

RULES_FILE = Path(__file__).resolve().parents[1] / "generated" / "releases" / "rules.json"
_ERROR_CHARS = 160


def rule_configs() -> dict[str, dict[str, dict[str, Any]]]:
    """Rule code → variant (``example``, ``repaired``) → ``{"config": ..., "world_size": N or None}``, for each
    rule of severity error whose example is a plain JSON config as DeepSpeed reads it (not one Hugging Face fills
    first)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for each in all_rules():
        example = each.example
        if example is None or example.hf or each.severity is not Severity.error:
            continue  # a warning or advice is not a refusal: no verdict of DeepSpeed's can prove it
        texts = {"example": example.text, "repaired": example.repaired_text}
        variants: dict[str, dict[str, Any]] = {}
        for variant, text in texts.items():
            if text is None:
                continue
            try:
                config = json.loads(text)
            except ValueError:
                continue
            if isinstance(config, dict):
                variants[variant] = {"config": config, "world_size": example.world_size}
        if "example" in variants:
            found[each.code] = variants
    return found


def _leaves(config: Any, prefix: str = "") -> dict[str, str]:
    if not isinstance(config, dict):
        return {prefix: json.dumps(config, sort_keys=True)}
    found: dict[str, str] = {}
    for key, value in config.items():
        found.update(_leaves(value, f"{prefix}.{key}" if prefix else key))
    return found


def repaired_paths(variants: dict[str, dict[str, Any]]) -> list[str]:
    """The options the repair of a rule's example changes or removes (what the rule is about), sorted; none where
    the example has no repair written by hand."""
    if "repaired" not in variants:
        return []
    before, after = _leaves(variants["example"]["config"]), _leaves(variants["repaired"]["config"])
    return sorted(path for path, value in before.items() if after.get(path) != value)


def raw_rules_path(release: str, scratch: Path = DEFAULT_SCRATCH) -> Path:
    return scratch / "rules" / f"{release}.json"


def probe_rules(release: str, scratch: Path = DEFAULT_SCRATCH, *, again: bool = False) -> dict[str, Any]:
    """The release's verdicts on every rule's configs (installed first when needed), kept in the scratch folder;
    configs judged before (by sha256) are not built again unless ``again``."""
    items = rule_configs()
    shas = {code: {v: config_sha(item) for v, item in variants.items()} for code, variants in items.items()}
    path = raw_rules_path(release, scratch)
    kept: dict[str, dict[str, str | None]] = {}
    if path.exists() and not again:
        old = json.loads(path.read_text(encoding="utf-8"))
        kept = {code: old["rules"][code] for code in old["rules"] if old["configs"].get(code) == shas.get(code)}
    wanted = {
        f"{code} {variant}": item
        for code, variants in items.items()
        if code not in kept
        for variant, item in variants.items()
    }
    judged: dict[str, dict[str, str | None]] = dict(kept)
    if wanted:
        env = build(release, scratch) if release != DEEPSPEED_VERSION else release_env(release, scratch)
        report = run_in_release(env, "rules", {"configs": wanted})
        assert report["release"] == release, f"asked for DeepSpeed {release}, the probe ran {report['release']}"
        for label, error in report["verdicts"].items():
            code, variant = label.split(" ", 1)
            judged.setdefault(code, {})[variant] = error
    result = {"release": release, "configs": shas, "rules": {code: judged[code] for code in sorted(items)}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    return result


def probed_rule_reports(scratch: Path = DEFAULT_SCRATCH) -> dict[str, dict[str, Any]]:
    """The raw reports kept in the scratch folder, by release."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((scratch / "rules").glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        found[report["release"]] = report
    return found


def compact_rules(reports: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The reports as ``rules.json`` holds them (module docstring); only the configs the newest report probed."""
    releases = sorted(reports, key=parse_version)
    newest = reports[releases[-1]]
    errors = sorted(
        {
            str(error)[:_ERROR_CHARS]
            for report in reports.values()
            for code, variants in report["rules"].items()
            if report["configs"].get(code) == newest["configs"].get(code)
            for error in variants.values()
            if error is not None
        }
    )
    index = {error: n for n, error in enumerate(errors)}
    rules: dict[str, list[list[Any]]] = {}
    for code in sorted(newest["rules"]):
        runs: list[list[Any]] = []
        for release in releases:
            report = reports[release]
            if report["configs"].get(code) != newest["configs"][code]:
                continue  # probed with other configs: not comparable
            verdicts = {
                variant: None if error is None else index[str(error)[:_ERROR_CHARS]]
                for variant, error in sorted(report["rules"][code].items())
            }
            if not runs or runs[-1][1] != verdicts:
                runs.append([release, verdicts])
        rules[code] = runs
    return {
        "header": "Recorded from the DeepSpeed releases themselves by `python scripts/releases.py rules` "
        "(dsref/generator/release_rules.py): do not edit.",
        "releases": releases,
        "errors": errors,
        "configs": newest["configs"],
        "about": {code: paths for code, variants in rule_configs().items() if (paths := repaired_paths(variants))},
        "retired": sorted(r.code for r in all_rules() if r.retired and r.code in rules),
        "rules": rules,
    }


def write_rules(reports: dict[str, dict[str, Any]], path: Path = RULES_FILE) -> Path:
    """``rules.json``, one rule a line so that two runs diff readably."""
    return write_by_lines(path, compact_rules(reports))
