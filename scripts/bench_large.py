"""Speed of dsref on the largest config it accepts (about 250 KB, under the 256 KiB limit).

    python scripts/bench_large.py [--runs 5]

Prints medians of:
* ``dsref check`` on a 250 KB valid config (a curriculum-learning section with hundreds of metrics, written as
  ``json.dumps(..., indent=2)`` writes it), start-up included (target under 0.3 s);
* the same file with a Python ``True`` on its last line, which neither reader accepts, so that dsref looks for the
  first wrong character (target under 0.3 s: as fast as a valid file);
* the same with the mistake on the first line, for comparison;
* a one-line file of 24,000 findings, as text and as JSON (the text output should cost at most twice the JSON);
* ``dsref server``: the diagnostics after a one-character edit to the 250 KB document, a real LSP client (pytest-lsp's)
  driving the real server over stdio (target under 50 ms).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as lsp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_check import timed  # noqa: E402  (scripts/ is on sys.path when this runs)
from bench_server import published  # noqa: E402

TARGET_BYTES = 250_000


def large_config() -> str:
    """A valid config of just under :data:`TARGET_BYTES` characters."""

    def build(metrics: int) -> str:
        curriculum = {
            f"metric_{i}": {
                "index_to_sample_path": f"/data/metric_{i}/index_to_sample",
                "index_to_metric_path": f"/data/metric_{i}/index_to_metric",
                "difficulty_type": "value",
                "clustering_type": "schedule_based",
                "min_difficulty": 1,
                "max_difficulty": 100,
                "schedule_type": "fixed_linear",
                "schedule_config": {"total_curriculum_step": 1000, "difficulty_step": 8},
            }
            for i in range(metrics)
        }
        config = {
            "train_batch_size": 32,
            "train_micro_batch_size_per_gpu": 4,
            "bf16": {"enabled": True},
            "zero_optimization": {"stage": 2, "overlap_comm": True},
            "data_efficiency": {
                "enabled": True,
                "data_sampling": {
                    "enabled": True,
                    "num_workers": 2,
                    "curriculum_learning": {
                        "enabled": True,
                        "data_cluster_path": "/data/clusters",
                        "curriculum_metrics": curriculum,
                    },
                },
            },
        }
        return json.dumps(config, indent=2) + "\n"

    metrics = 1
    while len(build(metrics * 2)) < TARGET_BYTES:
        metrics *= 2
    low, high = metrics, metrics * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(build(middle)) < TARGET_BYTES else (low, middle)
    return build(low)


def with_python_true_at_the_end(text: str) -> str:
    return text.rstrip()[:-1].rstrip() + ',\n  "fp16": {"enabled": True}\n}\n'


def with_python_true_at_the_start(text: str) -> str:
    return '{"fp16": {"enabled": True},' + text.lstrip()[1:]


def many_findings() -> str:
    """One line of about 250 KB with 24,000 unknown keys: 24,000 findings, each showing the same source line."""
    return json.dumps({f"k{i}": 1 for i in range(24_000)}, separators=(",", ":"))


def check_seconds(path: Path, runs: int, *extra: str) -> float:
    return timed([sys.executable, "-m", "dsref", "check", "--world-size", "8", *extra, str(path)], runs)


async def edit_seconds(text: str, edits: int) -> list[float]:
    """Diagnostics after each of ``edits`` one-character edits (a digit of the stage, 2 ↔ 3), one at a time."""
    from pytest_lsp.client import make_test_lsp_client

    uri = "file:///bench/ds_config.json"
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "dsref", "server")
    await client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities()))
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri, "json", 1, text)))
    await published(client, uri)
    rows = text.split("\n")
    line = next(i for i, row in enumerate(rows) if '"stage": 2' in row)
    column = rows[line].index("2")
    times = []
    for version, digit in enumerate(("3", "2") * (edits // 2 + 1), start=2):
        if len(times) == edits:
            break
        client.diagnostics.pop(uri, None)
        began = time.perf_counter()
        change = lsp.TextDocumentContentChangePartial(
            range=lsp.Range(lsp.Position(line, column), lsp.Position(line, column + 1)), text=digit
        )
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(lsp.VersionedTextDocumentIdentifier(uri=uri, version=version), [change])
        )
        await published(client, uri)
        times.append(time.perf_counter() - began)
    await client.shutdown_session()
    await client.stop()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    text = large_config()
    cases = {
        "valid": text,
        "Python True on the last line": with_python_true_at_the_end(text),
        "Python True on the first line": with_python_true_at_the_start(text),
    }
    with tempfile.TemporaryDirectory() as folder:
        print(f"config: {len(text.encode()):,} bytes, {text.count(chr(10)):,} lines; medians of {args.runs} runs")
        for name, content in cases.items():
            path = Path(folder) / "ds_config.json"
            path.write_text(content, encoding="utf-8")
            seconds = check_seconds(path, args.runs)
            print(f"dsref check, {name:32} {seconds:6.3f} s   (target 0.3 s)")
        path = Path(folder) / "ds_config.json"
        path.write_text(many_findings(), encoding="utf-8")
        text, as_json = (check_seconds(path, args.runs, *extra) for extra in ((), ("--format", "json")))
        print(
            f"dsref check, 24,000 findings on one line: text {text:6.3f} s, JSON {as_json:6.3f} s   "
            "(target: text within 2x of JSON)"
        )
    for name in ("valid", "Python True on the last line"):
        edits = asyncio.run(edit_seconds(cases[name], 2 * args.runs + 1))
        print(
            f"server, {name:32} diagnostics after a one-character edit {statistics.median(edits[1:]) * 1000:7.1f} ms"
            "   (target 50 ms)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
