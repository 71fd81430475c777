"""Start-up cost of `dsref explain`, side by side with the bare interpreter.

    python scripts/bench_explain.py [--runs 30]

Prints the median wall time of `python -m dsref explain zero_optimization.stage`
(English and Chinese) and of `python -c pass`, and their ratio; the commands take
turns, so that a busy moment of the machine slows all of them alike. A section
and a spelling that needs the whole key index are shown too.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def run_ms(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    return (time.perf_counter() - start) * 1000


def interleaved(commands: list[tuple[list[str], dict[str, str]]], runs: int) -> list[list[float]]:
    """Each command run ``runs`` times, taking turns, so that a busy moment of the machine hits all alike."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for i, (command, env) in enumerate(commands):
            times[i].append(run_ms(command, env))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    # An installed package has its bytecode compiled (pip does it); measure that, not source compilation.
    import compileall
    from pathlib import Path

    compileall.compile_dir(str(Path(__file__).resolve().parents[1] / "dsref"), quiet=1)
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    for _ in range(3):  # warm the file cache
        run_ms([sys.executable, "-m", "dsref", "explain", "zero_optimization.stage"], env)
    explain = [sys.executable, "-m", "dsref", "explain", "zero_optimization.stage"]
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"], env),
        ("dsref explain zero_optimization.stage --lang en", [*explain, "--lang", "en"], env),
        ("dsref explain zero_optimization.stage --lang zh", [*explain, "--lang", "zh"], env),
        ("LANG=zh_CN.UTF-8 dsref explain zero_optimization.stage", explain, dict(env, LANG="zh_CN.UTF-8")),
        (
            "dsref explain zero_optimization (a section)",
            [sys.executable, "-m", "dsref", "explain", "zero_optimization"],
            env,
        ),
        (
            "dsref explain offload_optimizer (another spelling)",
            [sys.executable, "-m", "dsref", "explain", "offload_optimizer"],
            env,
        ),
    ]
    times = interleaved([(command, row_env) for _, command, row_env in rows], args.runs)
    bare = statistics.median(times[0])
    print(f"{'':<60} {'median':>9} {'vs bare':>8} {'min':>9}")
    for (name, _, _), row in zip(rows, times, strict=True):
        median = statistics.median(row)
        print(f"{name:<60} {median:6.1f} ms {median / bare:7.2f}x {min(row):6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
