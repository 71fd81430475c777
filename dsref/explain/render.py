"""Explain an option or a section, in English or Chinese, from the generated index.

:func:`explain` finds what to show; :func:`render_text` and :func:`render_json`
draw it. Nothing here imports pydantic or the models, so the command starts fast.

>>> exp = explain("zero_optimization.prefetch_bucket_size")
>>> exp.record.path, exp.via
('zero_optimization.stage3_prefetch_bucket_size', 'alias')
>>> print(render_text(exp, "en").splitlines()[0])
zero_optimization.stage3_prefetch_bucket_size
"""

from __future__ import annotations

from ..text.facts import json_text, option_texts, shown_bounds, shown_default, shown_summary, shown_value
from ..text.i18n import Lang, messages, option_text, translate
from ..text.punctuation import aside, collapsed, listed, separated
from ..text.units import UNITS
from ..text.width import display_width
from ..tree.index import OptionIndex
from .release import release_default

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..tree.record import OptionRecord

__all__ = [
    "ExplainError",
    "Explanation",
    "explain",
    "json_lines",
    "page",
    "render_json",
    "render_text",
]

M = messages(
    "explain",
    type="type",
    default="default",
    docs_default="docs say",
    docs_default_note="DeepSpeed's documentation states this; the code uses the default above",
    default_at="DeepSpeed {release}; DeepSpeed {described}: {current}",
    allowed="allowed",
    range="range",
    unit="unit",
    stages="ZeRO stages",
    since="since",
    removed="removed in",
    use_instead="use instead",
    deprecated="deprecated",
    deprecated_use="still accepted; use {replacement} instead",
    deprecated_plain="still accepted, but superseded",
    also="also accepted",
    deprecated_name="{name} (deprecated)",
    docs_name="{name} (in DeepSpeed's docs, but DeepSpeed ignores it)",
    hf_auto='HF "auto"',
    hf_yes="yes, filled by {who}: {source}",
    unknown_keys="unknown keys",
    unknown_reject="rejected (DeepSpeed raises an error)",
    unknown_ignore="silently ignored",
    unknown_passthrough="passed on unchecked",
    docs_only="listed in DeepSpeed's docs, but DeepSpeed 0.19.8 rejects it",
    parsed_unused="DeepSpeed reads this key, but nothing uses its value",
    example="example",
    related="related",
    link="reference",
    wrote="you wrote {written}: {how}",
    via_alias="another accepted name of this option",
    via_deprecated_alias="an old name DeepSpeed still maps to this option, with a warning",
    via_docs_name="a name from DeepSpeed's docs that DeepSpeed does not read; use the key above",
    via_normalized="matched ignoring case and -/_",
    via_suffix="the section prefix was added",
    children="options",
    top_level="top-level keys of ds_config.json (DeepSpeed {version})",
    unknown="no option '{path}'",
    did_you_mean="did you mean: {paths}",
    empty="no option path given",
    no_matches="no option matches '{words}'",
)


class ExplainError(LookupError):
    """What the user asked for is not an option (``message`` is ready to print)."""

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.suggestions = suggestions or []


class Explanation:
    """What to show: the option (None for the top-level listing), how it was found, and the rows to list under it
    (children or the subtree of a section, with their depth)."""

    __slots__ = ("record", "rows", "via", "written")

    def __init__(
        self,
        record: OptionRecord | None,
        via: str = "path",
        written: str = "",
        rows: list[tuple[int, OptionRecord]] | None = None,
    ) -> None:
        self.record = record
        self.via = via
        self.written = written
        self.rows = rows or []


def explain(
    path: str | None = None,
    *,
    recursive: bool = False,
    max_depth: int | None = None,
    index: OptionIndex | None = None,
    lang: Lang = "en",
) -> Explanation:
    """What to show for ``path`` (``None``: the top level). Raises :class:`ExplainError`."""
    index = index or OptionIndex.load()
    depth = max_depth if recursive else 1
    if path is None:
        return Explanation(None, rows=index.subtree(None, depth))
    written = path.strip()
    if not written.strip("."):
        raise ExplainError(M.text("empty", lang))
    hit = index.resolve(written) if len(written) <= 500 else None
    if hit is None:
        suggestions = index.suggest(written) if len(written) <= 200 else []
        raise ExplainError(M.text("unknown", lang, path=_printable(written, 80)), suggestions)
    rows = index.subtree(hit.record, depth) if hit.record.is_section else []
    return Explanation(hit.record, hit.via, written, rows)


