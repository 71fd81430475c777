"""One page per finding code (``rules/<CODE>.md``) and an index, from the registered rules and the schema kinds.

Schema findings (``DS0xx``–``DS4xx``, :class:`dsref.check.findings.Kind`) take their explanation from
:data:`dsref.check.report.messages.EXPLANATIONS`; cross-field rules (``DS5xx`` errors and warnings, ``DS6xx``
advice) from
their :class:`dsref.check.rules.Rule`. Whatever is registered when the pages are generated is listed; a code without
an explanation in either language is reported by :func:`missing_texts`.

>>> pages = pages("en")
>>> "DS101.md" in pages and "index.md" in pages
True
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..check.findings import Example, Kind
from ..check.repair.fix_notes import fix_note
from ..check.report.rule_holds import holds_text
from ..check.settings import CheckSettings
from ..text.i18n import Lang, messages
from ..text.punctuation import colon
from ..tree.index import OptionIndex
from ..tree.profiles import Profile
from ..tree.versions import DEEPSPEED_VERSION
from .header import generated_header
from .markdown import cell, code, paragraph, table

__all__ = ["GROUPS", "M", "codes", "example_of", "missing_texts", "nav_group", "pages", "repairing_fix"]

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
    severity_by_profile="depends on who reads the file, as `--profile` says: {deepspeed} for the deepspeed launcher "
    "(`--profile deepspeed`), {hf} for Hugging Face (`--profile hf`); without `--profile`, dsref takes the reader "
    'the file is written for: Hugging Face for strict JSON that writes "auto", the launcher otherwise',
    message="message",
    error="error",
    warning="warning",
    info="note",
    in_terminal="In the terminal: `dsref rule {code}`.",
    example="Example",
    example_intro="A config that sets off {code}, and what `{command}` prints for it:",
    example_intro_fix="A config that sets off {code}: what `{command}` prints for it, then what `{fix}` changes in "
    "it (as `--diff` shows it):",
    example_repaired="The same config, repaired:",
    fix="Fix",
    all_codes="all codes",
    group_schema="Schema findings",
    group_batch="Batch size",
    group_precision="Precision",
    group_zero="ZeRO",
    group_offload="Offload",
    group_optimizer="Optimizer and scheduler",
    group_communication="Communication",
    group_hf_auto='Hugging Face "auto"',
    group_sections="Other sections",
    group_release="DeepSpeed releases",
    group_advice="Advice",
)

_OPTION_SPAN = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_<>\[\]]+)+)`")


def _varies(code_: str, lang: Lang) -> str:
    """What a code's severity depends on, for a schema kind with no fixed severity: the reader (``--profile``,
    from :attr:`dsref.check.findings.Kind.severity_by_profile`) or where the key is."""
    by_profile = Kind(code_).severity_by_profile
    if by_profile is None:
        return M.text("severity_varies", lang)
    said = {profile: M.text(severity.value, lang) for profile, severity in by_profile.items()}
    return M.text("severity_by_profile", lang, deepspeed=said["deepspeed"], hf=said["hf"])


def codes() -> list[tuple[str, str, str | None, str, str]]:
    """(code, name, severity or None for a schema kind whose severity varies, English explanation, group) for every
    kind and rule."""
    from ..check.report.codes import every_code

    out: list[tuple[str, str, str | None, str, str]] = []
    for each in every_code():
        severity = each.severity.value if each.severity is not None else None
        out.append((each.code, each.name, severity, each.explanation("en"), each.group))
    return out


def _explanation(code_: str, lang: Lang) -> str:
    from ..check.report.codes import find_code

    found = find_code(code_)
    return found.explanation(lang) if found is not None else ""


GROUPS = (
    "schema",
    "batch",
    "precision",
    "zero",
    "offload",
    "optimizer",
    "communication",
    "hf_auto",
    "sections",
    "advice",
)
"""The groups of the codes in the site's navigation, in order: the schema kinds, then the rule modules
(``dsref/check/rules/<group>.py``) by area."""


def nav_group(code_: str) -> str:
    """The navigation group of a code: ``schema`` for a schema kind, else its rule's module.

    >>> nav_group("DS101"), nav_group("DS510"), nav_group("DS601")
    ('schema', 'precision', 'advice')
    """
    from ..check.rules import get_rule

    found = get_rule(code_)
    if found is None:
        return "schema"
    module = found.check.__module__.rsplit(".", 1)[-1]
    return module if module in GROUPS else "sections"


def example_of(code_: str) -> Example | None:
    """The config that sets a code off: a schema kind's from :data:`dsref.check.report.messages.EXAMPLES`, a rule's
    from its ``example=``."""
    from ..check.report.codes import find_code

    found = find_code(code_)
    return found.example if found is not None else None


def example_settings(example: Example) -> CheckSettings:
    """What a code's example is checked for: its reader, world size and release."""
    profile: Profile = "hf" if example.hf else "deepspeed"
    return CheckSettings(profile, example.world_size, example.deepspeed_version or DEEPSPEED_VERSION)


