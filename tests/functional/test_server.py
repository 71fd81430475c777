"""``dsref server`` as an editor uses it: pytest-lsp starts the real server process and speaks LSP to it.

Initialize, open, diagnostics equal to ``dsref check --format json`` for every real config, hover in English and
Chinese, completion inside ``zero_optimization``, a code action applied, a configuration change, a bad setting,
shutdown; and the documents that must not kill it. Then a client that survives nothing (:class:`_Wire`, raw framed
bytes): damaged headers and bodies, JSON-RPC's and LSP's errors and exit statuses, commands given the wrong arguments,
quick fixes on CRLF text and a byte-order mark, a burst of 1,000 edits, and memory over 20,000.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lsprotocol import types as lsp

from tests import needs
from tests.conftest import shared_path
from tests.lsp_client import diagnostics_of
from tests.lsp_frames import DAMAGED, HOVER, LOST_ID, request

pytest_lsp = needs.module("pytest_lsp")  # the client that starts the server (the test extra)
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
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
    return await diagnostics_of(client, uri)


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
    expected = _check_json(files)  # each file read as it is written for, by the same rule as the server's
    for number, path in enumerate(files):
        text = texts[path]
        uri_name = f"c{number}/ds_config.json"
        diagnostics = await _open(client, uri_name, text)
        assert _got(diagnostics) == _expected(expected[str(path)], text), path.name
        client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(f"file:///work/{uri_name}"))
        )


@pytest.mark.slow  # starts the server process
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
    assert await diagnostics_of(client, "file:///work/ds_config.json") == []


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


@pytest.mark.slow  # starts the server process
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


@pytest.mark.slow  # starts the server process
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


@pytest.mark.slow  # starts the server process
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
    assert [d.code for d in await diagnostics_of(client, uri)] == ["DS202"]  # DS301 is gone; the string remains
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
    [diagnostic] = await diagnostics_of(client, "file:///work/ds_config.json")
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
    from dsref.check.settings import CheckSettings
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
        got = await diagnostics_of(client, uri)
        want = analyse(uri, text, Settings(), "en").diagnostics
        assert _got(got) == _got(want)
        assert len(want) == len(
            check_text(
                text, "ds_config.json", settings=CheckSettings(profile="hf" if '"auto"' in text else "deepspeed")
            ).findings
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


@pytest.mark.slow  # starts the server process
def test_usage_problems_are_one_line_errors() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "dsref", "server", "--tcp", "--port", "0"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2 and proc.stderr.strip() == "dsref: --port takes a number from 1 to 65535"


# -- a client that survives nothing: raw bytes on the real process's stdin and stdout ---------------------------------


class _Wire:
    """The server process, spoken to in framed bytes that may be wrong on purpose; what it writes is read in a thread
    into a queue, and its stderr is kept, to show that no traceback reached it."""

    def __init__(self) -> None:
        import queue
        import threading

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dsref", "server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.inbox: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.stderr = b""

        def read_stdout() -> None:
            assert self.proc.stdout is not None
            try:
                while True:
                    self.inbox.put(_read_message(self.proc.stdout))
            except (EOFError, ValueError, OSError):
                self.inbox.put(None)

        def read_stderr() -> None:
            assert self.proc.stderr is not None
            self.stderr = self.proc.stderr.read()

        self.threads = [threading.Thread(target=t, daemon=True) for t in (read_stdout, read_stderr)]
        for thread in self.threads:
            thread.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.raw(_frame(json.dumps(message).encode()))

    def next(self, timeout: float = 30) -> dict[str, Any]:
        import queue

        try:
            message = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"nothing from the server in {timeout} s") from None
        if message is None:
            raise AssertionError(f"the server ended its output; stderr: {self.stderr.decode(errors='replace')}")
        return message

    def answer(self, msg_id: Any, timeout: float = 30) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The answer to the request ``msg_id``, and what came before it."""
        before = []
        while True:
            message = self.next(timeout)
            if "method" not in message and message.get("id") == msg_id:
                return message, before
            before.append(message)

    def request(self, msg_id: int, method: str, params: Any = None) -> dict[str, Any]:
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return self.answer(msg_id)[0]

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def initialize(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Initialize, and take what the server says once initialized: what it checks for (log and status); the
        status."""
        params = {"capabilities": {}, "processId": None, "initializationOptions": options or {}}
        assert self.request(0, "initialize", params)["result"]
        self.notify("initialized", {})
        said = [self.next(), self.next()]
        assert [m["method"] for m in said] == ["window/logMessage", "dsref/status"], said
        assert said[0]["params"]["message"] == "dsref: " + said[1]["params"]["text"]
        return said[1]["params"]

    def exit(self) -> int:
        """Send exit; the status the process exits with."""
        self.notify("exit")
        return self.proc.wait(timeout=30)

    def close(self) -> str:
        """End the process if it runs; its stderr."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
        for thread in self.threads:
            thread.join(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        return self.stderr.decode(errors="replace")


@pytest.fixture
def wire() -> Any:
    server = _Wire()
    yield server
    stderr = server.close()
    assert "Traceback" not in stderr, stderr


_HOVER = HOVER


def _body(msg_id: int) -> bytes:
    return request(msg_id)


@pytest.mark.slow  # starts the server process
def test_malformed_headers_get_a_parse_error_and_the_stream_recovers(wire: _Wire) -> None:
    """Each damaged frame (:data:`tests.lsp_frames.DAMAGED`: a bad length, one 1 to 14 bytes too long, two
    Content-Length values, a header ended by a bare CR, …) is answered with JSON-RPC's parse error (id null), once,
    and the good request after it is answered within 30 s: the server found the next Content-Length header."""
    wire.initialize()
    for number, (name, (damaged, survives)) in enumerate(DAMAGED.items(), start=1):
        wire.raw(damaged + _frame(_body(number)))
        answer, before = wire.answer(number, timeout=30)
        got = [(m.get("id"), m.get("error", {}).get("code")) for m in before]
        assert got == [(None, -32700)] + ([(LOST_ID, None)] if survives else []), name
        assert "result" in answer and answer["result"] is None, name
    assert wire.request(99, "shutdown") == {"jsonrpc": "2.0", "id": 99, "result": None}
    assert wire.exit() == 0


_NOT_JSON_RPC: dict[str, tuple[bytes, int, int | None]] = {
    "not UTF-8": (b'{"jsonrpc": "2.0", "id": 1, "method": "\xff\xfe"}', -32700, None),
    "not JSON": (b'{"jsonrpc": "2.0", "id": 1, "method": ', -32700, None),
    "nested 100,000 deep": (b"[" * 100_000, -32700, None),
    "a 5,000-digit id": (b'{"jsonrpc": "2.0", "id": ' + b"7" * 5000 + b', "method": "shutdown"}', -32700, None),
    "a batch": (b"[1, 2]", -32600, None),
    "no method": (b'{"jsonrpc": "2.0", "id": 5}', -32600, 5),
    "a method that is not a string": (b'{"jsonrpc": "2.0", "id": 6, "method": 42}', -32600, 6),
    "JSON-RPC 1.0": (b'{"jsonrpc": "1.0", "id": 7, "method": "shutdown"}', -32600, 7),
    "an id that is a boolean": (b'{"jsonrpc": "2.0", "id": true, "method": "shutdown"}', -32600, None),
    "params of the wrong kind": (
        b'{"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": 3}',
        -32602,
        8,
    ),
    "a method it does not handle": (
        b'{"jsonrpc": "2.0", "id": 9, "method": "textDocument/definition", "params": {}}',
        -32601,
        9,
    ),
    "a $/ request": (b'{"jsonrpc": "2.0", "id": 10, "method": "$/dsref/anything"}', -32601, 10),
    "a notification sent as a request": (
        b'{"jsonrpc": "2.0", "id": 11, "method": "textDocument/didOpen", "params": {}}',
        -32601,
        11,
    ),
}
"""Bodies that are not a JSON-RPC message the server can take: the code and the id of the error that answers each."""


@pytest.mark.slow  # starts the server process
def test_bodies_that_are_not_json_rpc_get_its_errors(wire: _Wire) -> None:
    wire.initialize()
    for number, (name, (body, code, msg_id)) in enumerate(_NOT_JSON_RPC.items(), start=100):
        wire.raw(_frame(body))
        error = wire.next()
        assert (error["id"], error["error"]["code"]) == (msg_id, code), name
        assert "Traceback" not in error["error"]["message"] and "data" not in error["error"], name
        assert wire.request(number, "textDocument/hover", _HOVER)["result"] is None, name  # still answering


@pytest.mark.slow  # starts the server process
def test_exit_status_follows_the_life_cycle(wire: _Wire) -> None:
    """``exit`` without ``shutdown`` ends the server with status 1 (``shutdown`` then ``exit``: 0, above)."""
    wire.initialize()
    assert wire.exit() == 1


@pytest.mark.slow  # starts the server process
def test_the_end_of_its_input_ends_the_server(wire: _Wire) -> None:
    wire.initialize()
    assert wire.proc.stdin is not None
    wire.proc.stdin.close()
    assert wire.proc.wait(timeout=30) == 1  # the client went away without shutdown


@pytest.mark.slow  # starts the server process
def test_before_initialize_requests_get_server_not_initialized(wire: _Wire) -> None:
    """Sent raw: pytest-lsp's client refuses to send a request before initialize."""
    answer = wire.request(1, "textDocument/hover", _HOVER)
    assert answer["error"] == {"code": -32002, "message": "the server is not initialized: send initialize first"}
    text = '{"train_batch_size": 8, "bfloat16": {"enabled": true}}'
    wire.notify(
        "textDocument/didOpen",
        {"textDocument": {**_HOVER["textDocument"], "languageId": "json", "version": 1, "text": text}},
    )
    wire.initialize()
    wire.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": _HOVER})
    answer, before = wire.answer(2)
    assert answer["result"] is None and before == []  # the notification was dropped: nothing opened, nothing published


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_life_cycle_errors_are_the_ones_lsp_prescribes() -> None:
    from pygls.exceptions import JsonRpcException
    from pytest_lsp.client import make_test_lsp_client

    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "dsref", "server")
    hover = lsp.HoverParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(0, 0))

    async def code(request: Any) -> int:
        with pytest.raises(JsonRpcException) as caught:
            await asyncio.wait_for(request, 30)
        assert "Traceback" not in caught.value.message
        return caught.value.code

    server = client._server
    assert server is not None
    try:
        await _start(client)
        again = lsp.InitializeParams(capabilities=lsp.ClientCapabilities())
        assert await code(client.initialize_async(again)) == -32600  # InvalidRequest
        definition = lsp.DefinitionParams(lsp.TextDocumentIdentifier("file:///work/ds_config.json"), lsp.Position(0, 0))
        assert await code(client.text_document_definition_async(definition)) == -32601  # MethodNotFound
        unknown = lsp.ExecuteCommandParams(command="dsref.noSuchCommand", arguments=[])
        assert await code(client.workspace_execute_command_async(unknown)) == -32602  # InvalidParams
        assert await client.shutdown_async(None) is None
        assert await code(client.shutdown_async(None)) == -32600  # a second shutdown
        assert await code(client.text_document_hover_async(hover)) == -32600  # anything after it
        client.exit(None)
        assert await asyncio.wait_for(server.wait(), 30) == 0
    finally:
        if server.returncode is None:
            server.kill()
        await client.stop()


