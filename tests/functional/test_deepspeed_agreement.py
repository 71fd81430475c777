"""dsref's verdict on every real config agrees with DeepSpeed 0.19.8's own.

For each file in ``../shared/corpus/real/`` the file is loaded as DeepSpeed loads it (``hjson`` with
``dict_raise_error_on_duplicate_keys``), then:

* DeepSpeed: ``deepspeed.runtime.config.DeepSpeedConfig(config)`` is built with ``torch.distributed`` not
  initialised, so DeepSpeed takes a world size of 1. Any exception is a rejection.
* dsref: the errors of ``validate(config)`` and ``run_rules(config, world_size=1)``.

DeepSpeed rejects ⇒ dsref reports at least one error; DeepSpeed accepts ⇒ dsref reports none. The exceptions are
listed in ``DIFFERENCES``, each with its reason and the option dsref's error is about. Most are failures that
``DeepSpeedConfig`` does not reach but ``deepspeed.initialize`` does (the engine builds the optimizer and the LR
scheduler); each was reproduced by running ``deepspeed.initialize`` on the file on this CPU machine. A listed file
that no longer differs fails too, so the list stays true. Files DeepSpeed cannot parse (duplicate keys, Hjson
syntax) are out of scope here: the loader reports them (``tests/unit/check/test_loader.py``); they are only counted.

Run ``pytest -s tests/functional/test_deepspeed_agreement.py`` to see the figures.
"""

from __future__ import annotations

import copy
import logging
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from dsref.check.findings import Finding, Severity
from dsref.check.rules import run_rules
from dsref.check.settings import CheckSettings
from dsref.check.validate.validation import validate
from tests.conftest import require_deepspeed, shared_path

pytestmark = pytest.mark.slow

DifferenceKind = Literal["engine_start", "first_step", "dsref_stricter", "dsref_misses"]


@dataclass(frozen=True)
class Difference:
    """Why dsref's verdict on one file differs from ``DeepSpeedConfig``'s, on purpose."""

    kind: DifferenceKind
    """``engine_start``: DeepSpeedConfig accepts, ``deepspeed.initialize`` fails, dsref reports the error.
    ``first_step``: the engine starts, the first training step fails, dsref reports the error.
    ``dsref_stricter``: DeepSpeed runs it, dsref reports an error anyway. ``dsref_misses``: DeepSpeed rejects it,
    dsref reports no error."""
    option: str | None
    """The option dsref's error is about (None for ``dsref_misses``)."""
    reason: str


_MAX_GRAD_NORM = Difference(
    "engine_start",
    "optimizer.params.max_grad_norm",
    "DeepSpeed refuses optimizer.params.max_grad_norm when it builds the optimizer from the config: ValueError "
    "'max_grad_norm' is not supported as an optimizer parameter (deepspeed/runtime/engine.py:2481-2485); "
    "DeepSpeedConfig only logs a warning.",
)


def _one_bit(name: str) -> Difference:
    return Difference(
        "engine_start",
        "optimizer.type",
        f"The 1-bit optimizers were removed in 0.19.7: DeepSpeedConfig keeps type {name!r}, and the engine fails "
        f"with AssertionError '{name} is not a supported DeepSpeed Optimizer' (deepspeed/runtime/engine.py:2016-2019).",
    )


_AUTO_LR = Difference(
    "engine_start",
    "optimizer.params.lr",
    'lr "auto" is passed as is to torch.optim.AdamW (torch_adam: true), whose constructor fails with TypeError '
    "'<=' not supported between 'float' and 'str' (torch/optim/adam.py:58); nothing fills \"auto\" outside Hugging "
    'Face. The scheduler\'s "auto" values would fail next (deepspeed/runtime/lr_schedules.py).',
)

