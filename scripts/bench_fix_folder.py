"""Cost of `dsref check --fix` over one folder of many fixable files, against `dsref check` of the same folder.

    python scripts/bench_fix_folder.py [--files 2000 20000] [--runs 1] [--jobs N] [--keep DIR]

For each count N, writes N small configs into a fresh temporary folder, each with one safe fix (`"enabled": "true"`
→ `true`) and a few stale temporary files of `--fix` beside them (as a killed run leaves), then times, in turns:
`dsref check DIR` (the folder as found) and `dsref check --fix DIR` (on a fresh copy each run, since it rewrites the
files). Prints the median wall time of each, the ratio (the target is `--fix` within 3x `check`), and checks the
fix's outcome: every file fixed, every stale temporary gone and counted in the summary.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

FIXABLE = '{{\n  "train_batch_size": {n},\n  "fp16": {{"enabled": "true"}}\n}}\n'
"""One config: a batch size that differs from file to file (no two files alike) and one safe fix."""

STALE_EVERY = 100
"""One file in this many has a stale temporary file of `--fix` beside it."""


def make_folder(folder: Path, count: int) -> int:
    """``count`` fixable configs in ``folder``, and the stale temporaries beside some of them; how many of those."""
    old = time.time() - 3600
    stale = 0
    for n in range(count):
        name = f"ds_{n:06d}.json"
        (folder / name).write_text(FIXABLE.format(n=8 * (n + 1)), encoding="utf-8")
        if n % STALE_EVERY == 0:
            temporary = folder / f".{name}.{n:08x}.dsref-fix"
            temporary.write_text("{", encoding="utf-8")
            os.utime(temporary, (old, old))
            stale += 1
    return stale


def timed(command: list[str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
    return time.perf_counter() - start, proc


def bench(count: int, runs: int, jobs: list[str], keep: Path | None) -> tuple[float, float]:
    """Median seconds of ``check`` and of ``check --fix`` over a folder of ``count`` files."""
    base = [sys.executable, "-m", "dsref", "check", *jobs]
    with tempfile.TemporaryDirectory(prefix="dsref-bench-fix-", dir=keep) as scratch:
        original = Path(scratch) / "original"
        original.mkdir()
        stale = make_folder(original, count)
        checks: list[float] = []
        fixes: list[float] = []
        for run in range(runs):
            seconds, proc = timed([*base, str(original)])
            if proc.returncode not in (0, 1) or "DS202" not in proc.stdout:
                sys.exit(f"check: exit {proc.returncode}, no finding\n{proc.stderr[-2000:]}")
            checks.append(seconds)
            copy = Path(scratch) / f"fixed-{run}"
            shutil.copytree(original, copy)
            seconds, proc = timed([*base, "--fix", str(copy)])
            if proc.returncode != 0:
                sys.exit(f"check --fix: exit {proc.returncode}, expected 0\n{proc.stderr[-2000:]}")
            fixes.append(seconds)
            left = sorted(p.name for p in copy.iterdir() if p.name.endswith(".dsref-fix"))
            unfixed = sum(1 for p in copy.glob("*.json") if '"true"' in p.read_text(encoding="utf-8"))
            if left or unfixed:
                sys.exit(f"check --fix left {len(left)} temporaries and {unfixed} files unfixed")
            said = proc.stdout + proc.stderr
            if f"{stale} " not in said:
                print(f"  note: the summary does not count the {stale} stale temporaries removed", file=sys.stderr)
            shutil.rmtree(copy)
    return statistics.median(checks), statistics.median(fixes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, nargs="+", default=[2000, 20000], metavar="N")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=None, help="passed to both commands (default: theirs)")
    parser.add_argument("--keep", type=Path, default=None, help="make the scratch folders under this folder")
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    jobs = ["--jobs", str(args.jobs)] if args.jobs else []
    print(f"{'files':>7} {'check':>9} {'check --fix':>12} {'ratio':>7}   (median of {args.runs} runs)")
    worst = 0.0
    for count in args.files:
        check, fix = bench(count, args.runs, jobs, args.keep)
        worst = max(worst, fix / check)
        print(f"{count:>7} {check:>8.2f}s {fix:>11.2f}s {fix / check:>6.2f}x", flush=True)
    return 0 if worst <= 3 else 1


if __name__ == "__main__":
    sys.exit(main())
