"""dsref's answers for each DeepSpeed release against what the battery run on that release recorded.

``dsref/generated/releases/behaviour.json`` holds, for each release probed and each option of the one-option
battery, whether the release reads the option, its default there and its verdict on each value written (see
``dsref/generator/release_behaviour.py``). These tests read that file as plain JSON, independently of
``dsref.tree.releases``, and hold dsref's per-release answers to it; no DeepSpeed is needed.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from functools import cache
from typing import Any

import pytest

from dsref.check.findings import Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.generator.release_agreement import battery_agreement, battery_configs
from dsref.generator.release_env import RELEASES
from dsref.tree.options import option_tree
from dsref.tree.releases import BEHAVIOUR_FILE, COVERED, UNKNOWN_DEFAULT, missing_in, release_facts
from dsref.tree.versions import DEEPSPEED_VERSION, parse_version


@cache
def recorded() -> dict[str, Any]:
    with open(BEHAVIOUR_FILE, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def at(release: str, path: str) -> tuple[bool | None, Any, dict[str, str | None]] | None:
    """The recorded run of ``path`` holding ``release``: (reads, default, variant → error)."""
    data = recorded()
    found = None
    for run in data["options"].get(path, []):
        if parse_version(run[0]) <= parse_version(release):
            found = run
    if found is None:
        return None
    errors = data["errors"]
    return found[1], found[2], {v: None if n is None else errors[n] for v, n in found[3].items()}


def probed() -> list[str]:
    return [r for r in recorded()["releases"] if r != DEEPSPEED_VERSION]


def options_of(release: str) -> Iterator[tuple[str, tuple[bool | None, Any, dict[str, str | None]]]]:
    for path in recorded()["options"]:
        found = at(release, path)
        if found is not None:
            yield path, found


def test_the_table_is_every_published_release_and_the_battery_ran_on_the_schema_s_own() -> None:
    assert RELEASES[0] == "0.10.0" and RELEASES[-1] == DEEPSPEED_VERSION
    assert list(RELEASES) == sorted(RELEASES, key=parse_version)
    assert DEEPSPEED_VERSION in recorded()["releases"]
    assert set(recorded()["releases"]) <= set(COVERED) <= set(RELEASES)


def test_each_probed_release_has_its_facts_recorded() -> None:
    assert set(probed()) <= set(COVERED)


@pytest.mark.parametrize("release", probed())
def test_dsref_reads_what_the_release_reads(release: str) -> None:
    facts = release_facts(release)
    assert facts is not None
    wrong = []
    for path, (reads, _default, _verdicts) in options_of(release):
        base = at(DEEPSPEED_VERSION, path)
        if reads is None or base is None or (reads is False and base[0] is not True):
            continue  # the probe could not tell, or neither release reads it
        if facts.exists(path) != reads:
            wrong.append(f"{path}: the release {'reads' if reads else 'ignores'} it, dsref says otherwise")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("release", probed())
def test_an_option_the_release_reads_is_never_newer_than_it(release: str) -> None:
    tree = option_tree()
    wrong = []
    for path, (reads, _default, _verdicts) in options_of(release):
        if reads is not True or path not in tree:
            continue
        opt = tree.get(path)
        compared = opt.validated_by_deepspeed or opt.unknown_keys == "reject"
        appears = missing_in(release, path, opt.since, compared=compared)
        if appears is not None:
            wrong.append(f"{path}: read by {release}, dsref says it needs {appears}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("release", probed())
def test_dsref_gives_the_release_s_default(release: str) -> None:
    facts = release_facts(release)
    assert facts is not None
    tree = option_tree()
    wrong = []
    for path, (reads, default, _verdicts) in options_of(release):
        base = at(DEEPSPEED_VERSION, path)
        if not reads or base is None or not base[0] or path not in tree:
            continue
        if UNKNOWN_DEFAULT in (default, base[1]) or default == base[1]:
            continue  # not found in the built object, or the same as 0.19.8's
        given = facts.default(path, tree.get(path).default)
        if given != default:
            wrong.append(f"{path}: {release} uses {default!r}, dsref says {given!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("release", probed())
def test_dsref_refuses_the_values_the_release_refuses(release: str) -> None:
    facts = release_facts(release)
    assert facts is not None
    values = recorded()["values"]
    wrong = []
    for path, (_reads, _default, verdicts) in options_of(release):
        base = at(DEEPSPEED_VERSION, path)
        if base is None:
            continue
        for variant, error in verdicts.items():
            if variant not in values.get(path, {}) or (error is None) == (base[2].get(variant) is None):
                continue
            if facts.accepts_value(path, values[path][variant]) is not (error is None):
                wrong.append(f"{path}={values[path][variant]!r}: {release} says {error or 'accepted'}")
    assert not wrong, "\n".join(wrong)


def _errors(config: dict[str, Any], release: str) -> list[str]:
    report = check_text(
        json.dumps(config), "ds.json", CheckSettings("deepspeed", world_size=1, deepspeed_version=release)
    )
    return [f"{f.code} {f.option}" for f in report.findings if f.severity is Severity.error]


def _ignored(config: dict[str, Any], release: str) -> list[str]:
    """The options ``check`` says the release does not read (DS304 "needs DeepSpeed X or later", DS302 removed)."""
    settings = CheckSettings("deepspeed", world_size=1, deepspeed_version=release)
    report = check_text(json.dumps(config), "ds.json", settings)
    return [f"{f.code} {f.option}" for f in report.findings if f.code in ("DS302", "DS304")]


@pytest.mark.parametrize("key", ["loss_scale_window", "hysteresis", "min_loss_scale", "consecutive_hysteresis"])
def test_the_dynamic_loss_scale_keys_are_read_where_the_release_reads_them(key: str) -> None:
    value = False if key == "consecutive_hysteresis" else 2
    config = {"train_micro_batch_size_per_gpu": 1, "fp16": {"enabled": True, key: value}}
    for release in probed():
        found = at(release, f"fp16.{key}")
        if found is not None and found[0]:
            assert not _ignored(config, release), release


def test_a_removed_option_is_never_called_newer_than_a_release_that_reads_it() -> None:
    config = {"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "mics_shard_size": 2}}
    for release in probed():
        found = at(release, "zero_optimization.mics_shard_size")
        if found is not None and found[0]:
            assert not any("DS304" in e for e in _errors(config, release)), release


# Where an older release refuses a whole section as the battery writes it, for a key beside the option that the
# section needs there (compression training's groups, elasticity's batch sizes, the sparse attention mode), the
# retired rules DS590-DS593 refuse it too, at the releases the rules record shows making the check.
@cache
def _base_disagreements() -> frozenset[str]:
    """The battery configs where dsref at 0.19.8 and DeepSpeed 0.19.8 differ (checks made when the engine starts,
    a GPU-only feature refused on this CPU machine): tests/test_deepspeed_agreement.py answers for those."""
    return frozenset(d.file for d in battery_agreement(DEEPSPEED_VERSION, battery_configs()).disagreements)


def _beyond_0_19_8(release: str) -> list[str]:
    """The battery configs where dsref at ``release`` and that release differ, other than where dsref and 0.19.8
    already differ."""
    found = battery_agreement(release, battery_configs())
    assert found.judged > 0
    return [d.describe() for d in found.disagreements if d.file not in _base_disagreements()]


FAST = [r for r in ("0.14.2", "0.16.9") if r in probed()]


@pytest.mark.parametrize("release", FAST)
def test_check_errors_exactly_where_the_release_refuses_on_the_battery(release: str) -> None:
    wrong = _beyond_0_19_8(release)
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("release", [r for r in probed() if r not in FAST])
def test_check_errors_exactly_where_each_release_refuses_on_the_battery(release: str) -> None:
    wrong = _beyond_0_19_8(release)
    assert not wrong, "\n".join(wrong)


def test_an_option_removed_later_is_never_said_to_need_a_release_that_no_longer_has_it() -> None:
    tree = option_tree()
    wrong = []
    for opt in tree:
        if opt.removed_in is None:
            continue
        compared = opt.validated_by_deepspeed or opt.unknown_keys == "reject"
        for release in COVERED:
            if parse_version(release) >= parse_version(opt.removed_in):
                break
            appears = missing_in(release, opt.path, opt.since, compared=compared, removed_in=opt.removed_in)
            if appears is not None and parse_version(appears) >= parse_version(opt.removed_in):
                wrong.append(f"{opt.path} at {release}: needs {appears}, removed in {opt.removed_in}")
    assert not wrong, "\n".join(wrong[:20])


@cache
def _battery() -> dict[str, dict[str, Any]]:
    return battery_configs()


def _reading_edges() -> dict[str, tuple[str, ...]]:
    """Release → the options read there for the first or the last time in a run of releases that read them: where
    an off-by-one in dsref's release data would show first."""
    releases = probed()
    edges: dict[str, list[str]] = {}
    for path in recorded()["options"]:
        reads = [(found := at(release, path)) is not None and found[0] is True for release in releases]
        for i, release in enumerate(releases):
            starts = i == 0 or not reads[i - 1]
            ends = i == len(releases) - 1 or not reads[i + 1]
            if reads[i] and (starts or ends):
                edges.setdefault(release, []).append(path)
    return {release: tuple(paths) for release, paths in edges.items()}


