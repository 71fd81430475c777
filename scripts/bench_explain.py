"""Start-up cost of `dsref explain`, side by side with the bare interpreter.

    python scripts/bench_explain.py [--runs 30]

Prints the median wall time of `python -m dsref explain zero_optimization.stage`
(English and Chinese) and of `python -c pass`, and their ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def median_ms(command: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    # An installed package has its bytecode compiled (pip does it); measure that, not source compilation.
    import compileall
    from pathlib import Path

    compileall.compile_dir(str(Path(__file__).resolve().parents[1] / "dsref"), quiet=1)
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    median_ms([sys.executable, "-m", "dsref", "--version"], 3, env)  # warm the file cache
    bare = median_ms([sys.executable, "-c", "pass"], args.runs, env)
    rows = [("python -c pass", bare)]
    for lang in ("en", "zh"):
        cmd = [sys.executable, "-m", "dsref", "explain", "zero_optimization.stage", "--lang", lang]
        rows.append((f"dsref explain zero_optimization.stage --lang {lang}", median_ms(cmd, args.runs, env)))
    env_zh = dict(env, LANG="zh_CN.UTF-8")
    cmd = [sys.executable, "-m", "dsref", "explain", "zero_optimization.stage"]
    rows.append(("LANG=zh_CN.UTF-8 dsref explain zero_optimization.stage", median_ms(cmd, args.runs, env_zh)))
    for name, ms in rows:
        print(f"{name:<60} {ms:7.1f} ms   {ms / bare:4.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
