"""How long `dsref server` takes to answer code actions while the user types.

    python scripts/bench_server_codeaction.py [--pairs 60] [--interval 0.12] [--checkout DIR]

An editor asks for the code actions at the cursor after every keystroke. This client (a subprocess spoken to over
stdio in LSP's framing, nothing else between) opens a document, waits for its diagnostics, then sends ``--pairs``
pairs of ``textDocument/didChange`` (one digit of the ZeRO stage, 2 ↔ 3) and ``textDocument/codeAction`` (at the
line of a finding that has a fix), one pair every ``--interval`` seconds, as fast typing does (0.12 s: 8 keys a
second), and times each answer from the moment its request was written. After the last pair, once the document is at
rest, one more request shows that the fix is offered for the current text.

Two documents, built here: a valid config of about 250 KB (the largest the checker reads, as
``scripts/bench_large.py`` builds it) with one fixable finding, and one of 5,602 findings (5,600 unknown keys, one a
line). Prints per document the median, 95th percentile and maximum latency, the answers that held the fix, and
whether the one at rest did, and for scale how long one check took (the document opened to its diagnostics: no
answer should wait longer). ``--checkout`` runs the server of another checkout (``PYTHONPATH`` set to it), to
measure before and after a change on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from bench_large import large_config  # noqa: E402  (scripts/ is on sys.path when this runs)

URI = "file:///bench/ds_config.json"
FIXABLE = '"bfloat16": {"enabled": true}'
"""A finding with a fix (DS301: ``bf16`` is the section's name), whose line the code actions are asked for."""


def with_fixable(text: str) -> str:
    """``text`` (a JSON object written one key a line, ``json.dumps(..., indent=2)``) with the fixable section as its
    first key, in place of its ``bf16`` section (the rename is offered only where ``bf16`` is not there already)."""
    text = text.replace('  "bf16": {\n    "enabled": true\n  },\n', "", 1)
    return text.replace("{\n", "{\n  " + FIXABLE + ",\n", 1)


def many_findings(count: int = 5600) -> str:
    """A config of ``count`` unknown keys, one a line, beside the fixable section (``count`` + 2 findings)."""
    config: dict[str, Any] = {"train_batch_size": 8, "zero_optimization": {"stage": 2}}
    config.update({f"custom_option_{i}": i for i in range(count)})
    return with_fixable(json.dumps(config, indent=2) + "\n")


class Client:
    """The server process, its output read into a queue by a thread."""

    def __init__(self, checkout: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "dsref", "server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            cwd=checkout,
        )
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                return
            self.inbox.put((time.perf_counter(), json.loads(stream.read(length))))

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return time.perf_counter()

    def wait(self, test: Any, timeout: float = 120) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            at, message = self.inbox.get(timeout=max(0.0, deadline - time.monotonic()))
            if test(message):
                return at, message

    def close(self) -> None:
        try:
            self.send({"id": 10**9, "method": "shutdown"})
            self.wait(lambda m: m.get("id") == 10**9, timeout=60)
            self.send({"method": "exit"})
            self.proc.wait(timeout=60)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()


def published(version: int) -> Any:
    return lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version


def measure(checkout: Path, text: str, pairs: int, interval: float) -> dict[str, Any]:
    """Latencies of ``pairs`` code actions asked while typing into ``text``, and what they held."""
    rows = text.split("\n")
    stage = next(i for i, row in enumerate(rows) if '"stage": 2' in row)
    column = rows[stage].index("2")
    fixable = next(i for i, row in enumerate(rows) if FIXABLE in row)
    client = Client(checkout)
    try:
        client.send({"id": 0, "method": "initialize", "params": {"capabilities": {}, "processId": None}})
        client.wait(lambda m: m.get("id") == 0)
        client.send({"method": "initialized", "params": {}})
        item = {"uri": URI, "languageId": "json", "version": 1, "text": text}
        opened = client.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        one_check = client.wait(published(1))[0] - opened
        where = {"start": {"line": fixable, "character": 3}, "end": {"line": fixable, "character": 3}}
        asked: dict[int, float] = {}
        for n in range(1, pairs + 1):
            began = time.perf_counter()
            edit = {"start": {"line": stage, "character": column}, "end": {"line": stage, "character": column + 1}}
            change = {"range": edit, "text": "3" if n % 2 else "2"}
            client.send(
                {
                    "method": "textDocument/didChange",
                    "params": {"textDocument": {"uri": URI, "version": n + 1}, "contentChanges": [change]},
                }
            )
            params = {"textDocument": {"uri": URI}, "range": where, "context": {"diagnostics": []}}
            asked[n] = client.send({"id": n, "method": "textDocument/codeAction", "params": params})
            time.sleep(max(0.0, interval - (time.perf_counter() - began)))
        answers: dict[int, tuple[float, Any]] = {}
        last_published = 1
        while len(answers) < pairs or last_published < pairs + 1:
            at, message = client.wait(lambda m: published(pairs + 1)(m) or ("method" not in m and m.get("id") in asked))
            if "method" in message:
                last_published = pairs + 1
            else:
                answers[message["id"]] = (at, message.get("result"))
        rest = {"textDocument": {"uri": URI}, "range": where, "context": {"diagnostics": []}}
        client.send({"id": pairs + 1, "method": "textDocument/codeAction", "params": rest})
        _at, last = client.wait(lambda m: m.get("id") == pairs + 1)
    finally:
        client.close()
    latencies = sorted(answers[n][0] - asked[n] for n in asked)

    def fixes(result: Any) -> int:
        return sum(1 for action in result or [] if "edit" in action)

    return {
        "median": statistics.median(latencies),
        "p95": latencies[max(0, round(0.95 * len(latencies)) - 1)],
        "max": latencies[-1],
        "with_fix": sum(1 for _at, result in answers.values() if fixes(result)),
        "pairs": pairs,
        "fix_at_rest": fixes(last.get("result")) > 0,
        "one_check": one_check,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=60)
    parser.add_argument("--interval", type=float, default=0.12, help="seconds between keystrokes (default 0.12)")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the dsref checkout whose server is measured")
    args = parser.parse_args()
    documents = {"250 KB config": with_fixable(large_config()), "5,602 findings": many_findings()}
    print(f"server of {args.checkout.resolve()}; {args.pairs} didChange + codeAction pairs, {args.interval} s apart")
    for name, text in documents.items():
        got = measure(args.checkout, text, args.pairs, args.interval)
        print(
            f"{name:>15} ({len(text.encode()) // 1000} KB): codeAction median {got['median'] * 1000:7.1f} ms, "
            f"p95 {got['p95'] * 1000:7.1f} ms, max {got['max'] * 1000:7.1f} ms; "
            f"the fix in {got['with_fix']} of {got['pairs']} answers while typing, "
            f"{'and' if got['fix_at_rest'] else 'NOT'} at rest; one check (open to diagnostics) "
            f"{got['one_check'] * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
