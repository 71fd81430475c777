"""Speed of `dsref server` as an editor feels it.

    python scripts/bench_server.py [--runs 10]

Prints medians of: server start (process spawn included) to the first diagnostics of an opened config; the
diagnostics after one edit to a 200-line config; a hover. A real LSP client (pytest-lsp's, on pygls) drives the
real server process over stdio. For scale, the same start is timed for the floor of any pygls server: one that
imports pygls and lsprotocol and publishes empty diagnostics, and for the interpreter alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def config_of_200_lines() -> str:
    """A config of about 200 lines: a full ZeRO-3 section and the usual sections, one key per line."""
    from dsref.tree.index import OptionIndex

    index = OptionIndex.load()
    zero = {e.key: e.default for e in index.children(index.get("zero_optimization")) if e.has_default}
    zero = {
        k: v
        for k, v in zero.items()
        if k != "stage" and not isinstance(v, dict) and k.startswith(("stage", "reduce", "allgather"))
    }
    config = {
        "train_micro_batch_size_per_gpu": 4,
        "gradient_accumulation_steps": 8,
        "bf16": {"enabled": True},
        "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "betas": [0.9, 0.999], "eps": 1e-8}},
        "scheduler": {"type": "WarmupLR", "params": {"warmup_min_lr": 0, "warmup_max_lr": 2e-5}},
        "zero_optimization": {"stage": 3, **zero},
    }
    text = json.dumps(config, indent=4)
    while text.count("\n") < 199:  # pad with a comment block to 200 lines (Hjson, as the launcher reads it)
        text = "// " + "configuration notes".ljust(40, ".") + "\n" + text
    return text


async def published(client: Any, uri: str) -> None:
    """Until diagnostics for ``uri`` have come: the client records each as it reads it, and the record is looked at
    every millisecond. (Waiting for the notification itself, with a timeout to see one read before the wait began,
    lost the notification that came as a wait was cancelled, and the benchmark hung.)"""
    while uri not in client.diagnostics:
        await asyncio.sleep(0.001)


BARE_SERVER = """
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer

server = LanguageServer("bare", "0")


@server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
def opened(ls, params):
    ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(params.text_document.uri, []))


server.start_io()
"""


async def floor_run(text: str, command: list[str]) -> float:
    """Start to first diagnostics of a server that does nothing but answer (the floor pygls sets)."""
    from pytest_lsp.client import make_test_lsp_client

    uri = "file:///bench/ds_config.json"
    client = make_test_lsp_client()
    start = time.perf_counter()
    await client.start_io(*command)
    await client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", 1, text)))
    await published(client, uri)
    first = time.perf_counter() - start
    await client.shutdown_session()
    await client.stop()
    return first


def interpreter_start() -> float:
    import subprocess

    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


async def one_run(text: str) -> tuple[float, float, float]:
    from pytest_lsp.client import make_test_lsp_client

    uri = "file:///bench/ds_config.json"
    client = make_test_lsp_client()
    start = time.perf_counter()
    await client.start_io(sys.executable, "-m", "dsref", "server")
    await client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", 1, text)))
    await published(client, uri)
    first = time.perf_counter() - start
    edits = []
    line = next(i for i, row in enumerate(text.split("\n")) if '"stage": 3' in row)
    column = text.split("\n")[line].index("3")
    for version, digit in enumerate("2323232323", start=2):
        client.diagnostics.pop(uri, None)
        began = time.perf_counter()
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(lsp.Position(line, column), lsp.Position(line, column + 1)), text=digit
        )
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
        )
        await published(client, uri)
        edits.append(time.perf_counter() - began)
    hovers = []
    for _ in range(10):
        began = time.perf_counter()
        await client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri), lsp.Position(line, column - 5))
        )
        hovers.append(time.perf_counter() - began)
    await client.shutdown_session()
    await client.stop()
    return first, statistics.median(edits[1:]), statistics.median(hovers[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    text = config_of_200_lines()
    runs = [asyncio.run(one_run(text)) for _ in range(args.runs)]
    first, edit, hover = (statistics.median(r[i] for r in runs) * 1000 for i in range(3))
    bare = statistics.median(
        asyncio.run(floor_run(text, [sys.executable, "-c", BARE_SERVER])) for _ in range(args.runs)
    )
    python = statistics.median(interpreter_start() for _ in range(args.runs))
    print(f"config: {text.count(chr(10)) + 1} lines, medians of {args.runs} runs")
    print(f"server start to first diagnostics   {first:7.1f} ms   (target 300 ms)")
    print(f"  a bare pygls server, the same     {bare * 1000:7.1f} ms   (the floor of any pygls server here)")
    print(f"  python -c pass                    {python * 1000:7.1f} ms")
    print(f"diagnostics after an edit           {edit:7.1f} ms   (target 50 ms)")
    print(f"hover                               {hover:7.1f} ms   (target 20 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
