"""validate(): findings for every kind of mistake, and no exception whatever the input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import hjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsref.check.findings import Kind, Severity
from dsref.check.pipeline import check_text
from dsref.check.settings import CheckSettings
from dsref.check.validate.validation import validate
from dsref.tree.options import OptionTree, option_tree
from tests import needs
from tests.conftest import require_deepspeed, shared_path


def kinds(config: Any, **kwargs: Any) -> list[tuple[str, str, str]]:
    return [(f.kind.name, f.severity.value, f.where) for f in validate(config, CheckSettings(**kwargs))]


def test_a_good_config_has_no_findings() -> None:
    config = {
        "train_batch_size": 64,
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 2,
        "gradient_clipping": 1.0,
        "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": [0.9, 0.95], "weight_decay": 0.1}},
        "scheduler": {"type": "WarmupLR", "params": {"warmup_num_steps": 100}},
        "zero_optimization": {
            "stage": 3,
            "offload_optimizer": {"device": "cpu", "pin_memory": True},
            "offload_param": {"device": "nvme", "nvme_path": "/local_nvme"},
            "stage3_prefetch_bucket_size": 5e7,
            "stage3_gather_16bit_weights_on_model_save": True,
        },
        "activation_checkpointing": {"partition_activations": True},
        "tensorboard": {"enabled": True, "output_path": "runs/"},
    }
    assert validate(config) == []


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"zero_optimization": {"stgae": 2}}, ("unknown_key", "error", "zero_optimization.stgae")),
        ({"trian_batch_size": 8}, ("unknown_key", "warning", "trian_batch_size")),
        ({"zero_optimization": {"stage": "two"}}, ("not_allowed", "error", "zero_optimization.stage")),
        ({"zero_optimization": {"stage": "2"}}, ("coerced", "warning", "zero_optimization.stage")),
        (
            {"zero_optimization": {"reduce_bucket_size": 0}},
            ("out_of_range", "error", "zero_optimization.reduce_bucket_size"),
        ),
        (
            {"zero_optimization": {"offload_optimizer": {"device": "gpu"}}},
            ("not_allowed", "error", "zero_optimization.offload_optimizer.device"),
        ),
        ({"fp16": {"enabled": "yes"}}, ("coerced", "warning", "fp16.enabled")),
        ({"fp16": {"loss_scale": True}}, ("wrong_type", "error", "fp16.loss_scale")),
        ({"zero_optimization": {"cpu_offload": True}}, ("deprecated", "warning", "zero_optimization.cpu_offload")),
        ({"bfloat16": {"enabled": True}}, ("deprecated", "warning", "bfloat16")),
        ({"amp": {"enabled": True}}, ("removed", "error", "amp")),
        ({"zero_optimization": {"mics_shard_size": 8}}, ("removed", "error", "zero_optimization.mics_shard_size")),
        ({"zero_optimization": {"grad_hooks": True}}, ("docs_only", "error", "zero_optimization.grad_hooks")),
        (
            {"zero_optimization": {"overlap_comm": "auto"}},
            ("auto_dropped", "warning", "zero_optimization.overlap_comm"),
        ),
        ({"train_batch_size": "auto"}, ("auto_unfilled", "error", "train_batch_size")),
        ({"zero_optimization": True}, ("deprecated", "warning", "zero_optimization")),
        ({"zero_optimization": 3}, ("wrong_type", "error", "zero_optimization")),
        ({"aio": {"thread_count": 4}}, ("unknown_key", "warning", "aio.thread_count")),
        ({"optimizer": {"params": {"amsgrad": True}}}, ("unknown_key", "info", "optimizer.params.amsgrad")),
    ],
)
def test_each_kind_of_mistake(config: dict[str, Any], expected: tuple[str, str, str]) -> None:
    assert expected in kinds(config)


def test_unknown_key_suggests_the_right_spelling_and_place() -> None:
    (finding,) = validate({"offload_optimizer": {"device": "cpu"}})
    assert finding.kind is Kind.unknown_key and finding.severity is Severity.warning
    assert finding.args["elsewhere"] == ["zero_optimization.offload_optimizer"]
    (finding,) = validate({"zero_optimization": {"Stage": 2}})
    assert finding.args["suggestions"][0] == "stage"
    (finding,) = validate({"optimizer": {"type": "Adam", "zero_optimization": {"stage": 2}}})
    assert finding.args["elsewhere"] == ["zero_optimization"]


def test_both_spellings_of_one_option() -> None:
    findings = validate({"zero_optimization": {"prefetch_bucket_size": 1, "stage3_prefetch_bucket_size": 2}})
    assert [(f.kind, f.severity) for f in findings] == [(Kind.alias_conflict, Severity.error)]
    assert findings[0].option == "zero_optimization.stage3_prefetch_bucket_size"
    (finding,) = validate({"bf16": {"enabled": False}, "bfloat16": {"enabled": True}})[1:]
    assert finding.kind is Kind.alias_conflict and finding.severity is Severity.warning


def test_checks_of_a_switched_off_feature_are_warnings() -> None:
    """DeepSpeed checks AutoEP's settings only when it is enabled; until then a bad value is not a refusal."""
    off = kinds({"expert_parallel": {"enabled": False, "score_func": "bogus"}})
    on = kinds({"expert_parallel": {"enabled": True, "score_func": "bogus"}})
    assert off == [("not_allowed", "warning", "expert_parallel.score_func")]
    assert on == [("not_allowed", "error", "expert_parallel.score_func")]