# -- commands ---------------------------------------------------------------------------------------------------------


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_open_reference_opens_only_pages_of_dsrefs_site(client: LanguageClient) -> None:
    from pygls.exceptions import JsonRpcException

    page = "https://dsref.github.io/dsref/zh/rules/DS301/"
    await client.workspace_execute_command_async(lsp.ExecuteCommandParams("dsref.openReference", [page]))
    assert [(shown.uri, shown.external) for shown in client.shown_documents] == [(page, True)]
    for url in [
        "javascript:alert(1)",
        "file:///etc/passwd",
        "https://dsref.github.io.evil.example/dsref/rules/DS301/",
        "https://dsref.github.io@evil.example/dsref/rules/DS301/",
        "http://dsref.github.io/dsref/rules/DS301/",
        "https://dsref.github.io/dsref/../phishing/",
        "https://dsref.github.io/other/",
    ]:
        with pytest.raises(JsonRpcException) as caught:
            await client.workspace_execute_command_async(lsp.ExecuteCommandParams("dsref.openReference", [url]))
        assert caught.value.code == -32602, url
        assert caught.value.message.startswith(
            "dsref.openReference opens only pages of dsref's site (https://dsref.github.io/dsref/…), not "
        ), url
    assert len(client.shown_documents) == 1


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_a_refused_command_says_so_in_the_editors_language(zh_client: LanguageClient) -> None:
    from pygls.exceptions import JsonRpcException

    with pytest.raises(JsonRpcException) as caught:
        await zh_client.workspace_execute_command_async(lsp.ExecuteCommandParams("dsref.openReference", ["file:///"]))
    assert caught.value.message == (
        "dsref.openReference 只打开 dsref 站点（https://dsref.github.io/dsref/…）上的页面，不打开 file:///"
    )
    assert zh_client.shown_documents == []


