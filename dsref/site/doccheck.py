"""Every ```json block of the docs is a config that dsref checks; the HTML comment before it says how.

The markers (see ``DOCS.md``), on the line right before the fence::

    <!-- dsref-check: hf -->                       read as Hugging Face does (strict JSON, "auto" allowed)
    <!-- dsref-check: fragment zero_optimization --> a fragment that goes under that dotted path
    <!-- dsref-check: fragment -->                 top-level keys that are not a whole config
    <!-- dsref-check: expect DS101 DS510 -->        a deliberately wrong config: each code must be reported
    <!-- dsref-check: world-size 8 -->             check with that data-parallel world size
    <!-- dsref-check: deepspeed-version 0.17.0 --> check for that DeepSpeed release
    <!-- dsref-check: skip -->                     not a config

Without ``expect`` a block must give no error and no warning (notes are fine); with it, every listed code must be
reported and no error or warning code that is not listed. A fragment is placed at its path in an otherwise empty
config and checked for what it can say alone, its keys, types and values: the cross-field rules, which need the
whole config, are not run on it. ``<!-- dsref-check-output -->`` right after a block is replaced at build time by
:func:`output` (the ``dsref check`` text for that block, in the page's language), and ``<!-- dsref-fix-diff -->``
(or ``<!-- dsref-fix-diff: unsafe -->``) by :func:`fix_diff`, what ``dsref check --diff`` prints for it; both may
follow one block, the output first. ``<!-- dsref-check-output: run -->`` is the output as the terminal prints it
for the command :func:`command_options` writes out (a rule page's), starting with the line that says what the check
was for.

>>> [b.marker.profile for b in blocks('<!-- dsref-check: hf -->\\n```json\\n{"fp16": {"enabled": "auto"}}\\n```\\n')]
['hf']
>>> block = blocks('<!-- dsref-check: fragment -->\\n```json\\n{"zero_optimization": {"stage": 4}}\\n```\\n')[0]
>>> check(block).problems
['DS204 error at zero_optimization.stage: 4 is not one of 0, 1, 2, 3']
>>> parse_marker("fragment zero_optimization.offload_param world-size 8").fragment
'zero_optimization.offload_param'
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import field
from pathlib import Path

from ..check.findings import Finding, Kind, Severity
from ..records import record
from ..tree.versions import DEEPSPEED_VERSION

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..check.fix.fixer import FixResult
    from ..check.pipeline import FileReport
    from ..check.settings import CheckSettings
    from ..text.i18n import Lang
    from ..tree.profiles import Profile

__all__ = [
    "OUTPUT_MARKERS",
    "RUN_MARKER",
    "Block",
    "BlockCheck",
    "Marker",
    "MarkerError",
    "asked_profile",
    "blocks",
    "check",
    "command_options",
    "fix_diff",
    "markdown_files",
    "output",
    "still_reported",
]

OUTPUT_MARKER = "<!-- dsref-check-output -->"
RUN_MARKER = "<!-- dsref-check-output: run -->"
"""The output as the terminal shows it for the command :func:`command_options` gives, its first line (what the check
was for: :class:`dsref.check.report.draw.CheckedFor`) included; what a page that writes that command out uses."""
OUTPUT_MARKERS = (OUTPUT_MARKER, RUN_MARKER)
DIFF_MARKERS = {"<!-- dsref-fix-diff -->": "safe", "<!-- dsref-fix-diff: unsafe -->": "unsafe"}
_MARKER = re.compile(r"^\s*<!--\s*dsref-check:(?P<words>.*?)-->\s*$")
_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^\s`{]*)")
_CODE = re.compile(r"^DS\d{3}$")
_SHOWN_PATH = "ds_config.json"
_WORDS = frozenset({"hf", "skip", "fragment", "world-size", "deepspeed-version", "expect"})
_RELEASE = re.compile(r"^\d+\.\d+\.\d+$")


class MarkerError(ValueError):
    """A ``dsref-check`` comment that does not parse (the message says what is wrong)."""


@record
class Marker:
    """How to check one block (the parsed ``<!-- dsref-check: … -->`` comment; the default when there is none)."""

    profile: Profile = "deepspeed"
    fragment: str | None = None
    expect: tuple[str, ...] = ()
    world_size: int | None = None
    skip: bool = False
    deepspeed_version: str | None = None


def parse_marker(words: str) -> Marker:
    """The marker's words (``hf world-size 8``) as a :class:`Marker`; :class:`MarkerError` for anything else."""
    tokens = words.split()
    profile: Profile = "deepspeed"
    fragment: str | None = None
    expect: list[str] = []
    world_size: int | None = None
    skip = False
    release: str | None = None
    i = 0
    while i < len(tokens):
        word = tokens[i]
        if word == "hf":
            profile = "hf"
        elif word == "skip":
            skip = True
        elif word == "fragment":
            fragment = ""
            if i + 1 < len(tokens) and tokens[i + 1] not in _WORDS:
                i += 1
                fragment = tokens[i].strip(".")
        elif word == "world-size":
            if i + 1 >= len(tokens) or not tokens[i + 1].isdigit() or int(tokens[i + 1]) < 1:
                raise MarkerError("'world-size' needs a whole number of GPUs: <!-- dsref-check: world-size 8 -->")
            i += 1
            world_size = int(tokens[i])
        elif word == "deepspeed-version":
            if i + 1 >= len(tokens) or not _RELEASE.match(tokens[i + 1]):
                raise MarkerError("'deepspeed-version' needs a release: <!-- dsref-check: deepspeed-version 0.17.0 -->")
            i += 1
            release = tokens[i]
        elif word == "expect":
            while i + 1 < len(tokens) and _CODE.match(tokens[i + 1]):
                i += 1
                expect.append(tokens[i])
            if not expect:
                raise MarkerError("'expect' needs finding codes: <!-- dsref-check: expect DS101 DS510 -->")
        else:
            raise MarkerError(
                f"unknown word {word!r} in a dsref-check comment "
                "(hf, fragment, expect, world-size, deepspeed-version, skip)"
            )
        i += 1
    return Marker(profile, fragment, tuple(expect), world_size, skip, release)


