"""Fixes: what ``dsref check --fix`` would change in the file for a finding, as plain data.

A :class:`Fix` is a title (a message of :data:`TITLES`, rendered in the user's language), an
:class:`Applicability` and text edits over the text as the reader parsed it (offsets into
:attr:`~dsref.check.loader.LoadedConfig.text`, where every line end reads as ``\\n``). Edits touch only the
characters they must: a key is renamed inside its quotes, a value replaced where it is written, a member removed
with its comma and, when it has a line of its own, that line; comments, order, indentation and quoting stay as they
are.

*safe* fixes leave DeepSpeed building the same training from the file (``tests/test_fix.py`` proves it with
``DeepSpeedConfig`` on every real config), or correct a file DeepSpeed refuses that could only have meant one thing;
*unsafe* ones change what DeepSpeed does, or pick one of several meanings. :func:`fix_for` finds the fix of a
finding; :mod:`dsref.check.fixer` applies them.

>>> from dsref.check.loader import load_text
>>> from dsref.check.pipeline import check_loaded
>>> loaded = load_text('{\\n  "bfloat16": {"enabled": "true"}\\n}')
>>> findings = check_loaded(loaded, "x").findings
>>> [(f.code, f.fix.applicability.value, f.fix.title_text("en")) for f in findings if f.fix]
[('DS301', 'safe', 'rename "bfloat16" to "bf16"'), ('DS202', 'safe', 'write true instead of "true"')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from ..text.i18n import Lang, messages
from .findings import Finding, Kind, Location, Severity
from .loader import LoadedConfig
from .positions import Extent, Span, Written

__all__ = ["NOTES", "TITLES", "Applicability", "Edit", "Fix", "fix_for", "fix_note", "with_fixes"]

TITLES = messages(
    "fix",
    literal="write {new} instead of {old}",
    rename='rename "{old}" to "{new}"',
    replace_deprecated='replace "{old}" with {new}',
    remove_deprecated='remove "{key}" (its value is the default)',
    move='move "{key}" into {target}',
    move_top='move "{key}" out of {section} to the top level',
    remove_duplicate='remove the first "{key}" (line {line}); the later value stays, as json.load keeps it',
    remove_auto='remove "{key}": DeepSpeed drops "auto" here and uses the default',
    replace_auto='write the default {new} instead of "auto"',
    remove_ignored='remove "{key}": DeepSpeed ignores it at ZeRO stage {stage}',
    remove_removed='remove "{key}", which DeepSpeed {release} refuses',
    train_batch_size="set train_batch_size to {new} (= {micro} × {gas} × {world} GPUs)",
    strip_bom="remove the byte-order mark that json.load refuses",
    trailing_commas="remove the trailing commas that json.load refuses",
    strict_json="rewrite the file as strict JSON for Hugging Face (its comments are dropped)",
)
"""The title of each kind of fix (``fix.<kind>`` in the catalog)."""


NOTES = messages(
    "fixnote",
    none="No automatic fix: what to change depends on what was meant.",
    DS000=(
        "A file that cannot be parsed is never edited. With `--profile hf`, when DeepSpeed's Hjson reads the file, an "
        "unsafe fix rewrites it as strict JSON (its comments are lost)."
    ),
    DS003=(
        "Unsafe fix: removes the first of the two keys and keeps the later value, as json.load does; DeepSpeed "
        "refuses the file, so which one was meant is the user's call."
    ),
    DS004=(
        "Safe fix: removes a byte-order mark and trailing commas when nothing else keeps json.load from reading the "
        "file; DeepSpeed reads the same config. Comments and unquoted keys stay: rewriting them is the unsafe fix of "
        "`--profile hf`."
    ),
    DS101=(
        "A key DeepSpeed refuses that belongs in exactly one other written section is moved there (safe: the file "
        "could only mean that). A key DeepSpeed ignores is moved, and a key with exactly one close spelling renamed, "
        "only with `--unsafe-fixes`: both change what DeepSpeed does."
    ),
    DS201=(
        'Unsafe fix: a string that reads as the expected type (`"1e-4"`, `True`) is written as that value. DeepSpeed '
        "used the string, so this changes what it does."
    ),
    DS202="Safe fix: writes the value DeepSpeed converts the string to; DeepSpeed builds the same config.",
    DS301=(
        "Safe fix: renames the key, or writes the form DeepSpeed maps the old one to, so that DeepSpeed builds the "
        "same config; nothing is done when the new key is written already (DS305)."
    ),
    DS302="Unsafe fix: removes the key or section; what replaces it, if anything, is the user's call.",
    DS401=(
        'Unsafe fix: removes the key; DeepSpeed uses the default either way, but Hugging Face would have filled "auto".'
    ),
    DS402='Unsafe fix: writes the option\'s default in place of "auto", when it has one.',
    DS502=(
        "Unsafe fix (with `--world-size`): sets train_batch_size to micro batch × accumulation steps × world size, "
        "when the micro batch is written."
    ),
    DS524="Unsafe fix: removes the option the configured ZeRO stage ignores (perhaps the stage was meant to change).",
)
"""What ``dsref check --fix`` does for each code (``dsref rule CODE`` and the rule pages show it)."""


def fix_note(code: str, lang: Lang) -> str:
    """Whether ``--fix`` repairs findings of ``code``, how, and whether it is safe."""
    return NOTES.text(code if code in NOTES.table else "none", lang)


class Applicability(str, Enum):
    """Whether ``--fix`` applies a fix by itself (``safe``) or only with ``--unsafe-fixes``."""

    safe = "safe"
    unsafe = "unsafe"


@dataclass(frozen=True)
class Edit:
    """Replace ``text[start:end]`` with ``replacement`` (offsets into the text as the reader parsed it)."""

    start: int
    end: int
    replacement: str
    span: Span | None = field(default=None, compare=False)
    """The same stretch as 1-based lines and columns (filled in by :func:`with_fixes`)."""


@dataclass(frozen=True)
class Fix:
    """A repair of one finding: what it is called, whether it is safe, and the edits that make it."""

    title: str
    """A key of :data:`TITLES`."""
    applicability: Applicability
    edits: tuple[Edit, ...]
    args: Mapping[str, Any] = field(default_factory=dict)

    def title_text(self, lang: Lang) -> str:
        return TITLES.text(self.title, lang, **self.args)

    @property
    def safe(self) -> bool:
        return self.applicability is Applicability.safe

    def to_json(self, lang: Lang) -> dict[str, Any]:
        """The documented form (``check --format json``): title, applicability, and edits with the 1-based line and
        column of their start and end (columns count characters; a line end is one character)."""
        edits = []
        for edit in self.edits:
            span = edit.span or Span(0, 0, 0, 0)
            edits.append(
                {
                    "line": span.line,
                    "column": span.col,
                    "end_line": span.end_line,
                    "end_column": span.end_col,
                    "replacement": edit.replacement,
                }
            )
        return {"title": self.title_text(lang), "applicability": self.applicability.value, "edits": edits}


def with_fixes(findings: list[Finding], loaded: LoadedConfig, *, world_size: int | None = None) -> list[Finding]:
    """``findings``, each carrying its fix where one exists."""
    source = _Source(loaded)
    out = []
    for finding in findings:
        fix = fix_for(finding, loaded, world_size=world_size, source=source)
        out.append(finding if fix is None else replace(finding, fix=located(fix, loaded)))
    return out


def located(fix: Fix, loaded: LoadedConfig) -> Fix:
    """``fix`` with the lines and columns of its edits in ``loaded``, each keeping the column of a comment after it."""
    text = loaded.text
    edits = tuple(_keep_comment_column(e, text) for e in fix.edits)
    edits = tuple(replace(e, span=loaded.positions.span(e.start, e.end)) for e in edits)
    return replace(fix, edits=edits)


_ALIGNED_COMMENT = re.compile(r"(,?)( {2,})(?=#|//|/\*)")
"""What follows a value whose comment is aligned with spaces: ``,    # the learning rate``."""


