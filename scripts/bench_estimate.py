"""Cost of `dsref estimate`: the command's wall time, and the library calls the site makes.

    python scripts/bench_estimate.py [--runs 20]

Prints the median wall time of `python -m dsref estimate --params 7B --gpus-per-node 8` (text and JSON, and with
--suggest) next to `python -c pass`, and the per-call time of estimate(), table_data() and render_svg().
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import timeit
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def median_ms(command: list[str], runs: int, env: dict[str, str]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def per_call_us(statement: str, setup: str, number: int) -> float:
    best = min(timeit.repeat(statement, setup=setup, number=number, repeat=5))
    return best / number * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    env["PYTHONPATH"] = str(ROOT)
    base = [sys.executable, "-m", "dsref", "estimate", "--params", "7B", "--gpus-per-node", "8"]
    median_ms(base, 3, env)  # warm the file cache
    rows = [
        ("python -c pass", median_ms([sys.executable, "-c", "pass"], args.runs, env)),
        ("estimate --params 7B --gpus-per-node 8", median_ms(base, args.runs, env)),
        ("  ... --format json", median_ms([*base, "--format", "json"], args.runs, env)),
        ("  ... --gpu-memory 80GB --suggest", median_ms([*base, "--gpu-memory", "80GB", "--suggest"], args.runs, env)),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'command (median wall time)'.ljust(width)}  ms")
    for name, ms in rows:
        print(f"{name.ljust(width)}  {ms:6.1f}")
    setup = (
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
        "from dsref.estimate.table import estimate; from dsref.estimate.render import render_svg, table_data"
    )
    calls = [
        ("estimate(7B, 8 GPUs)", "estimate(7_000_000_000, gpus_per_node=8)", 2000),
        ("table_data([1.5B, 7B, 13B, 70B])", "table_data([15*10**8, 7*10**9, 13*10**9, 70*10**9])", 200),
        ("render_svg(7B, 8 GPUs)", "render_svg(estimate(7_000_000_000, gpus_per_node=8), 'en')", 500),
    ]
    print()
    print(f"{'library call (best of 5)'.ljust(width)}  µs")
    for name, statement, number in calls:
        print(f"{name.ljust(width)}  {per_call_us(statement, setup, number):8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
