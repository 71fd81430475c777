"""Regenerate every committed file that is derived from the schema.

    python scripts/generate.py          # write them
    python scripts/generate.py --check  # exit 1 and name the stale ones

Everything in dsref/generated/ (the option index, the pre-rendered explain pages, the check tree), the editor
schemas, the generated site pages: the list is dsref/generator/files.py. Each generated file carries no hand edits;
change the schema and run this. Files are written atomically; a file left in dsref/generated/ that is no longer
generated is removed.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.generator.files import generated_files, index_files, leftovers, write_atomically


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = []
    if not args.check:  # the pages are drawn from the index and checked with the check tree: those first
        from dsref.generator.check_tree import check_tree_files

        for path, content in {**index_files(), **check_tree_files()}.items():
            if not path.exists() or path.read_bytes() != content:
                write_atomically(path, content)
        importlib.invalidate_caches()
    files = generated_files()
    for path, content in files.items():
        current = path.read_bytes() if path.exists() else None
        if current != content:
            stale.append(path)
            if not args.check:
                write_atomically(path, content)
    left = leftovers(files)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    for path in left:
        print(f"{'not generated' if args.check else 'removed'}: {path}")
        if not args.check:
            path.unlink()
    return 1 if (args.check and (stale or left)) else 0


if __name__ == "__main__":
    sys.exit(main())