# -- rendering ---------------------------------------------------------------


def _printable(text: str, limit: int) -> str:
    """A user-typed string made safe to print (:func:`~dsref.text.escape.visible`), of bounded length."""
    from ..text.escape import visible

    safe = visible(text, name=True)
    return safe if len(safe) <= limit else safe[: limit - 1] + "…"


EXAMPLE_WIDTH = 88
"""Columns an example config may fill before an object or list in it is spread over several lines."""


def json_lines(value: Any, width: int = EXAMPLE_WIDTH) -> list[str]:
    """A config as JSON lines: each top-level key on its own line, and any value below that on one line where it
    fits in ``width`` columns, else spread out with an indent of two (short, yet readable as a whole).

    >>> print("\\n".join(json_lines({"a": 1, "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}})))
    {
      "a": 1,
      "zero_optimization": {"stage": 3, "offload_param": {"device": "cpu"}}
    }
    """
    return _json_block(value, "", 0, width, "", spread=True)


def _json_block(value: Any, prefix: str, depth: int, width: int, comma: str, spread: bool = False) -> list[str]:
    pad = "  " * depth
    flat = json_text(value)
    if not isinstance(value, (dict, list)) or not value:
        return [f"{pad}{prefix}{flat}{comma}"]
    if not spread and len(pad) + len(prefix) + len(flat) + len(comma) <= width:
        return [f"{pad}{prefix}{flat}{comma}"]
    items = list(value.items()) if isinstance(value, dict) else [(None, item) for item in value]
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    lines = [f"{pad}{prefix}{opening}"]
    for i, (key, item) in enumerate(items):
        lead = "" if key is None else f"{json_text(key if isinstance(key, str) else json_text(key))}: "
        lines += _json_block(item, lead, depth + 1, width, "," if i < len(items) - 1 else "")
    lines.append(f"{pad}{closing}{comma}")
    return lines


def page(path: str, lang: Lang) -> str:
    """What ``dsref explain PATH`` prints, in colour: a pre-rendered page (``path`` is one of
    :func:`page_paths`)."""
    from ..tree.links import option_url

    exp = explain(path, lang=lang)
    assert exp.record is not None
    return render_text(exp, lang, color=True, link=option_url(exp.record.path, lang))


def page_paths(index: OptionIndex | None = None) -> list[str]:
    """The spellings that get a pre-rendered page: every option's own path, and its other accepted names (aliases,
    deprecated names, names from DeepSpeed's docs) written in full."""
    index = index or OptionIndex.load()
    own = [record.path for record in index]
    taken = set(own)
    others = []
    for record in index:
        for name in (*record.aliases, *record.deprecated_aliases, *record.docs_names):
            written = f"{record.parent}.{name}" if record.parent else name
            if written not in taken and "<" not in written and "[" not in written:
                taken.add(written)
                others.append(written)
    return own + others


