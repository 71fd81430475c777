"""``check --deepspeed-version X`` agrees with DeepSpeed release X itself, for every release of the table.

Each release's verdict on each corpus config was recorded from the release (``dsref/generated/releases/
verdicts.json``, ``python scripts/releases.py verdicts``): ``DeepSpeedConfig(config)``, world size 1, the file read
as the ``deepspeed`` launcher reads it. dsref's verdict is ``check_file(path, deepspeed_version=X, world_size=1)``.
They agree when the release refuses the file exactly when dsref reports an error, except the files listed in
:data:`EXCEPTIONS`, each with the releases it holds for and the release's own reason (most: the engine refuses the
file later, when it builds the optimizer or the scheduler; dsref reports that error as it does for 0.19.8). A listed
file that no longer differs fails too, so the list stays true.

The live test installs the oldest release of the table and one of 0.15-0.16 into a temporary folder (network) and
checks that the recorded verdicts are still what those releases say.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from dsref.check.settings import CheckSettings
from dsref.generator.release_agreement import Disagreement, agreement, recorded_verdicts
from dsref.generator.release_env import RELEASES
from dsref.generator.releases import SHA_DIGITS, sha256_of
from dsref.tree.releases import COVERED, OLDEST_COVERED
from dsref.tree.versions import DEEPSPEED_VERSION as DEEPSPEED
from dsref.tree.versions import parse_version
from tests import needs
from tests.conftest import shared_path


def _releases(first: str = "0.0.0", last: str = "99.0.0") -> Callable[[str], bool]:
    return lambda release: parse_version(first) <= parse_version(release) <= parse_version(last)


@dataclass(frozen=True)
class Known:
    """Why dsref's verdict on one file differs from release X's ``DeepSpeedConfig``, for the releases it names."""

    holds: Callable[[str], bool]
    option: str
    """The option dsref's error is about."""
    reason: str


_MAX_GRAD_NORM = Known(
    _releases(),
    "optimizer.params.max_grad_norm",
    "every release's engine refuses optimizer.params.max_grad_norm when it builds the optimizer: ValueError "
    "\"'max_grad_norm' is not supported as an optimizer parameter\" (deepspeed/runtime/engine.py, "
    "_configure_basic_optimizer, 0.10.3-0.19.8); DeepSpeedConfig only logs a warning",
)
_AUTO_PARAMS = Known(
    _releases(),
    "optimizer.params.lr",
    "\"auto\" in optimizer and scheduler params reaches torch's optimizer and DeepSpeed's scheduler when the engine "
    "builds them (TypeError comparing a str with a float); DeepSpeedConfig never reads them",
)
_AUTO_SCHEDULER = Known(
    _releases(),
    "scheduler.params.warmup_max_lr",
    '"auto" in scheduler params reaches WarmupLR\'s constructor when the engine builds it (TypeError in its '
    "arithmetic); DeepSpeedConfig never reads scheduler params",
)
_ONE_BIT = Known(
    _releases("0.19.7"),
    "optimizer.type",
    "0.19.7 removed the 1-bit optimizers: DeepSpeedConfig keeps the type, the engine fails with AssertionError "
    "'... is not a supported DeepSpeed Optimizer'",
)

_AUTO_CLIP = Known(
    _releases(),
    "gradient_clipping",
    'gradient_clipping "auto" stays a string: the engine starts, and the first optimizer step fails comparing it '
    'with a float (TypeError); nothing fills "auto" outside Hugging Face',
)
_WARMUP_ZERO = Known(
    _releases("0.19.3"),
    "scheduler.params.warmup_num_steps",
    "from 0.19.3 WarmupLR refuses warmup_num_steps 0 when the engine builds the scheduler (ValueError "
    "'warmup_num_steps must be a positive integer'); up to 0.19.2 it raised it to 2, and dsref follows that",
)
_FREEZE_STEP = Known(
    _releases("0.19.7"),
    "optimizer.params.freeze_step",
    "freeze_step belonged to the 1-bit optimizers removed in 0.19.7; with type Adam it reaches FusedAdam's "
    "constructor, which fails with TypeError 'unexpected keyword argument freeze_step'",
)
_AUTO_WARMUP_STEPS = Known(
    _releases(),
    "scheduler.params.warmup_num_steps",
    '"auto" in scheduler params reaches WarmupLR\'s constructor when the engine builds it (TypeError: '
    "max(2, 'auto')); DeepSpeedConfig never reads scheduler params",
)