def test_target_release_decides_removed_and_new() -> None:
    assert kinds({"amp": {"enabled": True}}, deepspeed_version="0.19.6") == []
    assert ("too_new", "error", "zero_optimization.compute_grad_norm") in kinds(
        {"zero_optimization": {"compute_grad_norm": True}}, deepspeed_version="0.19.6"
    )


def test_hf_profile_accepts_auto_where_hugging_face_fills_it() -> None:
    config = {
        "train_batch_size": "auto",
        "gradient_clipping": "auto",
        "zero_optimization": {"stage3_prefetch_bucket_size": "auto"},
    }
    assert validate(config, settings=CheckSettings(profile="hf")) == []
    assert {f.kind for f in validate(config)} == {Kind.auto_unfilled, Kind.auto_dropped}
    assert kinds({"wall_clock_breakdown": "auto"}, profile="hf") == [("auto_unfilled", "error", "wall_clock_breakdown")]


@pytest.mark.parametrize("config", [None, [], "ds_config.json", 3, 2.5, True, b"{}", object()])
def test_not_a_mapping(config: Any) -> None:
    (finding,) = validate(config)
    assert finding.kind is Kind.not_a_mapping and finding.location == ()


def test_keys_that_are_not_strings() -> None:
    findings = validate({1: 2, None: 3, ("a",): 4, "zero_optimization": {2: 3}})
    assert [f.kind for f in findings] == [Kind.key_not_string] * 4


def test_ten_thousand_levels_deep() -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(10_000):
        node["x"] = {}
        node = node["x"]
    for config in (
        {"zero_optimization": {"offload_param": {"device": deep}}},
        {"zero_optimization": deep},
        {"unknown": deep},
        {"weight_quantization": {"quantized_initialization": deep}},
        deep,
    ):
        findings = validate(config)
        assert findings, config.keys()


def test_values_of_any_python_type() -> None:
    odd = [object(), {1, 2}, b"bytes", float("nan"), float("inf"), 10**400, -(10**30), complex(1, 2), Path("/x")]
    for value in odd:
        validate({"train_batch_size": value, "zero_optimization": {"stage": value, "offload_param": value}})


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@st.composite
def configs(draw: st.DrawFn, tree: OptionTree) -> dict[str, Any]:
    """Configs that mix real option paths (with random values) and junk keys at any depth."""
    paths = [opt.path for opt in tree]
    config: dict[str, Any] = {}
    for path in draw(st.lists(st.sampled_from(paths), max_size=6)):
        node = config
        steps = [s for s in path.replace("[]", "").split(".") if not s.startswith("<")]
        for step in steps[:-1]:
            child = node.setdefault(step, {})
            if not isinstance(child, dict):
                break
            node = child
        else:
            node[steps[-1]] = draw(JSON)
    if draw(st.booleans()):
        config[draw(st.text(max_size=6))] = draw(JSON)
    return config


