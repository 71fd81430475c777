"""Turn repairs into fixes: the :class:`~dsref.check.repairs.Repair` a check decided, made into a
:class:`~dsref.check.edits.Fix` of the text as written, with :mod:`dsref.check.repair.members`. A repair the text does
not
allow (the key is not written there, a root without braces, the new name written already) gets no fix.

>>> from dsref.check.read.loader import load_text
>>> from dsref.check.pipeline import check_loaded
>>> loaded = load_text('{\\n  "bfloat16": {"enabled": "true"}\\n}')
>>> findings = check_loaded(loaded, "x").findings
>>> [(f.code, f.fix.applicability.value, f.fix.title_text("en")) for f in findings if f.fix]
[('DS301', 'safe', 'rename "bfloat16" to "bf16"'), ('DS202', 'safe', 'write true instead of "true"')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import singledispatch
from typing import Any

from ..edits import Applicability, Edit, Fix
from ..findings import Finding
from ..positions import Location, Written
from ..read.loader import LoadedConfig
from ..repairs import (
    MergeInto,
    MoveMember,
    RemoveDuplicate,
    RemoveMember,
    RenameKey,
    Repair,
    ReplaceMember,
    ReplaceValue,
    StrictJson,
)
from .members import (
    Members,
    NoFix,
    blank_or_comment,
    comma_in,
    indent_unit,
    insert_member,
    keep_comment_column,
    literal,
    member_text,
    quoted_like,
    remove_member,
)

__all__ = ["fix_of", "located", "strict_json_fix", "with_fixes"]


def with_fixes(findings: list[Finding], loaded: LoadedConfig) -> list[Finding]:
    """``findings``, each carrying the fix of its repair where the text allows one."""
    members = Members(loaded)
    out = []
    for finding in findings:
        fix = None if finding.repair is None else fix_of(finding.repair, members)
        out.append(finding if fix is None else replace(finding, fix=located(fix, loaded)))
    return out


def fix_of(repair: Repair, members: Members) -> Fix | None:
    """The fix that makes ``repair`` in the text of ``members``, or None when the text does not allow it."""
    try:
        return _fix(repair, members)
    except NoFix:
        return None


def located(fix: Fix, loaded: LoadedConfig) -> Fix:
    """``fix`` with the lines and columns of its edits in ``loaded``, each keeping the column of a comment after it."""
    text = loaded.text
    edits = tuple(keep_comment_column(e, text) for e in fix.edits)
    edits = tuple(replace(e, span=loaded.positions.span(e.start, e.end)) for e in edits)
    return replace(fix, edits=edits)


@singledispatch
def _fix(repair: Repair, src: Members) -> Fix:
    raise NoFix


@_fix.register
def _(repair: ReplaceValue, src: Members) -> Fix:
    value = src.value(repair.location)
    old = src.text[value.start : value.end]
    if repair.written_as is not None and old != repair.written_as:
        raise NoFix
    edit = Edit(value.start, value.end, repair.literal)
    return Fix(repair.title, repair.applicability, (edit,), {"old": old, **repair.args})


@_fix.register
def _(repair: RemoveMember, src: Members) -> Fix:
    return Fix(repair.title, repair.applicability, tuple(remove_member(src, repair.location)), repair.args)


@_fix.register
def _(repair: RenameKey, src: Members) -> Fix:
    key = src.key(repair.location)
    edit = Edit(key.start, key.end, quoted_like(src.text[key.start : key.end], repair.new_key))
    return Fix(repair.title, repair.applicability, (edit,), repair.args)


@_fix.register
def _(repair: ReplaceMember, src: Members) -> Fix:
    start, end = src.key(repair.location).start, src.value(repair.location).end
    new = f"{quoted_like(src.key_text(repair.location), repair.new_key)}: {literal(repair.value)}"
    return Fix(repair.title, repair.applicability, (Edit(start, end, new),), {**repair.args, "new": new})


@_fix.register
def _(repair: MergeInto, src: Members) -> Fix:
    written = src.key_text(repair.location)
    edits = [
        *remove_member(src, repair.location),
        *insert_member(src, repair.target, f"{quoted_like(written, repair.key)}: {literal(repair.value)}"),
    ]
    return Fix(repair.title, repair.applicability, tuple(edits), repair.args)


@_fix.register
def _(repair: MoveMember, src: Members) -> Fix:
    member = member_text(src, repair.location)
    edits = [*remove_member(src, repair.location), *insert_member(src, repair.target, member)]
    return Fix(repair.title, repair.applicability, tuple(edits), repair.args)


@_fix.register
def _(repair: RemoveDuplicate, src: Members) -> Fix:
    """Keep the later value, as json.load does: remove the first member written with the key."""
    text = src.text
    dup = next((d for d in src.loaded.duplicates if d.location == repair.location), None)
    if dup is None:
        raise NoFix
    # the positions keep only the later entry: the first member ends where the scanner saw its value end
    first_start, later_start, end = dup.first_key.start, dup.later_key.start, dup.first_value.end
    if not first_start < end <= later_start:
        raise NoFix
    comma = comma_in(text, end, later_start)
    if comma is None and "\n" not in text[end:later_start]:
        raise NoFix  # Hjson separates members by a comma or a line end; neither: not a member of its own
    stop = end if comma is None else comma + 1
    start = first_start
    eol = src.line_end(stop)
    if not text[src.line_start(start) : start].strip() and blank_or_comment(text[stop:eol]):
        start, stop = src.line_start(start), min(eol + 1, len(text))
    else:
        while stop < len(text) and text[stop] in " \t":
            stop += 1
    return Fix(repair.title, repair.applicability, (Edit(start, stop, ""),), repair.args)


@_fix.register
def _(repair: StrictJson, src: Members) -> Fix:
    fix = strict_json_fix(src.loaded, rewrite=repair.rewrite)
    if fix is None:
        raise NoFix
    return fix


def strict_json_fix(loaded: LoadedConfig, *, rewrite: bool) -> Fix | None:
    """What makes the Hjson text of ``loaded`` strict JSON: removing a BOM and trailing commas (safe) when that is
    enough, else (with ``rewrite``) the whole file written anew by ``json.dumps`` (unsafe: comments are lost)."""
    src = Members(loaded)
    text = src.text
    edits: list[Edit] = [Edit(0, 1, "")] if text.startswith("\ufeff") else []
    edits += [Edit(c, c + 1, "") for c in _trailing_commas(src)]
    try:
        json.loads(_apply_plain(text, edits))
    except ValueError:
        if not rewrite:
            return None
        return Fix("strict_json", Applicability.unsafe, (Edit(0, len(text), _as_json(src)),))
    if not edits:
        return None
    return Fix(
        "trailing_commas" if len(edits) > 1 or text[:1] != "\ufeff" else "strip_bom", Applicability.safe, tuple(edits)
    )


def _trailing_commas(src: Members) -> Iterator[int]:
    """Offsets of commas after the last member of an object or the last item of an array."""
    text = src.text
    for location in src.loaded.positions:
        written = src.written(location)
        vs, ve = written.value.start, written.value.end
        if written.form not in ("object", "array") or vs >= len(text) or text[vs] not in "{[":
            continue
        children = src.items(location)
        if not children:
            continue
        last_end = max(src.value(loc).end for loc in children)
        comma = comma_in(text, last_end, ve - 1)
        if comma is not None:
            yield comma


def _apply_plain(text: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.replacement + text[edit.end :]
    return text


def _as_json(src: Members) -> str:
    """The data as strict JSON, indented as the file is (two spaces when it is on one line), keeping what the file
    wrote where strict JSON allows it: a number as spelled (``1.0``, ``1e-8``, ``5e8``, where ``json.dumps`` would
    write ``1``, ``1e-08``, ``500000000.0``) and a list of plain values that sits on one line, on one line."""
    return _written_as_json(src, src.data, (), "", indent_unit(src)) + "\n"


def _written_as_json(src: Members, value: Any, location: Location, indent: str, step: str) -> str:
    written = _written_or_none(src, location)
    if isinstance(value, dict) and value:
        inner = indent + step
        members = (
            f"{inner}{json.dumps(str(key), ensure_ascii=False)}: "
            f"{_written_as_json(src, item, (*location, key), inner, step)}"
            for key, item in value.items()
        )
        return "{\n" + ",\n".join(members) + f"\n{indent}}}"
    if isinstance(value, list) and value:
        plain = all(not isinstance(item, (dict, list)) for item in value)
        if plain and written is not None and "\n" not in src.text[written.value.start : written.value.end]:
            parts = (_written_as_json(src, item, (*location, i), "", step) for i, item in enumerate(value))
            return "[" + ", ".join(parts) + "]"  # on one line in the file: on one line here
        inner = indent + step
        items = (inner + _written_as_json(src, item, (*location, i), inner, step) for i, item in enumerate(value))
        return "[\n" + ",\n".join(items) + f"\n{indent}]"
    if written is not None and written.form == "number" and isinstance(value, (int, float)) and value is not True:
        spelled = src.text[written.value.start : written.value.end]
        if _JSON_NUMBER.fullmatch(spelled) and json.loads(spelled) == value:
            return spelled
    return json.dumps(value, ensure_ascii=False)


def _written_or_none(src: Members, location: Location) -> Written | None:
    try:
        return src.written(location)
    except NoFix:
        return None


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
"""A number as strict JSON writes it (Hjson also reads others, such as ``+1`` or ``.5``)."""
