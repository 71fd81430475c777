"""The guide's table of what Trainer compares (docs/*/guides/launch.md) is the schema's ``HfAuto.compared`` facts,
in both languages: a change of either fails here until the other follows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsref.tree.options import option_tree
from dsref.tree.profiles import release_number
from tests import hf_records

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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_guide_names_the_recorded_releases(lang: str) -> None:
    """The releases the guide says dsref is measured against are those of the record (tests/data/hf_releases.json),
    and each change of the filling it lists is at a release the schema's facts or the plugin's changes name."""
    from dsref.launch.accelerate import PLUGIN_CHANGES

    text = (DOCS / lang / "guides" / "launch.md").read_text(encoding="utf-8")
    block = text.split("<!-- dsref-releases-covered -->", 1)[1].strip().split("\n\n", 1)
    listed = dict(line.removeprefix("- ").split(": ", 1) for line in block[0].splitlines())
    record = hf_records.record()
    assert listed == {
        "Transformers": ", ".join(record["transformers"]["releases"]),
        "Accelerate": ", ".join(record["accelerate"]["releases"]),
    }
    changes = block[1].split("\n\n", 1)[1].split("\n\n", 1)[0]
    named = {release for _who, release in re.findall(r"\*\*(Transformers |Accelerate )?(\d+\.\d+\.\d+)\*\*", changes)}
    oldest = release_number(next(iter(record["transformers"]["releases"])))
    facts = {
        c.release
        for o in option_tree()
        if o.meta.hf_auto is not None
        for c in o.meta.hf_auto.changes
        if c.by == "transformers" and release_number(c.release) > oldest  # type: ignore[operator]
    } | {c.release for c in PLUGIN_CHANGES}
    assert named == facts
