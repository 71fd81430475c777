"""Regenerate the committed editor JSON Schemas (schemas/*.json) from the option tree.

    python scripts/generate_schemas.py          # write them
    python scripts/generate_schemas.py --check  # exit 1 and name the stale ones

Four files: English and Chinese (texts from the catalog), each for the ``deepspeed`` profile (what DeepSpeed
accepts) and the ``hf`` profile ("auto" where Hugging Face fills it). The site serves them at
https://dsref.github.io/dsref/schemas/<name>. Never edit them by hand: change the schema or the catalog, and run this.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.jsonschema import schema_files

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only report stale files")
    args = parser.parse_args(argv)
    stale = []
    for name, text in schema_files().items():
        path = SCHEMAS / name
        content = text.encode("utf-8")
        if not path.exists() or path.read_bytes() != content:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    for path in stale:
        print(f"{'stale' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