def _said_ignored(release: str, paths: Iterable[str]) -> list[str]:
    """Of ``paths``, read by ``release``, those whose example config ``check`` says the release does not read."""
    wrong = []
    for path in paths:
        config = _battery().get(f"{path} example")
        found = at(release, path)
        if config is None or found is None or found[2].get("example") is not None:
            continue
        said = [finding for finding in _ignored(config, release) if finding.endswith(f" {path}")]
        if said:
            wrong.append(f"{path}: {', '.join(said)}")
    return wrong


READING_EDGES = _reading_edges()


@pytest.mark.parametrize("release", sorted(READING_EDGES, key=parse_version))
def test_an_option_is_never_said_ignored_at_the_first_and_last_release_that_reads_it(release: str) -> None:
    """Fast tier: each option's example config, at the edges of each run of releases that read it."""
    wrong = _said_ignored(release, READING_EDGES[release])
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("release", probed())
def test_an_option_the_release_reads_never_gets_an_ignored_warning(release: str) -> None:
    """On each option's own example config: where the release was seen reading the option, check says nothing
    of the option being unknown to the release (DS304) or removed (DS302)."""
    reading = [path for path, (reads, _default, _verdicts) in options_of(release) if reads is True]
    wrong = _said_ignored(release, reading)
    assert not wrong, "\n".join(wrong)
