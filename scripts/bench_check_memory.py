"""Peak memory and time of `dsref check` over many files, and how soon the first finding is printed.

    python scripts/bench_check_memory.py [--files 2000 20000] [--jobs 1] [--source DIR]

Writes the real corpus's configs (``../shared/corpus/real``; or a small config of its own when absent) over and over
into a temporary folder until it holds each number of files, checks the folder with `python -m dsref check` in
a child process, and prints for each count: the child's peak resident memory (MiB), the wall time, and the time
from start to the first line on standard output. With ``--source`` the child imports dsref from another checkout
(to compare with an older commit: ``git worktree add /tmp/old HEAD~3``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"

CHILD = r"""
import resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
first = None
for line in proc.stdout:
    if first is None:
        first = time.perf_counter() - start
proc.wait()
wall = time.perf_counter() - start
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, wall, first or wall)
"""


def fill(folder: Path, count: int) -> None:
    sources = sorted(CORPUS.glob("*.json")) if CORPUS.is_dir() else []
    texts = [p.read_bytes() for p in sources] or [b'{"train_batch_size": 8, "zero_optimization": {"stgae": 3}}']
    for i in range(count):
        (folder / f"c{i:06d}.json").write_bytes(texts[i % len(texts)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--source", default=str(ROOT), help="checkout whose dsref to run")
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": args.source}
    print(f"dsref from {args.source}, --jobs {args.jobs}")
    print(f"{'files':>7}  {'peak MiB':>8}  {'wall s':>7}  {'first line s':>12}")
    for count in args.files:
        folder = Path(tempfile.mkdtemp(prefix="dsref-bench-"))
        try:
            fill(folder, count)
            command = [sys.executable, "-m", "dsref", "check", str(folder), "--jobs", str(args.jobs), "--lang", "en"]
            out = subprocess.run(
                [sys.executable, "-c", CHILD, *command],
                capture_output=True,
                text=True,
                env=env,
                cwd=args.source,
                check=True,
            ).stdout.split()
            peak_kib, wall, first = int(out[0]), float(out[1]), float(out[2])
            print(f"{count:>7}  {peak_kib / 1024:>8.0f}  {wall:>7.1f}  {first:>12.2f}")
        finally:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
