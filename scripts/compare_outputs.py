"""Record what users see, and compare it with another checkout's record: the guard of a refactor.

    python scripts/compare_outputs.py --write before.json              # in the old checkout (or with PYTHONPATH)
    python scripts/compare_outputs.py --write after.json --against before.json

Runs the commands in-process (``dsref.cli.main.main``), over the real corpus (``../shared/corpus/real``):
``check`` as text in English and Chinese and as JSON, for both profiles; ``check --diff --unsafe-fixes``;
``explain`` on every option in both languages; ``estimate`` on the site's worked figures; and the language
server's diagnostics (``dsref.server.analysis.analyse``) for every file. Prints each output that differs and
exits 1 when any does.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(argv: list[str]) -> str:
    """What ``dsref ARGV`` prints (stdout and stderr, then the exit status)."""
    from dsref.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exit_:
            status = exit_.code if isinstance(exit_.code, int) else 1
    return f"{out.getvalue()}\n--- stderr\n{err.getvalue()}\n--- exit {status}\n"


def outputs(corpus: Path) -> Iterator[tuple[str, str]]:
    files = sorted(str(p) for p in corpus.glob("*.json"))
    if not files:
        raise SystemExit(f"no *.json files in {corpus}")
    for profile in ("deepspeed", "hf"):
        common = ["check", "--jobs", "1", "--profile", profile, "--world-size", "8"]
        for lang in ("en", "zh"):
            yield f"check {profile} text {lang}", run([*common, "--lang", lang, *files])
        yield f"check {profile} json", run([*common, "--format", "json", *files])
        yield f"check {profile} diff", run([*common, "--diff", *files])
        yield f"check {profile} diff unsafe", run([*common, "--diff", "--unsafe-fixes", *files])
    from dsref.tree.options import option_tree

    for lang in ("en", "zh"):
        for option in option_tree():
            yield f"explain {option.path} {lang}", run(["explain", option.path, "--lang", lang])
    for args in (
        ["--params", "7B", "--gpus-per-node", "8"],
        ["--params", "13B", "--gpus-per-node", "8", "--num-nodes", "2"],
        ["--params", "70B", "--gpus-per-node", "8", "--lang", "zh"],
    ):
        yield f"estimate {' '.join(args)}", run(["estimate", *args])
    yield from server_diagnostics(files)


def server_diagnostics(files: list[str]) -> Iterator[tuple[str, str]]:
    from lsprotocol import converters

    from dsref.server.analysis import analyse
    from dsref.server.settings import Settings

    converter = converters.get_converter()
    for path in files:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
        analysis = analyse(f"file://{path}", text, Settings(), "en")
        shown = [converter.unstructure(d) for d in analysis.diagnostics]
        edits = [[converter.unstructure(e) for e in analysis.edits(fix)] for _, _, fix in analysis.fixes]
        yield f"server {Path(path).name}", json.dumps({"diagnostics": shown, "edits": edits}, ensure_ascii=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus" / "real"))
    parser.add_argument("--write", required=True, help="where to write this checkout's outputs (JSON)")
    parser.add_argument("--against", help="another checkout's outputs to compare with")
    args = parser.parse_args()
    import dsref

    print(f"dsref from {Path(dsref.__file__).parent}", file=sys.stderr)
    record = dict(outputs(Path(args.corpus)))
    Path(args.write).write_text(json.dumps(record, ensure_ascii=False, indent=0), encoding="utf-8")
    print(f"{len(record)} outputs written to {args.write}")
    if not args.against:
        return 0
    before = json.loads(Path(args.against).read_text(encoding="utf-8"))
    differ = [name for name in sorted(set(before) | set(record)) if before.get(name) != record.get(name)]
    for name in differ[:20]:
        old, new = before.get(name, "<missing>"), record.get(name, "<missing>")
        import difflib

        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), "before", "after", lineterm="", n=1)
        print(f"== {name}\n" + "\n".join(line[:160] for line in list(diff)[:40]))
    print(f"{len(differ)} of {len(record)} outputs differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
