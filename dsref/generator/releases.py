"""What each DeepSpeed release does with a config, recorded from the releases themselves.

``scripts/releases.py`` drives it: :mod:`.release_env` installs each release of :data:`RELEASES` into a scratch
folder, :mod:`.release_probe` runs inside it, and this module turns what the probe reports into the committed data
under ``dsref/generated/releases/``:

* ``<release>.json``: that release's config facts recorded as differences from DeepSpeed 0.19.8's (the release the
  schema describes): model fields absent or added, other defaults, types, aliases or constraints, sections that
  refuse unknown keys or not, keys ``DeepSpeedConfig`` reads with ``dict.get`` and their defaults, scheduler
  defaults, optimizer names, and the verdicts on small probe configs;
* ``verdicts.json``: whether each release's ``DeepSpeedConfig`` accepts each config of the corpus, keyed by the
  file's sha256 (the data holds no corpus text), with the error when it refuses.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..schema import UNSET
from ..tree.index import GENERATED_DIR
from ..tree.options import OptionTree
from ..tree.versions import DEEPSPEED_VERSION, parse_version
from .line_json import write_by_lines
from .release_env import DEFAULT_SCRATCH, build, release_env, run_in_release

RELEASES_DIR = Path(GENERATED_DIR) / "releases"
VERDICTS_FILE = RELEASES_DIR / "verdicts.json"

REBUILD = "python scripts/releases.py build extract verdicts"
HEADER = f"Recorded from the DeepSpeed releases themselves by `{REBUILD}` (dsref/generator/releases.py): do not edit."

_BASE = {"train_batch_size": 1}

# Small configs whose verdict tells how a release reads a value: spellings of a value, "auto" where DeepSpeed reads
# a boolean, unknown keys where a section is read with dict.get or with a model.
_SPELLINGS = ("fp32", "fp16", "bf16", "bfp16", "bfloat16", "FP16", "BF16", "fp8")
PROBES: dict[str, dict[str, Any]] = {
    **{f"communication_data_type={v}": {**_BASE, "communication_data_type": v} for v in _SPELLINGS},
    "fp16.enabled=auto": {**_BASE, "fp16": {"enabled": "auto"}},
    "bf16.enabled=auto": {**_BASE, "bf16": {"enabled": "auto"}},
    "fp16.enabled=auto,bf16.enabled=auto": {**_BASE, "fp16": {"enabled": "auto"}, "bf16": {"enabled": "auto"}},
    "fp16.enabled=true,bf16.enabled=true": {**_BASE, "fp16": {"enabled": True}, "bf16": {"enabled": True}},
    "fp16.min_loss_scale=0.5": {**_BASE, "fp16": {"enabled": True, "min_loss_scale": 0.5}},
    "fp16.loss_scale=auto": {**_BASE, "fp16": {"enabled": True, "loss_scale": "auto"}},
    "gradient_clipping=auto": {**_BASE, "gradient_clipping": "auto"},
    "zero_optimization.stage=auto": {**_BASE, "zero_optimization": {"stage": "auto"}},
    "zero_optimization.reduce_bucket_size=auto": {**_BASE, "zero_optimization": {"reduce_bucket_size": "auto"}},
    # the ZeRO stages DeepSpeedConfig's own error check allows 16-bit master weights at (DS511)
    **{
        f"fp16.fp16_master_weights_and_grads=true,zero_optimization.stage={stage}": {
            **_BASE,
            "fp16": {"enabled": True, "fp16_master_weights_and_grads": True},
            "zero_optimization": {"stage": stage},
        }
        for stage in range(4)
    },
}
_UNKNOWN = "dsref_unknown_key"
_LOOKUPS = {"{}", "null", '"<none>"'}


def probes(tree: OptionTree) -> dict[str, dict[str, Any]]:
    """:data:`PROBES`, and an unknown key in each top-level section of the schema and at the top."""
    found = dict(PROBES)
    found["unknown:<top>"] = {**_BASE, _UNKNOWN: 1}
    for option in tree.top_level():
        if option.kind == "section":
            found[f"unknown:{option.path}"] = {**_BASE, option.path: {_UNKNOWN: 1}}
    found.update(hf_example_probes(tree))
    return found


def hf_example_probes(tree: OptionTree) -> dict[str, dict[str, Any]]:
    """A value an earlier Hugging Face release fills (the schema's ``HfChange.example``), written in its place:
    whether each release takes it. Scheduler params are probed by building the scheduler (:func:`scheduler_values`)."""
    found: dict[str, dict[str, Any]] = {}
    for option in tree:
        hf = option.meta.hf_auto
        if hf is None or option.path.startswith("scheduler.params.") or "<" in option.path:
            continue
        for change in hf.changes:
            if change.example is UNSET:
                continue
            config: dict[str, Any] = {**_BASE}
            node = config
            *sections, key = option.path.split(".")
            for section in sections:
                node = node.setdefault(section, {})
            node[key] = change.example
            found[f"{option.path}={json.dumps(change.example)}"] = config
    return found


def facts_request(tree: OptionTree) -> dict[str, Any]:
    """What the probe is asked: the schema's pydantic sections by DeepSpeed class, the sections read key by key."""
    models: dict[str, str] = {}
    sections: list[str] = []
    for option in tree:
        if option.kind != "section" or "<" in option.path:
            continue
        ds_class = option.model.ds_class if option.model is not None else None
        if ds_class and not any(option.path.startswith(f"{parent}.") for parent in models):
            models[option.path] = ds_class
        if option.depth <= 2:  # a model's section too: an older release may read it with dict.get
            sections.append(option.path)
    return {
        "base": _BASE,
        "models": models,
        "sections": sections,
        "probes": probes(tree),
        "scheduler_values": scheduler_values(tree),
    }


def scheduler_values(tree: OptionTree) -> dict[str, Any]:
    """For each bounded scheduler parameter of the schema, the nearest value outside 0.19.8's bound: whether a
    release's scheduler refuses it (the engine builds the scheduler) is then recorded."""
    values: dict[str, Any] = {}
    for option in tree.iter_subtree("scheduler.params"):
        if "gt" in option.bounds:
            values[option.key] = option.bounds["gt"]
        elif "ge" in option.bounds:
            values[option.key] = option.bounds["ge"] - 1
    return values


def raw_facts_path(release: str, scratch: Path = DEFAULT_SCRATCH) -> Path:
    return scratch / "facts" / f"{release}.json"


def extract(release: str, tree: OptionTree, scratch: Path = DEFAULT_SCRATCH) -> dict[str, Any]:
    """The release's facts, as the probe reports them (kept in the scratch folder)."""
    env = build(release, scratch)
    facts: dict[str, Any] = run_in_release(env, "facts", facts_request(tree))
    assert facts["release"] == release, f"asked for DeepSpeed {release}, the probe ran {facts['release']}"
    path = raw_facts_path(release, scratch)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(facts, indent=1, sort_keys=True), encoding="utf-8")
    return facts