EXCEPTIONS: dict[str, tuple[Known, ...]] = {
    **dict.fromkeys(
        [
            "Aseer-Ahmad__Parallel-with-DeepSpeec-Megatron__examples_deepspeed__curriculum_learning__ds_zero_stage_"
            "1_config_baseline.json",
            "EleutherAI__gpt-neox__examples__ds_config_flops_profile.json",
            "bigscience-workshop__Megatron-DeepSpeed__examples__curriculum_learning__ds_config_cl.json",
            "deepspeedai__DeepSpeedExamples__Megatron-LM-v1.1.5-ZeRO3__curriculum_learning__ds_zero_stage_2_config_"
            "curriculum_fixed_linear.json",
            "deepspeedai__DeepSpeedExamples__Megatron-LM-v1.1.5-ZeRO3__curriculum_learning__ds_zero_stage_2_config_"
            "curriculum_fixed_linear__at_b6fb3755.json",
            "deepspeedai__DeepSpeedExamples__bing_bert__deepspeed_bsz16K_lamb_config.json",
            "deepspeedai__DeepSpeedExamples__training__megatron__Megatron-LM-v1.1.5-ZeRO3__curriculum_learning__ds_"
            "zero_stage_2_config_curriculum_fixed_linear.json",
            "deepspeedai__DeepSpeed__tests__model__BingBertSquad__deepspeed_bsz24_fp16_config.json",
            "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_func_bs8_zero2.json",
            "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_perf_bs16.json",
            "deepspeedai__Megatron-DeepSpeed__examples_deepspeed__curriculum_learning__ds_zero_stage_1_config_"
            "curriculum_fixed_linear.json",
        ],
        (_MAX_GRAD_NORM,),
    ),
    "CarperAI__trlx__examples__summarize_rlhf__reward_model__ds_config_gpt_j.json": (_AUTO_SCHEDULER,),
    "CarperAI__trlx__examples__summarize_rlhf__sft__ds_config_gptj.json": (_AUTO_WARMUP_STEPS,),
    "valkryhx__chatGLM-6B-QLoRA__ds_zero3_config.json": (_AUTO_PARAMS,),
    "valkryhx__chatGLM-6B-QLoRA__ds_zero3_config__at_1735ddcf.json": (_AUTO_PARAMS,),
    "deepspeedai__DeepSpeedExamples__benchmarks__autosp__configs__autosp_config.json": (_AUTO_CLIP,),
    "allenai__feb__deepspeed_config.json": (_WARMUP_ZERO,),
    "TUM-DI-Lab-Graph-Scaling__ocp__configs__ds_config.json": (_FREEZE_STEP,),
    **dict.fromkeys(
        [
            "EleutherAI__gpt-neox__configs__deepspeed_configs__ds_zero_stage_1_onebitadam.json",
            "EleutherAI__gpt-neox__configs__deepspeed_zero1.json",
            "OpenGVLab__InternVL__segmentation__zero_configs__adam_zero3_fp16.json",
            "deepspeedai__DeepSpeedExamples__training__bing_bert__01_adam__mpi_ethernet__deepspeed_bsz4k_01adam_"
            "config_seq128_mpi_ethernet.json",
            "deepspeedai__DeepSpeedExamples__training__bing_bert__1-bit_lamb__mpi_infiniband__deepspeed_bsz64k_"
            "onebitlamb_config_seq128_mpi_infiniband.json",
            "deepspeedai__DeepSpeed__DeepSpeedExamples__BingBertSquad__deepspeed_onebitadam_bsz96_config.json",
            "deepspeedai__DeepSpeed__DeepSpeedExamples__bing_bert__deepspeed_bsz4k_onebit_config_seq128.json",
        ],
        (_ONE_BIT,),
    ),
}
"""File name in ``../shared/corpus/real/`` → the exceptions that may explain its disagreement."""


