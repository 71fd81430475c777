"""``dsref server`` with launches, as an editor uses it: pytest-lsp starts the real server process on a workspace
that holds a ds_config and the LLaMA-Factory YAML that names it. Opening the YAML publishes on it the findings
``dsref check LAUNCH`` gives; opening the ds_config checks it with that launch, and the status names the launch, in
English and in Chinese."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as lsp

from tests import needs
from tests.lsp_client import diagnostics_of

pytest_lsp = needs.module("pytest_lsp")  # the client that starts the server (the test extra)
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "dsref", "server"])
CONFIG = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "bf16": {"enabled": true},\n  "train_batch_size": "auto"\n}\n'
LAUNCH = "model_name_or_path: m\nstage: sft\nper_device_train_batch_size: 2\nbf16: true\ndeepspeed: conf/ds.json\n"


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient) -> Any:
    yield  # each test starts the session on its own workspace
    await lsp_client.shutdown_session()  # here, not in the test: a failing test must not leave the server waiting


async def _until(client: LanguageClient, uri: str, holds: Any, timeout: float = 30) -> None:
    """Wait until the latest diagnostics of ``uri`` have codes for which ``holds`` is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not holds([d.code for d in client.diagnostics.get(uri, [])]):
        if loop.time() > deadline:
            raise AssertionError(f"{uri}: {[d.code for d in client.diagnostics.get(uri, [])]} after {timeout} s")
        await asyncio.sleep(0.1)


async def _said(client: LanguageClient, part: str, timeout: float = 30) -> str:
    """The first log message that holds ``part`` (the server logs each status it sends)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        for message in client.log_messages:
            if part in message.message:
                return message.message
        if loop.time() > deadline:
            raise AssertionError(f"no log message with {part!r}: {[m.message for m in client.log_messages]}")
        await asyncio.sleep(0.1)


def _workspace(root: Path) -> None:
    (root / "conf").mkdir()
    (root / "conf/ds.json").write_text(CONFIG, encoding="utf-8")
    (root / "train.yaml").write_text(LAUNCH, encoding="utf-8")


async def _start(client: LanguageClient, root: Path, locale: str) -> None:
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            locale=locale,
            root_uri=root.as_uri(),
            workspace_folders=[lsp.WorkspaceFolder(root.as_uri(), "w")],
        )
    )


def _open(client: LanguageClient, path: Path, language: str) -> str:
    uri = path.as_uri()
    text = path.read_text(encoding="utf-8")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, language, 1, text)))
    return uri


def _check_launch(root: Path) -> list[dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "check", "--format", "json", "train.yaml"],
        capture_output=True,
        text=True,
        cwd=root,
    )
    [file] = json.loads(proc.stdout)["files"]
    return list(file["findings"])


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_a_launch_and_the_ds_config_it_names(client: LanguageClient, tmp_path: Path) -> None:
    _workspace(tmp_path)
    await _start(client, tmp_path, "en")
    expected = _check_launch(tmp_path)
    assert "DS589" in [f["code"] for f in expected]  # 4 against per_device_train_batch_size 2

    launch = await diagnostics_of(client, _open(client, tmp_path / "train.yaml", "yaml"))
    assert [d.code for d in launch] == [f["code"] for f in expected]
    for diagnostic, finding in zip(launch, expected, strict=True):
        assert diagnostic.range.start.line == 4  # deepspeed: conf/ds.json
        assert diagnostic.message.startswith(f"conf/ds.json:{finding['line']}:{finding['column']}: ")
        [related] = diagnostic.related_information or []
        assert related.location.uri == (tmp_path / "conf/ds.json").as_uri()
        assert related.location.range.start.line == finding["line"] - 1

    config = await diagnostics_of(client, _open(client, tmp_path / "conf/ds.json", "json"))
    got = [(d.code, d.range.start.line + 1, d.range.start.character + 1) for d in config]
    assert got == [(f["code"], f["line"], f["column"]) for f in expected]
    said = await _said(client, "checked with the launch")
    assert "conf/ds.json" in said and "train.yaml" in said


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_the_status_names_the_launch_in_chinese_and_none_without_one(
    client: LanguageClient, tmp_path: Path
) -> None:
    _workspace(tmp_path)
    (tmp_path / "alone.json").write_text(CONFIG, encoding="utf-8")
    await _start(client, tmp_path, "zh-cn")
    await diagnostics_of(client, _open(client, tmp_path / "conf/ds.json", "json"))
    said = await _said(client, "按指定它的启动文件")
    assert "train.yaml" in said
    alone = await diagnostics_of(client, _open(client, tmp_path / "alone.json", "json"))
    assert "DS589" not in [d.code for d in alone]  # no launch: nothing to compare with
    # a launch opened in the editor that names it counts, before it is saved
    uri = (tmp_path / "alone.yaml").as_uri()
    text = LAUNCH.replace("conf/ds.json", "alone.json")
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "yaml", 1, text)))
    await diagnostics_of(client, uri)
    # alone.json is checked again with the launch; a publish of it made before the launch opened (the interpreter's
    # answer rechecks every open document) may still come first, so wait for the one that compares
    await _until(client, (tmp_path / "alone.json").as_uri(), lambda codes: "DS589" in codes)
