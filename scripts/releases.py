"""Record what each DeepSpeed release does with a config, from the releases themselves.

    python scripts/releases.py build               # install each release into the scratch folder (network)
    python scripts/releases.py extract             # its config facts → dsref/generated/releases/<release>.json
    python scripts/releases.py verdicts            # its verdict on each corpus config → .../verdicts.json
    python scripts/releases.py behaviour           # what it does with each option (the battery) → .../behaviour.json
    python scripts/releases.py rules               # its verdict on each cross-field rule's example → .../rules.json
    python scripts/releases.py engine              # each rule's example started as an engine → .../engine.json
    python scripts/releases.py index               # the releases the package index lists against the table
    python scripts/releases.py build extract verdicts --release 0.15.4 --release 0.19.8

Each release is installed with ``pip install --no-deps --target`` into ``$DSREF_RELEASES_DIR`` (default
``/tmp/dsref-releases``, never committed) and run by this interpreter, whose torch (CPU is enough) it shares; see
``dsref/generator/release_env.py`` for the stand-ins old releases need. ``verdicts`` judges with every release of
the table that has been judged (each release's verdicts are kept in the scratch folder, so releases can be judged one
at a time), whatever ``--release`` says; ``behaviour`` likewise writes the file from every release probed so far.
``verdicts`` reads the corpus from ``../shared/corpus/real/`` (``--corpus`` for another folder). ``agreement``
prints how often ``dsref check --deepspeed-version X`` agrees with release X, on the corpus and on the battery.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.generator.release_behaviour import probe_behaviour, probed_reports, write_behaviour
from dsref.generator.release_env import DEFAULT_SCRATCH, RELEASES, build, published_releases
from dsref.generator.release_rules import ENGINE, READ, probe_rules, probed_rule_reports, write_rules
from dsref.generator.releases import (
    cached_verdicts,
    collect_verdicts,
    extract,
    raw_facts_path,
    recorded_by_release,
    remove_stale,
    write_differences,
    write_verdicts,
)
from dsref.tree.options import option_tree
from dsref.tree.releases import COVERED
from dsref.tree.versions import DEEPSPEED_VERSION

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "real"


def corpus_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "steps",
        nargs="+",
        choices=("build", "extract", "behaviour", "rules", "engine", "verdicts", "agreement", "index"),
    )
    parser.add_argument("--again", action="store_true", help="probe again what the scratch folder already holds")
    parser.add_argument("--release", action="append", help="only this release (repeatable); default: all")
    parser.add_argument("--scratch", type=Path, default=DEFAULT_SCRATCH)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    releases = args.release or list(RELEASES)
    unknown = sorted(set(releases) - set(RELEASES))
    if unknown:
        parser.error(f"not in the table ({', '.join(RELEASES)}): {', '.join(unknown)}")
    if "index" in args.steps:
        listed = published_releases()
        if listed != list(RELEASES):
            print(
                f"the index lists {', '.join(sorted(set(listed) - set(RELEASES))) or 'nothing more'}; "
                f"the table also has {', '.join(sorted(set(RELEASES) - set(listed))) or 'nothing more'}"
            )
            return 1
        print(f"the table holds the {len(listed)} releases the index lists from {listed[0]} to {listed[-1]}")
    if "build" in args.steps:
        for release in releases:
            started = time.perf_counter()
            build(release, args.scratch)
            print(f"DeepSpeed {release}: installed in {time.perf_counter() - started:.0f} s", flush=True)
    if "extract" in args.steps:
        tree = option_tree()
        base_path = raw_facts_path(DEEPSPEED_VERSION, args.scratch)
        cached = base_path.exists() and not args.again
        base = (
            json.loads(base_path.read_text(encoding="utf-8"))
            if cached
            else extract(DEEPSPEED_VERSION, tree, args.scratch)
        )
        for release in releases:
            if release == DEEPSPEED_VERSION:
                continue
            facts = extract(release, tree, args.scratch)
            print(f"DeepSpeed {release}: facts → {write_differences(release, facts, base).relative_to(ROOT)}")
        print(f"DeepSpeed {DEEPSPEED_VERSION}: the base, {base_path}")
        for path in remove_stale(RELEASES):
            print(f"removed {path.relative_to(ROOT)}: no longer in the table")
    if "behaviour" in args.steps:
        tree = option_tree()
        for release in releases:
            started = time.perf_counter()
            probe_behaviour(release, tree, args.scratch, again=args.again)  # only what changed, unless --again
            print(f"DeepSpeed {release}: battery run in {time.perf_counter() - started:.0f} s", flush=True)
        reports = probed_reports(args.scratch)
        print(f"{len(reports)} releases probed → {write_behaviour(reports).relative_to(ROOT)}")
    for probe in (READ, ENGINE):
        if probe.command not in args.steps:
            continue
        for release in releases:
            started = time.perf_counter()
            probe_rules(release, args.scratch, again=args.again, probe=probe)
            print(f"DeepSpeed {release}: {probe.command} probed in {time.perf_counter() - started:.0f} s", flush=True)
        reports = probed_rule_reports(args.scratch, probe)
        print(f"{len(reports)} releases probed → {write_rules(reports, probe).relative_to(ROOT)}")
    if "verdicts" in args.steps:
        files = corpus_files(args.corpus)
        if not files:
            parser.error(f"no config in {args.corpus}")
        collect_verdicts(releases, files, args.scratch, again=args.again)
        # the file holds every release judged: those judged now, and those judged before and kept in it
        verdicts = {**recorded_by_release(), **cached_verdicts(RELEASES, files, args.scratch)}
        for release, judged in verdicts.items():
            refused = sum(error is not None for error in judged.values())
            print(f"DeepSpeed {release}: {len(judged)} configs judged, {refused} refused")
        print(f"→ {write_verdicts(verdicts).relative_to(ROOT)}")
    if "agreement" in args.steps:
        from dsref.generator.release_agreement import agreement_table, battery_table

        recorded = [r for r in releases if r in COVERED]
        for line in agreement_table(corpus_files(args.corpus), recorded):
            print(line, flush=True)
        for line in battery_table(recorded):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
