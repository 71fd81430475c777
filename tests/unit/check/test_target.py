"""What a check is for, detected and stated: the DeepSpeed release (asked for, installed, or none) and the reader
the file is written for (Hugging Face's when strict JSON writes "auto", the launcher's otherwise), the same rule for
``dsref check``, ``--fix`` and the server, said first in both languages."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dsref.check.pipeline import check_text
from dsref.check.read.loader import load_text
from dsref.check.report.target import (
    Release,
    ReleaseSource,
    UncoveredRelease,
    ask_interpreter,
    deepspeed_on_path,
    installed_deepspeed,
    installed_hugging_face,
    release_to_check,
    statement,
)
from dsref.check.settings import CheckSettings
from dsref.cli.main import main
from dsref.tree.releases import COVERED, OLDEST_COVERED, PUBLISHED, recorded_release
from dsref.tree.versions import DEEPSPEED_VERSION
from tests.conftest import shared_path

HF = '{"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}}'


# -- the reader ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "reader"),
    [
        (HF, "hf"),
        ('{"train_batch_size": 8}', "deepspeed"),
        ('{"train_batch_size": 8, "note": "set to auto later"}', "deepspeed"),  # "auto" inside a string is not one
        ('{"auto": 1, "train_batch_size": 8}', "deepspeed"),  # nor is a key named auto
        ('// comment\n{"train_batch_size": "auto"}', "hf"),  # meant for Hugging Face, whose json.load fails on it
        ('{"train_batch_size": "auto",}', "hf"),
        ('// "auto" nowhere but here\n{"train_batch_size": 8}', "deepspeed"),
        # Hugging Face fills a value written "auto", not an item of a list (betas stays ["auto", 0.999])
        ('{"optimizer": {"params": {"betas": ["auto", 0.999]}}}', "deepspeed"),
    ],
)
def test_a_file_is_read_by_the_reader_it_is_written_for(text: str, reader: str) -> None:
    loaded = load_text(text, None)
    assert loaded.profile == reader


def test_the_reader_decides_what_is_found() -> None:
    as_written = check_text(HF, "ds_config.json", settings=CheckSettings(profile=None))
    as_launcher = check_text(HF, "ds_config.json", settings=CheckSettings(profile="deepspeed"))
    assert "DS402" in {f.code for f in as_launcher.findings}  # "auto" is no value DeepSpeed understands
    assert "DS402" not in {f.code for f in as_written.findings}  # Hugging Face fills it
    assert as_written.loaded is not None and as_written.loaded.profile == "hf"


def test_the_default_check_of_hugging_face_configs_is_no_wall_of_auto_errors() -> None:
    """Issue 23's count: on the real configs that write "auto", a check with no --profile reports DS402 on none
    that strict JSON reads (the launcher's reading still does, when asked for)."""
    corpus = sorted(shared_path("corpus", "real").glob("*.json"))
    files = [p for p in corpus if '"auto"' in p.read_text("utf-8", "replace")]
    assert len(files) > 50
    as_written = [check_text(p.read_text("utf-8"), str(p), settings=CheckSettings(profile=None)) for p in files]
    read_as_hf = [r for r in as_written if r.loaded is not None and r.loaded.profile == "hf"]
    assert len(read_as_hf) > 50
    assert not [r.path for r in read_as_hf if any(f.code == "DS402" for f in r.findings)]


# -- the release -----------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "installed", "expected"),
    [
        ("0.15.4", "0.19.8", Release("0.15.4", ReleaseSource.given, "0.19.8")),
        ("v0.12", None, Release("0.12.0", ReleaseSource.given, None)),
        (None, "0.15.4", Release("0.15.4", ReleaseSource.installed, "0.15.4")),
        (None, "0.16.0+cu121", Release("0.16.0", ReleaseSource.installed, "0.16.0+cu121")),
        (None, "0.17.0rc1", Release("0.17.0", ReleaseSource.prerelease, "0.17.0rc1")),
        (None, None, Release(DEEPSPEED_VERSION, ReleaseSource.not_installed, None)),
        (None, "0.20.1", Release(DEEPSPEED_VERSION, ReleaseSource.newer, "0.20.1")),
        (None, "0.9.5", Release(OLDEST_COVERED, ReleaseSource.older, "0.9.5")),
        (None, "unknown", Release(DEEPSPEED_VERSION, ReleaseSource.unknown, "unknown")),
    ],
)
def test_the_release_checked_for(given: str | None, installed: str | None, expected: Release) -> None:
    assert release_to_check(given, installed) == expected


NOT_YET = [r for r in PUBLISHED[PUBLISHED.index(OLDEST_COVERED) :] if r not in COVERED]
"""Releases DeepSpeed published within the range whose recording is still to come."""


