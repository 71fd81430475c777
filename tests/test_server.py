"""``dsref server`` as an editor uses it: pytest-lsp starts the real server process and speaks LSP to it.

Initialize, open, diagnostics equal to ``dsref check --format json`` for every real config, hover in English and
Chinese, completion inside ``zero_optimization``, a code action applied, a configuration change, a bad setting,
shutdown; and the documents that must not kill it.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from .conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]
SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "dsref", "server"])


async def _start(client: LanguageClient, locale: str = "en", options: dict[str, Any] | None = None) -> None:
    await client.initialize_session(
        lsp.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            locale=locale,
            initialization_options=options or {},
            root_uri=ROOT.as_uri(),
        )
    )


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient) -> Any:
    await _start(lsp_client)
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def zh_client(lsp_client: LanguageClient) -> Any:
    await _start(lsp_client, locale="zh-cn")
    yield
    await lsp_client.shutdown_session()


async def _open(client: LanguageClient, name: str, text: str, version: int = 1) -> list[lsp.Diagnostic]:
    uri = f"file:///work/{name}"
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", version, text)))
    return await _diagnostics_of(client, uri)


async def _diagnostics_of(client: LanguageClient, uri: str, timeout: float = 30) -> list[lsp.Diagnostic]:
    """The next diagnostics published for ``uri`` (others, such as those of a closed file, are passed over).

    The notification can be read before ``wait_for_notification`` starts waiting (its task is scheduled after the
    data already received), so the wait is short and the client's record is looked at again after each one.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while uri not in client.diagnostics:
        try:
            await asyncio.wait_for(client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), timeout=0.5)
        except TimeoutError:
            if loop.time() > deadline:
                raise AssertionError(f"no diagnostics for {uri} in {timeout} s") from None
    return list(client.diagnostics[uri])


def _check_json(paths: list[Path], *extra: str) -> dict[str, list[dict[str, Any]]]:
    """``dsref check --format json`` over ``paths`` in one call: the findings of each file, by path."""
    if not paths:
        return {}
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "check", "--format", "json", *extra, *map(str, paths)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return {f["file"]: f["findings"] for f in json.loads(proc.stdout)["files"]}