@record
class Block:
    """One fenced ```json block of a Markdown file."""

    text: str
    """The block's content, its fence's indentation removed."""
    line: int
    """The line of the opening fence (1-based)."""
    end_line: int
    """The line of the closing fence."""
    marker: Marker
    marker_error: str | None = None
    wants_output: bool = False
    """A ``<!-- dsref-check-output -->`` line (or :data:`RUN_MARKER`) follows the closing fence."""
    path: str = ""
    wants_diff: str | None = None
    """``safe`` or ``unsafe`` when a ``<!-- dsref-fix-diff -->`` line follows the closing fence."""
    markers: int = 0
    """How many output and diff marker lines follow the closing fence (an output marker may precede a diff one)."""
    run: bool = False
    """The output marker is :data:`RUN_MARKER`: the output starts with the line that says what was checked for."""


def _following_markers(lines: list[str], start: int) -> list[str]:
    """The output and diff markers on the lines from ``start`` on, until a line that is none (two at most)."""
    found: list[str] = []
    for line in lines[start : start + 2]:
        if line.strip() not in OUTPUT_MARKERS and line.strip() not in DIFF_MARKERS:
            break
        found.append(line.strip())
    return found


def blocks(markdown: str, path: str = "") -> list[Block]:
    """The ```json blocks of ``markdown`` with their markers, in order (fences may be indented, as in admonitions)."""
    lines = markdown.splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence, info = opening["indent"], opening["fence"], opening["info"].lower()
        end = i + 1
        while end < len(lines):
            closing = _FENCE.match(lines[end])
            if (
                closing
                and closing["fence"][0] == fence[0]
                and len(closing["fence"]) >= len(fence)
                and not closing["info"]
            ):
                break
            end += 1
        if info == "json":
            body = [line[len(indent) :] if line.startswith(indent) else line.lstrip() for line in lines[i + 1 : end]]
            marker, error = Marker(), None
            previous = _MARKER.match(lines[i - 1]) if i > 0 else None
            if previous:
                try:
                    marker = parse_marker(previous["words"])
                except MarkerError as exc:
                    error = str(exc)
            following = _following_markers(lines, end + 1)
            found.append(
                Block(
                    "\n".join(body) + "\n",
                    i + 1,
                    end + 1,
                    marker,
                    error,
                    any(m in OUTPUT_MARKERS for m in following),
                    path,
                    next((DIFF_MARKERS[m] for m in following if m in DIFF_MARKERS), None),
                    len(following),
                    RUN_MARKER in following,
                )
            )
        i = end + 1
    return found