@pytest.mark.parametrize(
    "given", ["0.9.9", "0.9.1", "0.9.5", "0.20.0", "1.0", "abc", "latest", "", "0.19.8.1", "0.15.99", *NOT_YET]
)
def test_a_release_dsref_does_not_cover_is_refused(given: str) -> None:
    with pytest.raises(UncoveredRelease) as refused:
        release_to_check(given, "0.19.8")
    assert f"from {OLDEST_COVERED} to {DEEPSPEED_VERSION}" in refused.value.text("en")
    assert f"{OLDEST_COVERED} 到 {DEEPSPEED_VERSION}" in refused.value.text("zh")
    for release in NOT_YET:  # the published releases not recorded yet are named, never read as a neighbour
        assert release in refused.value.text("en") and release in refused.value.text("zh")


def test_the_oldest_release_covered_is_the_oldest_recorded() -> None:
    """Nothing before the first recorded release was compared with it: the claim stops where the data does."""
    assert COVERED[0] == OLDEST_COVERED
    assert release_to_check(OLDEST_COVERED, None).version == OLDEST_COVERED
    assert release_to_check(None, "0.9.5") == Release(OLDEST_COVERED, ReleaseSource.older, "0.9.5")


@pytest.mark.parametrize(("installed", "recorded"), [(r, recorded_release(r)) for r in [*NOT_YET, "0.15.99"]])
def test_an_installed_release_not_recorded_says_which_it_is_read_as(installed: str, recorded: str) -> None:
    """Named by the user, such a release is refused; installed, it is checked as the next one recorded, and the first
    line says so."""
    release = release_to_check(None, installed)
    english = statement(release, "deepspeed", "en", detected=True)
    assert f"(installed; read as {recorded}, the next release recorded)" in english
    assert f"按其后最近的已记录版本 {recorded} 读取" in statement(release, "deepspeed", "zh", detected=True)
    assert "next release recorded" not in statement(release_to_check(recorded, None), "deepspeed", "en", detected=True)


def _dist_info(site: Path, name: str, metadata: str | None) -> None:
    folder = site / name
    folder.mkdir(parents=True)
    if metadata is not None:
        (folder / "METADATA").write_text(metadata)


