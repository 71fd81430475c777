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

A rule DeepSpeed checks only when the engine starts (``_configure_optimizer``, ``_scheduler_from_config``, the ZeRO
optimizers' checks) accepts its example there. ``release_probe.py engine`` starts an engine with each rule's example
and repair instead (``deepspeed.initialize`` of a one-layer model on the CPU, one process over gloo; see
``release_probe._start_engines`` for what stands in for the device), for every rule whose example is a plain config
of a world of one, warnings and advice included:

``dsref/generated/releases/engine.json``::

    {"releases": [...], "outcomes": [...],  # each outcome once: {"error", "raised_at"} or {"optimizer", "scheduler"}
     "configs": {code: {variant: sha}},
     "rules": {code: [[first release, {variant: outcome index}], ...]}}

(:mod:`dsref.tree.rule_releases` decides from both files where each rule holds.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..check.findings import Severity
from ..check.rules import Scope, all_rules
from ..records import record
from ..tree.rule_releases import EngineOutcome, Proof, engine_proves, proven_by
from ..tree.versions import DEEPSPEED_VERSION, parse_version
from .line_json import write_by_lines
from .release_behaviour import config_sha
from .release_env import DEFAULT_SCRATCH, build, run_in_release

RULES_FILE = Path(__file__).resolve().parents[1] / "generated" / "releases" / "rules.json"
ENGINE_FILE = RULES_FILE.with_name("engine.json")
_ERROR_CHARS = 160


def rule_configs(*, engine: bool = False) -> dict[str, dict[str, dict[str, Any]]]:
    """Rule code → variant (``example``, ``repaired``) → ``{"config": ..., "world_size": N or None}``, for each
    rule of severity error whose example is a plain JSON config as DeepSpeed reads it (not one Hugging Face fills
    first). With ``engine``: for each rule of any severity about what DeepSpeed does (:class:`Scope`) whose
    example is such a config of a world of one (an engine of one process cannot be told it has more)."""
    found: dict[str, dict[str, dict[str, Any]]] = {}
    for each in all_rules():
        example = each.example
        if example is None or example.hf:
            continue
        if engine and (example.world_size not in (None, 1) or each.scope is not Scope.deepspeed):
            continue  # an engine of one process cannot be told it has more; advice is no behaviour to start
        if not engine and each.severity is not Severity.error:
            continue  # a warning or advice is not a refusal: no verdict of the config's can prove it
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


@record
class RuleProbe:
    """One way of probing the rules' configs with a release: the probe's command (also the scratch folder's name),
    the file it writes, and what that file calls the verdicts it lists."""

    command: str
    path: Path
    listed: str
    """``errors`` (each error text; a config taken is null) or ``outcomes`` (each outcome, a mapping)."""

    @property
    def engine(self) -> bool:
        return self.command == "engine"


READ = RuleProbe("rules", RULES_FILE, "errors")
"""Each config built with the release's ``DeepSpeedConfig``: what it refuses while it reads the config."""
ENGINE = RuleProbe("engine", ENGINE_FILE, "outcomes")
"""Each config started as an engine: what it refuses, or builds, when the engine starts."""


def raw_rules_path(release: str, scratch: Path = DEFAULT_SCRATCH, probe: RuleProbe = READ) -> Path:
    return scratch / probe.command / f"{release}.json"


def probe_rules(
    release: str, scratch: Path = DEFAULT_SCRATCH, *, again: bool = False, probe: RuleProbe = READ
) -> dict[str, Any]:
    """The release's verdicts on every rule's configs (installed first when needed), kept in the scratch folder;
    configs judged before (by sha256) are not built again unless ``again``."""
    items = rule_configs(engine=probe.engine)
    if probe.engine and release != DEEPSPEED_VERSION:
        proven = engine_proven(probe_rules(DEEPSPEED_VERSION, scratch, probe=probe))
        items = {code: v for code, v in items.items() if code in proven and proven_by(code) is not Proof.read}
    shas = {code: {v: config_sha(item) for v, item in variants.items()} for code, variants in items.items()}
    path = raw_rules_path(release, scratch, probe)
    kept: dict[str, dict[str, Any]] = {}
    if path.exists() and not again:
        old = json.loads(path.read_text(encoding="utf-8"))
        kept = {code: old["rules"][code] for code in old["rules"] if old["configs"].get(code) == shas.get(code)}
    wanted = {
        f"{code} {variant}": item
        for code, variants in items.items()
        if code not in kept
        for variant, item in variants.items()
    }
    judged: dict[str, dict[str, Any]] = dict(kept)
    if wanted:
        env = build(release, scratch)  # the installed release: only the stand-ins folder it runs in
        report = run_in_release(env, probe.command, {"configs": wanted})
        assert report["release"] == release, f"asked for DeepSpeed {release}, the probe ran {report['release']}"
        for label, verdict in report["verdicts"].items():
            code, variant = label.split(" ", 1)
            judged.setdefault(code, {})[variant] = verdict
    result = {"release": release, "configs": shas, "rules": {code: judged[code] for code in sorted(items)}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    return result


def engine_proven(report: dict[str, Any]) -> set[str]:
    """The rules an engine report proves (:func:`dsref.tree.rule_releases.engine_proves`). :func:`probe_rules`
    starts the other releases only with these (0.19.8 shows nothing about the others to compare with), less those
    the config's verdicts prove already."""
    return {
        code
        for code, variants in report["rules"].items()
        if "repaired" in variants
        and engine_proves(EngineOutcome(**variants["example"]), EngineOutcome(**variants["repaired"]))
    }


def probed_rule_reports(scratch: Path = DEFAULT_SCRATCH, probe: RuleProbe = READ) -> dict[str, dict[str, Any]]:
    """The raw reports kept in the scratch folder, by release."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted((scratch / probe.command).glob("*.json")):
        report = json.loads(path.read_text(encoding="utf-8"))
        found[report["release"]] = report
    return found


def _shown(verdict: Any) -> Any:
    """A verdict as the committed file keeps it: an error's text cut short (and an engine's error too)."""
    if isinstance(verdict, str):
        return verdict[:_ERROR_CHARS]
    if isinstance(verdict, dict) and isinstance(verdict.get("error"), str):
        return {**verdict, "error": verdict["error"][:_ERROR_CHARS]}
    return verdict


def _key(verdict: Any) -> str:
    return json.dumps(verdict, sort_keys=True)


def compact_rules(reports: dict[str, dict[str, Any]], probe: RuleProbe = READ) -> dict[str, Any]:
    """The reports as the probe's file holds them (module docstring); only the configs the newest report probed."""
    releases = sorted(reports, key=parse_version)
    newest = reports[releases[-1]]
    shown = {
        _key(_shown(verdict)): _shown(verdict)
        for report in reports.values()
        for code, variants in report["rules"].items()
        if report["configs"].get(code) == newest["configs"].get(code)
        for verdict in variants.values()
        if verdict is not None
    }
    order = sorted(shown)
    index = {key: n for n, key in enumerate(order)}
    rules: dict[str, list[list[Any]]] = {}
    for code in sorted(newest["rules"]):
        runs: list[list[Any]] = []
        for release in releases:
            report = reports[release]
            if report["configs"].get(code) != newest["configs"][code]:
                continue  # probed with other configs: not comparable
            verdicts = {
                variant: None if verdict is None else index[_key(_shown(verdict))]
                for variant, verdict in sorted(report["rules"][code].items())
            }
            if not runs or runs[-1][1] != verdicts:
                runs.append([release, verdicts])
        rules[code] = runs
    data: dict[str, Any] = {
        "header": f"Recorded from the DeepSpeed releases themselves by `python scripts/releases.py {probe.command}` "
        "(dsref/generator/release_rules.py): do not edit.",
        "releases": releases,
        probe.listed: [shown[key] for key in order],
        "configs": newest["configs"],
    }
    if not probe.engine:
        data["about"] = {
            code: paths for code, variants in rule_configs().items() if (paths := repaired_paths(variants))
        }
        data["retired"] = sorted(r.code for r in all_rules() if r.retired and r.code in rules)
    data["rules"] = rules
    return data


def write_rules(reports: dict[str, dict[str, Any]], probe: RuleProbe = READ) -> Path:
    """The probe's file, one rule a line so that two runs diff readably."""
    return write_by_lines(probe.path, compact_rules(reports, probe))