def stray_markers(markdown: str) -> list[int]:
    """Lines holding a ``dsref-check`` comment that no ```json fence follows, or an output marker after no block."""
    lines = markdown.splitlines()
    stray: list[int] = []
    for i, line in enumerate(lines):
        if _MARKER.match(line):
            following = _FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
            if not following or following["info"].lower() != "json":
                stray.append(i + 1)
    ends = {b.end_line + n for b in blocks(markdown) for n in range(b.markers)}
    stray.extend(
        i + 1
        for i, line in enumerate(lines)
        if (line.strip() in OUTPUT_MARKERS or line.strip() in DIFF_MARKERS) and i not in ends
    )
    return sorted(stray)


@record(frozen=False)
class BlockCheck:
    """What dsref found in a block, and what is wrong with that for the docs (empty ``problems``: the block passes)."""

    block: Block
    report: FileReport | None
    problems: list[str] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return self.report.findings if self.report is not None else []


def _wrapped(block: Block) -> tuple[str, tuple[str, ...]]:
    """The text to check: the block itself, or a fragment wrapped into its path on the block's first line, so that
    line numbers stay the block's own."""
    if not block.marker.fragment:
        return block.text, ()
    steps = tuple(s for s in block.marker.fragment.split(".") if s)
    opening = "".join("{" + json.dumps(step) + ": " for step in steps)
    return opening + block.text.rstrip("\n") + "}" * len(steps) + "\n", steps


def _settings(marker: Marker) -> CheckSettings:
    """What a block is checked for, as its marker says."""
    from ..check.settings import CheckSettings

    return CheckSettings(marker.profile, marker.world_size, marker.deepspeed_version or DEEPSPEED_VERSION)


def check(block: Block) -> BlockCheck:
    """Check one block as its marker says (never raises for any block text)."""
    from ..check.pipeline import FileReport, check_loaded
    from ..check.read.loader import LoadError, load_text
    from ..check.settings import CheckSettings
    from ..check.validate.validation import validate

    if block.marker_error is not None:
        return BlockCheck(block, None, [block.marker_error])
    if block.marker.skip:
        return BlockCheck(block, None)
    text, steps = _wrapped(block)
    loaded = load_text(text, block.marker.profile)
    if isinstance(loaded, LoadError):
        unreadable = Finding(Kind.unreadable, Severity.error, (), None, {"detail": loaded.message})
        report = FileReport(_SHOWN_PATH, None, loaded, [unreadable])
    elif block.marker.fragment is not None:
        inside = [
            f
            for f in validate(loaded.data, CheckSettings(block.marker.profile))
            if tuple(f.location[: len(steps)]) == steps
        ]
        report = FileReport(_SHOWN_PATH, loaded, None, inside)
    else:
        report = check_loaded(loaded, _SHOWN_PATH, _settings(block.marker))
    result = BlockCheck(block, report)
    serious = [f for f in report.findings if f.severity is not Severity.info]
    if block.marker.expect:
        codes = {f.code for f in report.findings}
        for code in block.marker.expect:
            if code not in codes:
                result.problems.append(f"expected {code}, which dsref did not report")
        result.problems.extend(_describe(f) for f in serious if f.code not in block.marker.expect)
    else:
        result.problems.extend(_describe(f) for f in serious)
    return result


