"""An installed release's version as pip writes it: local labels, pre- and post-releases, legacy egg installs, and
versions that are none, found as importlib.metadata finds them and said in one line."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pytest

import dsref.check.report.target as target
from dsref.check.report.target import ReleaseSource, distribution_on_path, release_to_check, statement
from dsref.cli.main import main
from dsref.tree.releases import OLDEST_COVERED


@pytest.mark.parametrize(
    ("installed", "version", "source"),
    [
        ("0.19.8+cu118", "0.19.8", ReleaseSource.installed),  # a local label: the release itself
        ("0.16.9.post1", "0.16.9", ReleaseSource.installed),
        ("0.16.9-1", "0.16.9", ReleaseSource.installed),  # the post-release's short form
        ("0.19.8rc1", "0.19.8", ReleaseSource.prerelease),
        ("0.18.0.dev0+abc123", "0.18.0", ReleaseSource.prerelease),
        ("0.17.2b1", "0.17.2", ReleaseSource.prerelease),
        ("v0.14.4", "0.14.4", ReleaseSource.installed),
        ("0.99.0", "0.19.8", ReleaseSource.newer),
        ("0.9.5", OLDEST_COVERED, ReleaseSource.older),
        ("main", "0.19.8", ReleaseSource.unknown),
        ("", "0.19.8", ReleaseSource.unknown),
        ("1" * 5000 + ".0", "0.19.8", ReleaseSource.unknown),  # int() refuses it past 4,300 digits
        ("0." + "9" * 40, "0.19.8", ReleaseSource.unknown),
    ],
)
def test_each_form_pip_writes_maps_to_its_release(installed: str, version: str, source: ReleaseSource) -> None:
    release = release_to_check(None, installed)
    assert (release.version, release.source) == (version, source)
    for lang in ("en", "zh"):
        said = statement(release, "deepspeed", lang, detected=True)  # type: ignore[arg-type]
        assert "\n" not in said and len(said) < 400


def test_a_prerelease_and_an_unknown_version_are_said_in_both_languages() -> None:
    pre = release_to_check(None, "0.19.8rc1")
    assert "0.19.8rc1 is installed, a pre-release of 0.19.8: checked as 0.19.8" in statement(
        pre, "deepspeed", "en", detected=True
    )
    assert "0.19.8rc1" in statement(pre, "deepspeed", "zh", detected=True)
    unknown = release_to_check(None, "main")
    assert "gives its version as 'main'" in statement(unknown, "deepspeed", "en", detected=True)
    assert "“main”" in statement(unknown, "deepspeed", "zh", detected=True)
    control = release_to_check(None, "\x1b[31mmain")
    assert "\x1b" not in statement(control, "deepspeed", "en", detected=True)


def _metadata(folder: Path, version: str) -> None:
    folder.mkdir(parents=True)
    (folder / "PKG-INFO").write_text(f"Metadata-Version: 1.1\nName: deepspeed\nVersion: {version}\n\nbody\n")


def _importlib_says(path: list[str]) -> str | None:
    found = [d for d in importlib.metadata.distributions(path=path) if d.metadata["Name"] == "deepspeed"]
    return found[0].version if found else None


@pytest.mark.parametrize(
    "layout",
    ["dist-info", "versioned egg-info", "setup.py install egg-info", "development egg-info", "egg on the path"],
)
def test_every_install_layout_is_found_as_importlib_metadata_finds_it(tmp_path: Path, layout: str) -> None:
    site = tmp_path / "site-packages"
    site.mkdir()
    entry = str(site)
    if layout == "dist-info":
        folder = site / "deepspeed-0.16.9.dist-info"
        folder.mkdir()
        (folder / "METADATA").write_text("Metadata-Version: 2.1\nName: deepspeed\nVersion: 0.16.9\n\n")
    elif layout == "versioned egg-info":
        _metadata(site / "deepspeed-0.16.9.egg-info", "0.16.9")
    elif layout == "setup.py install egg-info":
        _metadata(site / "deepspeed-0.16.9-py3.11.egg-info", "0.16.9")
    elif layout == "development egg-info":
        _metadata(site / "deepspeed.egg-info", "0.16.9")
    else:
        egg = site / "deepspeed-0.16.9-py3.11.egg"
        _metadata(egg / "EGG-INFO", "0.16.9")
        entry = str(egg)
    assert _importlib_says([entry]) == "0.16.9"
    assert distribution_on_path("deepspeed", [entry]) == "0.16.9"


def test_check_says_an_unreadable_installed_version_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ds_config.json"
    path.write_text('{"train_batch_size": 8}')
    for version in ("main", "9" * 5000):
        monkeypatch.setattr(target, "installed_deepspeed", lambda python=None, version=version: version)
        assert main(["check", str(path)]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        assert first.startswith("Checked for DeepSpeed 0.19.8 (the installed DeepSpeed gives its version as '")
        assert len(first) < 300
