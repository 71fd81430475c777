"""Speed and memory of `dsref.check.read.loader`: files per second over the real corpus, and the worst inputs it must
bound.

    python scripts/bench_loader.py [--corpus ../shared/corpus/real] [--rounds 5]

Prints, for each profile, files/second of `load()` over every corpus file, next to the reader alone (`hjson.loads`
or `json.loads` on the same texts) and the position scanner alone; then the wall time and peak memory of hostile
inputs (a 10 MB file, nesting 10 000 deep, inputs as large as MAX_BYTES, lines that make hjson quadratic).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import hjson  # noqa: E402

from dsref.check.read.loader import MAX_BYTES, LoadError, load  # noqa: E402
from dsref.check.read.scanner import scan_hjson, scan_json  # noqa: E402


def rate(paths: list[Path], rounds: int, step: Callable[[Path], object]) -> float:
    """Files per second, best of ``rounds`` passes."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for path in paths:
            step(path)
        best = min(best, time.perf_counter() - start)
    return len(paths) / best


def quietly(parse: Callable[[str], object]) -> Callable[[str], object]:
    def run(text: str) -> object:
        try:
            return parse(text)
        except Exception:
            return None

    return run


def hostile() -> list[tuple[str, bytes]]:
    member = '"k{}": {{"stage": 3, "offload": {{"device": "cpu", "pin_memory": true}}, "list": [1, 2.5, "x"]}}'
    config = "{\n" + ",\n".join(member.format(i) for i in range(MAX_BYTES // 80)) + "\n}"
    config = config[: config.rfind(",\n", 0, MAX_BYTES - 10)] + "\n}"
    numbers = "[" + "1," * (MAX_BYTES // 2 - 2) + "]"
    triple = b"'''x''', "
    return [
        ("10 MB file", b'{"a": "' + b"x" * 10_000_000 + b'"}'),
        ("nesting 10 000 deep", b"[" * 10_000 + b"]" * 10_000),
        (f"config of {len(config) // 1024} KiB", config.encode()),
        (f"[1,1,1,...] on one line, {len(numbers) // 1024} KiB", numbers.encode()),
        ("quadratic line: a: n,,,,", b"a: n" + b"," * (MAX_BYTES - 8)),
        ("quadratic line: triple-quoted strings", b"[" + triple * (MAX_BYTES // len(triple) - 1) + b"]\n"),
        ("random bytes, 256 KiB", bytes(range(256)) * (MAX_BYTES // 256)),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus" / "real")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    paths = sorted(args.corpus.glob("*.json"))
    if not paths:
        print(f"no *.json files in {args.corpus}", file=sys.stderr)
        return 1
    texts = {p: p.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n") for p in paths}
    size = sum(len(t) for t in texts.values())
    print(f"corpus: {len(paths)} files, {size / 1024:.0f} KiB, best of {args.rounds} rounds")
    print(f"{'step':40} files/s")
    hjson_loads = quietly(lambda t: hjson.loads(t, object_pairs_hook=dict))
    json_loads = quietly(json.loads)
    rows: list[tuple[str, Callable[[Path], object]]] = [
        ("load(path) deepspeed profile", lambda p: load(p)),
        ("  hjson.loads alone", lambda p: hjson_loads(texts[p])),
        ("  scan_hjson alone", lambda p: scan_hjson(texts[p])),
        ("load(path, 'hf')", lambda p: load(p, "hf")),
        ("  json.loads alone", lambda p: json_loads(texts[p])),
        ("  scan_json alone", lambda p: scan_json(texts[p])),
    ]
    for name, step in rows:
        print(f"{name:40} {rate(paths, args.rounds, step):8.0f}")

    print(f"\n{'hostile input':40} {'profile':9} {'seconds':>8} {'peak MiB':>9}  result")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "input.json"
        for name, content in hostile():
            path.write_bytes(content)
            for profile in ("deepspeed", "hf"):
                start = time.perf_counter()
                result = load(path, profile)  # type: ignore[arg-type]
                seconds = time.perf_counter() - start
                tracemalloc.start()  # a second run for memory: tracing slows the code down
                load(path, profile)  # type: ignore[arg-type]
                peak = tracemalloc.get_traced_memory()[1] / 2**20
                tracemalloc.stop()
                outcome = f"{result.kind.value}/{result.reason}" if isinstance(result, LoadError) else "loaded"
                print(f"{name:40} {profile:9} {seconds:8.3f} {peak:9.1f}  {outcome}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