DIFFERENCES: dict[str, Difference] = {
    "Aseer-Ahmad__Parallel-with-DeepSpeec-Megatron__examples_deepspeed__curriculum_learning__ds_zero_stage_1_config_"
    "baseline.json": _MAX_GRAD_NORM,
    "EleutherAI__gpt-neox__examples__ds_config_flops_profile.json": _MAX_GRAD_NORM,
    "deepspeedai__DeepSpeedExamples__bing_bert__deepspeed_bsz16K_lamb_config.json": _MAX_GRAD_NORM,
    "deepspeedai__DeepSpeed__tests__model__BingBertSquad__deepspeed_bsz24_fp16_config.json": _MAX_GRAD_NORM,
    "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_func_bs8_zero2.json": _MAX_GRAD_NORM,
    "deepspeedai__DeepSpeed__tests__model__Megatron_GPT2__ds_config_perf_bs16.json": _MAX_GRAD_NORM,
    "EleutherAI__gpt-neox__configs__deepspeed_configs__ds_zero_stage_1_onebitadam.json": _one_bit("OneBitAdam"),
    "EleutherAI__gpt-neox__configs__deepspeed_zero1.json": _one_bit("OneBitAdam"),
    "deepspeedai__DeepSpeed__DeepSpeedExamples__bing_bert__deepspeed_bsz4k_onebit_config_seq128.json": _one_bit(
        "OneBitAdam"
    ),
    "deepspeedai__DeepSpeed__DeepSpeedExamples__BingBertSquad__deepspeed_onebitadam_bsz96_config.json": _one_bit(
        "OnebitAdam"
    ),
    "OpenGVLab__InternVL__segmentation__zero_configs__adam_zero3_fp16.json": _one_bit("ZeroOneAdam"),
    "deepspeedai__DeepSpeedExamples__training__bing_bert__01_adam__mpi_ethernet__deepspeed_bsz4k_01adam_config_"
    "seq128_mpi_ethernet.json": _one_bit("ZeroOneAdam"),
    "deepspeedai__DeepSpeedExamples__training__bing_bert__1-bit_lamb__mpi_infiniband__deepspeed_bsz64k_onebitlamb_"
    "config_seq128_mpi_infiniband.json": _one_bit("OneBitLamb"),
    "TUM-DI-Lab-Graph-Scaling__ocp__configs__ds_config.json": Difference(
        "engine_start",
        "optimizer.params.freeze_step",
        "freeze_step belonged to the removed 1-bit optimizers; with type Adam it is passed to FusedAdam, whose "
        "constructor fails with TypeError 'unexpected keyword argument freeze_step' "
        "(deepspeed/runtime/engine.py:2493).",
    ),
    "allenai__feb__deepspeed_config.json": Difference(
        "engine_start",
        "scheduler.params.warmup_num_steps",
        "WarmupLR with warmup_num_steps 0: the engine builds the scheduler and it fails with ValueError "
        "'warmup_num_steps must be a positive integer' (deepspeed/runtime/lr_schedules.py:733-734).",
    ),
    "valkryhx__chatGLM-6B-QLoRA__ds_zero3_config.json": _AUTO_LR,
    "valkryhx__chatGLM-6B-QLoRA__ds_zero3_config__at_1735ddcf.json": _AUTO_LR,
    "deepspeedai__DeepSpeedExamples__benchmarks__autosp__configs__autosp_config.json": Difference(
        "first_step",
        "gradient_clipping",
        'gradient_clipping "auto" is kept as a string; the engine starts, and the first optimizer step fails '
        "with TypeError '>' not supported between 'str' and 'float' when it compares the clip value "
        '(deepspeed/runtime/fp16/unfused_optimizer.py:246, bf16_optimizer.py:408). Nothing fills "auto" outside '
        "Hugging Face.",
    ),
}


@dataclass(frozen=True)
class Verdicts:
    """One file's outcome on both sides."""

    name: str
    deepspeed_error: str | None
    """The exception DeepSpeedConfig raised (type and first line), or None when it accepted the config."""
    dsref_errors: tuple[Finding, ...]

    @property
    def agree(self) -> bool:
        return (self.deepspeed_error is not None) == bool(self.dsref_errors)

    def describe(self) -> str:
        errors = ", ".join(
            f"{f.code} at {f.option or '.'.join(map(str, f.location)) or '<root>'}" for f in self.dsref_errors
        )
        return f"{self.name}\n    DeepSpeed: {self.deepspeed_error or 'accepts'}\n    dsref: {errors or 'no error'}"


@dataclass(frozen=True)
class Corpus:
    verdicts: tuple[Verdicts, ...]
    parse_failures: tuple[tuple[str, str], ...]


def _corpus_files() -> list[Path]:
    return sorted(shared_path("corpus", "real").glob("*.json"))


