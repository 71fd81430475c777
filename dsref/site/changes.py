"""The page "What changed in the config, release by release" (``changes.md``, both languages): every change
:func:`dsref.tree.changes.changes` derives from the facts recorded from the releases themselves, newest release
first, grouped by kind. DeepSpeed's own release notes do not give this.

>>> text = pages("en")["changes.md"]
>>> "[`gradient_clipping`](reference/gradient_clipping.md#gradient_clipping): `0.0` → `1.0`" in text
True
"""

from __future__ import annotations

from itertools import groupby, pairwise

from ..check.rules import get_rule
from ..text.i18n import Lang, messages
from ..text.punctuation import colon, listed
from ..tree.changes import Change, What, changes, changes_between, shown_probe
from ..tree.index import OptionIndex
from ..tree.releases import COVERED
from .header import generated_header
from .markdown import code, json_value, option_link

__all__ = ["M", "pages", "report"]

SOURCE = "dsref/site/changes.py"

M = messages(
    "site.changes",
    title="What changed in the config, release by release",
    intro=(
        "What each DeepSpeed release from {oldest} to {newest} changed in what a config file means: options it "
        "started or stopped reading, defaults it changed, sections it started to validate, values it started or "
        "stopped accepting, cross-field checks it started or stopped making while it reads the config. Each was "
        "found by installing the releases themselves and running their config code ({count} releases recorded; "
        "`dsref check --deepspeed-version`, `dsref explain` and `dsref changes` use the same facts). A change is "
        "listed under the first release that makes it, compared with the release before it."
    ),
    compared="Compared with {previous}.",
    compared_short=" (compared with {previous})",
    appeared="Read from this release",
    gone="No longer read",
    default="Default changed",
    validated="Validated from this release (unknown keys and wrong types are refused; before, they were ignored)",
    accepted="Accepted from this release",
    refused="Refused from this release",
    type_checked="A value of the wrong type refused from this release (taken before)",
    type_unchecked="A value of the wrong type taken from this release (refused before)",
    rule_made="Checked from this release while the config is read",
    rule_dropped="No longer checked while the config is read",
    engine_made="Checked from this release when the engine starts",
    engine_dropped="No longer checked when the engine starts",
    nothing="No change to the config.",
    report_title="What changed from DeepSpeed {start} to {end}: {count} changes, each under the first release "
    "that made it",
    report_none="Nothing changed in the config from DeepSpeed {start} to {end}.",
    order="--from {start} must be a release before --to {end}",
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


def report(start: str, end: str, lang: Lang) -> list[str]:
    """What ``dsref changes --from start --to end`` prints: each release after ``start`` up to ``end`` with what it
    changed, oldest first (what a config written for ``start`` meets on the way), grouped as on the page."""
    found = _top_most(list(changes_between(start, end)))
    if not found:
        return [M.text("report_none", lang, start=start, end=end)]
    lines = [M.text("report_title", lang, start=start, end=end, count=len(found))]
    for release, in_release in groupby(found, key=lambda c: c.release):
        step = list(in_release)
        lines += ["", f"{release}{M.text('compared_short', lang, previous=step[0].previous)}"]
        for what, group in groupby(step, key=lambda c: c.what):
            items = [_plain(change, lang) for change in group]
            if what is What.default:
                lines.append(f"  {M.text(what.value, lang)}{colon(lang).rstrip()}")
                lines += [f"    {item}" for item in items]
            else:
                lines.append(f"  {M.text(what.value, lang)}{colon(lang)}{listed(items, lang)}")
    return lines


_RULE_CHANGES = (What.rule_made, What.rule_dropped, What.engine_made, What.engine_dropped)
"""The changes whose ``path`` is a rule's code."""


def _plain(change: Change, lang: Lang) -> str:
    """One change as the terminal shows it: the option, the value or the rule, without links."""
    if change.what in _RULE_CHANGES:
        found = get_rule(change.path)
        return f"{change.path} {found.name}" if found is not None else change.path
    if change.what in (What.accepted, What.refused):
        path, value = change.path.split("=", 1)
        return f"{path} = {shown_probe(value)}"
    if change.what is What.default:
        return f"{change.path}{colon(lang)}{json_value(change.before)} → {json_value(change.after)}"
    return change.path


def _top_most(found: list[Change]) -> list[Change]:
    """The changes without those of options below a section that changes the same way in the same release."""
    sections = {(c.what, c.path) for c in found}
    return [c for c in found if not any((c.what, parent) in sections for parent in _parents(c.path))]


def _parents(path: str) -> list[str]:
    parts = path.split("=", 1)[0].split(".")
    return [".".join(parts[:n]) for n in range(1, len(parts))]


def _item(change: Change, known: set[str], lang: Lang) -> str:
    if change.what in _RULE_CHANGES:
        found = get_rule(change.path)
        name = f" {code(found.name)}" if found is not None else ""
        return f"[{change.path}](rules/{change.path}.md){name}"
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
