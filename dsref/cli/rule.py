"""``dsref rule CODE``: what a finding code means, why it matters and how to fix it; no code lists them all."""

from __future__ import annotations

import argparse

from .lang import add_lang_option, language


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", help="a finding code (DS101, DS510, …) or a rule name")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..check.findings import Kind
    from ..check.repair.fix_notes import fix_note
    from ..check.report.draw import S as SEVERITY
    from ..check.report.messages import explanation
    from ..check.rules import all_rules, get_rule
    from ..text.punctuation import aside

    lang = language(args)
    if lang is None:
        return 2
    if args.code is None:
        for kind in Kind:
            print(f"{kind.code}  {kind.name.replace('_', '-')}")
        for r in all_rules():
            print(f"{r.code}  {aside(r.name, SEVERITY.text(r.severity.value, lang), lang)}")
        return 0
    wanted = args.code.strip()
    found_kind = next((k for k in Kind if k.code.lower() == wanted.lower() or k.name.replace("_", "-") == wanted), None)
    if found_kind is not None:
        name = found_kind.name.replace("_", "-")
        print(f"{found_kind.code} {name}\n\n{explanation(found_kind, lang)}\n\n{fix_note(found_kind.code, lang)}")
        return 0
    found = get_rule(wanted)
    if found is None:
        from ..text.escape import visible
        from .texts import CLI, say

        say("dsref: " + CLI.text("no_rule", lang, value=visible(wanted, name=True)))
        return 2
    print(f"{found.code} {aside(found.name, SEVERITY.text(found.severity.value, lang), lang)}\n")
    print(found.text("explanation", lang))
    print(f"\n{fix_note(found.code, lang)}")
    return 0