_WRONG_ARGUMENTS: list[tuple[str, Any]] = [
    ("dsref.openReference", None),
    ("dsref.openReference", 5),
    ("dsref.openReference", {"url": "https://dsref.github.io/dsref/"}),
    ("dsref.openReference", "https://dsref.github.io/dsref/"),
    ("dsref.openReference", [None]),
    ("dsref.openReference", [5]),
    ("dsref.openReference", [{}]),
    ("dsref.openReference", ["https://dsref.github.io/dsref/", "https://dsref.github.io/dsref/"]),
    ("dsref.explainRule", None),
    ("dsref.explainRule", [5]),
    ("dsref.explainRule", {"code": "DS301"}),
]


@pytest.mark.slow  # starts the server process
def test_command_arguments_of_the_wrong_shape_are_invalid_params(wire: _Wire) -> None:
    expected = {
        "dsref.openReference": "dsref.openReference takes one argument, the URL of a page of dsref's site "
        "(https://dsref.github.io/dsref/…)",
        "dsref.explainRule": 'dsref.explainRule takes one argument, a rule code such as "DS301"',
    }
    wire.initialize()
    for number, (command, arguments) in enumerate(_WRONG_ARGUMENTS, start=1):
        wire.send(_command(number, command, arguments))
        answer, before = wire.answer(number)
        assert answer["error"] == {"code": -32602, "message": expected[command]}, (command, arguments)
        assert not [m for m in before if m.get("method") == "window/showDocument"]


