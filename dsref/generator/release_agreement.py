"""How often ``dsref check --deepspeed-version X`` agrees with release X's own ``DeepSpeedConfig``.

Release X's verdicts are the recorded ones (``dsref/generated/releases/verdicts.json``, written by
``scripts/releases.py verdicts``); dsref's is :func:`dsref.check.pipeline.check_file` on the same file, read as the
``deepspeed`` launcher reads it (``"auto"`` as written), for world size 1 (``DeepSpeedConfig`` with
``torch.distributed`` uninitialised). They agree when DeepSpeed refuses the file exactly when dsref reports an error.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from ..check.findings import Severity
from ..check.pipeline import check_file, check_text
from ..check.settings import CheckSettings
from ..records import record
from ..tree.options import option_tree
from ..tree.releases import battery_config_sha, behaviour
from ..tree.rule_releases import Proof, proven_by
from ..tree.versions import DEEPSPEED_VERSION, run_at
from .release_battery import CHECKED, battery
from .release_behaviour import config_sha
from .releases import SHA_DIGITS, VERDICTS_FILE, sha256_of


@record
class RecordedVerdicts:
    """``verdicts.json`` read back (:func:`dsref.generator.releases.compact_verdicts` says how it is written)."""

    releases: tuple[str, ...]
    errors: tuple[str, ...]
    files: dict[str, tuple[tuple[str, int | None], ...]]
    """The first digits of each judged file's sha256 → the runs of releases giving it one verdict."""

    def judged(self, sha: str) -> bool:
        return sha[:SHA_DIGITS] in self.files

    def error(self, release: str, sha: str) -> str | None:
        """Release ``release``'s error on the file, None when it accepts it."""
        run = run_at(self.files[sha[:SHA_DIGITS]], release)
        return None if run is None or run[1] is None else self.errors[run[1]]


def recorded_verdicts(path: Path = VERDICTS_FILE) -> RecordedVerdicts:
    data = json.loads(path.read_text(encoding="utf-8"))
    files = {sha: tuple((str(first), error) for first, error in runs) for sha, runs in data["files"].items()}
    return RecordedVerdicts(tuple(data["releases"]), tuple(data["errors"]), files)


@record
class Disagreement:
    file: str
    release: str
    deepspeed_error: str | None
    dsref_errors: tuple[str, ...]
    """``CODE option`` of each error dsref reports."""

    def describe(self) -> str:
        return (
            f"{self.file} on {self.release}\n    DeepSpeed: {self.deepspeed_error or 'accepts'}"
            f"\n    dsref: {', '.join(self.dsref_errors) or 'no error'}"
        )


@record
class Agreement:
    release: str
    judged: int
    disagreements: tuple[Disagreement, ...]

    @property
    def agreeing(self) -> int:
        return self.judged - len(self.disagreements)

    def line(self) -> str:
        share = 100 * self.agreeing / self.judged if self.judged else 0.0
        missed = sum(d.deepspeed_error is not None for d in self.disagreements)
        return (
            f"DeepSpeed {self.release}: {self.agreeing}/{self.judged} agree ({share:.1f} %); "
            f"dsref passes {missed} the release refuses, refuses {len(self.disagreements) - missed} it accepts"
        )


def dsref_errors(path: Path, release: str) -> tuple[str, ...]:
    report = check_file(str(path), CheckSettings("deepspeed", world_size=1, deepspeed_version=release))
    return tuple(f"{f.code} {f.option or ''}".strip() for f in report.findings if f.severity is Severity.error)


def agreement(files: Iterable[Path], release: str, recorded: RecordedVerdicts | None = None) -> Agreement:
    """dsref's verdict against release ``release``'s recorded one on each file the release parsed."""
    recorded = recorded or recorded_verdicts()
    judged = 0
    wrong: list[Disagreement] = []
    for path in files:
        sha = sha256_of(path)
        if not recorded.judged(sha):
            continue  # DeepSpeed could not parse it: the loader's business, not this comparison's
        judged += 1
        error = recorded.error(release, sha)
        errors = dsref_errors(path, release)
        if (error is not None) != bool(errors):
            wrong.append(Disagreement(path.name, release, error, errors))
    return Agreement(release, judged, tuple(wrong))


def agreement_table(files: list[Path], releases: Iterable[str]) -> list[str]:
    recorded = recorded_verdicts()
    return [agreement(files, release, recorded).line() for release in releases]


def battery_configs() -> dict[str, dict[str, object]]:
    """``path variant`` → the battery config of each checked variant (rebuilt from the schema)."""
    found: dict[str, dict[str, object]] = {}
    for path, item in battery(option_tree()).items():
        for variant in CHECKED:
            if variant in item["configs"]:
                found[f"{path} {variant}"] = item["configs"][variant]
    return found


def battery_agreement(release: str, configs: dict[str, dict[str, object]] | None = None) -> Agreement:
    """dsref's verdict against release ``release``'s recorded one on each one-option config of the battery whose
    recorded config is the one the schema builds today (the same sha256)."""
    configs = battery_configs() if configs is None else configs
    judged = 0
    wrong: list[Disagreement] = []
    for label, config in configs.items():
        path, variant = label.rsplit(" ", 1)
        found = behaviour(release, path)
        if found is None or variant not in found.verdicts or not _same_config(path, variant, config):
            continue
        judged += 1
        error = found.verdicts[variant]
        settings = CheckSettings("deepspeed", world_size=1, deepspeed_version=release)
        report = check_text(json.dumps(config), "battery.json", settings)
        errors = tuple(
            f"{f.code} {f.option or ''}".strip()
            for f in report.findings
            if f.severity is Severity.error and not _at_engine_start(f.code)
        )
        if (error is not None) != bool(errors):
            wrong.append(Disagreement(label, release, error, errors))
    return Agreement(release, judged, tuple(wrong))


def _at_engine_start(code: str) -> bool:
    """Whether the rule ``code`` is one DeepSpeed checks when its engine starts (the engine record proves it): the
    battery builds only ``DeepSpeedConfig``, which never makes that check, at any release."""
    return proven_by(code) is Proof.engine


def _same_config(path: str, variant: str, config: dict[str, object]) -> bool:
    return battery_config_sha(path, variant) == config_sha(config)


def battery_table(releases: Iterable[str]) -> list[str]:
    """One line per release: dsref against the release on the battery, and the same less the configs where dsref
    and DeepSpeed 0.19.8 already differ (checks made when the engine starts, a CUDA-only feature on a CPU machine),
    which is what the release dimension answers for."""
    configs = battery_configs()
    base = {d.file for d in battery_agreement(DEEPSPEED_VERSION, configs).disagreements}
    lines = []
    for release in releases:
        found = battery_agreement(release, configs)
        beyond = sum(d.file not in base for d in found.disagreements)
        lines.append(
            f"DeepSpeed {release}: battery {found.agreeing}/{found.judged} agree; "
            f"beyond 0.19.8's own differences {found.judged - beyond}/{found.judged}"
        )
    return lines
