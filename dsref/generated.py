"""Every committed file derived from the schema, as bytes, keyed by its path.

``scripts/generate.py`` writes them; ``tests/test_generated.py`` fails when a
committed copy differs from what this module produces now.
"""

from __future__ import annotations

import json
from pathlib import Path

from .index import INDEX_DIR, KEY_FIELDS, KEYS_FILE


def _records_bytes(head: dict[str, object], name: str, records: list[object]) -> bytes:
    """One JSON document with one record per line, so that a diff shows which options changed."""
    lines = [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records]
    head_text = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1]
    body = ",\n".join(lines)
    return f'{head_text},"{name}":[\n{body}\n]}}\n'.encode()


def index_files() -> dict[Path, bytes]:
    """The option index: the key file and one shard per top-level key."""
    from .options import index_document

    document = index_document()
    head = {"dsref": document["dsref"], "deepspeed": document["deepspeed"]}
    directory = Path(INDEX_DIR)
    keys: list[object] = [[record[k] for k in KEY_FIELDS] for record in document["options"]]
    files = {directory / KEYS_FILE: _records_bytes({**head, "fields": list(KEY_FIELDS)}, "keys", keys)}
    shards: dict[str, list[object]] = {}
    for record in document["options"]:
        top = str(record["path"]).split(".", 1)[0].split("[", 1)[0]
        shards.setdefault(top, []).append(record)
    for top, records in shards.items():
        files[directory / f"{top}.json"] = _records_bytes(head, "options", records)
    return files


ROOT = Path(__file__).resolve().parents[1]


def generated_files() -> dict[Path, bytes]:
    from .checktree_build import check_tree_files
    from .glossary import page
    from .jsonschema import schema_files

    files = {**index_files(), **check_tree_files()}
    schemas = ROOT / "schemas"
    if schemas.is_dir():
        for name, text in schema_files().items():
            files[schemas / name] = text.encode("utf-8")
    docs = ROOT / "docs"
    if docs.is_dir():  # pages only exist in a checkout, not in an installed package
        from .site import site_files
        from .site.search import USER_DICTIONARY, user_dictionary

        for lang in ("en", "zh"):
            files[docs / lang / "glossary.md"] = page(lang).encode("utf-8")
        files.update(site_files(docs))
        files[ROOT / USER_DICTIONARY] = user_dictionary().encode("utf-8")
    return files