def _command(msg_id: int, command: str, arguments: Any) -> dict[str, Any]:
    return {
        "jsonrpc": "2.0",
        "id": msg_id,
        "method": "workspace/executeCommand",
        "params": {"command": command, "arguments": arguments},
    }


# -- quick fixes keep the document's line ends and remove its byte-order mark ------------------------------------------


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    """``edits`` made to ``text`` as an editor makes them: positions in UTF-16 units, lines ended by CRLF, CR or LF."""
    import re

    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)

    def offset(position: lsp.Position) -> int:
        before = sum(len(line) for line in lines[: position.line])
        line = lines[position.line] if position.line < len(lines) else ""
        units, chars = 0, 0
        while units < position.character and chars < len(line):
            units += 2 if ord(line[chars]) > 0xFFFF else 1
            chars += 1
        return before + chars

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


async def _fixes(client: LanguageClient, text: str) -> dict[str, list[lsp.TextEdit]]:
    """The quick fixes the server offers for the whole of ``text``: title → edits."""
    uri = "file:///work/ds_config.json"
    diagnostics = await _open(client, "ds_config.json", text)
    actions = await client.text_document_code_action_async(
        lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri),
            lsp.Range(lsp.Position(0, 0), lsp.Position(len(text.splitlines()), 0)),
            lsp.CodeActionContext(diagnostics),
        )
    )
    return {
        action.title: list(action.edit.changes[uri])
        for action in actions or []
        if isinstance(action, lsp.CodeAction) and action.edit is not None and action.edit.changes
    }


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_quick_fixes_keep_crlf_line_ends(client: LanguageClient) -> None:
    lines = ["{", '  "train_batch_size": 8,', '  "optimizer": {', '    "type": "AdamW",', '    "params": {']
    lines += ['      "lr": 0.001', "    },", '    "weight_decay": 0.1', "  }", "}", ""]
    text = "\r\n".join(lines)
    [edits] = [e for title, e in (await _fixes(client, text)).items() if "weight_decay" in title]
    assert any("\r\n" in edit.new_text for edit in edits)
    assert not any("\n" in edit.new_text.replace("\r\n", "") for edit in edits)
    fixed = _apply(text, edits)
    assert fixed.count("\r\n") == fixed.count("\n") == len(lines) - 1
    assert '      "lr": 0.001,\r\n      "weight_decay": 0.1\r\n    }\r\n  }\r\n}\r\n' in fixed


@pytest.mark.slow  # starts the server process
@pytest.mark.asyncio
async def test_the_byte_order_mark_fix_removes_it(client: LanguageClient) -> None:
    text = '\ufeff{\n  "train_batch_size": 8\n}\n'
    fixes = await _fixes(client, text)
    [edits] = fixes.values()
    assert [(e.range, e.new_text) for e in edits] == [(lsp.Range(lsp.Position(0, 0), lsp.Position(0, 1)), "")]
    assert _apply(text, edits) == text[1:]