def _keep_comment_column(edit: Edit, text: str) -> Edit:
    """``edit`` widened over the spaces before a comment aligned after it, so that the comment stays in its column
    when the value grows or shrinks (``"auto"`` → ``0.001``); the edit itself when there is no such comment.

    >>> text = '"lr": "auto",   # rate'
    >>> e = _keep_comment_column(Edit(6, 12, "0.001"), text)
    >>> text[: e.start] + e.replacement + text[e.end :]
    '"lr": 0.001,    # rate'
    """
    if "\n" in edit.replacement or "\n" in text[edit.start : edit.end]:
        return edit
    change = len(edit.replacement) - (edit.end - edit.start)
    after = _ALIGNED_COMMENT.match(text, edit.end) if change else None
    if after is None:
        return edit
    spaces = " " * max(1, len(after.group(2)) - change)
    return replace(edit, end=after.end(), replacement=edit.replacement + after.group(1) + spaces)


def fix_for(
    finding: Finding, loaded: LoadedConfig, *, world_size: int | None = None, source: _Source | None = None
) -> Fix | None:
    """The fix of ``finding`` in ``loaded``, or None when there is none (or it would clash with the file)."""
    src = source or _Source(loaded)
    maker = _MAKERS.get(finding.code)
    if maker is None:
        return None
    try:
        return maker(finding, src, world_size)
    except _NoFix:
        return None