def _corpus() -> list[Path]:
    return sorted(shared_path("corpus", "real").glob("*.json"))


def _explained(item: Disagreement) -> bool:
    return item.deepspeed_error is None and any(
        k.holds(item.release) and any(error.endswith(f" {k.option}") for error in item.dsref_errors)
        for k in EXCEPTIONS.get(item.file, ())
    )


def test_the_recorded_releases_are_the_table() -> None:
    """The verdicts hold every release recorded, each a release of the table (test_release_behaviour.py says which
    of the table are not recorded yet)."""
    recorded = recorded_verdicts()
    assert recorded.releases == COVERED
    assert set(COVERED) <= set(RELEASES)
    assert len(recorded.files) > 300


def _turns() -> dict[str, frozenset[str]]:
    """Release → the recorded files (by their digest) whose verdict changes at that release or at the next one:
    where a release-blind dsref, or an off-by-one in its release data, would go wrong first."""
    turns: dict[str, set[str]] = {}
    for sha, runs in recorded_verdicts().files.items():
        for first, _error in runs[1:]:
            at = COVERED.index(first)
            for release in COVERED[at - 1 : at + 1]:
                turns.setdefault(release, set()).add(sha)
    return {release: frozenset(shas) for release, shas in turns.items()}


TURNS = _turns()


@cache
def _digests() -> dict[Path, str]:
    return {path: sha256_of(path)[:SHA_DIGITS] for path in _corpus()}


def test_some_corpus_file_changes_verdict_between_releases() -> None:
    assert TURNS, "no corpus file changes verdict between releases: the recorded verdicts are suspect"


@pytest.mark.parametrize("release", sorted(TURNS, key=parse_version))
def test_dsref_follows_each_release_where_a_verdict_turns(release: str) -> None:
    """On the corpus files whose verdict changes at this release or the next, dsref agrees with the release (fast
    tier; the slow tier holds every release to the whole corpus)."""
    files = [path for path, sha in _digests().items() if sha in TURNS[release]]
    assert len(files) == len(TURNS[release]), "a file whose verdict was recorded is missing from the corpus"
    result = agreement(files, release)
    wrong = [d for d in result.disagreements if not _explained(d)]
    assert not wrong, f"{len(wrong)} disagreements with DeepSpeed {release}:\n" + "\n".join(d.describe() for d in wrong)


@pytest.mark.slow
@pytest.mark.parametrize("release", COVERED)
def test_dsref_agrees_with_each_release_on_the_whole_corpus(release: str) -> None:
    """On every corpus config, outside the listed exceptions, dsref has an error exactly when release X refuses."""
    result = agreement(_corpus(), release)
    wrong = [d for d in result.disagreements if not _explained(d)]
    assert not wrong, f"{len(wrong)} disagreements with DeepSpeed {release}:\n" + "\n".join(d.describe() for d in wrong)


@pytest.mark.slow
def test_every_listed_exception_still_differs() -> None:
    """A listed file that now agrees with every release it is listed for is taken off the list."""
    names = {path.name: path for path in _corpus()}
    stale = []
    for name, exceptions in EXCEPTIONS.items():
        assert name in names, f"{name} is listed but not in the corpus"
        for exception in exceptions:
            releases = [r for r in RELEASES if exception.holds(r)]
            still = [d for r in releases for d in agreement([names[name]], r).disagreements if _explained(d)]
            if not still:
                stale.append(f"{name}: {exception.option}")
    assert not stale, "listed, but dsref now agrees with every release named:\n" + "\n".join(stale)


