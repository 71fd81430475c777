"""The page "What changed in the config, release by release" (``changes.md``, both languages): every change
:func:`dsref.tree.changes.changes` derives from the facts recorded from the releases themselves, newest release
first, grouped by kind. DeepSpeed's own release notes do not give this.

>>> text = pages("en")["changes.md"]
>>> "[`gradient_clipping`](reference/gradient_clipping.md#gradient_clipping): `0.0` → `1.0`" in text
True
"""

from __future__ import annotations

from itertools import groupby, pairwise

from ..text.i18n import Lang, messages
from ..text.punctuation import colon, listed
from ..tree.changes import Change, What, changes, shown_probe
from ..tree.index import OptionIndex
from ..tree.releases import COVERED
from .header import generated_header
from .markdown import code, json_value, option_link

__all__ = ["M", "pages"]

SOURCE = "dsref/site/changes.py"

M = messages(
    "site.changes",
    title="What changed in the config, release by release",
    intro=(
        "What each DeepSpeed release from {oldest} to {newest} changed in what a config file means: options it "
        "started or stopped reading, defaults it changed, sections it started to validate, values it started or "
        "stopped accepting. Each was found by installing the releases themselves and comparing their config code "
        "({count} releases recorded; `dsref check --deepspeed-version` and `dsref explain` use the same facts). A "
        "change is listed under the first recorded release that makes it, compared with the recorded release "
        "before it."
    ),
    compared="Compared with {previous}.",
    appeared="Read from this release",
    gone="No longer read",
    default="Default changed",
    validated="Validated from this release (unknown keys and wrong types are refused; before, they were ignored)",
    accepted="Accepted from this release",
    refused="Refused from this release",
    nothing="No change to the config.",
)


def pages(lang: Lang) -> dict[str, str]:
    """``changes.md`` in ``lang``."""
    index = OptionIndex.load()
    known = set(index.paths())
    lines = [generated_header(SOURCE), f"# {M.text('title', lang)}", ""]
    intro = M.text("intro", lang, oldest=COVERED[0], newest=COVERED[-1], count=len(COVERED))
    lines += [intro, ""]
    by_release = {release: list(found) for release, found in groupby(changes(), key=lambda c: c.release)}
    for previous, release in reversed(list(pairwise(COVERED))):
        lines += [f"## {release}", "", M.text("compared", lang, previous=previous), ""]
        found = _top_most(by_release.get(release, []))
        if not found:
            lines += [M.text("nothing", lang), ""]
            continue
        for what, group in groupby(found, key=lambda c: c.what):
            items = [_item(change, known, lang) for change in group]
            if what is What.default:
                lines.append(f"- **{M.text(what.value, lang)}**{colon(lang)}")
                lines += [f"    - {item}" for item in items]
            else:
                lines.append(f"- **{M.text(what.value, lang)}**{colon(lang)}{listed(items, lang)}")
        lines.append("")
    return {"changes.md": "\n".join(lines).rstrip("\n") + "\n"}


def _top_most(found: list[Change]) -> list[Change]:
    """The changes without those of options below a section that changes the same way in the same release."""
    sections = {(c.what, c.path) for c in found}
    return [c for c in found if not any((c.what, parent) in sections for parent in _parents(c.path))]


def _parents(path: str) -> list[str]:
    parts = path.split("=", 1)[0].split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


def _item(change: Change, known: set[str], lang: Lang) -> str:
    if change.what in (What.accepted, What.refused):
        path, value = change.path.split("=", 1)
        return f"{_name(path, known)} = {code(shown_probe(value))}"
    name = _name(change.path, known)
    if change.what is What.default:
        return f"{name}{colon(lang)}{_value(change.before)} → {_value(change.after)}"
    return name


def _name(path: str, known: set[str]) -> str:
    return option_link(path, "reference/") if path in known else code(path)


def _value(value: object) -> str:
    return code(json_value(value))
