"""What the editor JSON Schema costs: time to build it, its size, and how fast a validator judges a config with it.

    python scripts/bench_schema.py [--runs 5]

Prints, per committed schema file, the median build time (option tree already built), the size in bytes (and
gzipped, as a site serves it), and the median time of `dsref schema` as a command; then the time the jsonschema
library takes per real config of ../shared/corpus/real/ (when present) with the English DeepSpeed schema.
"""

from __future__ import annotations

import argparse
import gzip
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def median_ms(func: object, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        func()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from dsref.editor.jsonschema import build_schema, render
    from dsref.tree.links import schema_file
    from dsref.tree.options import option_tree

    start = time.perf_counter()
    option_tree()
    print(f"option tree: {(time.perf_counter() - start) * 1000:.0f} ms (once per process)")
    for profile in ("deepspeed", "hf"):
        for lang in ("en", "zh"):
            ms = median_ms(lambda lang=lang, profile=profile: build_schema(lang, profile), args.runs)
            text = render(build_schema(lang, profile)).encode("utf-8")
            name = schema_file(lang, profile)
            packed = len(gzip.compress(text)) / 1024
            print(f"{name:30} build {ms:6.0f} ms   {len(text) / 1024:6.0f} KiB   gzip {packed:4.0f} KiB")
    command = [sys.executable, "-m", "dsref", "schema", "--lang", "en"]
    cli = median_ms(lambda: subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, check=True), args.runs)
    print(f"{'dsref schema (whole command)':30} {cli:6.0f} ms")
    corpus = ROOT.parent / "shared" / "corpus" / "real"
    if corpus.is_dir():
        import hjson
        import jsonschema

        configs = []
        for path in sorted(corpus.glob("*.json")):
            try:
                configs.append(json.loads(json.dumps(hjson.loads(path.read_text(encoding="utf-8-sig")))))
            except Exception:
                continue
        validator = jsonschema.Draft7Validator(build_schema("en", "deepspeed"))
        ms = median_ms(lambda: [list(validator.iter_errors(c)) for c in configs], args.runs)
        print(f"jsonschema, {len(configs)} real configs: {ms:.0f} ms ({ms / len(configs):.2f} ms per config)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
