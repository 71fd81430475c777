"""Record what each DeepSpeed release does with a config, from the releases themselves.

    python scripts/releases.py build               # install each release into the scratch folder (network)
    python scripts/releases.py extract             # its config facts → dsref/generated/releases/<release>.json
    python scripts/releases.py verdicts            # its verdict on each corpus config → .../verdicts.json
    python scripts/releases.py build extract verdicts --release 0.15.4 --release 0.19.8

Each release is installed with ``pip install --no-deps --target`` into ``$DSREF_RELEASES_DIR`` (default
``/tmp/dsref-releases``, never committed) and run by this interpreter, whose torch (CPU is enough) it shares; see
``dsref/generator/release_env.py`` for the stand-ins old releases need. ``verdicts`` judges with every release of
the table, whatever ``--release`` says (the file holds them all). ``verdicts`` reads the corpus from
``../shared/corpus/real/`` (``--corpus`` for another folder). ``agreement`` prints how often ``dsref check
--deepspeed-version X`` agrees with release X's recorded verdicts.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.generator.release_env import DEFAULT_SCRATCH, RELEASES, build
from dsref.generator.releases import (
    collect_verdicts,
    extract,
    raw_facts_path,
    remove_stale,
    write_differences,
    write_verdicts,
)
from dsref.tree.options import option_tree
from dsref.tree.versions import DEEPSPEED_VERSION

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def corpus_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("steps", nargs="+", choices=("build", "extract", "verdicts", "agreement"))
    parser.add_argument("--release", action="append", help="only this release (repeatable); default: all")
    parser.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    releases = args.release or list(RELEASES)
    unknown = sorted(set(releases) - set(RELEASES))
    if unknown:
        parser.error(f"not in the table ({', '.join(RELEASES)}): {', '.join(unknown)}")
    if "build" in args.steps:
        for release in releases:
            started = time.perf_counter()
            build(release, args.scratch)
            print(f"DeepSpeed {release}: installed in {time.perf_counter() - started:.0f} s", flush=True)
    if "extract" in args.steps:
        tree = option_tree()
        base_path = raw_facts_path(DEEPSPEED_VERSION, args.scratch)
        base = extract(DEEPSPEED_VERSION, tree, args.scratch)
        for release in releases:
            if release == DEEPSPEED_VERSION:
                continue
            facts = extract(release, tree, args.scratch)
            print(f"DeepSpeed {release}: facts → {write_differences(release, facts, base).relative_to(ROOT)}")
        print(f"DeepSpeed {DEEPSPEED_VERSION}: the base, {base_path}")
        for path in remove_stale(RELEASES):
            print(f"removed {path.relative_to(ROOT)}: no longer in the table")
    if "verdicts" in args.steps:
        files = corpus_files(args.corpus)
        if not files:
            parser.error(f"no config in {args.corpus}")
        verdicts = collect_verdicts(RELEASES, files, args.scratch)  # the file holds every release: judge them all
        for release, judged in verdicts.items():
            refused = sum(error is not None for error in judged.values())
            print(f"DeepSpeed {release}: {len(judged)} configs judged, {refused} refused")
        print(f"→ {write_verdicts(verdicts).relative_to(ROOT)}")
    if "agreement" in args.steps:
        from dsref.generator.release_agreement import agreement_table

        for line in agreement_table(corpus_files(args.corpus), releases):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
