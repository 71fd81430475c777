"""How fast the playground is, as issue 27 asks: cold loads of its page in Chromium, every request off the local
server refused.

    python scripts/bench_playground.py              # build into a scratch folder (downloads cached), 5 cold loads
    python scripts/bench_playground.py --runs 3 --lang zh
    python scripts/bench_playground.py --source     # Python shipped as source, not bytecode: the before

For each cold load (a fresh browser context: nothing cached) it prints the bytes fetched (as served, and gzipped as
GitHub Pages sends them), the time from navigation to the first schema diagnostics, to the first exact result
(Python started, dsref's findings shown), and the median of 20 warm checks after that; then the time to the answer
for a LLaMA-Factory YAML pasted in the launch editor (PyYAML fetched and imported first) and for a second one
(PyYAML loaded); then the median of the runs.
Prints figures; asserts nothing. Needs playwright, Chromium (scripts/install_test_deps.sh) and npm.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import playground  # scripts/playground.py

CHROMIUM = "/usr/bin/chromium"
EDITS = 20
LAUNCH = """model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct
stage: sft
deepspeed: ds_config.json
per_device_train_batch_size: {batch}
bf16: true
"""
"""A YAML launch pasted beside the sample config (its first one makes the page load PyYAML)."""


def _launch_ms(page: object, batch: int) -> float:
    """Milliseconds from asking for a pasted YAML launch's check to its answer (as the warm checks are timed: the
    editor's 200 ms pause before it asks is not counted)."""
    text = LAUNCH.format(batch=batch)
    page.evaluate("(text) => window.dsrefPlayground.setLaunch(text)", text)  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "(text) => window.dsrefPlayground.state.checkedLaunch === text", arg=text, timeout=60_000
    )
    return float(page.evaluate("() => window.dsrefPlayground.state.checkMs.at(-1)"))  # type: ignore[attr-defined]


class _Local:
    """A route handler: a request to the local server goes through and is noted, any other is refused."""

    def __init__(self, url: str) -> None:
        self.url, self.fetched = url, list[str]()

    def __call__(self, route: object) -> None:  # one parameter: Playwright passes the route alone
        request = route.request  # type: ignore[attr-defined]
        if request.url.startswith(self.url):
            self.fetched.append(request.url.removeprefix(self.url).split("?")[0])
            route.continue_()  # type: ignore[attr-defined]
        else:
            route.abort()  # type: ignore[attr-defined]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--lang", choices=("en", "zh"), default="en")
    parser.add_argument("--source", action="store_true", help="ship Python source instead of bytecode (the before)")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        playground.build(root / "built", bytecode=not args.source)
        playground.stage_pages(root / "site", root / "built")
        gzipped = {
            path.relative_to(root / "site").as_posix(): len(gzip.compress(path.read_bytes(), 6))
            for path in (root / "site").rglob("*")
            if path.is_file()
        }
        rows = []
        with playground.serve(root / "site") as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for run in range(args.runs):
                context = browser.new_context()
                local = _Local(url)
                context.route("**/*", local)
                page = context.new_page()
                page.goto(url + ("playground/" if args.lang == "en" else "zh/playground/"))
                page.wait_for_function("() => window.dsrefPlayground?.state.exactAt != null", timeout=180_000)
                state = page.evaluate("() => window.dsrefPlayground.state")
                sample = page.evaluate("() => window.dsrefPlayground.view.state.doc.toString()")
                for n in range(EDITS):
                    text = sample.replace('"train_batch_size": 32', f'"train_batch_size": {32 + 8 * (n + 1)}')
                    page.evaluate("(text) => window.dsrefPlayground.setText(text)", text)
                    page.wait_for_function(
                        "(text) => window.dsrefPlayground.state.checkedText === text", arg=text, timeout=30_000
                    )
                warm = page.evaluate("() => window.dsrefPlayground.state.checkMs.slice(1)")
                files = [name + "index.html" if name.endswith("/") else name for name in local.fetched]
                raw = sum((root / "site" / name).stat().st_size for name in files if (root / "site" / name).is_file())
                packed = sum(gzipped.get(name, 0) for name in files)
                launch_first, launch_next = _launch_ms(page, 2), _launch_ms(page, 4)  # after the bytes are counted
                row = (raw / 2**20, packed / 2**20, state["instant"]["at"] / 1000, state["exactAt"] / 1000)
                rows.append((*row, statistics.median(warm), launch_first, launch_next))
                print(
                    f"run {run + 1}: {row[0]:.2f} MB fetched ({row[1]:.2f} MB gzipped), schema diagnostics at "
                    f"{row[2]:.2f} s, first exact result at {row[3]:.1f} s, warm check {rows[-1][4]:.0f} ms "
                    f"(median of {len(warm)}), first YAML launch {launch_first:.0f} ms (PyYAML loaded), "
                    f"next {launch_next:.0f} ms"
                )
                context.close()
            browser.close()
        medians = [statistics.median(column) for column in zip(*rows, strict=True)]
        print(
            f"median of {len(rows)} cold loads ({args.lang}): {medians[0]:.2f} MB ({medians[1]:.2f} MB gzipped), "
            f"schema diagnostics {medians[2]:.2f} s, first exact result {medians[3]:.1f} s, "
            f"warm check {medians[4]:.0f} ms, first YAML launch {medians[5]:.0f} ms, next {medians[6]:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