@pytest.fixture(scope="module")
def corpus() -> Iterator[Corpus]:
    require_deepspeed()
    import hjson
    from deepspeed import comm as dist
    from deepspeed.runtime.config import DeepSpeedConfig
    from deepspeed.runtime.config_utils import dict_raise_error_on_duplicate_keys
    from deepspeed.utils import logger as ds_logger

    # DeepSpeedConfig asks torch.distributed for the world size and falls back to 1 when it is not initialised.
    assert not dist.is_initialized(), "this test needs torch.distributed uninitialised, so the world size is 1"
    level = ds_logger.level
    ds_logger.setLevel(logging.ERROR)  # DeepSpeed logs every config it builds; keep the test output readable
    verdicts: list[Verdicts] = []
    parse_failures: list[tuple[str, str]] = []
    try:
        for path in _corpus_files():
            try:
                with open(path, encoding="utf-8") as handle:
                    config: Any = hjson.load(handle, object_pairs_hook=dict_raise_error_on_duplicate_keys)
            except (ValueError, UnicodeDecodeError) as exc:  # hjson's decode error is a ValueError, as are duplicates
                parse_failures.append((path.name, f"{type(exc).__name__}: {exc}"))
                continue
            try:
                built = DeepSpeedConfig(copy.deepcopy(config))  # DeepSpeed writes defaults into nested dicts
            except Exception as exc:
                deepspeed_error: str | None = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"
            else:
                assert built.world_size == 1, f"{path.name}: DeepSpeedConfig took world size {built.world_size}"
                deepspeed_error = None
            findings = [*validate(config), *run_rules(config, settings=CheckSettings(world_size=1)).findings]
            errors = tuple(f for f in findings if f.severity is Severity.error)
            verdicts.append(Verdicts(path.name, deepspeed_error, errors))
    finally:
        ds_logger.setLevel(level)
    yield Corpus(tuple(verdicts), tuple(parse_failures))


def test_corpus_is_there(corpus: Corpus) -> None:
    """The comparison ran on the whole corpus (a glob that matched nothing would make every other test vacuous)."""
    assert len(corpus.verdicts) + len(corpus.parse_failures) == len(_corpus_files()) > 300
    assert len(corpus.verdicts) > 300


def test_dsref_agrees_with_deepspeed(corpus: Corpus) -> None:
    """Outside the listed differences, dsref has an error exactly when DeepSpeed refuses the file."""
    wrong = [v for v in corpus.verdicts if not v.agree and v.name not in DIFFERENCES]
    assert not wrong, f"{len(wrong)} files where dsref and DeepSpeed disagree:\n" + "\n".join(
        v.describe() for v in wrong
    )


def test_listed_differences_still_differ(corpus: Corpus) -> None:
    """Each listed file is in the corpus, still differs in the listed direction, with dsref's error where listed."""
    by_name = {v.name: v for v in corpus.verdicts}
    problems: list[str] = []
    for name, diff in DIFFERENCES.items():
        verdict = by_name.get(name)
        if verdict is None:
            problems.append(f"{name}: listed but not in the corpus (or it no longer parses)")
            continue
        if verdict.agree:
            problems.append(f"{name}: listed as {diff.kind} but dsref and DeepSpeed now agree; remove it")
            continue
        if diff.kind == "dsref_misses":
            continue
        if verdict.deepspeed_error is not None:
            problems.append(f"{name}: listed as {diff.kind} but DeepSpeedConfig rejects it: {verdict.deepspeed_error}")
        elif diff.option not in {f.option for f in verdict.dsref_errors}:
            problems.append(f"{name}: dsref no longer reports the listed error at {diff.option}:\n{verdict.describe()}")
    assert not problems, "\n".join(problems)


def test_agreement_figures(corpus: Corpus, capsys: pytest.CaptureFixture[str]) -> None:
    """Prints the figures: agreement, the listed differences by kind, the files DeepSpeed cannot parse."""
    total = len(corpus.verdicts)
    agree = sum(v.agree for v in corpus.verdicts)
    listed = Counter(DIFFERENCES[v.name].kind for v in corpus.verdicts if not v.agree and v.name in DIFFERENCES)
    rejected = sum(v.deepspeed_error is not None for v in corpus.verdicts)
    assert agree + sum(listed.values()) <= total
    kinds = ", ".join(f"{kind} {count}" for kind, count in sorted(listed.items()))
    with capsys.disabled():
        print(
            f"\nDeepSpeed agreement: {agree}/{total} parsed configs agree "
            f"(DeepSpeedConfig rejects {rejected}, accepts {total - rejected}); "
            f"listed differences: {sum(listed.values())} ({kinds}); "
            f"not parsed by DeepSpeed, out of scope: {len(corpus.parse_failures)}"
        )