# ---- differences from 0.19.8 -------------------------------------------------------------------------------------


def _key_of(name: str, field: dict[str, Any]) -> str:
    return str(field["alias"] or name)


def _diff_model(path: str, old: dict[str, Any] | None, new: dict[str, Any] | None, out: dict[str, Any]) -> None:
    """Differences of one model (``old``: the release's, ``new``: 0.19.8's) under ``path``, into ``out``."""
    if new is None and old is None:
        return
    if old is None:
        out.setdefault("model_absent", []).append(path)
        return
    if new is None:
        out.setdefault("model_removed_later", {})[path] = old["class"]
        return
    if old["extra"] != new["extra"]:
        out.setdefault("unknown_keys", {})[path] = old["extra"]
    old_fields = {_key_of(n, f): f for n, f in old["fields"].items()}
    new_fields = {_key_of(n, f): f for n, f in new["fields"].items()}
    for key in sorted(new_fields.keys() - old_fields.keys()):
        out.setdefault("absent", []).append(f"{path}.{key}")
    for key in sorted(old_fields.keys() - new_fields.keys()):
        out.setdefault("removed_later", {})[f"{path}.{key}"] = _field_summary(old_fields[key])
    for key in sorted(old_fields.keys() & new_fields.keys()):
        before, now = old_fields[key], new_fields[key]
        changed = {
            what: before[what]
            for what in ("default", "required", "type", "constraints", "deprecated", "new_param")
            if before[what] != now[what]
        }
        if changed:
            out.setdefault("changed", {})[f"{path}.{key}"] = changed
    for key in sorted(old["models"].keys() | new["models"].keys()):
        _diff_model(f"{path}.{key}", old["models"].get(key), new["models"].get(key), out)