class _NoFix(Exception):
    """This finding has no fix in this file (the place is not written, the new key exists already, …)."""


# -- the text and its members -----------------------------------------------------------------------------------


class _Source:
    """The parsed text with what fixes need: where each member is, its siblings, the line it stands on."""

    def __init__(self, loaded: LoadedConfig) -> None:
        self.loaded = loaded
        self.lines = loaded.positions.index
        self.text = loaded.text
        self.data = loaded.data
        self._children: dict[Location, list[Location]] | None = None

    def written(self, location: Location) -> Written:
        """How ``location`` is written; no fix when it is not."""
        found = self.loaded.positions.written(tuple(location))
        if found is None:
            raise _NoFix
        return found

    def key(self, location: Location) -> Extent:
        """Where the key of ``location`` is written; no fix for the root or a list item, which have none."""
        key = self.written(location).key
        if key is None:
            raise _NoFix
        return key

    def value(self, location: Location) -> Extent:
        return self.written(location).value

    def key_text(self, location: Location) -> str:
        key = self.key(location)
        return self.text[key.start : key.end]

    def children(self, location: Location) -> list[Location]:
        """The members and items written in the object or array at ``location``, in file order."""
        if self._children is None:
            found: dict[Location, list[Location]] = {}
            for loc in self.loaded.positions:
                if loc:
                    found.setdefault(loc[:-1], []).append(loc)
            for members in found.values():
                members.sort(key=lambda loc: self.value(loc).start)
            self._children = found
        return [loc for loc in self._children.get(tuple(location), []) if isinstance(loc[-1], str)]

    def items(self, location: Location) -> list[Location]:
        self.children(location)
        assert self._children is not None
        return self._children.get(tuple(location), [])

    def line_start(self, pos: int) -> int:
        return self.lines.line_start(pos)

    def line_end(self, pos: int) -> int:
        return self.lines.line_end(pos)

    def indent_of(self, pos: int) -> str:
        start = self.line_start(pos)
        line = self.text[start:pos]
        return line if not line.strip() else line[: len(line) - len(line.lstrip())]


def _comma_in(text: str, start: int, end: int) -> int | None:
    """The offset of the separating comma between ``start`` and ``end`` (whitespace and comments only), if any."""
    i = start
    while i < end:
        ch = text[i]
        if ch == ",":
            return i
        if ch == "#" or text.startswith("//", i):
            i = text.find("\n", i, end)
            if i < 0:
                return None
            continue
        if text.startswith("/*", i):
            close = text.find("*/", i + 2, end)
            if close < 0:
                return None
            i = close + 2
            continue
        i += 1
    return None


def _blank_or_comment(fragment: str) -> bool:
    stripped = fragment.strip()
    return not stripped or stripped.startswith(("//", "#")) or (stripped.startswith("/*") and stripped.endswith("*/"))


