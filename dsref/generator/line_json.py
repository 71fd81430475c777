"""The generated release records as JSON one entry a line, so that two runs of the generator diff readably.

``{"header":…,\n"releases":[…],\n"errors":[\nE1,\nE2],\n"files":{\n"k":v,\n…}}``: the keys named inline stay on
one line; every other list has an item a line and every other mapping an entry a line.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

INLINE = ("header", "releases")


def write_by_lines(path: Path, data: Mapping[str, Any], *, sort_keys: bool = True) -> Path:
    """Write ``data`` to ``path`` one entry a line (read back, it is ``data`` again)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=sort_keys)

    parts = []
    for key, value in data.items():
        if key in INLINE or not isinstance(value, (list, dict)):
            shown = dump(value)
        elif isinstance(value, list):
            shown = "[\n" + ",\n".join(dump(item) for item in value) + "]"
        else:
            shown = "{\n" + ",\n".join(f"{dump(k)}:{dump(v)}" for k, v in value.items()) + "}"
        parts.append(f"{dump(key)}:{shown}")
    text = "{" + ",\n".join(parts) + "}\n"
    assert json.loads(text) == data
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