@pytest.mark.slow  # a fuzzer or a cross-check of seconds; the fast tier has the plain cases
@settings(max_examples=needs.examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_never_raises_and_reports_every_unmatched_key(tree: OptionTree, data: st.DataObject) -> None:
    config = data.draw(configs(tree))
    findings = validate(config)
    reported = {f.location for f in findings}
    for key in config:
        if tree.lookup_key(None, key) is None:
            assert (key,) in reported


@pytest.mark.slow  # a fuzzer or a cross-check of seconds; the fast tier has the plain cases
@settings(max_examples=needs.examples(200), deadline=None)
@given(value=JSON)
def test_never_raises_on_arbitrary_json(value: Any) -> None:
    validate(value)
    validate({"zero_optimization": value, "optimizer": value, "data_efficiency": {"data_sampling": value}})


def _corpus() -> list[Path]:
    folder = shared_path("corpus", "real")
    return sorted(p for p in folder.iterdir() if p.suffix == ".json")


@pytest.mark.slow
def test_real_configs_never_raise() -> None:
    """All 340 real configs: no exception, and every finding points into the file's own keys."""
    parsed = 0
    for path in _corpus():
        try:
            config = hjson.loads(path.read_text(encoding="utf-8-sig"))
        except Exception:
            continue
        parsed += 1
        for finding in validate(config):
            node: Any = config
            for step in finding.location:
                node = node[step]
            json.dumps(finding.to_json())
    assert parsed > 300


@pytest.mark.slow
def test_deprecated_switches_are_replaced_by_what_deepspeed_makes_of_them() -> None:
    """The JSON a DS301 help line offers builds the same ZeRO config in DeepSpeed 0.19.8 as the deprecated form;
    cpu_offload_use_pin_memory, which DeepSpeed ignores, is replaced by the key that pins memory, as it asked."""
    require_deepspeed()
    from deepspeed.runtime.config import DeepSpeedConfig

    def zero(config: dict[str, Any]) -> dict[str, Any]:
        import copy

        built = DeepSpeedConfig(copy.deepcopy({"train_batch_size": 8, **config}))
        dump = {k: v for k, v in built.zero_config.model_dump().items() if not k.startswith("cpu_offload")}
        return dict(dump, stage=built.zero_optimization_stage)  # what DeepSpeed does, not the old keys it kept

    tree = option_tree()
    replaced = [opt for opt in tree if opt.meta.replacement]
    assert {opt.path for opt in replaced} == {
        "zero_optimization",
        "zero_optimization.cpu_offload",
        "zero_optimization.cpu_offload_param",
        "zero_optimization.cpu_offload_use_pin_memory",
    }
    for opt in replaced:
        for written, instead in opt.meta.replacement:
            if opt.parent is None:
                old: dict[str, Any] = {opt.key: written}
                new = json.loads(instead) if instead else {}
            else:
                old = {"zero_optimization": {"stage": 3, opt.key: written}}
                new = {"zero_optimization": {"stage": 3, **(json.loads(instead) if instead else {})}}
            findings = validate(old)
            assert [f.code for f in findings] == ["DS301"], findings
            assert findings[0].args["replacement"] == instead
            assert validate(new) == []
            if opt.meta.parsed_unused:  # DeepSpeed ignores the old key: the new one does what it asked
                assert zero(old) == zero({"zero_optimization": {"stage": 3}})
                pinned = (zero(new)["offload_optimizer"] or {}).get("pin_memory", False)
                assert pinned is written
            else:
                assert zero(old) == zero(new), (opt.path, written)


def test_a_deprecated_switch_gets_its_replacement_as_json_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.check.report.messages import help_lines

    finding = validate({"zero_optimization": {"stage": 2, "cpu_offload": True}})[0]
    assert help_lines(finding, "en") == ['write {"offload_optimizer": {"device": "cpu"}} in zero_optimization instead']
    finding = validate({"zero_optimization": {"stage": 2, "cpu_offload": False}})[0]
    assert help_lines(finding, "en") == ["delete it: DeepSpeed behaves the same without it"]
    assert "offload_optimizer" in help_lines(validate({"zero_optimization": {"cpu_offload": True}})[0], "zh")[0]


def test_hugging_face_fills_auto_only_under_the_name_it_looks_for() -> None:
    """HF looks "auto" up key by key as written: under an alias it is not filled, DeepSpeed drops it, and the
    checker, the rules, the estimator and the proof of fixes all say so (dsref.tree.profiles.hugging_face_fills)."""
    from dsref.check.pipeline import check_text
    from dsref.check.rules import run_rules
    from dsref.check.validate.effective import effective

    aliased = {"train_batch_size": 8, "bfloat16": {"enabled": "auto"}, "zero_optimization": {"stage": 3}}
    own = {"train_batch_size": 8, "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 3}}
    assert [f.code for f in validate(own, settings=CheckSettings(profile="hf")) if f.kind is Kind.auto_dropped] == []
    [dropped] = [f for f in validate(aliased, settings=CheckSettings(profile="hf")) if f.kind is Kind.auto_dropped]
    assert dropped.location == ("bfloat16", "enabled") and dropped.args["hf_name"] == "bf16.enabled"
    assert effective(own).filled == {"bf16.enabled"} and effective(aliased).filled == set()
    assert effective(aliased).autos == {"bf16.enabled"}
    from dsref.check.report.draw import rendered

    report = check_text(json.dumps(aliased), "ds.json", settings=CheckSettings(profile="hf"))
    [shown] = [r for r in rendered(report, "en", "0.19.8") if r.code == "DS401"]
    assert shown.help == ['Hugging Face fills "auto" only under the name bf16.enabled; write that name if you launch '
                          "through it"]  # fmt: skip
    # DS560 counts only what Hugging Face fills: two "auto" keys it fills, one it does not
    both = {**own, "bfloat16": {"enabled": "auto"}, "gradient_clipping": "auto"}
    [note] = run_rules(both, settings=CheckSettings(profile="deepspeed"), select={"DS560"}).findings
    assert note.args["paths"] == ["bf16.enabled", "gradient_clipping"]


def test_values_remembered_as_valid_are_told_apart_by_type_and_bits() -> None:
    """check remembers scalar values found valid for an option; ``1``, ``true`` and ``1.0`` stay three values, and
    ``-0.0`` keeps its sign in what DeepSpeed keeps."""
    from dsref.check.pipeline import check_text
    from dsref.check.validate.effective import effective

    def codes(text: str) -> list[str]:
        return [f.code for f in check_text(text, "ds_config.json").findings if f.option == "train_batch_size"]

    assert codes('{"train_batch_size": 1}') == []
    assert codes('{"train_batch_size": true}') != []  # not the remembered 1
    assert codes('{"train_batch_size": 1}') == []
    kept = effective({"gradient_clipping": 0.0}).get("gradient_clipping")
    negative = effective({"gradient_clipping": -0.0}).get("gradient_clipping")
    assert str(kept) == "0.0" and str(negative) == "-0.0"


def test_the_memo_of_valid_values_stays_bounded() -> None:
    from dsref.check.pipeline import check_text
    from dsref.check.validate.values import REMEMBERED, remember

    memo: dict[object, bool] = {}
    for n in range(REMEMBERED + 10):
        remember(memo, ("probe", int, n), True)
    assert 0 < len(memo) <= REMEMBERED
    assert not check_text('{"train_batch_size": 8}', "ds_config.json").findings  # still right after starting again


def test_a_value_remembered_as_valid_for_0_19_8_is_still_judged_by_the_release_checked_for() -> None:
    """``"bf16"`` is valid for 0.19.8 and remembered so; DeepSpeed 0.13.5 spelled it ``"bfp16"`` and refuses it."""
    from dsref.check.pipeline import check_text

    text = '{"train_batch_size": 8, "communication_data_type": "bf16"}'
    assert not check_text(text, "ds_config.json").findings  # remembered as valid here
    codes = [
        f.code for f in check_text(text, "ds_config.json", settings=CheckSettings(deepspeed_version="0.13.5")).findings
    ]
    assert "DS204" in codes


EXTREME = {
    "train_batch_size": '{{"train_batch_size": {v}}}',
    "gradient_accumulation_steps": '{{"train_micro_batch_size_per_gpu": 1, "gradient_accumulation_steps": {v}}}',
    "train_micro_batch_size_per_gpu": '{{"train_micro_batch_size_per_gpu": {v}}}',
    "gradient_clipping": '{{"train_batch_size": 8, "gradient_clipping": {v}}}',
    "fp16.loss_scale": '{{"train_batch_size": 8, "fp16": {{"enabled": true, "loss_scale": {v}}}}}',
    "zero_optimization.reduce_bucket_size": (
        '{{"train_batch_size": 8, "zero_optimization": {{"stage": 2, "reduce_bucket_size": {v}}}}}'
    ),
}
"""Options read with ``dict.get`` (the batch sizes, gradient_clipping, fp16) and one DeepSpeed's pydantic validates."""

NUMBERS = [
    "9223372036854775807",
    "123456789012345678901234567890",
    "1e18",
    "1e19",
    "1e30",
    "1e308",
    "-0.0",
    "-0",
    "5e-324",
]


def _errors(text: str) -> list[str]:
    return [f.code for f in check_text(text, "x.json").findings if f.severity is Severity.error]


@pytest.mark.parametrize("number", ["1e19", "1e30", "1e308", "1.7976931348623157e308"])
@pytest.mark.parametrize("path", ["train_batch_size", "gradient_accumulation_steps", "train_micro_batch_size_per_gpu"])
def test_a_whole_number_too_large_for_a_64_bit_int_is_taken_where_deepspeed_reads_it_with_get(
    path: str, number: str
) -> None:
    """pydantic-core holds a float as an int only below 2**63 (1e18 passes, 1e19 does not); DeepSpeed reads the
    batch sizes with ``dict.get`` and takes either (the next test checks it with DeepSpeed)."""
    assert _errors(EXTREME[path].format(v=number)) == []
    assert _errors(EXTREME["zero_optimization.reduce_bucket_size"].format(v=number)) == ["DS201"]


@pytest.mark.slow
@pytest.mark.parametrize("number", NUMBERS)
@pytest.mark.parametrize("path", list(EXTREME))
def test_extreme_numbers_are_refused_exactly_where_deepspeed_refuses_them(path: str, number: str) -> None:
    """``DeepSpeedConfig`` of 0.19.8 on the number as the launcher reads it (Hjson): dsref has an error where it
    refuses the config, and none where it builds it. Fractions where a batch size is counted (5e-324) are the
    exception: ``DeepSpeedConfig`` keeps them and the engine's data loader refuses them, so dsref does too."""
    require_deepspeed()
    import contextlib
    import io

    from deepspeed.runtime.config import DeepSpeedConfig

    text = EXTREME[path].format(v=number)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            DeepSpeedConfig(hjson.loads(text))
        refused = False
    except Exception:
        refused = True
    fraction = float(number) != 0 and not float(number).is_integer()
    counted = path in ("gradient_accumulation_steps", "train_micro_batch_size_per_gpu", "train_batch_size")
    expected = refused or (fraction and counted)
    assert bool(_errors(text)) == expected, (text, refused, _errors(text))
