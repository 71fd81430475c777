"""MkDocs hook: publish the committed editor schemas at ``<site>/schemas/``, at the URLs ``dsref.tree.links.schema_url``
names.

Enable it in mkdocs.yml::

    hooks:
      - scripts/site_schemas.py
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any


def on_post_build(config: Any, **_: Any) -> None:
    """Copy ``schemas/*.schema.json`` next to the built pages, unchanged (editors fetch them by URL)."""
    source = Path(config["config_file_path"]).resolve().parent / "schemas"
    target = Path(config["site_dir"]) / "schemas"
    target.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.schema.json")):
        shutil.copyfile(path, target / path.name)