# -- bursts of edits: checked once, published once, memory flat --------------------------------------------------------


def _large_config(size: int = 250_000) -> str:
    """A valid config of about ``size`` characters (hundreds of curriculum metrics, as scripts/bench_large.py)."""
    metric = {
        "index_to_sample_path": "/data/index_to_sample",
        "index_to_metric_path": "/data/index_to_metric",
        "difficulty_type": "value",
        "clustering_type": "schedule_based",
        "min_difficulty": 1,
        "max_difficulty": 100,
        "schedule_type": "fixed_linear",
        "schedule_config": {"total_curriculum_step": 1000, "difficulty_step": 8},
    }

    def build(metrics: int) -> str:
        curriculum = {f"metric_{i}": metric for i in range(metrics)}
        learning = {"enabled": True, "data_cluster_path": "/data/clusters", "curriculum_metrics": curriculum}
        config = {
            "train_batch_size": 32,
            "train_micro_batch_size_per_gpu": 4,
            "zero_optimization": {"stage": 2},
            "data_efficiency": {"enabled": True, "data_sampling": {"enabled": True, "curriculum_learning": learning}},
        }
        return json.dumps(config, indent=2) + "\n"

    return build(size * 100 // len(build(100)))


def _change(uri: str, version: int, line: int, column: int, text: str) -> bytes:
    change = {"range": {"start": {"line": line, "character": column}, "end": {"line": line, "character": column + 1}}}
    params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{**change, "text": text}]}
    return _frame(json.dumps({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": params}).encode())


def _published(wire: _Wire, uri: str, timeout: float = 60) -> dict[str, Any]:
    while True:
        message = wire.next(timeout)
        if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri:
            return message["params"]


def _open_raw(wire: _Wire, uri: str, text: str) -> tuple[int, int]:
    """Open ``text`` and wait for its diagnostics; where the digit of its ZeRO stage is."""
    item = {"uri": uri, "languageId": "json", "version": 1, "text": text}
    wire.notify("textDocument/didOpen", {"textDocument": item})
    assert _published(wire, uri)["version"] == 1
    rows = text.split("\n")
    line = next(i for i, row in enumerate(rows) if '"stage": 2' in row)
    return line, rows[line].index("2")


def _hover_frame(msg_id: int) -> bytes:
    return _frame(_body(msg_id))


def _nothing_more(wire: _Wire, seconds: float) -> list[dict[str, Any]]:
    """What the server sends in the next ``seconds`` (the test expects nothing)."""
    import queue
    import time

    got, deadline = [], time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = wire.inbox.get(timeout=left)
        except queue.Empty:
            break
        if message is not None:
            got.append(message)
    return got


@pytest.mark.slow
def test_a_burst_of_edits_is_checked_once_and_published_for_its_last_version(wire: _Wire) -> None:
    """1,000 edits to a 250 KB config: one publishDiagnostics, for the last version, the debounce and about one
    check after the server has read the last edit (a hover request sent after them says when), instead of one check
    and one publish per edit (a minute of stale diagnostics before)."""
    import statistics
    import time

    from dsref.server.schedule import DEBOUNCE

    wire.initialize()
    uri = "file:///work/burst/ds_config.json"
    line, column = _open_raw(wire, uri, _large_config())
    single = []
    for version in range(2, 6):
        began = time.perf_counter()
        wire.raw(_change(uri, version, line, column, "3" if version % 2 == 0 else "2"))
        last = _published(wire, uri)
        assert last["version"] == version  # a lone edit: checked at once, no debounce
        single.append(time.perf_counter() - began)
    check = statistics.median(single)
    burst = b"".join(_change(uri, v, line, column, "3" if v % 2 == 0 else "2") for v in range(6, 1006))
    wire.raw(burst + _hover_frame(1))
    _answer, before = wire.answer(1)
    read = time.perf_counter()
    assert [m for m in before if m.get("method") == "textDocument/publishDiagnostics"] == []
    published = _published(wire, uri)
    latency = time.perf_counter() - read
    assert published["version"] == 1005 and published["diagnostics"] == last["diagnostics"]  # stage 2, as in 5
    assert latency < DEBOUNCE + 3 * check + 0.5, (latency, check)
    assert _nothing_more(wire, 1.0) == []


@pytest.mark.slow
def test_memory_stays_flat_over_20000_edits(wire: _Wire) -> None:
    """The server's resident memory after 20,000 edits is within 5 MB of what it was after 1,000 (pygls kept the
    future of every notification: 2 KB an edit)."""
    from pathlib import Path

    status = Path(f"/proc/{wire.pid}/status")
    if not status.exists():
        pytest.skip("the server's memory is read from /proc/PID/status, which only Linux has")

    def resident_kb() -> int:
        line = next(row for row in status.read_text().splitlines() if row.startswith("VmRSS:"))
        return int(line.split()[1])

    wire.initialize()
    uri = "file:///work/memory/ds_config.json"
    text = '{\n  "train_batch_size": 8,\n  "zero_optimization": {\n    "stage": 2\n  }\n}\n'
    line, column = _open_raw(wire, uri, text)
    version = 1
    sizes = []
    for burst in range(20):
        edits = [_change(uri, v, line, column, "3" if v % 2 == 0 else "2") for v in range(version + 1, version + 1001)]
        version += 1000
        wire.raw(b"".join(edits))
        while _published(wire, uri)["version"] != version:
            pass
        if burst in (0, 19):
            sizes.append(resident_kb())
    assert sizes[1] - sizes[0] < 5 * 1024, sizes


@pytest.mark.asyncio
async def test_the_scheduler_checks_a_lone_edit_at_once_and_a_burst_once() -> None:
    import time

    from dsref.server.schedule import Scheduler

    now = {"version": 0}
    started: list[int] = []
    delivered: list[int] = []

    def prepare(uri: str) -> Any:
        version = now["version"]
        started.append(version)

        def work() -> int:
            time.sleep(0.02)
            return version

        return work

    checks = Scheduler(prepare, lambda uri, version: delivered.append(version), delay=0.05)
    checks.changed("a")
    await asyncio.sleep(0.15)
    assert started == delivered == [0]  # at rest: checked at once
    for version in range(1, 101):
        now["version"] = version
        checks.changed("a")
        await asyncio.sleep(0.001)
    await asyncio.sleep(0.4)
    assert started == [0, 1, 100]  # the first of the burst at once (its result dropped), then the last
    assert delivered == [0, 100]
    checks.publish("a")  # a save: published again
    await asyncio.sleep(0.15)
    assert delivered == [0, 100, 100]
    now["version"] = 101
    checks.changed("a")
    checks.forget("a")  # closed while checked: nothing published
    await asyncio.sleep(0.15)
    assert delivered == [0, 100, 100]
    checks.stop()


@pytest.mark.slow  # starts the server process
def test_the_status_says_which_deepspeed_the_workspace_python_has_and_the_checks_follow_it(
    wire: _Wire, tmp_path: Path
) -> None:
    """The ``python`` setting names the workspace's interpreter; the server asks it for its DeepSpeed's metadata
    (here an interpreter that answers 0.15.4) and checks for that release, as ``dsref check`` would there."""
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\necho 0.15.4\n")
    python.chmod(0o755)
    status = wire.initialize({"python": str(python)})
    assert (status["deepspeed"], status["source"], status["installed"]) == ("0.15.4", "installed", "0.15.4")
    assert status["text"].startswith("Checked for DeepSpeed 0.15.4 (installed)")
    text = '{"train_micro_batch_size_per_gpu": 1, "zero_optimization": {"stage": 3, "zeropp_loco_param": {}}}'
    uri = "file:///work/ds_config.json"
    wire.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
    )
    published = wire.next()
    assert published["method"] == "textDocument/publishDiagnostics"
    expected = subprocess.run(
        [sys.executable, "-m", "dsref", "check", "--format", "json", "--deepspeed-version", "0.15.4", "-"],
        input=text,
        capture_output=True,
        text=True,
        check=False,
    )
    codes = [f["code"] for f in json.loads(expected.stdout)["files"][0]["findings"]]
    assert [d["code"] for d in published["params"]["diagnostics"]] == codes and codes  # 0.15.4's findings
    wire.notify("workspace/didChangeConfiguration", {"settings": {"dsref": {"deepspeedVersion": "0.19.8"}}})
    said = []
    while not said or said[-1].get("method") != "dsref/status":
        said.append(wire.next())
    assert said[-1]["params"]["source"] == "given"
    while _published(wire, uri)["diagnostics"] == published["params"]["diagnostics"]:
        pass  # checked again at once, then for 0.19.8 once the environment has answered


# -- the largest message, a slow interpreter, and text that would act on the editor ----------------------------------

PEAK_BOUND_MB = 200
"""The server's peak resident memory while it reads messages of the largest body allowed (4 MiB), one after another:
said in :data:`dsref.server.transport.MAX_BODY`'s docs and CONTRIBUTING (measured 140-150 MB, 44 MB at rest)."""


def _fill(make: Any) -> bytes:
    """The body of ``make(n)`` for the largest ``n`` whose body fits in the cap."""
    from dsref.server.transport import MAX_BODY

    low, high = 1, MAX_BODY
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(json.dumps(make(middle)).encode()) <= MAX_BODY else (low, middle)
    return json.dumps(make(low)).encode()


@pytest.mark.slow
def test_memory_stays_under_its_bound_for_the_largest_messages(wire: _Wire) -> None:
    """Four bodies at the cap, each of the densest JSON (empty lists: 100 MB once parsed), then a whole document of
    4 MiB: one message is in memory at a time, and every one is answered."""
    status = Path(f"/proc/{wire.pid}/status")
    if not status.exists():
        pytest.skip("the server's memory is read from /proc/PID/status, which only Linux has")
    wire.initialize()
    dense = _fill(lambda n: {"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": {"x": [[]] * n}})
    document = _fill(
        lambda n: {
            "jsonrpc": "2.0",
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": "file:///work/huge/ds_config.json",
                    "languageId": "json",
                    "version": 1,
                    "text": '{"train_batch_size": 8,\n' + "\n" * n,
                }
            },
        }
    )
    wire.raw(_frame(dense) * 4 + _frame(document) + _frame(_body(6)))
    answer, before = wire.answer(6, timeout=120)
    assert [m["error"]["code"] for m in before if m.get("id") == 5] == [-32602] * 4
    assert answer["result"] is None
    huge = [m["params"] for m in before if m.get("method") == "textDocument/publishDiagnostics"]
    [published] = huge or [_published(wire, "file:///work/huge/ds_config.json", timeout=120)]
    assert [d["code"] for d in published["diagnostics"]] == ["DS000"]  # too large to be a config: said, not read
    peak = next(int(row.split()[1]) for row in status.read_text().splitlines() if row.startswith("VmHWM:"))
    assert peak < PEAK_BOUND_MB * 1024, f"peak {peak // 1024} MB"