def _field_summary(field: dict[str, Any]) -> dict[str, Any]:
    return {k: field[k] for k in ("type", "default", "required") if field[k] is not None}


def _diff_reads(old: dict[str, dict[str, Any]], new: dict[str, dict[str, Any]], out: dict[str, Any]) -> None:
    """Keys read with ``dict.get``: not read by the release, read only by it, read with another default."""
    for section in sorted(old.keys() | new.keys()):
        before, now = old.get(section, {}), new.get(section, {})
        for key in sorted(now.keys() - before.keys()):
            out.setdefault("dict_absent", []).append(f"{section}.{key}" if section else key)
        for key in sorted(before.keys() - now.keys()):
            out.setdefault("dict_removed_later", {})[f"{section}.{key}" if section else key] = before[key]
        for key in sorted(before.keys() & now.keys()):
            # a section's default ({}, None, or none passed) is how it is looked up, not a value a user meets
            if before[key] != now[key] and not {json.dumps(before[key]), json.dumps(now[key])} <= _LOOKUPS:
                out.setdefault("dict_default", {})[f"{section}.{key}" if section else key] = before[key]


def differences(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The release ``old``'s facts as differences from ``new`` (0.19.8's), compact and sorted."""
    out: dict[str, Any] = {}
    for path in sorted(old["models"].keys() | new["models"].keys()):
        _diff_model(path, old["models"].get(path), new["models"].get(path), out)
    _diff_reads(old["dict"]["reads"], new["dict"]["reads"], out)
    schedulers: dict[str, Any] = {}
    for name in sorted(old["schedulers"].keys() | new["schedulers"].keys()):
        before, now = old["schedulers"].get(name), new["schedulers"].get(name)
        if before is None:
            schedulers[name] = None
        elif before != now:
            schedulers[name] = {k: v for k, v in before.items() if now is None or now.get(k, ...) != v}
    if schedulers:
        out["schedulers"] = schedulers
    if old["optimizers"] != new["optimizers"]:
        out["optimizers_absent"] = sorted(set(new["optimizers"]) - set(old["optimizers"]))
        out["optimizers_removed_later"] = sorted(set(old["optimizers"]) - set(new["optimizers"]))
    probe_diff = {label: old["probes"].get(label, "<not probed>") for label in sorted(new["probes"])}
    probe_diff = {label: v for label, v in probe_diff.items() if v != new["probes"][label]}
    if probe_diff:
        out["probes"] = probe_diff  # the release's verdict where it differs from 0.19.8's (None: accepted)
    return out


def release_file(release: str) -> Path:
    return RELEASES_DIR / f"{release}.json"


def write_differences(release: str, facts: dict[str, Any], base: dict[str, Any]) -> Path:
    data = {"header": HEADER, "release": release, "compared_with": DEEPSPEED_VERSION, **differences(facts, base)}
    path = release_file(release)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


# ---- verdicts on the corpus --------------------------------------------------------------------------------------


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def raw_verdicts_path(release: str, scratch: Path = DEFAULT_SCRATCH) -> Path:
    return scratch / "verdicts" / f"{release}.json"


def collect_verdicts(
    releases: Iterable[str], files: list[Path], scratch: Path = DEFAULT_SCRATCH, *, again: bool = False
) -> None:
    """Judge each file with each release (installed first when needed) and keep the verdicts in the scratch folder:
    sha256 of each file DeepSpeed parses → None (accepted) or the error; unparsed files left out. A release already
    judged on the same files is not judged again unless ``again``."""
    shas = {str(path): sha256_of(path) for path in files}
    for release in releases:
        path = raw_verdicts_path(release, scratch)
        if path.exists() and not again:
            kept = json.loads(path.read_text(encoding="utf-8"))
            if kept.get("files") == sorted(shas.values()):
                continue
        env = build(release, scratch) if release != DEEPSPEED_VERSION else release_env(release, scratch)
        result = run_in_release(env, "verdicts", {"files": list(shas)})
        judged = {shas[name]: v["error"] for name, v in sorted(result.items()) if v["parsed"]}
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"files": sorted(shas.values()), "verdicts": judged}, indent=1), encoding="utf-8")


def cached_verdicts(
    releases: Iterable[str], files: list[Path], scratch: Path = DEFAULT_SCRATCH
) -> dict[str, dict[str, str | None]]:
    """Release → its verdicts kept by :func:`collect_verdicts` on these files, for each release judged so far."""
    shas = sorted(sha256_of(path) for path in files)
    found: dict[str, dict[str, str | None]] = {}
    for release in releases:
        path = raw_verdicts_path(release, scratch)
        if path.exists():
            kept = json.loads(path.read_text(encoding="utf-8"))
            if kept.get("files") == shas:  # keyed as verdicts.json keys them
                found[release] = {sha[:SHA_DIGITS]: error for sha, error in kept["verdicts"].items()}
    return found


def compact_verdicts(by_release: dict[str, dict[str, str | None]]) -> dict[str, Any]:
    """The verdicts as ``verdicts.json`` holds them: each error text once (``errors``), and for each file (the first
    16 hex digits of its sha256) the runs of releases, in table order, that give it one verdict: ``[[first release,
    error index or null], ...]``, each run lasting until the next."""
    releases = sorted(by_release, key=parse_version)
    errors = sorted({error for verdicts in by_release.values() for error in verdicts.values() if error is not None})
    index = {error: n for n, error in enumerate(errors)}
    files: dict[str, list[list[Any]]] = {}
    for sha in sorted({sha for verdicts in by_release.values() for sha in verdicts}):
        runs: list[list[Any]] = []
        for release in releases:
            error = by_release[release].get(sha)
            verdict = None if error is None else index[error]
            if not runs or runs[-1][1] != verdict:
                runs.append([release, verdict])
        files[sha[:SHA_DIGITS]] = runs
    return {"header": HEADER, "releases": releases, "errors": errors, "files": files}


def recorded_by_release(path: Path = VERDICTS_FILE) -> dict[str, dict[str, str | None]]:
    """``verdicts.json`` read back as :func:`collect_verdicts` gives verdicts (files by the digits kept), so that
    releases judged before are kept when only some are judged again."""
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    found: dict[str, dict[str, str | None]] = {release: {} for release in data["releases"]}
    for sha, runs in data["files"].items():
        for release in data["releases"]:
            verdict = None
            present = False
            for first, error in runs:
                if parse_version(first) > parse_version(release):
                    break
                verdict, present = error, True
            if present:
                found[release][sha] = None if verdict is None else data["errors"][verdict]
    return found


SHA_DIGITS = 16
"""How much of a file's sha256 keys its verdicts (ample for a corpus of thousands)."""


def write_verdicts(by_release: dict[str, dict[str, str | None]]) -> Path:
    """``verdicts.json`` (:func:`compact_verdicts`), one error or file a line so that two runs diff readably."""
    return write_by_lines(VERDICTS_FILE, compact_verdicts(by_release), sort_keys=False)


def remove_stale(releases: Iterable[str]) -> list[Path]:
    """Remove the facts of releases no longer in the table (the files named for a release: ``behaviour.json``,
    ``verdicts.json`` and ``rules.json`` stay)."""
    keep = {release_file(release) for release in releases}
    stale = [path for path in RELEASES_DIR.glob("*.json") if _names_release(path) and path not in keep]
    for path in stale:
        path.unlink()
    return stale


def _names_release(path: Path) -> bool:
    try:
        parse_version(path.stem)
    except ValueError:
        return False
    return True