def remove_member(src: _Source, location: Location) -> list[Edit]:
    """Edits that delete the member at ``location`` with the comma that separated it, and its line when it has one
    of its own (a comment after it on that line goes with it)."""
    ks, ve = src.key(location).start, src.value(location).end
    parent = tuple(location[:-1])
    container = src.value(parent)
    siblings = src.children(parent)
    i = siblings.index(tuple(location))
    prev_end = src.value(siblings[i - 1]).end if i > 0 else container.start + 1
    next_start = src.key(siblings[i + 1]).start if i + 1 < len(siblings) else container.end - 1
    text = src.text
    comma_after = _comma_in(text, ve, next_start)
    comma_before = _comma_in(text, prev_end, ks) if i > 0 else None
    own_line = not text[src.line_start(ks) : ks].strip()
    start, end = ks, ve
    if comma_after is not None:
        end = comma_after + 1
    elif comma_before is not None:
        start = comma_before
    eol = src.line_end(end)
    rest_alone = _blank_or_comment(text[end:eol]) and next_start > eol
    if own_line and rest_alone:
        if start == ks:  # the member and its comma fill their lines: remove them whole
            start, end = src.line_start(ks), min(eol + 1, len(text))
        else:  # the last member: its comma was the one before it; the line end stays for the closing brace
            end = eol
    elif start == ks and comma_after is not None:
        while end < len(text) and text[end] in " \t":
            end += 1
    return [Edit(start, end, "")]


def insert_member(src: _Source, target: Location, member: str) -> list[Edit]:
    """Edits that add ``member`` (``"key": value`` as it should read, its later lines indented as at the top level)
    as the last member of the object at ``target``."""
    container = src.value(target)
    vs, ve = container.start, container.end
    text = src.text
    if not (0 <= vs < ve <= len(text) and text[vs] == "{" and text[ve - 1] == "}"):
        raise _NoFix  # a root without braces (Hjson allows it): leave it to the user
    children = src.children(target)
    close = ve - 1
    if not children:
        inner = text[vs + 1 : close]
        if "\n" in inner or "\n" in member:
            outer = src.indent_of(vs)
            indent = outer + _unit(src)
            return [Edit(vs + 1, close, "\n" + indent + _reindent(member, indent) + "\n" + outer)]
        return [Edit(vs + 1, close, member)]
    last_end = src.value(children[-1]).end
    last_start = src.key(children[-1]).start
    comma = _comma_in(text, last_end, close)
    after = comma + 1 if comma is not None else last_end
    sep = "" if comma is not None else ","
    if "\n" in text[vs:close] and not text[src.line_start(last_start) : last_start].strip():
        indent = src.indent_of(last_start)
        return [Edit(after, after, sep + "\n" + indent + _reindent(member, indent))]
    return [Edit(after, after, sep + " " + member)]


def _unit(src: _Source) -> str:
    """The file's indentation step (two spaces when it has none to go by)."""
    for line in src.text.split("\n"):
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def _reindent(member: str, indent: str) -> str:
    """``member`` (later lines relative to its first) with its later lines placed under ``indent``."""
    first, *rest = member.split("\n")
    return "\n".join([first, *(indent + line if line.strip() else line for line in rest)])


def member_text(src: _Source, location: Location) -> str:
    """The member at ``location`` as written (``"key": value``), its later lines relative to its own indentation."""
    ks, ve = src.key(location).start, src.value(location).end
    own = src.indent_of(ks)
    lines = src.text[ks:ve].split("\n")
    return "\n".join([lines[0], *(line[len(own) :] if line.startswith(own) else line for line in lines[1:])])


def _quoted_like(written_key: str, name: str) -> str:
    """``name`` as a key, quoted the way ``written_key`` was."""
    if written_key[:1] in ('"', "'"):
        return written_key[0] + name + written_key[0]
    return name


