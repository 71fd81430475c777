"""One page per finding code (``rules/<CODE>.md``) and an index, from the registered rules and the schema kinds.

Schema findings (``DS0xx``–``DS4xx``, :class:`dsref.check.findings.Kind`) take their explanation from
:data:`dsref.check.messages.EXPLANATIONS`; cross-field rules (``DS5xx`` errors and warnings, ``DS6xx`` advice) from
their :class:`dsref.check.rules.Rule`. Whatever is registered when the pages are generated is listed; a code without
an explanation in either language is reported by :func:`missing_texts`.

>>> pages = pages("en")
>>> "DS101.md" in pages and "index.md" in pages
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..check.findings import Kind
from ..check.fixes import fix_note
from ..text.i18n import Lang, messages
from ..tree.index import OptionIndex
from . import generated_header
from .markdown import cell, code, paragraph, table

__all__ = ["M", "codes", "missing_texts", "pages"]

SOURCE = "dsref/site/rules.py"

M = messages(
    "site.rules",
    index_title="Finding codes",
    index_intro="Every code `dsref check` reports. Schema findings come from the option facts (type, range, "
    "allowed values, removed and deprecated keys); rules look at several options together. `dsref rule CODE` "
    "prints the same explanation in the terminal.",
    schema_title="Schema findings",
    rules_title="Rules",
    advice_title="Advice",
    col_code="code",
    col_name="name",
    col_severity="severity",
    col_message="message",
    severity="severity",
    varies="varies",
    severity_varies="depends on where the key is: error where DeepSpeed refuses the config, warning where it "
    "ignores the value",
    message="message",
    error="error",
    warning="warning",
    info="note",
    in_terminal="In the terminal: `dsref rule {code}`.",
    fix="Fix",
    all_codes="all codes",
)

_OPTION_SPAN = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_<>\[\]]+)+)`")


def codes() -> list[tuple[str, str, str | None, str, str]]:
    """(code, name, severity or None for schema kinds, English explanation, group) for every kind and rule."""
    from ..check.messages import EXPLANATIONS
    from ..check.rules import all_rules

    out: list[tuple[str, str, str | None, str, str]] = []
    for kind in Kind:
        out.append((kind.code, kind.name.replace("_", "-"), None, EXPLANATIONS.table.get(kind.name, ""), "schema"))
    for r in all_rules():
        group = "advice" if r.code.startswith("DS6") else "rules"
        out.append((r.code, r.name, r.severity.value, r.explanation, group))
    return out


def _explanation(code_: str, lang: Lang) -> str:
    from ..check.messages import EXPLANATIONS
    from ..check.rules import get_rule

    kind = next((k for k in Kind if k.code == code_), None)
    if kind is not None:
        return EXPLANATIONS.text(kind.name, lang) if kind.name in EXPLANATIONS.table else ""
    found = get_rule(code_)
    return found.text("explanation", lang) if found is not None else ""


def _message(code_: str, lang: Lang) -> str:
    """The message template in ``lang``, placeholders kept as written (``{option}``)."""
    from ..check.messages import MESSAGES
    from ..check.rules import get_rule

    kind = next((k for k in Kind if k.code == code_), None)
    if kind is not None:
        name = "unknown_key_ignore" if kind is Kind.unknown_key else kind.name
        return MESSAGES.text(name, lang) if name in MESSAGES.table else ""
    found = get_rule(code_)
    return found.text("message", lang) if found is not None else ""


def linkify(text: str, prefix: str, index: OptionIndex) -> str:
    """Code spans that name an option by its full dotted path become links to its reference entry."""
    from .markdown import option_link

    def replace(match: re.Match[str]) -> str:
        path = match.group(1)
        try:
            index.get(path)
        except KeyError:
            return match.group(0)
        return option_link(path, prefix)

    return _OPTION_SPAN.sub(replace, text)


def pages(lang: Lang, index: OptionIndex | None = None) -> dict[str, str]:
    """File name under ``rules/`` → page text."""
    index = index or OptionIndex.load()
    out: dict[str, str] = {}
    groups: dict[str, list[list[str]]] = {"schema": [], "rules": [], "advice": []}
    for code_, name, severity, _english, group in codes():
        shown = M.text(severity or "varies", lang)
        message = _message(code_, lang)
        groups[group].append([f"[{code_}]({code_}.md)", code(name), shown, cell(message)])
        lines = [generated_header(SOURCE), f"# {code_} {code(name)}", ""]
        lines += [f"- **{M.text('severity', lang)}**: {shown if severity else M.text('severity_varies', lang)}"]
        if message:
            lines.append(f"- **{M.text('message', lang)}**: {cell(message)}")
        lines.append("")
        explanation = _explanation(code_, lang)
        if explanation:
            lines += [linkify(paragraph(explanation), "../reference/", index), ""]
        lines += [f"## {M.text('fix', lang)}", "", paragraph(fix_note(code_, lang)), ""]
        lines += [M.text("in_terminal", lang, code=code_), "", f"[{M.text('all_codes', lang)}](index.md)"]
        out[f"{code_}.md"] = "\n".join(lines) + "\n"
    lines = [generated_header(SOURCE), f"# {M.text('index_title', lang)}", "", M.text("index_intro", lang), ""]
    header = [M.text(k, lang) for k in ("col_code", "col_name", "col_severity", "col_message")]
    for group, rows in groups.items():
        if rows:
            lines += [f"## {M.text(f'{group}_title', lang)}", "", *table(header, rows), ""]
    out["index.md"] = "\n".join(lines).rstrip("\n") + "\n"
    return out


def missing_texts() -> Iterator[str]:
    """Codes whose page would have no explanation (Chinese ones fall back to English until translated)."""
    for code_, _name, _severity, _english, _group in codes():
        if not _explanation(code_, "en").strip():
            yield f"{code_}: no explanation (dsref/check/messages.py EXPLANATIONS, or the rule's explanation=)"
