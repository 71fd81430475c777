"""The option tree: complete, consistent metadata on every option."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from dsref.check.validate.validation import validate, value_validator
from dsref.schema import UNSET, DictSection, PassthroughSection, StrictSection
from dsref.tree.options import Option, OptionTree
from dsref.tree.versions import parse_version

DUMP_FIELDS = {"path", "type", "default", "aliases", "deprecated", "since", "removed_in", "stages", "hf_auto"}


def _instance_path(opt: Option) -> list[str | int]:
    """A concrete location for an option: map placeholders become a name, list steps index 0."""
    steps: list[str | int] = []
    for part in opt.path.split("."):
        if part.startswith("<"):
            steps.append("example")
        elif part.endswith("[]"):
            steps.extend([part[:-2], 0])
        else:
            steps.append(part)
    return steps


def _nest(steps: list[str | int], value: Any) -> Any:
    out = value
    for step in reversed(steps):
        out = [out] if isinstance(step, int) else {step: out}
    return out


def test_paths_are_unique_and_found_again(tree: OptionTree) -> None:
    paths = [opt.path for opt in tree]
    assert len(paths) == len(set(paths)) == len(tree)
    for opt in tree:
        assert tree.get(opt.path) is opt
        resolution = tree.resolve(opt.path)
        assert resolution is not None and resolution.option is opt and resolution.via == "path"


def test_every_alias_resolves_to_its_option(tree: OptionTree) -> None:
    for opt in tree:
        prefix = "" if opt.parent is None else opt.parent + "."
        for alias in (*opt.aliases, *opt.deprecated_aliases, *opt.meta.docs_names):
            resolution = tree.resolve(prefix + alias)
            assert resolution is not None and resolution.option is opt, alias


def test_every_option_is_described(tree: OptionTree) -> None:
    bare = [opt.path for opt in tree if not (opt.description and opt.description.strip())]
    assert bare == []


def test_versions_are_release_numbers(tree: OptionTree) -> None:
    for opt in tree:
        for version in (opt.since, opt.removed_in):
            if version is not None:
                assert parse_version(version) <= parse_version("0.19.8"), opt.path


def test_every_section_declares_how_deepspeed_reads_it(tree: OptionTree) -> None:
    for opt in tree:
        if opt.model is None:
            continue
        kinds = [base for base in (StrictSection, DictSection, PassthroughSection) if issubclass(opt.model, base)]
        assert len(kinds) == 1, opt.path
        extra = opt.model.model_config.get("extra")
        assert {"reject": "forbid", "ignore": "ignore", "passthrough": "allow"}[opt.model.unknown_keys] == extra


@pytest.mark.parametrize("attr", ["default", "example"])
def test_defaults_and_examples_validate_against_their_own_type(tree: OptionTree, attr: str) -> None:
    bad = []
    for opt in tree:
        value = opt.default if attr == "default" else opt.meta.example
        if value is UNSET or opt.kind == "section" or opt.removed_in or opt.meta.docs_only:
            continue
        if attr == "default" and value is None and opt.meta.default_note:
            continue  # "unset" means the runtime computes it (note says how)
        try:
            value_validator(opt).validate_python(value)
        except Exception as exc:
            bad.append(f"{opt.path}: {value!r} ({type(exc).__name__})")
    assert bad == []


def test_examples_pass_the_validator(tree: OptionTree) -> None:
    bad = []
    for opt in tree:
        if opt.meta.example is UNSET or opt.removed_in or opt.meta.docs_only:
            continue
        findings = [f for f in validate(_nest(_instance_path(opt), opt.meta.example)) if f.severity.value != "info"]
        if findings:
            bad.append(f"{opt.path}: {findings[0].kind.name} {dict(findings[0].args)}")
    assert bad == []


def test_deprecated_and_removed_say_what_to_do(tree: OptionTree) -> None:
    for opt in tree:
        if opt.meta.deprecated:
            assert opt.meta.use_instead, opt.path
        if opt.meta.removed_in:
            assert opt.meta.removal_note, opt.path
        if opt.meta.use_instead and "." in opt.meta.use_instead and not opt.meta.use_instead.startswith("<"):
            assert tree.resolve(opt.meta.use_instead) is not None, f"{opt.path}: {opt.meta.use_instead}"


def test_stage_specific_options_only_name_real_stages(tree: OptionTree) -> None:
    for opt in tree:
        if opt.stages is not None:
            assert opt.stages and set(opt.stages) <= {0, 1, 2, 3}, opt.path


def test_json_dump_is_complete_and_documented(tree: OptionTree) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "options", "--format", "json"], capture_output=True, text=True, check=True
    )
    dump = json.loads(proc.stdout)
    assert dump["deepspeed"] == "0.19.8"
    records = dump["options"]
    assert [r["path"] for r in records] == [o.path for o in tree]
    for record in records:
        assert set(record) >= DUMP_FIELDS
    stage = next(r for r in records if r["path"] == "zero_optimization.stage3_prefetch_bucket_size")
    assert stage["aliases"] == ["prefetch_bucket_size"]
    assert stage["default"] == 50_000_000 and stage["docs_default"] == 500_000_000
    assert stage["stages"] == [3] and stage["unit"] == "elements" and stage["hf_auto"] is True


def test_children_and_subtree(tree: OptionTree) -> None:
    zero = tree.children("zero_optimization")
    assert zero[0].key == "stage"
    assert all(child.parent == "zero_optimization" for child in zero)
    below = list(tree.iter_subtree("zero_optimization"))
    assert "zero_optimization.offload_param.device" in {o.path for o in below}
    assert len(below) > len(zero)


def test_map_and_list_patterns_resolve_with_concrete_names(tree: OptionTree) -> None:
    metric = "data_efficiency.data_sampling.curriculum_learning.curriculum_metrics.seqlen.schedule_type"
    resolved = tree.resolve(metric)
    assert resolved is not None
    assert resolved.option.path.endswith("curriculum_metrics.<metric>.schedule_type")
    spec = tree.resolve("tensor_parallel.partition_config.layer_specs[2].partition_type")
    assert spec is not None and spec.option.path == "tensor_parallel.partition_config.layer_specs[].partition_type"
    assert tree.resolve("zero_optimization.no_such_thing") is None


def test_the_dump_gives_each_option_its_texts_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.cli.main import main
    from dsref.text.i18n import option_text

    dumps = {}
    for lang in ("en", "zh"):
        assert main(["options", "--lang", lang]) == 0
        dumps[lang] = json.loads(capsys.readouterr().out)
    assert dumps["zh"]["lang"] == "zh"
    english, chinese = dumps["en"]["options"], dumps["zh"]["options"]
    assert [r["description"] for r in english] == [r["description"] for r in chinese]  # the stable record
    stage = next(r for r in chinese if r["path"] == "zero_optimization.stage")
    assert stage["text"]["description"] == option_text(stage["path"], stage["description"], "zh")
    assert stage["text"]["description"] != stage["description"]
    assert stage["text"]["summary"].endswith("。")
    assert next(r for r in english if r["path"] == "zero_optimization.stage")["text"]["summary"] == stage["summary"]


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    from dsref.cli.main import main

    assert main(["options", "--lang", "fr"]) == 2
    assert "fr" in capsys.readouterr().err