# Options read with dict.get that DeepSpeedConfig itself refuses when the value is wrong (Meta.enforced): a wrong
# value, a right one, and the rest of the config that makes DeepSpeed read it; the comment says where DeepSpeed 0.19.8
# refuses it. Options marked enforced whose check runs only when the engine starts (scheduler and optimizer
# construction, aio handles, AutoEP, AutoTP, pipeline, data_types) cannot be replayed without deepspeed.initialize.
ENFORCED_AT_CONFIG_BUILD: list[tuple[str, Any, Any, dict[str, Any]]] = [
    ("optimizer.type", 5, "AdamW", {}),  # config.py:519 .lower()
    ("communication_data_type", "fp8", "BF16", {}),  # config.py:216-230
    ("seq_parallel_communication_data_type", "fp8", "fp16", {}),  # config.py:216-230
    ("gradient_allreduce_op", "max", "SUM", {}),  # config.py:241-249
    ("torch_autocast.dtype", "fp8", "bfloat16", {}),  # config.py:186-194 (DtypeEnum)
    ("torch_autocast.lower_precision_safe_modules", None, ["torch.nn.Linear"], {}),  # config.py:197-205
    ("wall_clock_breakdown", "yes", True, {}),  # config.py:533 (bool | bool)
    ("flops_profiler.enabled", "yes", True, {}),  # config.py:533
    ("vocabulary_size", "50k", 50257, {}),  # config.py:717-718 (% 8)
    ("allgather_size", "big", 200_000_000, {"zero_optimization": True}),  # zero/config.py:60-78 → pydantic
    ("autotuning.results_dir", "", "results", {}),  # autotuning/config.py:39
    ("autotuning.exps_dir", None, "exps", {}),  # autotuning/config.py:41
    ("checkpoint.tag_validation", "strict", "Fail", {}),  # config.py:387-395
    ("checkpoint.parallel_write.pipeline_stage", "true", True, {}),  # config.py:398-406
    ("checkpoint.writer.type", "slow", "python", {}),  # model_checkpointing/config.py:22-28
    ("checkpoint.writer.data_parallel", "node", "socket", {}),  # model_checkpointing/config.py:22-28
    ("data_types.keep_in_fp32_modules", "lm_head", ["lm_head"], {}),  # config.py:563-567
    ("data_efficiency.data_sampling.dynamic_batching.min_batch_size", "one", 1, {}),  # data_pipeline/config.py:100
    ("data_efficiency.data_sampling.dynamic_batching.max_batch_size", None, 64, {}),  # data_pipeline/config.py:102
    (
        "data_efficiency.data_sampling.dynamic_batching.max_tokens",
        "many",
        4096,
        {"data_efficiency": {"data_sampling": {"dynamic_batching": {"enabled": True}}}},
    ),  # data_pipeline/config.py:107-110
    ("expert_parallel.load_balance_coeff", 0.01, None, {}),  # module_inject/auto_ep_config.py:73-76
]


def _put(config: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    node = config
    *parents, last = path.split(".")
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
    return config


def _errors_at(config: dict[str, Any], path: str) -> list[Finding]:
    return [f for f in validate(config) if f.severity is Severity.error and f.option == path]


@pytest.mark.parametrize(
    ("path", "bad", "good", "context"), ENFORCED_AT_CONFIG_BUILD, ids=[row[0] for row in ENFORCED_AT_CONFIG_BUILD]
)
def test_enforced_option_is_refused_by_both(tree: Any, path: str, bad: Any, good: Any, context: dict[str, Any]) -> None:
    """DeepSpeedConfig refuses the wrong value and dsref reports an error there; both accept the right value."""
    require_deepspeed()
    from deepspeed.runtime.config import DeepSpeedConfig

    assert tree.get(path).meta.enforced, f"DeepSpeed refuses a wrong {path}: mark it enforced=True in its schema"
    config = _put(copy.deepcopy({"train_batch_size": 8, **context}), path, bad)
    with pytest.raises(Exception):  # noqa: B017 - DeepSpeed raises assorted types (assert, ValueError, TypeError …)
        DeepSpeedConfig(copy.deepcopy(config))
    assert _errors_at(config, path), validate(config)
    _put(config, path, good)
    DeepSpeedConfig(copy.deepcopy(config))
    assert not _errors_at(config, path), validate(config)
