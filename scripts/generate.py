"""Regenerate every committed file that is derived from the schema.

    python scripts/generate.py          # write them
    python scripts/generate.py --check  # exit 1 and name the stale ones

The option index (dsref/index_data/), the editor schemas, the generated site pages. Each generated file carries
no hand edits; change the schema and run this.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.generated import generated_files, index_files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = []
    if not args.check:  # the pages are drawn from the index: bring it up to date first
        for path, content in index_files().items():
            if not path.exists() or path.read_bytes() != content:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
        importlib.invalidate_caches()
    for path, content in generated_files().items():
        current = path.read_bytes() if path.exists() else None
        if current != content:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