def test_the_installed_release_comes_from_package_metadata(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _dist_info(first, "deepspeed_mii-0.3.0.dist-info", "Name: deepspeed-mii\nVersion: 0.3.0\n")  # another package
    _dist_info(first, "deepspeed-0.15.4.dist-info", "Metadata-Version: 2.1\nName: deepspeed\nVersion: 0.15.4\n\nx")
    _dist_info(second, "deepspeed-0.19.8.dist-info", "Name: deepspeed\nVersion: 0.19.8\n")
    assert deepspeed_on_path([str(tmp_path / "missing"), str(first), str(second)]) == "0.15.4"  # the first, as Python
    assert deepspeed_on_path([str(second)]) == "0.19.8"
    bare = tmp_path / "bare"
    _dist_info(bare, "DeepSpeed-0.14.4.egg-info", None)  # no metadata file: the folder's name says it
    assert deepspeed_on_path([str(bare)]) == "0.14.4"
    assert deepspeed_on_path([str(tmp_path / "missing")]) is None


def test_the_installed_release_of_this_interpreter_and_of_another(tmp_path: Path) -> None:
    from importlib import metadata

    try:
        expected: str | None = metadata.version("deepspeed")
    except metadata.PackageNotFoundError:
        expected = None
    assert installed_deepspeed() == expected  # the same answer as importlib.metadata, without importing it
    assert installed_deepspeed(sys.executable) == expected  # asked of an interpreter, as the server does
    assert installed_deepspeed(str(tmp_path / "no-python")) is None
    silent = tmp_path / "python"
    silent.write_text("#!/bin/sh\nsleep 5\n")
    silent.chmod(0o755)
    assert installed_deepspeed(str(silent), timeout=0.5) is None


def test_an_interpreter_that_cannot_be_asked_says_why(tmp_path: Path) -> None:
    """One process asked once, for all three releases; one that does not answer in time, cannot be run, or fails is
    said as such, in both languages: the checks are for the newest release, as with none installed."""
    silent = tmp_path / "slow-python"
    silent.write_text("#!/bin/sh\nsleep 5\n")
    silent.chmod(0o755)
    failing = tmp_path / "failing-python"
    failing.write_text("#!/bin/sh\nexit 3\n")
    failing.chmod(0o755)
    answering = tmp_path / "python"
    answering.write_text("#!/bin/sh\nprintf '0.15.4\\n\\n1.2.0\\n'\n")
    answering.chmod(0o755)
    answer = ask_interpreter(str(answering))
    assert (answer.deepspeed, answer.hugging_face.transformers, answer.hugging_face.accelerate) == (
        "0.15.4",
        None,
        "1.2.0",
    )
    assert answer.unasked is None
    said = {}
    for python, timeout in ((silent, 0.5), (failing, 10.0), (tmp_path / "none", 10.0)):
        unasked = ask_interpreter(str(python), timeout=timeout).unasked
        assert unasked is not None and unasked.python == str(python)
        release = release_to_check(None, None, unasked=unasked)
        assert (release.version, release.source) == (DEEPSPEED_VERSION, ReleaseSource.not_asked)
        said[unasked.reason] = [statement(release, "deepspeed", lang, detected=True) for lang in ("en", "zh")]
    assert said["timed_out"][0].startswith(
        f"Checked for DeepSpeed {DEEPSPEED_VERSION} (could not ask {silent} (timed out)"
    )
    assert f"无法询问 {silent}（超时）" in said["timed_out"][1]
    assert f"could not ask {failing} (it exited with status 3)" in said["failed"][0]
    assert "退出状态为 3" in said["failed"][1]
    assert "(it cannot be run: no such file or directory)" in said["not_run"][0]
    assert "无法运行：" in said["not_run"][1]
    given = release_to_check("0.15.4", None, unasked=ask_interpreter(str(failing)).unasked)
    assert given.source is ReleaseSource.given  # a release named is checked for whatever the interpreter says


def test_the_statement_in_both_languages() -> None:
    installed = Release("0.15.4", ReleaseSource.installed, "0.15.4")
    assert statement(installed, "hf", "en", detected=True) == (
        "Checked for DeepSpeed 0.15.4 (installed), read as Hugging Face fills it "
        '(the file writes "auto" where they fill a value).'
    )
    assert statement(installed, "hf", "zh", detected=True) == (
        "检查对象：DeepSpeed 0.15.4（已安装的版本）；按 Hugging Face 的方式读取并填充"
        '（文件在它们会填充的键上写了 "auto"）。'
    )
    none = Release(DEEPSPEED_VERSION, ReleaseSource.not_installed)
    assert "no DeepSpeed installed here" in statement(none, "deepspeed", "en", detected=True)
    assert "本机未安装 DeepSpeed" in statement(none, "deepspeed", "zh", detected=True)
    newer = Release(DEEPSPEED_VERSION, ReleaseSource.newer, "0.20.1")
    assert "0.20.1 is installed, newer than dsref knows" in statement(newer, None, "en", detected=True)


# -- said first, by the command line ---------------------------------------------------------------------------------


def test_check_says_first_what_it_checked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(HF)
    assert main(["check", str(path), "--deepspeed-version", "0.15.4", "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = ", ".join(f"{name} {version}" for name, version in installed_hugging_face().known())
    assert lines[0] == (
        'Checked for DeepSpeed 0.15.4 (as asked), read as Hugging Face fills it (the file writes "auto" where they '
        "fill a value" + (f"; {found} installed" if found else "") + ")."
    )
    assert main(["check", str(path), "--deepspeed-version", "0.15.4", "--lang", "zh", "--profile", "deepspeed"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "检查对象：DeepSpeed 0.15.4（按指定的版本）；按 deepspeed 启动器的方式读取。"
    )
    assert main(["check", str(path), str(path), "--lang", "en"]) == 0
    assert "each file read as Hugging Face fills it when it writes" in capsys.readouterr().out.splitlines()[0]


def test_check_json_says_what_it_checked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text(HF)
    assert main(["check", str(path), "--format", "json", "--deepspeed-version", "0.12.6"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["deepspeed"] == "0.12.6"
    assert document["checked_for"] == {
        "deepspeed": "0.12.6",
        "source": "given",
        "installed": installed_deepspeed(),
        "reading": "hf",
        "reading_chosen_by": "file",
        "hugging_face": {
            "transformers": installed_hugging_face().transformers,
            "accelerate": installed_hugging_face().accelerate,
        },
    }
    assert document["files"][0]["profile"] == "hf"


def test_fix_states_it_too_and_keeps_the_reader_of_the_original(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text('{"train_micro_batch_size_per_gpu": "auto", "bfloat16": {"enabled": true}}')
    assert main(["check", str(path), "--fix", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("Checked for DeepSpeed ")
    assert json.loads(path.read_text()) == {"train_micro_batch_size_per_gpu": "auto", "bf16": {"enabled": True}}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("given", ["0.8.3", "0.9.1", "abc", "0.20.0", "0.15.99", "0.16.10"])
@pytest.mark.parametrize("command", [["check", "x.json"], ["explain", "gradient_clipping"], ["options"]])
def test_an_uncovered_release_is_one_line_and_exit_2(
    lang: str, given: str, command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--deepspeed-version", given, "--lang", lang]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert len(err.splitlines()) == 1 and given in err and OLDEST_COVERED in err and DEEPSPEED_VERSION in err
    assert not captured.out


def test_a_hugging_face_file_with_comments_is_told_the_error_its_launch_meets() -> None:
    """Seed 000 writes "auto" and comments: Hugging Face's json.load stops at the first comment, which is the first
    finding; not six errors about "auto" that Hugging Face fills. What follows is the file as Hjson reads it, judged
    as Hugging Face would: its two zero_optimization sections among them, which is why no fix rewrites it as strict
    JSON (that would keep the later one and drop the other without a word)."""
    seed = next(shared_path("seeds").glob("000_*.txt")).read_text("utf-8")
    report = check_text(seed, "ds_config.json", settings=CheckSettings(profile=None))
    assert report.error is not None and report.error.profile == "hf" and report.error.reason == "json_comment"
    assert report.findings[0].code == "DS000" and report.findings[0].fix is None
    rest = report.findings[1:]
    assert all(f.seen_by == "deepspeed" for f in rest) and "DS003" in {f.code for f in rest}
    assert "DS402" not in {f.code for f in rest}
