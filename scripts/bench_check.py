"""Speed of `dsref check` over the real corpus, side by side with check-jsonschema using dsref's exported schema.

    python scripts/bench_check.py [--corpus ../shared/corpus/real]

The files are the corpus's strict-JSON configs (those ``json.load`` reads, about 300), read as Hugging Face reads
them (``--profile hf``), and check-jsonschema checks the same files with dsref's Hugging Face schema. Prints files
per second for one `dsref check` call over them (with its default of one process per CPU, and with `--jobs 1`),
for one `check-jsonschema` call, the ratio of the two wall times (target: dsref at most 0.5x), and the wall time of
checking one typical file, start-up included, for both. The commands take turns, so that a busy moment of the
machine slows all of them alike.

    python scripts/bench_check.py --instructions

counts instead the instructions each command runs (valgrind's callgrind, address randomisation off, a fixed hash
seed): one process each, the whole corpus and one file, and `dsref explain` beside a bare `python -c pass`. Unlike
wall time, the counts do not move with the load of a shared machine, so they show what a change saves; they cannot
show what a second process buys. It checks the start-up budget CONTRIBUTING writes down (``BUDGET``) and exits 1
when a command exceeds it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

BUDGET = {
    ("dsref check, one file", "check-jsonschema, one file"): 0.5,
    ("dsref explain", "python -c pass"): 1.1,
}
"""The start-up budget (CONTRIBUTING, Keep the start-up within its budget): at most this many times the instructions of
the command beside it."""
EXPLAINED = "zero_optimization.stage"


def timed(command: list[str], runs: int = 1) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus" / "real"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--instructions", action="store_true", help="count instructions (callgrind) instead")
    args = parser.parse_args()
    import json

    def strict_json(path: Path) -> bool:
        try:
            json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            return False
        return True

    files = sorted(str(p) for p in Path(args.corpus).glob("*.json") if strict_json(p))
    if not files:
        print(f"no *.json files in {args.corpus}", file=sys.stderr)
        return 2
    schema = str(ROOT / "schemas" / "ds_config.hf.schema.json")
    dsref = [sys.executable, "-m", "dsref", "check", "--format", "json", "--world-size", "1", "--profile", "hf"]
    cjs = [sys.executable, "-m", "check_jsonschema", "--schemafile", schema, "--default-filetype", "json"]
    # An installed package has its bytecode compiled (pip does it); measure that, not source compilation.
    import compileall

    compileall.compile_dir(str(ROOT / "dsref"), quiet=1)
    typical = next(f for f in files if "zero3" in f.lower())
    if args.instructions:
        return _instructions(dsref, cjs, files, typical)
    timed([*dsref, typical])  # warm caches
    timed([*cjs, typical])
    corpus: dict[str, list[float]] = {"dsref": [], "dsref1": [], "cjs": []}
    one: dict[str, list[float]] = {"dsref": [], "cjs": []}
    for _ in range(args.runs):  # taking turns, so that a busy moment of the machine slows both alike
        corpus["dsref"].append(timed([*dsref, *files]))
        corpus["dsref1"].append(timed([*dsref, "--jobs", "1", *files]))
        corpus["cjs"].append(timed([*cjs, *files]))
        for _ in range(3):
            one["dsref"].append(timed([*dsref, typical]))
            one["cjs"].append(timed([*cjs, typical]))
    t_dsref, t_cjs = statistics.median(corpus["dsref"]), statistics.median(corpus["cjs"])
    t_one = statistics.median(corpus["dsref1"])
    print(f"corpus: {len(files)} strict-JSON files read as Hugging Face reads them, ", end="")
    print(f"medians of {args.runs} runs, {os.cpu_count()} CPUs")
    print(f"dsref check (one call)        {t_dsref:6.2f} s   {len(files) / t_dsref:7.0f} files/s")
    print(f"dsref check --jobs 1          {t_one:6.2f} s   {len(files) / t_one:7.0f} files/s")
    print(f"check-jsonschema (one call)   {t_cjs:6.2f} s   {len(files) / t_cjs:7.0f} files/s")
    print(f"dsref / check-jsonschema      {t_dsref / t_cjs:6.2f} x   (target 0.5 x)")
    print(f"one typical file, start-up included: dsref {statistics.median(one['dsref']) * 1000:.0f} ms, ", end="")
    print(f"check-jsonschema {statistics.median(one['cjs']) * 1000:.0f} ms")
    return 0


def counted(command: list[str]) -> int:
    """Instructions ``command`` runs, as callgrind counts them (0 where valgrind is missing)."""
    import re
    import shutil

    if shutil.which("valgrind") is None or shutil.which("setarch") is None:
        return 0
    machine = os.uname().machine
    probe = ["setarch", machine, "-R", "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(probe, capture_output=True, text=True, check=False, env=env)
    found = re.search(r"Collected : (\d+)", done.stderr)
    return int(found.group(1)) if found else 0


def _instructions(dsref: list[str], cjs: list[str], files: list[str], typical: str) -> int:
    counts = {
        "dsref check --jobs 1, corpus": counted([*dsref, "--jobs", "1", *files]),
        "check-jsonschema, corpus": counted([*cjs, *files]),
        "dsref check, one file": counted([*dsref, "--jobs", "1", typical]),
        "check-jsonschema, one file": counted([*cjs, typical]),
        "dsref explain": counted([sys.executable, "-m", "dsref", "explain", EXPLAINED]),
        "python -c pass": counted([sys.executable, "-c", "pass"]),
    }
    if not all(counts.values()):
        print("needs valgrind and setarch", file=sys.stderr)
        return 2
    print(f"instructions, one process each, {len(files)} files (callgrind):")
    for name, count in counts.items():
        print(f"{name:32s} {count / 1e6:8.0f} M")
    ratio = counts["dsref check --jobs 1, corpus"] / counts["check-jsonschema, corpus"]
    print(f"dsref / check-jsonschema, corpus  {ratio:6.2f} x")
    within = True
    for (name, beside), most in BUDGET.items():
        ratio = counts[name] / counts[beside]
        print(f"{name} / {beside}: {ratio:.3f} x (budget {most} x): {'within' if ratio <= most else 'OVER BUDGET'}")
        within = within and ratio <= most
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main())
