"""An option's explanation as Markdown: what an editor shows on hover, with the same facts as ``dsref explain``.

>>> from dsref.tree.index import OptionIndex
>>> text = markdown(OptionIndex.load().get("zero_optimization.stage"), "en", link="https://x/#zero_optimization.stage")
>>> print(text.splitlines()[0])
**`zero_optimization.stage`** · `enum` · default `0`
>>> "- `3`: " in text and text.rstrip().endswith("[reference](https://x/#zero_optimization.stage)")
True
"""

from __future__ import annotations

from ..text.i18n import Lang, option_text, translate
from ..text.units import UNITS
from ..tree.index import Entry
from .render import M, _bounds, _default, _json, _with_human, json_lines

__all__ = ["markdown"]


def _code(text: str) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    fence = "``" if "`" in text else "`"
    return f"{fence}{text}{fence}" if fence == "`" else f"{fence} {text} {fence}"


def markdown(entry: Entry, lang: Lang, *, link: str | None = None) -> str:
    """The option's facts (type, default and the docs' default where it differs, allowed values with their
    meaning, range, unit, ZeRO stages, since and removed-in, other names, Hugging Face ``"auto"``), its description,
    an example and the link to its reference page, in ``lang``."""
    head = (
        f"**{_code(entry.path)}** · {_code(entry['type'])} · {M.text('default', lang)} {_code(_default(entry, lang))}"
    )
    lines = [head, ""]

    def fact(label: str, value: str) -> None:
        lines.append(f"- *{M.text(label, lang)}*: {value}")

    if entry["docs_default_differs"]:
        docs = _with_human(entry["docs_default"], entry["docs_default_human"], lang)
        fact("docs_default", f"{_code(docs)} ({M.text('docs_default_note', lang)})")
    if entry["default_note"]:
        lines.append(f"- {option_text(entry.path, entry['default_note'], lang, 'default_note')}")
    if entry["bounds"]:
        fact("range", _code(_bounds(entry["bounds"])))
    if entry["unit"]:
        fact("unit", UNITS.text(entry["unit"], lang))
    if entry["stages"] is not None:
        fact("stages", ", ".join(str(s) for s in entry["stages"]))
    if entry["since"]:
        fact("since", entry["since"])
    if entry["removed_in"]:
        fact("removed", f"**{entry['removed_in']}**")
        if entry["removal_note"]:
            lines.append(f"- {option_text(entry.path, entry['removal_note'], lang, 'removal_note')}")
        if entry["use_instead"]:
            fact("use_instead", _code(entry["use_instead"]))
    if entry["deprecated"]:
        replacement = _code(entry["use_instead"]) if entry["use_instead"] else ""
        text = (
            M.text("deprecated_use", lang, replacement=replacement) if replacement else M.text("deprecated_plain", lang)
        )
        fact("deprecated", text)
    if entry["docs_only"]:
        lines.append(f"- **{M.text('docs_only', lang)}**")
    if entry["parsed_unused"]:
        lines.append(f"- {M.text('parsed_unused', lang)}")
    names = [_code(n) for n in entry["aliases"]]
    names += [M.text("deprecated_name", lang, name=_code(n)) for n in entry["deprecated_aliases"]]
    names += [M.text("docs_name", lang, name=_code(n)) for n in entry["docs_names"]]
    if names:
        fact("also", "; ".join(names))
    if entry["hf_auto"]:
        source = translate(f"{entry.path}#hf_source", entry["hf_auto_source"] or "", lang)
        fact("hf_auto", M.text("hf_yes", lang, who=", ".join(entry["hf_auto_by"]), source=source))
    if entry.is_section and entry["unknown_keys"]:
        fact("unknown_keys", M.text(f"unknown_{entry['unknown_keys']}", lang))
    if entry["allowed"] is not None:
        meanings = {
            _json(value): option_text(entry.path, text, lang, f"enum:{value}") for value, text in entry["enum_docs"]
        }
        lines += ["", f"*{M.text('allowed', lang)}*:", ""]
        for value in entry["allowed"]:
            shown = _json(value)
            meaning = meanings.get(shown)
            lines.append(f"- {_code(shown)}" + (f": {meaning}" if meaning else ""))
    description = option_text(entry.path, entry["description"], lang)
    if description:
        lines += ["", description]
    if entry["example_config"] is not None:
        lines += ["", f"*{M.text('example', lang)}*:", "", "```json", *json_lines(entry["example_config"]), "```"]
    if link:
        lines += ["", f"[{M.text('link', lang)}]({link})"]
    return "\n".join(lines) + "\n"
