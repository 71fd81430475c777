"""Every committed file derived from the schema, as bytes, keyed by its path: the one list of generated files.

``scripts/generate.py`` writes them (and removes what ``dsref/generated/`` holds beyond them);
``tests/unit/generator/test_generated.py`` fails when a committed copy differs from what this module produces now.
"""

from __future__ import annotations

from pathlib import Path

from ..tree.index import GENERATED_DIR
from .index import index_files, page_files

ROOT = Path(__file__).resolve().parents[2]  # the checkout: dsref/generator/files.py
RECORDED_FOLDER = "releases"
"""The folder of ``dsref/generated/`` that ``scripts/releases.py`` writes and ``scripts/generate.py`` leaves alone."""


GENERATED_PACKAGE = '''"""Generated artefacts, written by ``scripts/generate.py`` from the schema: do not edit.

The option index (``index/``), the pre-rendered ``dsref explain`` pages (``pages_<lang>.txt``, ``pages.py``), the
check tree (``check_tree.py``) and the site's search dictionary. Nothing here imports any other part of dsref;
``tests/unit/generator/test_generated.py`` regenerates every file and fails on a difference or on a file no longer
generated.

``releases/`` is recorded from the DeepSpeed releases themselves, not from the schema: what each release's config
layer does differently from 0.19.8's, and its verdict on each corpus config; ``scripts/releases.py`` rebuilds it.
"""
'''


def generated_files() -> dict[Path, bytes]:
    """Every committed generated file and its content; those under ``dsref/generated/`` are all that folder holds."""
    from ..editor.jsonschema import schema_files
    from ..text.glossary import page
    from .check_tree import check_tree_files

    files = {Path(GENERATED_DIR) / "__init__.py": GENERATED_PACKAGE.encode("utf-8")}
    files.update(index_files())
    files.update(check_tree_files())
    files.update(page_files())
    schemas = ROOT / "schemas"
    if schemas.is_dir():
        for name, text in schema_files().items():
            files[schemas / name] = text.encode("utf-8")
    schemastore = ROOT / "editors" / "schemastore"
    if schemastore.is_dir():  # the submission to SchemaStore, in a checkout
        from ..editor.schemastore import submission_files

        for name, text in submission_files().items():
            files[schemastore / name] = text.encode("utf-8")
    docs = ROOT / "docs"
    if docs.is_dir():  # pages only exist in a checkout, not in an installed package
        from ..site import site_files
        from ..site.search import USER_DICTIONARY, user_dictionary

        for lang in ("en", "zh"):
            files[docs / lang / "glossary.md"] = page(lang).encode("utf-8")
        files.update(site_files(docs))
        files[ROOT / USER_DICTIONARY] = user_dictionary().encode("utf-8")
    return files


def leftovers(files: dict[Path, bytes]) -> list[Path]:
    """Files in ``dsref/generated/`` that ``files`` no longer holds (a shard of a removed top-level key would still
    be importable): ``scripts/generate.py`` removes them, ``tests/unit/generator/test_generated.py`` fails on them."""
    root = Path(GENERATED_DIR)
    recorded = root / RECORDED_FOLDER  # written by scripts/releases.py from the releases, not from the schema
    present = {
        path
        for path in root.rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and recorded not in path.parents
    }
    return sorted(present - set(files))


def write_atomically(path: Path, content: bytes) -> None:
    """Write ``content`` to ``path`` whole or not at all: a temporary file beside it, then a rename."""
    import os
    import tempfile

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