@pytest.mark.slow
@pytest.mark.parametrize("release", [OLDEST_COVERED, "0.15.4"])  # the oldest recorded, and one from the middle
def test_a_live_release_still_says_what_was_recorded(release: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Installs ``release`` afresh (network) and checks its verdict on every corpus config against the record."""
    import subprocess

    needs.module("torch")
    from dsref.generator.release_env import build
    from dsref.generator.releases import cached_verdicts, collect_verdicts

    scratch = tmp_path_factory.mktemp("releases")
    try:
        build(release, scratch)
    except subprocess.CalledProcessError as error:
        needs.missing(f"DeepSpeed {release} from PyPI (pip failed: {error})", "network access to pypi.org")
    files = _corpus()
    collect_verdicts([release], files, scratch)  # kept in the scratch folder, as scripts/releases.py keeps them
    live = cached_verdicts([release], files, scratch)[release]
    recorded = recorded_verdicts()
    changed = {
        sha[:SHA_DIGITS]: (error, recorded.error(release, sha))
        for sha, error in live.items()
        if error != recorded.error(release, sha)
    }
    assert not changed, json.dumps(changed, indent=1)


def _findings(config: dict[str, object], release: str) -> list[tuple[str, str, str | None]]:
    from dsref.check.pipeline import check_text

    report = check_text(
        json.dumps(config), "ds_config.json", settings=CheckSettings(world_size=1, deepspeed_version=release)
    )
    return [(f.code, f.severity.value, f.option) for f in report.findings if f.severity.value != "info"]


# Each case below is what the releases themselves do (their probe verdicts in dsref/generated/releases/, and their
# source: runtime/config.py's communication_data_type before and after 0.14, precision_config.py from 0.17.1).


def test_communication_data_type_is_spelled_as_each_release_spells_it() -> None:
    base = {"train_batch_size": 8}
    assert not [f for f in _findings({**base, "communication_data_type": "bfp16"}, "0.13.5") if f[1] == "error"]
    assert ("DS204", "error", "communication_data_type") in _findings(
        {**base, "communication_data_type": "bf16"}, "0.13.5"
    )
    assert ("DS204", "error", "communication_data_type") in _findings(
        {**base, "communication_data_type": "bfp16"}, "0.14.5"
    )


def test_fp16_and_bf16_auto_count_as_enabled_before_0_17_1() -> None:
    config = {"train_batch_size": 8, "fp16": {"enabled": "auto"}, "bf16": {"enabled": "auto"}}
    assert ("DS510", "error", "bf16.enabled") in _findings(config, "0.17.0")
    assert not [f for f in _findings(config, "0.17.1") if f[1] == "error"]


def test_a_key_the_release_ignores_is_a_warning_one_it_refuses_an_error() -> None:
    config = {"train_batch_size": 8, "bf16": {"enabled": True, "bf16_master_weights_and_grads": True}}
    # 0.17.0 reads bf16 with dict.get and never looks the key up; 0.17.6's model refuses unknown keys
    assert ("DS304", "warning", "bf16.bf16_master_weights_and_grads") in _findings(config, "0.17.0")
    assert ("DS304", "error", "bf16.bf16_master_weights_and_grads") in _findings(config, "0.17.6")
    unknown = {"train_batch_size": 8, "fp16": {"enabled": True, "not_an_option": 1}}
    assert ("DS101", "warning", None) in _findings(unknown, "0.16.9")
    assert ("DS101", "error", None) in _findings(unknown, DEEPSPEED)


def test_auto_in_fp16_enabled_offers_no_fix_where_it_means_true() -> None:
    from dsref.check.pipeline import check_text

    config = {"train_batch_size": 8, "fp16": {"enabled": "auto"}}
    old = check_text(json.dumps(config), "c.json", settings=CheckSettings(deepspeed_version="0.16.9")).findings
    auto = [f for f in old if f.option == "fp16.enabled"]
    assert auto and all(f.repair is None and f.severity.value == "warning" for f in auto)
    new = check_text(json.dumps(config), "c.json", settings=CheckSettings(deepspeed_version=DEEPSPEED)).findings
    assert any(f.option == "fp16.enabled" and f.repair is not None for f in new)


@pytest.mark.parametrize(
    ("release", "clip", "steps", "warmup_max_lr"),
    [
        ("0.15.1", 0.0, 10, 0.001),
        ("0.16.4", 0.0, None, 0.001),
        ("0.19.2", 0.0, None, None),
        (DEEPSPEED, 1.0, None, None),
    ],
)
def test_show_effective_gives_the_release_s_defaults(
    release: str, clip: float, steps: int | None, warmup_max_lr: float | None
) -> None:
    """gradient_clipping 0.0 up to 0.19.2, steps_per_print 10 up to 0.15.1, WarmupLR's warmup_max_lr 0.001 up to
    0.16.4 (GRADIENT_CLIPPING_DEFAULT, STEPS_PER_PRINT_DEFAULT, WarmupLR.__init__ of each release)."""
    from dsref.check.report.show_effective import effective_document

    config = {"train_batch_size": 8, "scheduler": {"type": "WarmupLR", "params": {}}}
    document = effective_document(config, deepspeed_version=release)["config"]
    assert document["gradient_clipping"] == clip
    assert document["steps_per_print"] == steps
    assert document["scheduler"]["params"]["warmup_max_lr"] == warmup_max_lr


def _explained_for(path: str, release: str, lang: str, capsys: pytest.CaptureFixture[str]) -> str:
    from dsref.cli.main import main

    assert main(["explain", path, "--deepspeed-version", release, "--lang", lang]) == 0
    return capsys.readouterr().out.rstrip().splitlines()[-1]


def test_explain_gives_the_release_s_default_and_whether_it_reads_the_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert "default 0.0 (DeepSpeed 0.19.8: 1.0)" in _explained_for("gradient_clipping", "0.19.2", "en", capsys)
    assert "same default" in _explained_for("gradient_clipping", "0.19.3", "en", capsys)
    assert "默认值为 0.0" in _explained_for("gradient_clipping", "0.19.2", "zh", capsys)
    line = _explained_for("zero_optimization.zenflow", "0.16.9", "en", capsys)
    assert line.startswith("DeepSpeed 0.16.9 does not read this option")
    assert "key by key" in _explained_for("fp16.loss_scale", "0.16.9", "en", capsys)
    assert "key by key" not in _explained_for("fp16.loss_scale", "0.17.1", "en", capsys)


def test_explain_refuses_a_malformed_release(capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.cli.main import main

    assert main(["explain", "gradient_clipping", "--deepspeed-version", "latest"]) == 2
    assert "latest" in capsys.readouterr().err


def _dump(release: str, capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, object]]:
    from dsref.cli.main import main

    assert main(["options", "--deepspeed-version", release]) == 0
    return {o["path"]: o for o in json.loads(capsys.readouterr().out)["options"]}


def test_the_option_dump_gives_each_option_in_the_release(capsys: pytest.CaptureFixture[str]) -> None:
    old = _dump("0.19.2", capsys)
    assert old["gradient_clipping"]["in_release"] == {
        "reads": True,
        "appears_in": None,
        "removed_in": None,
        "default": 0.0,
    }
    assert old["amp"]["in_release"]["reads"]  # removed in 0.19.7
    assert not _dump("0.16.9", capsys)["zero_optimization.zenflow"]["in_release"]["reads"]
    same = _dump(DEEPSPEED, capsys)
    assert not same["amp"]["in_release"]["reads"]
    kept = [o for o in same.values() if not o["removed_in"]]
    assert all(o["in_release"]["reads"] and o["in_release"]["default"] == o["default"] for o in kept)


@pytest.mark.parametrize("stage", [0, 1, 2, 3])
def test_fp16_master_weights_follow_each_release_s_own_stage_check(stage: int) -> None:
    """DeepSpeedConfig's error check allowed fp16 master weights at ZeRO stage 2 only up to 0.17.6 (stages 1-3 from
    0.18.9): dsref's DS511 follows each release's verdict on the probe recorded from it."""
    from dsref.tree.releases import release_facts

    config = {
        "train_batch_size": 8,
        "fp16": {"enabled": True, "fp16_master_weights_and_grads": True},
        "zero_optimization": {"stage": stage},
    }
    label = f"fp16.fp16_master_weights_and_grads=true,zero_optimization.stage={stage}"
    for release in RELEASES:
        facts = release_facts(release)
        recorded = None if facts is None else facts.accepts_probe(label)
        refused = ("DS511", "error", "fp16.fp16_master_weights_and_grads") in _findings(config, release)
        if recorded is not None:
            assert refused is not recorded, (release, stage)
        else:  # judged as 0.19.8 judges it
            assert refused is (stage == 0), (release, stage)
    old = release_facts("0.17.6")
    assert old is not None and old.accepts_probe(label) is (None if stage == 2 else False)  # recorded from 0.17.6