def _expected(findings: list[dict[str, Any]], text: str) -> list[tuple[Any, ...]]:
    """Check's findings as (code, severity, range in LSP terms)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def lsp(line: int, column: int) -> tuple[int, int]:  # worked out here, not with the server's own index
        if line > len(lines):
            return len(lines) - 1, len(lines[-1].encode("utf-16-le", "surrogatepass")) // 2
        chars = column - 1 + (1 if line == 1 and text.startswith("\ufeff") else 0)
        return line - 1, len(lines[line - 1][:chars].encode("utf-16-le", "surrogatepass")) // 2

    severity = {"error": 1, "warning": 2, "info": 3}
    return [
        (f["code"], severity[f["severity"]], (*lsp(f["line"], f["column"]), *lsp(f["end_line"], f["end_column"])))
        for f in findings
    ]


def _got(diagnostics: list[lsp.Diagnostic]) -> list[tuple[Any, ...]]:
    return [
        (
            d.code,
            int(d.severity or 0),
            (d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character),
        )
        for d in diagnostics
    ]


@pytest.mark.slow
@pytest.mark.asyncio
async def test_diagnostics_are_check_findings_for_every_real_config(client: LanguageClient) -> None:
    files = sorted(shared_path("corpus", "real").glob("*.json"))
    assert len(files) > 300
    texts = {path: path.read_bytes().decode("utf-8", "replace") for path in files}
    hf = [p for p, text in texts.items() if '"auto"' in text or "'auto'" in text]
    expected = {**_check_json([p for p in files if p not in hf]), **_check_json(hf, "--profile", "hf")}
    for number, path in enumerate(files):
        text = texts[path]
        uri_name = f"c{number}/ds_config.json"
        diagnostics = await _open(client, uri_name, text)
        assert _got(diagnostics) == _expected(expected[str(path)], text), path.name
        client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(f"file:///work/{uri_name}"))
        )


@pytest.mark.asyncio
async def test_diagnostics_link_their_rule_and_update_on_every_change(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": true}\n}\n'
    [diagnostic] = await _open(client, "ds_config.json", text)
    assert diagnostic.code == "DS301" and diagnostic.source == "dsref"
    assert diagnostic.code_description is not None
    assert diagnostic.code_description.href == "https://dsref.github.io/dsref/rules/DS301/"
    client.diagnostics.pop("file:///work/ds_config.json")
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri="file:///work/ds_config.json", version=2),
            [
                lsp.TextDocumentContentChangePartial(
                    range=lsp.Range(lsp.Position(2, 3), lsp.Position(2, 11)), text="bf16"
                )
            ],
        )
    )
    assert await _diagnostics_of(client, "file:///work/ds_config.json") == []


@pytest.mark.slow
@pytest.mark.asyncio
async def test_positions_are_utf16_units_after_chinese_comments_and_emoji(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8, // 批量 🚀\n  /* 优化 🚀 */ "bfloat16": {"enabled": true}\n}\n'
    [diagnostic] = [d for d in await _open(client, "ds_config.json", text) if d.code == "DS301"]
    line = text.split("\n")[2]
    start = line.index('"bfloat16"')
    units = len(line[:start].encode("utf-16-le")) // 2
    assert (diagnostic.range.start.line, diagnostic.range.start.character) == (2, units)
    assert units == start + 1  # the emoji is two UTF-16 units


@pytest.mark.slow
@pytest.mark.asyncio
async def test_duplicates_point_at_the_other_key(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "steps_per_print": 10,\n  "steps_per_print": 100\n}\n'
    [diagnostic] = await _open(client, "ds_config.json", text)
    assert diagnostic.code == "DS003"
    [related] = diagnostic.related_information or []
    assert related.location.range.start == lsp.Position(2, 2)


@pytest.mark.asyncio
async def test_hover_shows_explain_in_english(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 3, "prefetch_bucket_size": 1}\n}\n'
    await _open(client, "ds_config.json", text)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(2, 40))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    value = hover.contents.value
    assert value.startswith("**`zero_optimization.stage3_prefetch_bucket_size`**")
    assert "docs say" in value and "50000000" in value
    assert (
        "(https://dsref.github.io/dsref/reference/zero_optimization/#zero_optimization.stage3_prefetch_bucket_size)"
        in value
    )


@pytest.mark.slow
@pytest.mark.asyncio
async def test_hover_shows_explain_in_chinese(zh_client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "zero_optimization": {"stage": 3}\n}\n'
    await _open(zh_client, "ds_config.json", text)
    hover = await zh_client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(2, 26))
    )
    assert hover is not None and isinstance(hover.contents, lsp.MarkupContent)
    assert "默认值" in hover.contents.value and "/zh/reference/zero_optimization/" in hover.contents.value


@pytest.mark.asyncio
async def test_completion_inside_zero_optimization(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 3,\n    "off\n  }\n}\n'
    await _open(client, "ds_config.json", text)
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(4, 8))
    )
    assert isinstance(result, lsp.CompletionList)
    items = {item.label: item for item in result.items}
    assert {"offload_optimizer", "offload_param", "stage3_prefetch_bucket_size"} <= set(items)
    assert "train_batch_size" not in items  # only the keys of this section
    offload = items["offload_optimizer"]
    assert offload.text_edit is not None and offload.text_edit.new_text == "offload_optimizer"
    assert list(items["cpu_offload"].tags or []) == [lsp.CompletionItemTag.Deprecated]
    assert items["stage3_prefetch_bucket_size"].detail == "int = 50000000 (50M)"
    values = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(3, 13))
    )
    assert isinstance(values, lsp.CompletionList)
    assert [i.label for i in values.items] == ["0", "1", "2", "3"]


@pytest.mark.slow
@pytest.mark.asyncio
async def test_completion_offers_section_skeletons_at_the_top(client: LanguageClient) -> None:
    await _open(client, "ds_config.json", "{\n  \n}\n")
    result = await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(1, 2))
    )
    assert isinstance(result, lsp.CompletionList)
    snippets = [i for i in result.items if i.kind == lsp.CompletionItemKind.Snippet]
    assert [s.label for s in snippets] == ["ZeRO-2", "ZeRO-3 with CPU offload", "bf16 mixed precision"]
    assert '"offload_param"' in (snippets[1].insert_text or "")


@pytest.mark.asyncio
async def test_a_code_action_applied_leaves_a_file_check_accepts(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": "true"}\n}\n'
    diagnostics = await _open(client, "ds_config.json", text)
    uri = "file:///work/ds_config.json"
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(2, 0), lsp.Position(2, 40)),
            lsp.CodeActionContext(diagnostics),
        )
    )
    assert actions is not None
    titles = [a.title for a in actions]  # an action that only runs a command may come back read as a Command
    assert 'rename "bfloat16" to "bf16"' in titles and 'write true instead of "true"' in titles
    assert "Explain DS301" in titles and "Open the reference page of DS301" in titles
    rename = next(a for a in actions if isinstance(a, lsp.CodeAction) and a.title.startswith("rename"))
    assert rename.is_preferred and rename.edit is not None and rename.edit.changes is not None
    [edit] = rename.edit.changes[uri]
    lines = text.split("\n")
    start, end = edit.range.start, edit.range.end
    lines[start.line] = lines[start.line][: start.character] + edit.new_text + lines[end.line][end.character :]
    fixed = "\n".join(lines)
    client.diagnostics.pop(uri)
    client.text_document_did_change(
        lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=2), [lsp.TextDocumentContentChangeWholeDocument(fixed)]
        )
    )
    assert [d.code for d in await _diagnostics_of(client, uri)] == ["DS202"]  # DS301 is gone; the string remains
    await client.workspace_execute_command_async(
        lsp.ExecuteCommandParams(command="dsref.explainRule", arguments=["DS202"])
    )
    assert any("DS202" in m.message for m in client.messages)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_configuration_changes_and_bad_settings(client: LanguageClient) -> None:
    text = '{\n  "train_batch_size": 16,\n  "train_micro_batch_size_per_gpu": 4\n}\n'
    assert await _open(client, "ds_config.json", text) == []
    client.diagnostics.pop("file:///work/ds_config.json")
    client.workspace_did_change_configuration(
        lsp.DidChangeConfigurationParams(settings={"dsref": {"worldSize": 8, "language": "zh", "profile": "megatron"}})
    )
    [diagnostic] = await _diagnostics_of(client, "file:///work/ds_config.json")
    assert diagnostic.code == "DS502"
    assert "/zh/rules/DS502/" in (diagnostic.code_description.href if diagnostic.code_description else "")
    assert any("dsref.profile" in m.message and "megatron" in m.message for m in client.messages)


@pytest.mark.slow
@pytest.mark.asyncio
async def test_other_json_files_are_left_alone(client: LanguageClient) -> None:
    assert await _open(client, "package.json", '{"name": "x", "version": "1.0.0"}') == []


@pytest.mark.slow
@pytest.mark.asyncio
@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x01binary\xff",
        "[" * 10_000,
        '{"train_batch_size": 8, "x": "' + "a" * 262_144 + '"}',
        '{"zero_optimization": {"stage": ',
    ],
    ids=["empty", "binary", "deep", "256KiB", "half-typed"],
)
async def test_documents_that_must_not_kill_it(client: LanguageClient, text: str) -> None:
    await _open(client, "ds_config.json", text)
    hover = await client.text_document_hover_async(
        lsp.HoverParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(0, 5))
    )
    assert hover is None or isinstance(hover, lsp.Hover)
    await client.text_document_completion_async(
        lsp.CompletionParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(0, 3))
    )
    # still answering
    diagnostics = await _open(client, "zero.json", '{"train_batch_size": 8, "bfloat16": {"enabled": true}}', version=1)
    assert [d.code for d in diagnostics] == ["DS301"]


# -- never dies ---------------------------------------------------------------------------------------------------


async def _typing(seed: int, source: str, edits: int) -> None:
    """Open a real config and send ``edits`` random edits at keyboard speed (no waiting between them); the server
    then still answers, and its last diagnostics are check's findings for the final text."""
    import random

    from pytest_lsp.client import make_test_lsp_client

    from dsref.check.pipeline import check_text
    from dsref.server.analysis import analyse
    from dsref.server.settings import Settings

    rng = random.Random(seed)
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "dsref", "server")
    try:
        await _start(client)
        uri = "file:///work/typing/ds_config.json"
        text = source
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", 1, text)))
        alphabet = "{}[]:,\"'  \n\t0123456789.eE-+truefalsnulTFN#/*\\abcdefghijklmnopqrstuvwxyz_ 阶段🚀"
        for version in range(2, edits + 2):
            lines = text.split("\n")
            line = rng.randrange(len(lines))
            column = rng.randrange(len(lines[line]) + 1)
            length = rng.choice([0, 0, 1, 2, 5])
            inserted = "".join(rng.choice(alphabet) for _ in range(rng.choice([0, 1, 1, 2, 4])))
            # LSP counts UTF-16 units; the alphabet's emoji is two of them
            start_units = len(lines[line][:column].encode("utf-16-le")) // 2
            end_column = min(len(lines[line]), column + length)
            end_units = len(lines[line][:end_column].encode("utf-16-le")) // 2
            lines[line] = lines[line][:column] + inserted + lines[line][end_column:]
            text = "\n".join(lines)
            change = lsp.TextDocumentContentChangePartial(
                range=lsp.Range(lsp.Position(line, start_units), lsp.Position(line, end_units)), text=inserted
            )
            client.text_document_did_change(
                lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
            )
        hover = await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(1, 4))
        )
        assert hover is None or isinstance(hover, lsp.Hover)
        client.diagnostics.pop(uri, None)
        client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        got = await _diagnostics_of(client, uri)
        want = analyse(uri, text, Settings(), "en").diagnostics
        assert _got(got) == _got(want)
        assert len(want) == len(
            check_text(text, "ds_config.json", profile="hf" if '"auto"' in text else "deepspeed").findings
        )
    finally:
        await client.shutdown_session()
        await client.stop()