def _describe(finding: Finding) -> str:
    from ..check.report.messages import message

    if finding.rule is not None:
        from ..check.rules import get_rule

        rule = get_rule(finding.rule)
        text = rule.text("message", "en", **finding.args) if rule else finding.code
    elif finding.kind is not None and finding.kind.name == "unreadable":
        text = str(finding.args.get("detail", ""))
    else:
        text = message(finding, "en")
    return f"{finding.code} {finding.severity.value} at {finding.where}: {text}"


def asked_profile(text: str, marker: Marker) -> Profile | None:
    """The ``--profile`` a shown ``dsref check`` command must name for ``text`` to be read as ``marker`` says: none
    where dsref, left to itself, reads the file so (:mod:`dsref.tree.profiles`); ``hf`` always for a block marked
    ``hf``, which a reader of the page copies into a file of their own."""
    from ..check.read.loader import load_text

    if marker.profile == "hf":
        return "hf"
    return None if load_text(text, None).profile == marker.profile else marker.profile


def command_options(text: str, marker: Marker) -> list[str]:
    """The options of the ``dsref check`` command a page shows for a block whose output is :data:`RUN_MARKER`:
    ``--profile`` where :func:`asked_profile` needs it, the world size, and always the release, so that the line
    the output starts with is the same in every reader's terminal, whatever DeepSpeed they have installed.

    >>> command_options('{"gradient_clipping": "auto"}', Marker())
    ['--profile deepspeed', '--deepspeed-version 0.19.8']
    """
    profile = asked_profile(text, marker)
    return [
        *([f"--profile {profile}"] if profile else []),
        *([f"--world-size {marker.world_size}"] if marker.world_size else []),
        f"--deepspeed-version {marker.deepspeed_version or DEEPSPEED_VERSION}",
    ]


def output(block: Block, lang: Lang) -> str:
    """The ``dsref check`` text output for a block, in ``lang`` (what replaces ``<!-- dsref-check-output -->``); for
    :data:`RUN_MARKER`, as the command of :func:`command_options` prints it, starting with what it checked for."""
    from ..check.report.draw import CheckedFor, render_text
    from ..check.report.target import Release, ReleaseSource

    result = check(block)
    if result.report is None:
        return ""
    version = block.marker.deepspeed_version or DEEPSPEED_VERSION
    checked_for = None
    if block.run:
        profile = asked_profile(block.text, block.marker)
        checked_for = CheckedFor(Release(version, ReleaseSource.given), profile, 1)
    return render_text([result.report], lang, target=version, checked_for=checked_for)


def markdown_files(docs: Path) -> Iterator[Path]:
    """Every Markdown page under ``docs``, sorted."""
    yield from sorted(docs.rglob("*.md"))


def fix_diff(block: Block, lang: Lang) -> str:
    """What ``dsref check --diff`` (``--unsafe-fixes`` too, for an ``unsafe`` marker) prints for a block: the unified
    diff, then the count it writes to stderr. Empty when nothing would change (the build then fails)."""
    from ..check.fix.fixer import TEXTS, counted, unified_diff

    result = _fixed(block)
    if not result.changed:
        return ""
    said = TEXTS.text(
        "would_fix", lang, findings=counted("findings", len(result.fixed), lang), files=counted("files", 1, lang)
    )
    return unified_diff(result.original, result.text, _SHOWN_PATH) + said + "\n"


def _fixed(block: Block) -> FixResult:
    from ..check.fix.fixer import fix_text

    text, _ = _wrapped(block)
    return fix_text(text, _SHOWN_PATH, _settings(block.marker), unsafe=block.wants_diff == "unsafe")


def still_reported(block: Block) -> list[str]:
    """The codes of a block's ``expect`` that ``dsref check --fix`` repairs somewhere in it and that are still
    reported after the fix (the build fails on any)."""
    result = _fixed(block)
    repaired = {f.code for f in result.fixed}
    left = {f.code for f in result.after.findings}
    return [code for code in block.marker.expect if code in repaired and code in left]
