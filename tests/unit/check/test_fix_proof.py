"""A safe fix is proven per file: never worse, and DeepSpeed (after Hugging Face's filling, for --profile hf) builds
the same config from the file before and after. The cases that once went wrong are here, and every fix is run over
the real corpus and over mutants of it, in both profiles, against DeepSpeed itself."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsref.check.findings import Finding, Severity
from dsref.check.fix.fixer import fix_text
from dsref.check.fix.proof import HF_FILLED, filled_as_hugging_face_does, judge, meaning
from dsref.check.pipeline import FileReport, check_text
from dsref.check.settings import CheckSettings
from dsref.check.validate.checktree import check_tree
from tests.conftest import require_deepspeed, shared_path
from tests.unit.check.test_fix import _MUTATIONS, _deepspeed_view, deepspeed_built

# -- DeepSpeed as the judge -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deepspeed_quiet() -> Iterator[None]:
    require_deepspeed()
    from deepspeed.utils import logger

    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def _hf_value(path: str) -> Any:
    """A value Hugging Face could fill at ``path`` (the same for the file before and after a fix)."""
    default = check_tree().get(path).default
    if isinstance(default, bool):
        return True
    if isinstance(default, (int, float)) and not isinstance(default, bool) and default:
        return default
    return 8


def _filled(config: Any) -> Any:
    """What Hugging Face hands DeepSpeed: each "auto" it fills replaced by a value (dsref's emulation, whose rule,
    names as written, is what HF's ``find_config_node`` does)."""
    marked = filled_as_hugging_face_does(config, check_tree())

    def walk(node: Any, path: str | None) -> Any:
        if isinstance(node, dict):
            return {k: walk(v, k if path is None else f"{path}.{k}") for k, v in node.items()}
        if node == HF_FILLED and path is not None:
            return _hf_value(path)
        return node

    return walk(marked, None)


def deepspeed_builds(text: str, profile: str) -> Any:
    """What DeepSpeed 0.19.8's ``DeepSpeedConfig`` builds from the text as the profile's reader hands it over (every
    field), or the error it raises."""
    import json

    if profile != "hf":
        return _deepspeed_view(text)
    try:
        config = _filled(json.loads(text))
    except ValueError as exc:
        return f"refused: {type(exc).__name__}"
    return deepspeed_built(config)


# -- the reproductions ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["cpu_offload", "cpu_offload_param"])
@pytest.mark.parametrize("value", ['"true"', '"false"', "1", '"yes"', "true", "false"])
@pytest.mark.slow
def test_a_deprecated_switch_written_as_text_is_replaced_as_deepspeed_maps_it(
    key: str, value: str, deepspeed_quiet: None
) -> None:
    """Once: ``"cpu_offload": "true"`` became ``"offload_optimizer": true`` (rename and coercion together), which
    DeepSpeed refuses."""
    text = f'{{"train_batch_size": 8, "zero_optimization": {{"stage": 3, "{key}": {value}}}}}'
    result = fix_text(text, "ds.json")
    assert result.changed and result.refused == []
    assert key not in result.text
    assert not any(f.severity is Severity.error for f in result.after.findings), result.text
    before = deepspeed_builds(text, "deepspeed")
    assert isinstance(before, dict)
    assert deepspeed_builds(result.text, "deepspeed") == before, result.text


@pytest.mark.slow
def test_an_alias_hugging_face_does_not_fill_is_not_renamed_to_one_it_fills(deepspeed_quiet: None) -> None:
    """Once: ``bfloat16.enabled: "auto"`` renamed to ``bf16`` under --profile hf turned bf16 on (HF fills only
    ``bf16.enabled``)."""
    text = '{"train_batch_size": 8, "bfloat16": {"enabled": "auto"}}'
    result = fix_text(text, "ds.json", settings=CheckSettings(profile="hf"))
    assert not result.changed and not result.refused  # the rename is unsafe there: --fix alone never tries it
    renamed = text.replace("bfloat16", "bf16")
    assert deepspeed_builds(renamed, "hf") != deepspeed_builds(text, "hf")  # what the rename would do
    [deprecated] = [f for f in result.after.findings if f.code == "DS301"]
    assert deprecated.fix is not None and not deprecated.fix.safe  # offered for what it is: a change
    # with the deepspeed launcher nobody fills "auto", and the rename changes nothing: it is still offered there
    assert deepspeed_builds(renamed, "deepspeed") == deepspeed_builds(text, "deepspeed")


@pytest.mark.slow
def test_an_unsafe_rename_that_makes_deepspeed_refuse_the_file_is_not_applied(deepspeed_quiet: None) -> None:
    """Once: ``tensorboard_dir`` → ``tensorboard`` (a section) under --unsafe-fixes, which DeepSpeed then refuses
    (that close spelling is no longer offered: a word dropped); a section whose keys the right name refuses."""
    text = '{"train_batch_size": 8, "zero_optimisation": {"stage": 3, "colour": 1}}'
    result = fix_text(text, "ds.json", unsafe=True)
    assert not result.changed
    assert [(r.finding.code, r.reason) for r in result.refused] == [("DS101", "severity")]
    assert deepspeed_builds(text.replace("optimisation", "optimization"), "deepspeed").startswith("refused")
    assert isinstance(deepspeed_builds(text, "deepspeed"), dict)


def _report(*severities: Severity) -> FileReport:
    report = check_text('{"train_batch_size": 8}', "x.json")
    report.findings = [
        Finding(None, s, ("train_batch_size",), None, {}, f"DS9{i:02}") for i, s in enumerate(severities)
    ]
    return report


def test_two_warnings_becoming_one_error_is_worse() -> None:
    """The guard once compared how many findings there were, not how severe."""
    warnings, error = _report(Severity.warning, Severity.warning), _report(Severity.error)
    assert judge(warnings, error, settings=CheckSettings(profile="deepspeed"), safe=False) == "severity"
    assert judge(error, _report(Severity.warning), settings=CheckSettings(profile="deepspeed"), safe=False) is None
    assert judge(warnings, _report(Severity.warning), settings=CheckSettings(profile="deepspeed"), safe=False) is None
    assert (
        judge(error, warnings, settings=CheckSettings(profile="deepspeed"), safe=False) == "severity"
    )  # two findings where one was
    assert (
        judge(
            warnings, _report(Severity.warning, Severity.info), settings=CheckSettings(profile="deepspeed"), safe=False
        )
        is None
    )
    assert (
        judge(error, _report(Severity.error, Severity.info), settings=CheckSettings(profile="deepspeed"), safe=False)
        == "severity"
    )
    assert (
        judge(
            _report(Severity.info), _report(Severity.warning), settings=CheckSettings(profile="deepspeed"), safe=False
        )
        == "severity"
    )


def test_the_refusal_is_told_in_both_languages(tmp_path: Any) -> None:
    import subprocess
    import sys

    path = tmp_path / "ds_config.json"
    path.write_text('{"train_batch_size": 8, "zero_optimisation": {"stage": 3, "colour": 1}}\n', encoding="utf-8")
    for lang, said in (("en", "the fix was not applied"), ("zh", "的修复没有应用")):
        proc = subprocess.run(
            [sys.executable, "-m", "dsref", "check", "--fix", "--unsafe-fixes", "--lang", lang, str(path)],
            capture_output=True,
            text=True,
        )
        assert said in proc.stderr and f"{path}:1:25" in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert (
        path.read_text(encoding="utf-8") == '{"train_batch_size": 8, "zero_optimisation": {"stage": 3, "colour": 1}}\n'
    )


def test_meaning_follows_deepspeeds_mapping_of_deprecated_forms() -> None:
    zero = {"zero_optimization": {"stage": 2}}
    for written, same in (
        ({"cpu_offload": "yes"}, {"offload_optimizer": {"device": "cpu"}}),
        ({"cpu_offload": False}, {}),
        ({"cpu_offload_param": 1}, {"offload_param": {"device": "cpu"}}),
    ):
        before = {"zero_optimization": {**zero["zero_optimization"], **written}}
        after = {"zero_optimization": {**zero["zero_optimization"], **same}}
        assert meaning(before, settings=CheckSettings(profile="deepspeed")) == meaning(
            after, settings=CheckSettings(profile="deepspeed")
        ), written
    legacy = {"zero_optimization": True, "allgather_size": 1000}
    assert meaning(legacy, settings=CheckSettings(profile="deepspeed")) == meaning(
        {"zero_optimization": {"stage": 1, "allgather_bucket_size": 1000}, "allgather_size": 1000},
        settings=CheckSettings(profile="deepspeed"),
    )


# -- every fix, every real file, both profiles ------------------------------------------------------------------------


def _real_texts() -> list[tuple[str, str]]:
    files = sorted(shared_path("corpus", "real").glob("*.json"))
    return [(p.name, p.read_bytes().decode("utf-8", "replace")) for p in files]


def _proven(name: str, text: str, profile: str, unsafe: bool) -> list[str]:
    """What is wrong with fixing ``text``: a worse file, or (safe fixes) another config from DeepSpeed."""
    result = fix_text(text, name, settings=CheckSettings(profile=profile), unsafe=unsafe)  # type: ignore[arg-type]
    if not result.changed:
        return []
    problems = []
    if result.after.error is not None:
        problems.append(f"{name} ({profile}): no longer parses")
    for level in (Severity.error, Severity.warning):
        if result.before.error is None and result.after.count(level) > result.before.count(level):
            problems.append(f"{name} ({profile}): more {level.value}s after fixing")
    if not unsafe and result.before.error is None and not result.before.count(Severity.error):
        before = deepspeed_builds(text, profile)
        if isinstance(before, dict) and deepspeed_builds(result.text, profile) != before:
            problems.append(f"{name} ({profile}): DeepSpeed builds another config after the safe fixes")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["deepspeed", "hf"])