@pytest.mark.slow
def test_a_slow_interpreter_never_holds_the_server_up(wire: _Wire, tmp_path: Path) -> None:
    """The ``python`` setting names a program that does not answer (a cold environment, a wrapper that hangs): the
    server answers and checks meanwhile, and says after the probe's timeout that it could not ask."""
    import time

    from dsref.check.report.target import PROBE_TIMEOUT

    python = tmp_path / "python"
    python.write_text("#!/bin/sh\nsleep 60\n")
    python.chmod(0o755)
    params = {"capabilities": {}, "processId": None, "initializationOptions": {"python": str(python)}}
    assert wire.request(0, "initialize", params)["result"]
    began = time.monotonic()  # the interpreter is being asked
    wire.notify("initialized", {})
    assert wire.request(1, "textDocument/hover", _HOVER)["result"] is None
    uri = "file:///work/slow/ds_config.json"
    text = '{"train_batch_size": 8, "bfloat16": {"enabled": true}}'
    item = {"uri": uri, "languageId": "json", "version": 1, "text": text}
    wire.notify("textDocument/didOpen", {"textDocument": item})
    said = [wire.next(timeout=PROBE_TIMEOUT + 30)]
    while said[-1].get("method") != "textDocument/publishDiagnostics":
        said.append(wire.next(timeout=PROBE_TIMEOUT + 30))
    assert [d["code"] for d in said[-1]["params"]["diagnostics"]] == ["DS301"]
    assert [m for m in said if m.get("method") == "dsref/status"] == []  # answered and checked while it was asked
    while said[-1].get("method") != "dsref/status":
        said.append(wire.next(timeout=PROBE_TIMEOUT + 30))
    assert time.monotonic() - began >= PROBE_TIMEOUT - 1
    status = said[-1]["params"]
    assert f"could not ask {python} (timed out)" in status["text"] and status["source"] == "not_asked"
    log = [m for m in said if m.get("method") == "window/logMessage"]
    assert log and log[-1]["params"]["message"] == "dsref: " + status["text"]


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