def _literal(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _value_at(data: Any, location: Location) -> Any:
    for step in location:
        data = data[step]
    return data


# -- one maker per finding code -----------------------------------------------------------------------------------


def _coerced(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS202: a string DeepSpeed converts; writing the value it converts to builds the same config."""
    from .checktree import check_tree
    from .validation import coerce

    if finding.option is None:
        raise _NoFix
    value = _value_at(src.data, finding.location)
    new = _literal(coerce(check_tree().get(finding.option), value))
    return _value_fix(src, finding.location, new, Applicability.safe)


def _value_fix(src: _Source, location: Location, new: str, applicability: Applicability) -> Fix:
    value = src.value(location)
    old = src.text[value.start : value.end]
    return Fix("literal", applicability, (Edit(value.start, value.end, new),), {"old": old, "new": new})


_PYTHON_LITERALS = {"True": True, "False": False, "None": None, "true": True, "false": False, "null": None}


def _wrong_type(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS201: a value written as a string that reads as the type expected (``"1e-4"``, ``True``): DeepSpeed would have
    used the string, so writing the number or the boolean changes what it does (unsafe)."""
    from .checktree import check_tree
    from .validation import accepts

    value = _value_at(src.data, finding.location)
    if not isinstance(value, str) or finding.option is None:
        raise _NoFix
    text = value.strip()
    candidates: list[Any] = []
    if text in _PYTHON_LITERALS:
        candidates.append(_PYTHON_LITERALS[text])
    else:
        try:
            candidates.append(json.loads(text))
        except (ValueError, RecursionError):
            raise _NoFix from None
    option = check_tree().get(finding.option)
    for candidate in candidates:
        if not isinstance(candidate, (dict, list)) and accepts(option, candidate):
            new = text if text in ("true", "false", "null") or not isinstance(candidate, (bool, type(None))) else None
            return _value_fix(src, finding.location, _literal(candidate) if new is None else new, Applicability.unsafe)
    raise _NoFix


def _deprecated(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS301: the old name renamed, or the old member replaced by what DeepSpeed maps it to (same config)."""
    location = finding.location
    key = str(location[-1])
    if "replacement" in finding.args:
        replacement = finding.args["replacement"]
        if replacement == "":
            return Fix("remove_deprecated", Applicability.safe, tuple(remove_member(src, location)), {"key": key})
        document = json.loads(replacement)
        if not isinstance(document, dict) or len(document) != 1:
            raise _NoFix
        [(new_key, new_value)] = document.items()
        if location == ("zero_optimization",) and new_value == {"stage": 1} and "allgather_size" in src.data:
            # DeepSpeed's read_zero_config_deprecated takes the top-level allgather_size as the bucket size of the
            # boolean form (deepspeed/runtime/zero/config.py:60-68): the object form must say so to build the same
            new_value = {"stage": 1, "allgather_bucket_size": src.data["allgather_size"]}
        parent = tuple(location[:-1])
        if parent and isinstance(new_value, dict) and new_key == parent[-1]:
            # the whole section written as true/false: its value becomes the object
            raise _NoFix
        siblings = {str(loc[-1]) for loc in src.children(parent)}
        if new_key in siblings and new_key != key:
            return _merge_into(src, finding, location, new_key, new_value)
        written = src.key_text(location)
        start, end = src.key(location).start, src.value(location).end
        new = f"{_quoted_like(written, new_key)}: {_literal(new_value)}"
        return Fix("replace_deprecated", Applicability.safe, (Edit(start, end, new),), {"old": key, "new": new})
    use_instead = finding.args.get("use_instead") or ""
    if not use_instead or any(isinstance(step, int) for step in location):
        raise _NoFix
    if finding.option is not None:
        from .checktree import check_tree

        if check_tree().get(finding.option).meta.replacement:
            raise _NoFix  # the successor has another shape and no form of it matches this value: not a rename
    head, _, new_key = use_instead.rpartition(".")
    if head != ".".join(str(step) for step in location[:-1]):
        raise _NoFix  # the successor lives elsewhere: moving it is not a rename
    return _rename(src, location, new_key, Applicability.safe)


def _merge_into(src: _Source, finding: Finding, location: Location, new_key: str, new_value: Any) -> Fix:
    """The replacement's section is written already: add its one setting there (unless set) and drop the old key."""
    if not isinstance(new_value, dict) or len(new_value) != 1:
        raise _NoFix
    target = (*location[:-1], new_key)
    [(inner_key, inner_value)] = new_value.items()
    existing = _value_at(src.data, target)
    if not isinstance(existing, dict) or inner_key in existing:
        raise _NoFix  # set there already: which one wins is the user's call (DS305)
    written = src.key_text(location)
    edits = [
        *remove_member(src, location),
        *insert_member(src, target, f"{_quoted_like(written, inner_key)}: {_literal(inner_value)}"),
    ]
    new = _literal({new_key: new_value})
    return Fix("replace_deprecated", Applicability.safe, tuple(edits), {"old": str(location[-1]), "new": new})


def _rename(src: _Source, location: Location, new_key: str, applicability: Applicability) -> Fix:
    parent = tuple(location[:-1])
    if any(str(loc[-1]) == new_key for loc in src.children(parent)):
        raise _NoFix  # both names written (DS305): which value wins is the user's call
    key = src.key(location)
    written = src.text[key.start : key.end]
    return Fix(
        "rename",
        applicability,
        (Edit(key.start, key.end, _quoted_like(written, new_key)),),
        {"old": str(location[-1]), "new": new_key},
    )


def _unknown_key(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS101: one close spelling → rename it (unsafe: dsref guesses); one right place elsewhere → move it there
    (safe where DeepSpeed refuses the key, since the file could only mean that; unsafe where it ignores it)."""
    location = finding.location
    suggestions = list(finding.args.get("suggestions") or ())
    elsewhere = list(finding.args.get("elsewhere") or ())
    if len(suggestions) == 1 and not elsewhere:
        return _rename(src, location, suggestions[0], Applicability.unsafe)
    if len(elsewhere) != 1 or suggestions:
        raise _NoFix
    target_path = elsewhere[0]
    if "<" in target_path or "[" in target_path:
        raise _NoFix
    target = tuple(target_path.split(".")[:-1])
    if target_path.split(".")[-1] != str(location[-1]):
        raise _NoFix
    applicability = Applicability.safe if finding.severity is Severity.error else Applicability.unsafe
    data = src.data
    for depth in range(len(target)):
        node = _value_at(data, target[: depth + 1]) if _written(data, target[: depth + 1]) else None
        if node is None:
            raise _NoFix  # the section it belongs in is not written: creating it is the user's decision
        if not isinstance(node, dict):
            raise _NoFix
    if _written(data, (*target, str(location[-1]))):
        raise _NoFix
    member = member_text(src, location)
    edits = [*remove_member(src, location), *insert_member(src, target, member)]
    key = str(location[-1])
    if target:
        return Fix("move", applicability, tuple(edits), {"key": key, "target": ".".join(target)})
    return Fix(
        "move_top", applicability, tuple(edits), {"key": key, "section": ".".join(str(s) for s in location[:-1])}
    )


def _written(data: Any, location: Location) -> bool:
    for step in location:
        if not isinstance(data, dict) or step not in data:
            return False
        data = data[step]
    return True


def _duplicate(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS003: keep the later value, as json.load does; DeepSpeed refuses the file, so which one was meant is a guess."""
    location = finding.location
    text = src.text
    line = finding.args.get("other_line")
    dup = next((d for d in src.loaded.duplicates if d.location == location), None)
    if dup is None:
        raise _NoFix
    # the first occurrence: its key starts at dup.first_key; the scanner keeps only the later entry, so find its end
    # by parsing the value that follows the first key
    first_start, later_start = dup.first_key.start, dup.later_key.start
    end = _member_end(text, first_start, later_start)
    if end is None:
        raise _NoFix
    comma = _comma_in(text, end, later_start)
    if comma is None:
        raise _NoFix
    stop = comma + 1
    start = first_start
    eol = src.line_end(stop)
    if not text[src.line_start(start) : start].strip() and _blank_or_comment(text[stop:eol]):
        start, stop = src.line_start(start), min(eol + 1, len(text))
    else:
        while stop < len(text) and text[stop] in " \t":
            stop += 1
    return Fix(
        "remove_duplicate", Applicability.unsafe, (Edit(start, stop, ""),), {"key": str(location[-1]), "line": line}
    )


def _member_end(text: str, key_start: int, limit: int) -> int | None:
    """Where the member whose key starts at ``key_start`` ends, by reading it with the JSON reader (strict JSON
    members only: in Hjson the value's extent needs the full scanner)."""
    decoder = json.JSONDecoder()
    try:
        _, after_key = decoder.raw_decode(text, key_start)
    except ValueError:
        return None
    colon = after_key
    while colon < limit and text[colon] in " \t\n":
        colon += 1
    if colon >= limit or text[colon] != ":":
        return None
    start = colon + 1
    while start < limit and text[start] in " \t\n":
        start += 1
    try:
        _, end = decoder.raw_decode(text, start)
    except ValueError:
        return None
    return end if end <= limit else None


def _auto_dropped(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS401: DeepSpeed drops "auto" and uses the default; removing the key says so (unsafe: Hugging Face fills it)."""
    key = str(finding.location[-1])
    return Fix("remove_auto", Applicability.unsafe, tuple(remove_member(src, finding.location)), {"key": key})


def _auto_unfilled(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS402: "auto" where DeepSpeed expects a value: the default DeepSpeed would use when the key is absent."""
    from ..tree.index import OptionIndex

    if finding.option is None:
        raise _NoFix
    entry = OptionIndex.load().get(finding.option)
    if entry is None or not entry["has_default"] or entry["default"] is None or isinstance(entry["default"], dict):
        raise _NoFix
    new = _literal(entry["default"])
    value = src.value(finding.location)
    return Fix("replace_auto", Applicability.unsafe, (Edit(value.start, value.end, new),), {"new": new})


def _ignored_at_stage(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS524: an option the configured ZeRO stage ignores (unsafe: the user may mean to change the stage)."""
    key = str(finding.location[-1])
    edits = remove_member(src, finding.location)
    return Fix("remove_ignored", Applicability.unsafe, tuple(edits), {"key": key, "stage": finding.args.get("stage")})


def _removed(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS302: a section or option the release removed (unsafe: what replaces it, if anything, is the user's call)."""
    key = str(finding.location[-1]) if finding.location else ""
    if not key:
        raise _NoFix
    release = finding.args.get("removed_in", "")
    return Fix(
        "remove_removed",
        Applicability.unsafe,
        tuple(remove_member(src, finding.location)),
        {"key": key, "release": release},
    )


def _batch_arithmetic(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS502: train_batch_size made equal to micro batch × accumulation × world size (unsafe: which one was meant?)."""
    args = finding.args
    micro, gas, world = args.get("micro"), args.get("gas"), args.get("world")
    if not (isinstance(micro, int) and isinstance(gas, int) and isinstance(world, int) and min(micro, gas, world) > 0):
        raise _NoFix
    location: Location = ("train_batch_size",)
    if not (_written(src.data, location) and _written(src.data, ("train_micro_batch_size_per_gpu",))):
        raise _NoFix  # only a written micro batch says what the user meant per GPU
    new = str(micro * gas * world)
    value = src.value(location)
    return Fix(
        "train_batch_size",
        Applicability.unsafe,
        (Edit(value.start, value.end, new),),
        {"new": new, "micro": micro, "gas": gas, "world": world},
    )


def _not_strict_json(finding: Finding, src: _Source, world_size: int | None) -> Fix:
    """DS004: a byte-order mark or trailing commas, when nothing else keeps json.load from reading the file (safe:
    DeepSpeed reads the same); anything more Hjson (comments, unquoted keys) is left to ``--profile hf``."""
    fix = strict_json_fix(src.loaded, rewrite=False)
    if fix is None:
        raise _NoFix
    return fix


def strict_json_fix(loaded: LoadedConfig, *, rewrite: bool) -> Fix | None:
    """What makes the Hjson text of ``loaded`` strict JSON: removing a BOM and trailing commas (safe) when that is
    enough, else (with ``rewrite``) the whole file written anew by ``json.dumps`` (unsafe: comments are lost)."""
    src = _Source(loaded)
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


def _trailing_commas(src: _Source) -> Iterator[int]:
    """Offsets of commas after the last member of an object or the last item of an array."""
    positions = src.loaded.positions
    text = src.text
    for location in positions:
        written = src.written(location)
        vs, ve = written.value.start, written.value.end
        if written.form not in ("object", "array") or vs >= len(text) or text[vs] not in "{[":
            continue
        children = src.items(location)
        if not children:
            continue
        last_end = max(src.value(loc).end for loc in children)
        comma = _comma_in(text, last_end, ve - 1)
        if comma is not None:
            yield comma


def _apply_plain(text: str, edits: list[Edit]) -> str:
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        text = text[: edit.start] + edit.replacement + text[edit.end :]
    return text


def _as_json(src: _Source) -> str:
    """The data as strict JSON, indented as the file is (two spaces when it is on one line)."""
    unit = _unit(src)
    indent: int | str = len(unit) if unit.strip(" ") == "" else unit
    return json.dumps(src.data, ensure_ascii=False, indent=indent) + "\n"


_MAKERS = {
    Kind.coerced.code: _coerced,
    Kind.wrong_type.code: _wrong_type,
    Kind.deprecated.code: _deprecated,
    Kind.unknown_key.code: _unknown_key,
    Kind.duplicate_key.code: _duplicate,
    Kind.auto_dropped.code: _auto_dropped,
    Kind.auto_unfilled.code: _auto_unfilled,
    Kind.removed.code: _removed,
    Kind.not_strict_json.code: _not_strict_json,
    "DS524": _ignored_at_stage,
    "DS502": _batch_arithmetic,
}