def test_every_safe_fix_of_every_real_file_keeps_what_deepspeed_builds(profile: str, deepspeed_quiet: None) -> None:
    texts = _real_texts()
    assert len(texts) > 300
    problems = [p for name, text in texts for p in _proven(name, text, profile, unsafe=False)]
    assert problems == []


@pytest.mark.slow
@pytest.mark.parametrize("profile", ["deepspeed", "hf"])
def test_no_fix_of_a_real_file_makes_it_worse(profile: str) -> None:
    problems = [p for name, text in _real_texts() for p in _proven(name, text, profile, unsafe=True)]
    assert problems == []


_PROOF_MUTATIONS = [
    *_MUTATIONS,
    ('"stage": 2', '"stage": 2, "cpu_offload": "true"'),
    ('"stage": 3', '"stage": 3, "cpu_offload_param": "false"'),
    ('"bf16"', '"bfloat16"'),
    ('"enabled": "auto"', '"enabled": "True"'),
    ('"train_batch_size"', '"tensorboard_dir": "runs", "train_batch_size"'),
]
_CORPUS: list[tuple[str, str]] = []


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fixes_of_mutated_real_configs_are_proven_against_deepspeed(data: st.DataObject) -> None:
    require_deepspeed()
    if not _CORPUS:
        _CORPUS.extend(_real_texts())
    name, text = data.draw(st.sampled_from(_CORPUS))
    for old, new in data.draw(st.lists(st.sampled_from(_PROOF_MUTATIONS), min_size=1, max_size=4, unique=True)):
        text = text.replace(old, new, 1)
    profile = data.draw(st.sampled_from(["deepspeed", "hf"]))
    unsafe = data.draw(st.booleans())
    from deepspeed.utils import logger

    logger.setLevel(logging.ERROR)
    assert _proven(name, text, profile, unsafe) == []