_ACTING = "\x1b\x07\x9b\u202e"
"""Characters that act on a terminal or an editor instead of showing (ESC, BEL, the C1 CSI, a right-to-left
override)."""


@pytest.mark.slow
def test_escape_sequences_reach_the_editor_escaped(wire: _Wire, tmp_path: Path) -> None:
    """An ESC sequence in ``dsref.explainRule``'s argument, in the version strings the workspace's interpreter gives,
    and in a key of the file: shown escaped, as the command line shows them."""
    python = tmp_path / "python"
    python.write_text("#!/bin/sh\nprintf '0.15.4\\033]0;owned\\007\\n4.46.0\\033[31m\\n1.0\\302\\233\\n'\n")
    python.chmod(0o755)
    status = wire.initialize({"python": str(python), "profile": "hf"})
    assert status["installed"] == "0.15.4\\x1b]0;owned\\x07"
    assert "transformers 4.46.0\\x1b[31m" in status["text"] and "accelerate 1.0\\x9b" in status["text"]
    wire.send(_command(7, "dsref.explainRule", ["DS301\x1b]0;owned\x07\u202e"]))
    answer, said = wire.answer(7)
    assert "error" not in answer
    [shown] = [m for m in said if m.get("method") == "window/showMessage"]
    assert shown["params"]["message"].startswith("DS301\\x1b]0;owned\\x07\\u202e")
    uri = "file:///work/esc/ds_config.json"
    text = '{"train_batch_size": 8, "zero_optimization": {"stage": 2, "stgae\\u001b[2J": 1}}'
    wire.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "json", "version": 1, "text": text}}
    )
    published = _published(wire, uri)
    assert any("stgae\\x1b[2J" in d["message"] for d in published["diagnostics"])
    for diagnostic in published["diagnostics"]:
        diagnostic.pop("data")  # for the server itself, as the file writes it; the editor shows none of it
    everything = _strings([status, shown, published])
    assert [s for s in everything if any(c in s for c in _ACTING)] == []


