"""How long the site takes: generating its pages, the two-language MkDocs build, the doc checks, the link check.

    python scripts/bench_site.py            # one build
    python scripts/bench_site.py --runs 3   # the best of three

Prints figures; asserts nothing (the tests check behaviour, this measures it). The build target is under 20 s on
the CI machine (2 cores).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1, help="builds to run; the fastest is reported")
    args = parser.parse_args(argv)

    from dsref.site import site_files
    from dsref.site.doccheck import blocks, check
    from dsref.site.linkcheck import check_site

    seconds, files = _timed(lambda: site_files(ROOT / "docs"))
    print(f"generate pages:      {seconds:6.2f} s  ({len(files)} files, both languages)")

    pages = sorted((ROOT / "docs").rglob("*.md"))
    found = [b for p in pages for b in blocks(p.read_text(encoding="utf-8"))]
    seconds, _ = _timed(lambda: [check(b) for b in found])
    print(f"check json blocks:   {seconds:6.2f} s  ({len(found)} blocks in {len(pages)} pages)")

    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    best = None
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        for _ in range(args.runs):
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--no-strict", "--site-dir", str(site)],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            elapsed = time.perf_counter() - start
            best = elapsed if best is None else min(best, elapsed)
            if proc.returncode != 0:
                print(proc.stdout + proc.stderr, file=sys.stderr)
                return 1
        warnings = sum(1 for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("WARNING"))
        html = list(site.rglob("*.html"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(
            f"mkdocs build:        {best:6.2f} s  (en + zh, {len(html)} HTML pages, {size / 2**20:.0f} MiB, "
            f"{warnings} warnings; target < 20 s)"
        )
        seconds, broken = _timed(lambda: check_site(site, "/dsref/"))
        print(f"link check:          {seconds:6.2f} s  ({len(broken)} broken)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
