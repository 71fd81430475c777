"""The release: a wheel built from this checkout works in a fresh virtual environment, away from the checkout."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import venv
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel as ``pip wheel`` builds it from this checkout's sources (the playground ships the same build)."""
    spec = importlib.util.spec_from_file_location("playground_build", ROOT / "scripts" / "playground.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return Path(script.build_dsref_wheel(tmp_path_factory.mktemp("dist")))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel and its run-time dependencies; returns its bin directory."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(with_pip=True).create(env_dir)
    bin_dir = env_dir / "bin"
    proc = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(wheel)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return bin_dir


def test_wheel_carries_what_dsref_needs_and_nothing_else(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "dsref/text/locales/zh_CN/LC_MESSAGES/dsref.mo" in names
    assert "dsref/generated/index/_keys.py" in names and "dsref/generated/index/zero_optimization.py" in names
    assert "dsref/py.typed" in names
    assert not [n for n in names if n.startswith(("tests/", "docs/", "scripts/", "schemas/")) or "__pycache__" in n]


def _run(bin_dir: Path, *args: str, env: dict[str, str] | None = None, cwd: Path) -> subprocess.CompletedProcess[str]:
    base = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run(
        [str(bin_dir / "dsref"), *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        cwd=cwd,
        stdin=subprocess.DEVNULL,
    )


def test_installed_commands_work_away_from_the_checkout(installed: Path, tmp_path: Path) -> None:
    work = tmp_path / "elsewhere"
    work.mkdir()
    version = _run(installed, "--version", cwd=work)
    assert version.returncode == 0 and "DeepSpeed 0.19.8" in version.stdout

    en = _run(installed, "explain", "zero_optimization.stage", "--lang", "en", cwd=work)
    assert en.returncode == 0 and "Partitions the optimizer states and the gradients." in en.stdout
    zh = _run(installed, "explain", "zero_optimization.stage", "--lang", "zh", cwd=work)
    assert zh.returncode == 0 and "默认值" in zh.stdout and zh.stderr == ""

    good = work / "good.json"
    good.write_text(
        json.dumps({"train_micro_batch_size_per_gpu": 4, "bf16": {"enabled": True}, "zero_optimization": {"stage": 2}})
    )
    bad = work / "bad.json"
    bad.write_text('{"train_batch_size": 8, "zero_optimization": {"stgae": 2}}')
    assert _run(installed, "check", str(good), cwd=work).returncode == 0
    checked = _run(installed, "check", str(bad), cwd=work)
    assert checked.returncode == 1 and "error[DS101]" in checked.stdout

    schema = _run(installed, "schema", cwd=work)
    assert schema.returncode == 0 and json.loads(schema.stdout)["$schema"].startswith("http://json-schema.org/draft-07")
    estimate = _run(installed, "estimate", "--params", "7B", "--gpus-per-node", "8", "--format", "json", cwd=work)
    assert estimate.returncode == 0 and json.loads(estimate.stdout)

    module = subprocess.run(
        [str(installed / "python"), "-m", "dsref", "--version"], capture_output=True, text=True, cwd=work
    )
    assert module.returncode == 0 and module.stdout == version.stdout


def test_unknown_locale_read_only_home_no_terminal(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    home.chmod(0o500)
    try:
        for env in ({"LANG": "xx_YY.UTF-8"}, {"LC_ALL": "klingon", "LANG": "zh_CN.UTF-8"}, {"LANG": ""}):
            proc = _run(installed, "explain", "fp16.enabled", env={**env, "HOME": str(home)}, cwd=tmp_path)
            assert proc.returncode == 0, proc.stderr
            assert proc.stdout.startswith("fp16.enabled\n") and "  type " in proc.stdout
            assert "Traceback" not in proc.stderr
    finally:
        home.chmod(0o700)


def test_runtime_dependencies_stay_few(installed: Path) -> None:
    proc = subprocess.run(
        [str(installed / "python"), "-m", "pip", "list", "--format", "json"], capture_output=True, text=True
    )
    names = {p["name"].lower() for p in json.loads(proc.stdout)}
    assert not names & {"torch", "deepspeed", "mkdocs", "mkdocs-material", "pytest"}
    # the server's and the catalog tools' packages are extras (dsref[server], dsref[catalog])
    assert not names & {"babel", "pygls", "lsprotocol"}
    assert {"dsref", "pydantic", "hjson"} <= names


def test_the_server_without_its_extra_says_how_to_install_it(installed: Path, tmp_path: Path) -> None:
    for lang, said in (("en", "python -m pip install 'dsref[server]'"), ("zh_CN.UTF-8", "`server` 扩展")):
        proc = _run(installed, "server", env={"LANG": lang}, cwd=tmp_path)
        assert proc.returncode == 2 and proc.stdout == ""
        assert said in proc.stderr and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1