@pytest.mark.slow
def test_code_actions_wait_only_for_the_check_of_the_current_text(wire: _Wire) -> None:
    """A code action asked right after a lone edit waits for that edit's check (it comes after the diagnostics of
    its version, with the fix); one asked while an older text is checked is answered at once, without fixes, before
    the diagnostics of its version; the server never checks on its own for a request."""
    wire.initialize()
    uri = "file:///work/actions/ds_config.json"
    config = {"bfloat16": {"enabled": True}, "train_batch_size": 8, "zero_optimization": {"stage": 2}}
    config.update({f"custom_option_{i}": i for i in range(3000)})  # a check of seconds' length
    line, column = _open_raw(wire, uri, json.dumps(config, indent=2) + "\n")
    where = {"start": {"line": 1, "character": 3}, "end": {"line": 1, "character": 3}}
    ask = {"textDocument": {"uri": uri}, "range": where, "context": {"diagnostics": []}}

    def order(msg_id: int, version: int) -> list[str]:
        """What came, in order, until both the answer to ``msg_id`` and the diagnostics of ``version``."""
        seen: list[str] = []
        while not ("answer" in seen and "published" in seen):
            message = wire.next(60)
            if message.get("id") == msg_id and "method" not in message:
                fixes = [a for a in message["result"] if "edit" in a]
                seen += ["answer", "with fix" if fixes else "no fix"]
            elif message.get("method") == "textDocument/publishDiagnostics":
                assert message["params"]["version"] in (version - 1, version)
                if message["params"]["version"] == version:
                    seen.append("published")
        return seen

    wire.raw(_change(uri, 2, line, column, "3"))
    wire.send({"jsonrpc": "2.0", "id": 1, "method": "textDocument/codeAction", "params": ask})
    assert order(1, 2) == ["published", "answer", "with fix"]  # waited for the check of version 2
    wire.raw(_change(uri, 3, line, column, "2") + _change(uri, 4, line, column, "1"))  # 4 comes while 3 is checked
    wire.send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/codeAction", "params": ask})
    assert order(2, 4) == ["answer", "no fix", "published"]  # at once: no check of version 4 was under way
    wire.send({"jsonrpc": "2.0", "id": 3, "method": "textDocument/codeAction", "params": ask})
    answer, _before = wire.answer(3)
    assert [a for a in answer["result"] if "edit" in a]  # at rest: the fix of the current text
