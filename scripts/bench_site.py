"""How long the site takes: generating its pages, the two-language MkDocs build, the doc checks, the link check.

    python scripts/bench_site.py            # one build
    python scripts/bench_site.py --runs 3   # three builds from an empty cache, then three with it filled
    python scripts/bench_site.py --weight [--site DIR]   # what a first visit loads (needs playwright, Chromium)

``--weight`` opens the home page and the heaviest page of each language (the largest HTML file) in Chromium, on a
fresh profile, as a first visit, and prints the requests made before anyone uses the search box and the bytes they
carry, as served and gzip-compressed (GitHub Pages compresses); then the same after the search box is opened.
``--site`` measures a site already built (another checkout's, for a before/after), instead of building one.

Prints figures; asserts nothing (the tests check behaviour, this measures it). The build target is under 15 s on
the CI machine (2 cores), idle, with the cache of dsref's answers filled.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _timed(fn):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=1, help="builds with an empty cache, and as many with it filled")
    parser.add_argument("--weight", action="store_true", help="measure a first visit instead of the build")
    parser.add_argument("--site", type=Path, help="with --weight: a built site to measure (default: build one)")
    args = parser.parse_args(argv)
    if args.weight:
        return _weight(args.site)

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
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        # Builds from an empty cache of dsref's answers (dsref/site/buildcache.py), each with a cache of its own;
        # then builds that find the last one filled, as a rebuild after editing a page does.
        runs: dict[str, list[Run]] = {"empty": [], "filled": []}
        for number in range(args.runs):
            env["DSREF_SITE_CACHE"] = str(Path(tmp) / f"cache{number}")
            run = _build(env, site)
            if run is None:
                return 1
            runs["empty"].append(run)
        for _ in range(args.runs):
            run = _build(env, site)
            if run is None:
                return 1
            runs["filled"].append(run)
        html = list(site.rglob("*.html"))
        size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
        print(f"mkdocs build --strict, en + zh: {len(html)} HTML pages, {size / 2**20:.0f} MiB")
        for cache, done in runs.items():
            for run in done:
                print(
                    f"  cache {cache:6}  {run.wall:6.2f} s wall  {run.cpu:6.2f} s CPU  "
                    f"(load average {run.load_before:.1f} before, {run.load_after:.1f} after)"
                )
            walls, cpus = [r.wall for r in done], [r.cpu for r in done]
            print(
                f"  cache {cache:6}  median {sorted(walls)[len(walls) // 2]:6.2f} s wall, "
                f"{sorted(cpus)[len(cpus) // 2]:6.2f} s CPU (target < 15 s with the cache filled, idle)"
            )
        print(f"on {os.cpu_count()} cores: wall times grow with the load, CPU times much less")
        seconds, broken = _timed(lambda: check_site(site, "/dsref/"))
        print(f"link check:          {seconds:6.2f} s  ({len(broken)} broken)")
    return 0


@dataclass(frozen=True)
class Run:
    """One build: seconds of wall-clock and of CPU (the build process and its children), and the one-minute load
    average before and after it."""

    wall: float
    cpu: float
    load_before: float
    load_after: float


def _build(env: dict[str, str], site: Path) -> Run | None:
    """One strict build of both languages into ``site``; None (the log printed) when it fails."""
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        print(proc.stdout + proc.stderr, file=sys.stderr)
        return None
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return Run(wall, cpu, load_before, os.getloadavg()[0])


def _weight(built: Path | None) -> int:
    if built is not None:
        return _measure(built)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--no-strict", "--site-dir", str(site)],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=True,
        )
        return _measure(site)


def _measure(site: Path) -> int:
    import functools
    import gzip
    import http.server
    import threading

    from playwright.sync_api import sync_playwright

    def heaviest(folder: Path, skip: str | None) -> str:
        pages = [p for p in folder.rglob("index.html") if skip is None or skip not in p.relative_to(folder).parts]
        return max(pages, key=lambda p: p.stat().st_size).parent.relative_to(site).as_posix() + "/"

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "dsref").symlink_to(site.resolve(), target_is_directory=True)

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=tmp))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}/dsref/"
        pages = ["", heaviest(site, "zh"), "zh/", heaviest(site / "zh", None).removeprefix("./")]
        pages[3] = "zh/" + pages[3] if not pages[3].startswith("zh/") else pages[3]
        print(f"site: {site}")
        print(f"{'page':44} {'when':12} {'requests':>8} {'bytes':>11} {'gzip':>10}  search index")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            for page_path in pages:
                context = browser.new_context()  # a first visit: nothing cached
                page = context.new_page()
                seen: list[str] = []
                page.on("requestfinished", lambda r, seen=seen: seen.append(r.url))
                page.goto(base + page_path)
                page.wait_for_load_state("networkidle")
                _report(page_path, "first visit", seen, site, base, gzip)
                page.click("input.md-search__input")
                page.wait_for_load_state("networkidle")
                page.wait_for_timeout(500)
                _report(page_path, "+ search", seen, site, base, gzip)
                context.close()
            browser.close()
        server.shutdown()
    return 0


def _report(page: str, when: str, urls: list[str], site: Path, base: str, gzip: object) -> None:
    from urllib.parse import unquote, urlsplit

    raw = packed = 0
    index = "no"
    for url in urls:
        path = site / unquote(urlsplit(url).path).removeprefix(urlsplit(base).path)
        if path.is_dir():
            path = path / "index.html"
        if not path.is_file():
            continue
        data = path.read_bytes()
        raw += len(data)
        packed += len(gzip.compress(data, 6))  # type: ignore[attr-defined]
        if path.name == "search_index.json":
            index = f"{len(data) / 1000:.0f} kB ({len(gzip.compress(data, 6)) / 1000:.0f} kB gzip)"  # type: ignore[attr-defined]
    print(f"{page or '(home)':44} {when:12} {len(urls):8} {raw / 1000:8.0f} kB {packed / 1000:7.0f} kB  {index}")


if __name__ == "__main__":
    sys.exit(main())
