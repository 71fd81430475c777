"""Every committed file derived from the schema, as bytes, keyed by its path.

``scripts/generate.py`` writes them; ``tests/test_generated.py`` fails when a
committed copy differs from what this module produces now.
"""

from __future__ import annotations

import json
from pathlib import Path

from .index import INDEX_PATH


def _json_bytes(document: object) -> bytes:
    return (json.dumps(document, ensure_ascii=False, indent=1, sort_keys=False) + "\n").encode("utf-8")


def generated_files() -> dict[Path, bytes]:
    from .options import index_document

    return {INDEX_PATH: _json_bytes(index_document())}
