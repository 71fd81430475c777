"""The VS Code extension (``editors/vscode/``) builds into a ``.vsix`` offline with ``@vscode/vsce``, ships the
committed JSON Schema and the language client, and starts ``dsref server`` with the dsref settings.

Without node and npm the tests skip, except in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests import needs

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
EXTENSION = ROOT / "editors" / "vscode"


@pytest.fixture(scope="module")
def node() -> str:
    exe = needs.program("node")
    if not (EXTENSION / "node_modules" / "@vscode" / "vsce").is_dir():
        npm = needs.program("npm")
        proc = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=EXTENSION, capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0:
            pytest.fail(f"npm ci in editors/vscode failed:\n{proc.stderr[-2000:]}")
    return exe


@pytest.fixture(scope="module")
def vsix(node: str, tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("vsix") / "dsref.vsix"
    prepare = subprocess.run([node, "prepare.js"], cwd=EXTENSION, capture_output=True, text=True, timeout=60)
    assert prepare.returncode == 0, prepare.stderr
    vsce = EXTENSION / "node_modules" / "@vscode" / "vsce" / "vsce"
    proc = subprocess.run(
        [node, str(vsce), "package", "--out", str(out)], cwd=EXTENSION, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return zipfile.ZipFile(out)


def test_the_vsix_has_the_client_the_schema_and_the_settings(vsix: zipfile.ZipFile) -> None:
    names = set(vsix.namelist())
    assert {"extension/extension.js", "extension/package.json", "extension/schemas/ds_config.schema.json"} <= names
    assert "extension/node_modules/vscode-languageclient/package.json" in names
    assert not [n for n in names if "/node_modules/@vscode/vsce/" in n]  # a dev dependency stays out
    assert (
        vsix.read("extension/schemas/ds_config.schema.json")
        == (ROOT / "schemas" / "ds_config.schema.json").read_bytes()
    )
    manifest = json.loads(vsix.read("extension/package.json"))
    settings = manifest["contributes"]["configuration"]["properties"]
    assert set(settings) == {
        "dsref.language",
        "dsref.profile",
        "dsref.worldSize",
        "dsref.deepspeedVersion",
        "dsref.python",
        "dsref.interpreter",
        "dsref.server.command",
    }
    from dsref.editor.schemastore import FILE_MATCH

    assert manifest["contributes"]["jsonValidation"] == [
        {"fileMatch": list(FILE_MATCH), "url": "./schemas/ds_config.schema.json"}
    ]
    english = json.loads(vsix.read("extension/package.nls.json"))
    chinese = json.loads(vsix.read("extension/package.nls.zh-cn.json"))
    trust = manifest["capabilities"]["untrustedWorkspaces"]
    placeholders = {v["description"].strip("%") for v in settings.values()} | {"description"}
    placeholders.add(trust["description"].strip("%"))
    assert set(english) == set(chinese) == placeholders
    assert all(english[k] != chinese[k] for k in english)


def _smoke(
    node: str, settings: dict[str, Any], platform: str = "linux", status: dict[str, Any] | None = None
) -> dict[str, Any]:
    proc = subprocess.run(
        [node, "test/smoke.js", json.dumps(settings), platform, json.dumps(status)],
        cwd=EXTENSION,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_settings_that_name_a_program_are_not_the_workspaces() -> None:
    """A folder's .vscode/settings.json cannot name a program for the extension or the server to run: the command
    that starts the server is machine-scoped, and the training environment's interpreter, which a workspace may
    name, is ignored there until the workspace is trusted."""
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    settings = manifest["contributes"]["configuration"]["properties"]
    programs = {"dsref.python", "dsref.interpreter", "dsref.server.command"}
    trust = manifest["capabilities"]["untrustedWorkspaces"]
    assert trust["supported"] == "limited" and set(trust["restrictedConfigurations"]) == programs
    assert {name: settings[name].get("scope") for name in programs} == {
        "dsref.python": "machine-overridable",
        "dsref.interpreter": "machine",
        "dsref.server.command": "machine",
    }
    assert all(settings[name].get("scope") in (None, "resource", "window") for name in set(settings) - programs)


def test_activate_starts_the_server_with_the_settings(node: str) -> None:
    run = _smoke(node, {"language": "zh", "worldSize": 8, "interpreter": "/opt/venv/bin/python"})
    [client] = run["started"]
    assert client["serverOptions"]["command"] == "/opt/venv/bin/python"
    assert client["serverOptions"]["args"] == ["-m", "dsref", "server"]
    assert client["clientOptions"]["initializationOptions"] == {
        "language": "zh",
        "profile": None,
        "worldSize": 8,
        "deepspeedVersion": None,
        "python": None,
    }
    assert client["clientOptions"]["synchronize"] == {"configurationSection": "dsref"}
    assert {"scheme": "file", "language": "json"} in client["clientOptions"]["documentSelector"]
    assert {"scheme": "file", "language": "yaml"} in client["clientOptions"]["documentSelector"]  # launch files
    assert {"scheme": "file", "language": "shellscript"} in client["clientOptions"]["documentSelector"]
    assert run["subscriptions"] == 2  # the client is stopped with the extension, and its status bar item removed
    assert not run["statusBar"]["shown"]  # nothing said before the server says what it checks for


def test_the_status_bar_says_what_the_server_checks_for(node: str) -> None:
    from dsref.check.report.target import Release, ReleaseSource, statement

    release = Release("0.15.4", ReleaseSource.installed, "0.15.4")
    said = statement(release, None, "en", detected=True)
    run = _smoke(node, {"python": "/opt/train/bin/python"}, status={"text": said, **release.to_json()})
    assert run["started"][0]["clientOptions"]["initializationOptions"]["python"] == "/opt/train/bin/python"
    assert run["statusBar"] == {"text": "dsref: DeepSpeed 0.15.4", "tooltip": said, "shown": True}


def test_the_server_command_can_be_replaced(node: str) -> None:
    assert _smoke(node, {"server.command": ["dsref", "server"]})["command"] == ["dsref", "server"]
    assert _smoke(node, {}, "win32")["command"] == ["python", "-m", "dsref", "server"]
    assert _smoke(node, {}, "linux")["command"] == ["python3", "-m", "dsref", "server"]