def repairing_fix(code_: str, example: Example) -> str | None:
    """``--fix`` or ``--fix --unsafe-fixes`` when that repairs the example so that ``code_`` is gone, else None."""
    from ..check.fix.fixer import fix_text

    for unsafe in (False, True):
        result = fix_text(example.text, "ds_config.json", example_settings(example), unsafe=unsafe)
        if result.changed and code_ not in {f.code for f in result.after.findings}:
            return "--fix --unsafe-fixes" if unsafe else "--fix"
    return None


def _example(code_: str, lang: Lang) -> list[str]:
    """The page's example: the config, what ``dsref check`` prints (at build time), and the fix or the repaired
    config; the build checks all of them (:mod:`dsref.site.doccheck`)."""
    from .doccheck import RUN_MARKER, command_options, parse_marker

    example = example_of(code_)
    if example is None:
        return []
    words = [
        *(["hf"] if example.hf else []),
        *([f"world-size {example.world_size}"] if example.world_size else []),
        *([f"deepspeed-version {example.deepspeed_version}"] if example.deepspeed_version else []),
    ]
    # What the example needs to be read as shown, for the check and for the fix alike (DS502's fix needs the
    # world size as much as its check does), and the release, which the output's first line names.
    options = command_options(example.text, parse_marker(" ".join(words)))
    command = " ".join(["dsref check ds_config.json", *options])
    fix = repairing_fix(code_, example)
    lines = [f"## {M.text('example', lang)}", ""]
    if fix is not None:
        fixing = " ".join(["dsref check", fix, *options])
        lines += [M.text("example_intro_fix", lang, code=code_, command=command, fix=fixing), ""]
    else:
        lines += [M.text("example_intro", lang, code=code_, command=command), ""]
    expect = " ".join(["expect", code_, *example.also])
    lines += [f"<!-- dsref-check: {' '.join([*words, expect])} -->", "```json", example.text.rstrip("\n")]
    lines += ["```", RUN_MARKER]
    if fix is not None:
        lines.append("<!-- dsref-fix-diff -->" if fix == "--fix" else "<!-- dsref-fix-diff: unsafe -->")
    lines.append("")
    repaired = example.repaired_text
    if fix is None and repaired is not None:
        lines += [M.text("example_repaired", lang), ""]
        if words:
            lines.append(f"<!-- dsref-check: {' '.join(words)} -->")
        lines += ["```json", repaired.rstrip("\n"), "```", ""]
    return lines


def _message(code_: str, lang: Lang) -> str:
    """The message in ``lang`` as dsref prints it for the code's example (its placeholders filled with the example's
    values); for a code without an example, the template with each placeholder shown as "…"."""
    from ..check.pipeline import check_text
    from ..check.report.draw import rendered

    example = example_of(code_)
    if example is not None:
        settings = example_settings(example)
        report = check_text(example.text, "ds_config.json", settings)
        shown = next((r for r in rendered(report, lang, settings.deepspeed_version) if r.code == code_), None)
        if shown is not None:
            return shown.message
    return re.sub(r"\{[A-Za-z_]+\}", "…", _template(code_, lang))


def _template(code_: str, lang: Lang) -> str:
    from ..check.report.codes import find_code

    found = find_code(code_)
    return found.template(lang) if found is not None else ""


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
        lines += [f"- **{M.text('severity', lang)}**{colon(lang)}{shown if severity else _varies(code_, lang)}"]
        if message:
            lines.append(f"- **{M.text('message', lang)}**{colon(lang)}{cell(message)}")
        lines.append("")
        explanation = _explanation(code_, lang)
        if explanation:
            lines += [linkify(paragraph(explanation), "../reference/", index), ""]
        if group != "schema":
            lines += [paragraph(holds_text(code_, lang)), ""]
        lines += [f"## {M.text('fix', lang)}", "", paragraph(fix_note(code_, lang)), ""]
        lines += _example(code_, lang)
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
            yield f"{code_}: no explanation (dsref/check/report/messages.py EXPLANATIONS, or the rule's explanation=)"