class _Style:
    def __init__(self, color: bool) -> None:
        self.color = color

    def _wrap(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}\033[0m" if self.color and text else text

    def title(self, text: str) -> str:
        return self._wrap("1", text)

    def label(self, text: str) -> str:
        return self._wrap("2", text)

    def warn(self, text: str) -> str:
        return self._wrap("33", text)

    def key(self, text: str) -> str:
        return self._wrap("36", text)


def render_text(
    exp: Explanation, lang: Lang, *, color: bool = False, link: str | None = None, release: str | None = None
) -> str:
    """The explanation as terminal text in ``lang``; ANSI colour only when ``color``. With ``release``
    (``--deepspeed-version``), the default row gives that release's default where it reads the option with
    another (:func:`dsref.explain.release.release_default`), and names 0.19.8's beside it."""
    style = _Style(color)
    lines: list[str] = []
    record = exp.record
    labels = [
        M.text(k, lang)
        for k in ("type", "default", "docs_default", "allowed", "range", "unit", "stages", "since", "removed")
    ]
    labels += [M.text(k, lang) for k in ("deprecated", "also", "hf_auto", "unknown_keys", "related", "link")]
    width = max(display_width(text) for text in labels) + 2

    def row(label: str, value: str) -> None:
        pad = " " * (width - display_width(label))
        lines.append(f"  {style.label(label)}{pad}{value}")

    def note(text: str | None, lead: str = "", lead_width: int = 0) -> None:
        """A sentence or two under the row above, folded to the width of a description (``lead``: a styled
        prefix such as an enum value, ``lead_width`` columns wide, that the folded lines stay to the right of)."""
        parts = _reflow(text or "", max(_SUMMARY_MIN_WIDTH, _TABLE_WIDTH - 2 - width - lead_width)) or [""]
        row("", lead + parts[0])
        lines.extend(" " * (2 + width + lead_width) + part for part in parts[1:])

    if record is None:
        lines.append(style.title(M.text("top_level", lang, version=_deepspeed_version())))
    else:
        lines.append(style.title(record.path))
        if exp.via != "path":
            how = M.text(f"via_{exp.via}", lang)
            lines.append("  " + style.warn(M.text("wrote", lang, written=_printable(exp.written, 120), how=how)))
        row(M.text("type", lang), str(record.type))
        there = release_default(record, release, _deepspeed_version())
        if there is None:
            row(M.text("default", lang), shown_default(record, lang))
        else:
            described = M.text(
                "default_at", lang, release=release, described=_deepspeed_version(), current=shown_default(record, lang)
            )
            row(M.text("default", lang), aside(json_text(there.value), described, lang))
        if record.default_note:
            note(option_text(record.path, record.default_note, lang, "default_note"))
        if record.docs_default_differs:
            docs = shown_value(record.docs_default, record.docs_default_human, lang)
            row(
                M.text("docs_default", lang),
                aside(docs, M.text("docs_default_note", lang), lang)
                if lang == "zh"
                else f"{docs}  ({M.text('docs_default_note', lang)})",
            )
        if record.allowed is not None:
            row(M.text("allowed", lang), listed((json_text(v) for v in record.allowed), lang))
            for value, text in record.enum_docs:
                meaning = option_text(record.path, text, lang, f"enum:{value}")
                shown = json_text(value)
                note(meaning, f"{style.key(shown)}  ", display_width(shown) + 2)
        if record.bounds:
            row(M.text("range", lang), shown_bounds(record.bounds))
        if record.unit:
            row(M.text("unit", lang), UNITS.text(record.unit, lang))
        if record.stages is not None:
            row(M.text("stages", lang), listed((str(s) for s in record.stages), lang))
        if record.since:
            row(M.text("since", lang), record.since)
        if record.removed_in:
            row(M.text("removed", lang), style.warn(record.removed_in))
            if record.removal_note:
                note(option_text(record.path, record.removal_note, lang, "removal_note"))
            if record.use_instead:
                row(M.text("use_instead", lang), record.use_instead)
        if record.deprecated:
            text = (
                M.text("deprecated_use", lang, replacement=record.use_instead)
                if record.use_instead
                else M.text("deprecated_plain", lang)
            )
            row(M.text("deprecated", lang), style.warn(text))
        if record.docs_only:
            row("", style.warn(M.text("docs_only", lang)))
        if record.parsed_unused:
            row("", M.text("parsed_unused", lang))
        names = list(record.aliases)
        names += [M.text("deprecated_name", lang, name=n) for n in record.deprecated_aliases]
        names += [M.text("docs_name", lang, name=n) for n in record.docs_names]
        if names:
            row(M.text("also", lang), separated(names, lang))
        if record.hf_auto:
            source = translate(f"{record.path}#hf_source", record.hf_auto_source or "", lang)
            row(M.text("hf_auto", lang), M.text("hf_yes", lang, who=listed(record.hf_auto_by, lang), source=source))
        if record.is_section and record.unknown_keys:
            row(M.text("unknown_keys", lang), M.text(f"unknown_{record.unknown_keys}", lang))
        description = option_text(record.path, record.description, lang)
        if description:
            lines.append("")
            lines.extend("  " + line for line in _reflow(description))
        if record.example_config is not None:
            lines.append("")
            lines.append("  " + style.label(M.text("example", lang)))
            lines.extend("    " + line for line in json_lines(record.example_config))
        if record.related:
            lines.append("")
            row(M.text("related", lang), listed(record.related, lang))
        if link:
            row(M.text("link", lang), link)
    if exp.rows:
        lines.append("")
        if record is not None:
            lines.append("  " + style.label(M.text("children", lang)))
        key_width = min(max(len("  " * d + e.key) for d, e in exp.rows) + 2, 46)
        type_width = min(max(len(str(e.type)) for _, e in exp.rows) + 2, 22)
        offset = 2 + key_width + type_width + 16
        room = max(_SUMMARY_MIN_WIDTH, _TABLE_WIDTH - offset)
        for depth, child in exp.rows:
            name = "  " * depth + child.key
            mark = style.warn(" ✗") if child.removed_in else ""
            default = json_text(child.default) if child.has_default else "-"
            default = default if len(default) <= 14 else default[:13] + "…"
            summary = _reflow(shown_summary(child, lang), room) or [""]
            lines.append(
                f"  {style.key(_cell(name, key_width))}{_cell(str(child.type), type_width)}{default.ljust(16)}"
                f"{summary[0]}{mark if len(summary) == 1 else ''}"
            )
            lines.extend(" " * offset + part for part in summary[1:-1])
            if len(summary) > 1:
                lines.append(" " * offset + summary[-1] + mark)
    return "\n".join(line.rstrip() for line in lines) + "\n"


_TABLE_WIDTH = 102
"""Columns a table of options fills, as wide as a description: each summary is folded into what the name, type
and default leave."""
_SUMMARY_MIN_WIDTH = 40


_NO_LINE_START = "，。、；：？！）》」』”’…%"
"""Punctuation a Chinese line must not begin with: it stays with the character before it."""
_NO_LINE_END = "（《「『“‘"
"""Punctuation a Chinese line must not end with: it stays with the character after it."""


def _tokens(text: str) -> list[str]:
    """Words, single spaces and single CJK characters: the places a line may break (never before a closing or
    after an opening Chinese punctuation mark)."""
    tokens: list[str] = []
    word = ""
    for ch in text:
        if ch in _NO_LINE_START and (word or tokens):
            if word:
                word += ch
            else:
                tokens[-1] += ch
        elif ch in _NO_LINE_END:
            if word and word[-1] not in _NO_LINE_END:
                tokens.append(word)
                word = ""
            word += ch
        elif ch == " " or "\u2e80" <= ch <= "\uffef":
            if ch != " " and word and all(c in _NO_LINE_END for c in word):
                tokens.append(word + ch)
                word = ""
                continue
            if word:
                tokens.append(word)
                word = ""
            tokens.append(ch)
        else:
            word += ch
    if word:
        tokens.append(word)
    return tokens


def _cell(text: str, width: int) -> str:
    """A column of the table of options: padded to ``width``, or followed by two spaces when it is too long, so that
    it never runs into the next column (``float | list[float] | null`` then ``null``)."""
    return text.ljust(width) if len(text) <= width - 2 else text + "  "


def _reflow(text: str, width: int = 100) -> list[str]:
    """Paragraph text folded to ``width`` columns: between words, and between CJK characters."""
    out: list[str] = []
    line = ""
    for token in _tokens(collapsed(text)):
        if display_width(line + token) > width and line.strip():
            out.append(line.rstrip())
            line = "" if token == " " else token
        else:
            line += token
    if line.strip():
        out.append(line.rstrip())
    return out


def _deepspeed_version() -> str:
    from ..tree.versions import DEEPSPEED_VERSION

    return DEEPSPEED_VERSION


def render_json(exp: Explanation, lang: Lang, *, link: str | None = None, release: str | None = None) -> str:
    """The JSON form (documented, stable): the option record with its texts in ``lang``, and its children; with
    ``release`` (``--deepspeed-version``), how that release reads the option, as recorded from it
    (:func:`dsref.tree.releases.in_release`: whether it reads it, its default there)."""
    import json

    from ..text.escape import json_visible

    payload: dict[str, Any] = {
        "query": exp.written or None,
        "resolved_via": exp.via if exp.record is not None else None,
        "lang": lang,
        "option": _with_texts(exp.record, lang, link) if exp.record is not None else None,
        "children": [dict(_with_texts(child, lang, None), depth=depth) for depth, child in exp.rows],
    }
    if release is not None and exp.record is not None:
        from ..tree.releases import in_release

        record = exp.record
        compared = record.validated_by_deepspeed or record.unknown_keys == "reject"
        default = record.default if record.has_default else None
        found = in_release(release, record.path, record.since, record.removed_in, default, compared=compared)
        payload["release"] = {"version": release, **found}
    return json_visible(json.dumps(payload, ensure_ascii=False, indent=2)) + "\n"


def _with_texts(record: OptionRecord, lang: Lang, link: str | None) -> dict[str, Any]:
    data = record.to_json()
    data["text"] = option_texts(record, lang)
    if link:
        data["link"] = link
    return data
