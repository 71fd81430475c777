"""An option's explanation as Markdown: what an editor shows on hover, with the same facts as ``dsref explain``.

>>> from dsref.tree.index import OptionIndex
>>> text = markdown(OptionIndex.load().get("zero_optimization.stage"), "en", link="https://x/#zero_optimization.stage")
>>> print(text.splitlines()[0])
**`zero_optimization.stage`** · `enum` · default `0`
>>> "- `3`: " in text and text.rstrip().endswith("[reference](https://x/#zero_optimization.stage)")
True
"""

from __future__ import annotations

from ..text.facts import json_text, shown_bounds, shown_default, shown_value
from ..text.i18n import Lang, option_text, translate
from ..text.punctuation import aside, colon, listed, separated
from ..text.units import UNITS
from .render import M, json_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..tree.record import OptionRecord

__all__ = ["markdown"]


def _code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}" if fence == "`" else f"{fence} {text} {fence}"


def markdown(record: OptionRecord, lang: Lang, *, link: str | None = None) -> str:
    """The option's facts (type, default and the docs' default where it differs, allowed values with their
    meaning, range, unit, ZeRO stages, since and removed-in, other names, Hugging Face ``"auto"``), its description,
    an example and the link to its reference page, in ``lang``."""
    facts = f"{_code(str(record.type))} · {M.text('default', lang)} {_code(shown_default(record, lang))}"
    lines = [f"**{_code(record.path)}** · {facts}", ""]

    def fact(label: str, value: str) -> None:
        lines.append(f"- *{M.text(label, lang)}*{colon(lang)}{value}")

    if record.docs_default_differs:
        docs = shown_value(record.docs_default, record.docs_default_human, lang)
        fact("docs_default", aside(_code(docs), M.text("docs_default_note", lang), lang))
    if record.default_note:
        lines.append(f"- {option_text(record.path, record.default_note, lang, 'default_note')}")
    if record.bounds:
        fact("range", _code(shown_bounds(record.bounds)))
    if record.unit:
        fact("unit", UNITS.text(record.unit, lang))
    if record.stages is not None:
        fact("stages", listed((str(s) for s in record.stages), lang))
    if record.since:
        fact("since", record.since)
    if record.removed_in:
        fact("removed", f"**{record.removed_in}**")
        if record.removal_note:
            lines.append(f"- {option_text(record.path, record.removal_note, lang, 'removal_note')}")
        if record.use_instead:
            fact("use_instead", _code(record.use_instead))
    if record.deprecated:
        replacement = _code(record.use_instead) if record.use_instead else ""
        text = (
            M.text("deprecated_use", lang, replacement=replacement) if replacement else M.text("deprecated_plain", lang)
        )
        fact("deprecated", text)
    if record.docs_only:
        lines.append(f"- **{M.text('docs_only', lang)}**")
    if record.parsed_unused:
        lines.append(f"- {M.text('parsed_unused', lang)}")
    names = [_code(n) for n in record.aliases]
    names += [M.text("deprecated_name", lang, name=_code(n)) for n in record.deprecated_aliases]
    names += [M.text("docs_name", lang, name=_code(n)) for n in record.docs_names]
    if names:
        fact("also", separated(names, lang))
    if record.hf_auto:
        source = translate(f"{record.path}#hf_source", record.hf_auto_source or "", lang)
        fact("hf_auto", M.text("hf_yes", lang, who=listed(record.hf_auto_by, lang), source=source))
    if record.is_section and record.unknown_keys:
        fact("unknown_keys", M.text(f"unknown_{record.unknown_keys}", lang))
    if record.allowed is not None:
        meanings = {
            json_text(value): option_text(record.path, text, lang, f"enum:{value}") for value, text in record.enum_docs
        }
        lines += ["", f"*{M.text('allowed', lang)}*{colon(lang).rstrip()}", ""]
        for value in record.allowed:
            shown = json_text(value)
            meaning = meanings.get(shown)
            lines.append(f"- {_code(shown)}" + (f"{colon(lang)}{meaning}" if meaning else ""))
    description = option_text(record.path, record.description, lang)
    if description:
        lines += ["", description]
    if record.example_config is not None:
        lines += [
            "",
            f"*{M.text('example', lang)}*{colon(lang).rstrip()}",
            "",
            "```json",
            *json_lines(record.example_config),
            "```",
        ]
    if link:
        lines += ["", f"[{M.text('link', lang)}]({link})"]
    return "\n".join(lines) + "\n"
