"""Cost of `dsref check --fix --diff` over the real corpus, against `dsref check` alone.

    python scripts/bench_fix.py [--corpus ../shared/corpus/real] [--runs 5]

Prints the median wall time of one call over the whole corpus for `check --jobs 1` (one process, as fixing is),
`check` (its default of one process per CPU), `check --diff` (safe fixes) and `check --diff --unsafe-fixes`, with
how many files each diff changes. The commands take turns, so that a busy moment of the machine slows all alike.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    return time.perf_counter() - start, proc.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus" / "real"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files = sorted(str(p) for p in Path(args.corpus).glob("*.json"))
    if not files:
        print(f"no *.json files in {args.corpus}", file=sys.stderr)
        return 2
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    base = [sys.executable, "-m", "dsref", "check", "--world-size", "8"]
    commands = {
        "check --jobs 1": [*base, "--jobs", "1", *files],
        "check": [*base, *files],
        "check --diff": [*base, "--diff", *files],
        "check --diff --unsafe-fixes": [*base, "--diff", "--unsafe-fixes", *files],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    changed: dict[str, int] = {}
    for _ in range(args.runs):
        for name, command in commands.items():
            seconds, out = timed(command)
            times[name].append(seconds)
            changed[name] = sum(1 for line in out.splitlines() if line.startswith("+++ "))
    print(f"corpus: {len(files)} files, medians of {args.runs} runs")
    reference = statistics.median(times["check --jobs 1"])
    for name, values in times.items():
        median = statistics.median(values)
        diff = f"   {changed[name]} files changed" if "diff" in name else ""
        print(f"{name:30} {median:6.2f} s  {median / reference:5.2f}x{diff}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