_SOURCES: list[str] = []


def _sources() -> list[str]:
    if not _SOURCES:
        files = sorted(shared_path("corpus", "real").glob("*.json"))
        _SOURCES.extend(p.read_text(encoding="utf-8", errors="replace") for p in files[::17])
    return _SOURCES


@pytest.mark.slow
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 10**6))
def test_random_typing_never_kills_the_server(seed: int, which: int) -> None:
    """Five real configs, 2,000 random edits each: 10,000 edits through the real server."""
    sources = _sources()
    asyncio.run(_typing(seed, sources[which % len(sources)], 2000))


def _frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


def _read_message(stream: Any) -> dict[str, Any]:
    length = 0
    while True:
        line = stream.readline()
        if not line:
            raise EOFError("the server closed its output")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


def _until_id(stream: Any, wanted: int | None) -> dict[str, Any]:
    while True:
        message = _read_message(stream)
        if "id" in message and message["id"] == wanted:  # a notification has no id at all
            return message


@pytest.mark.slow
def test_malformed_requests_get_lsp_errors_and_the_server_carries_on() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "dsref", "server"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:

        def send(message: dict[str, Any] | bytes) -> None:
            payload = message if isinstance(message, bytes) else json.dumps(message).encode()
            proc.stdin.write(_frame(payload))  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
        assert _until_id(proc.stdout, 1)["result"]["serverInfo"]["name"] == "dsref"
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "id": 2, "method": "dsref/noSuchMethod", "params": {}})
        assert _until_id(proc.stdout, 2)["error"]["code"] == -32601  # MethodNotFound
        send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": {"nonsense": True}})
        assert _until_id(proc.stdout, 3)["error"]["code"] == -32602  # InvalidParams
        send(b"{ this is not json")
        assert _until_id(proc.stdout, None)["error"]["code"] == -32700  # ParseError
        send({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
        assert _until_id(proc.stdout, 4)["result"] is None
        send({"jsonrpc": "2.0", "method": "exit"})
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=30)


@pytest.mark.slow
def test_tcp_for_debugging_listens_on_loopback() -> None:
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "dsref", "server", "--tcp", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        with connection:
            request = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
            connection.sendall(_frame(json.dumps(request).encode()))
            reply = _until_id(connection.makefile("rb"), 1)
            assert reply["result"]["serverInfo"]["name"] == "dsref"
    finally:
        proc.kill()
        proc.communicate(timeout=30)


def test_usage_problems_are_one_line_errors() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "server", "--tcp", "--port", "0"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stderr.strip() == "dsref: --port takes a number from 1 to 65535"
