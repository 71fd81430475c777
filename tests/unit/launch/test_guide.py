"""The guide's table of what Trainer compares (docs/*/guides/launch.md) is the schema's ``HfAuto.compared`` facts,
in both languages: a change of either fails here until the other follows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsref.tree.options import option_tree

DOCS = Path(__file__).parents[3] / "docs"


def _table(lang: str) -> dict[str, tuple[str, str]]:
    text = (DOCS / lang / "guides" / "launch.md").read_text(encoding="utf-8")
    rows = text.split("<!-- dsref-launch-table -->", 1)[1].strip().splitlines()
    table: dict[str, tuple[str, str]] = {}
    for row in rows[2:]:
        if not row.startswith("|"):
            break
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip())[1:-1]]
        table[cells[0].strip("`")] = (cells[1].strip("`"), cells[2])
    return table


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guides_table_is_the_schemas_facts(lang: str) -> None:
    facts = {o.path: o.meta.hf_auto.compared for o in option_tree() if o.meta.hf_auto and o.meta.hf_auto.compared}
    table = _table(lang)
    assert {path: compared for path, (compared, _) in table.items()} == facts
    for path, (compared, flags) in table.items():
        for name in re.split(r"[|+]", compared.split(" ")[0]):
            if not compared.endswith("(calculated)") and not name.endswith("_full_eval"):
                assert f"`--{name}`" in flags, (lang, path, name)
