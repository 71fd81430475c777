"""``dsref rule CODE``: what a finding code means, why it matters and how to fix it; no code lists them all."""

from __future__ import annotations

import argparse

from .lang import add_lang_option, language


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("code", nargs="?", help="a finding code (DS101, DS510, …) or a rule name")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..check.repair.fix_notes import fix_note
    from ..check.report.codes import every_code, find_code
    from ..check.report.draw import S as SEVERITY
    from ..text.punctuation import aside

    lang = language(args)
    if lang is None:
        return 2
    if args.code is None:
        for each in every_code():
            if each.rule is None:
                print(f"{each.code}  {each.name}")
            else:
                print(f"{each.code}  {aside(each.name, SEVERITY.text(each.rule.severity.value, lang), lang)}")
        return 0
    found = find_code(args.code)
    if found is None:
        from ..text.escape import visible
        from .texts import CLI, say

        say("dsref: " + CLI.text("no_rule", lang, value=visible(args.code.strip(), name=True)))
        return 2
    if found.rule is None:
        print(f"{found.code} {found.name}\n\n{found.explanation(lang)}\n\n{fix_note(found.code, lang)}")
        return 0
    from ..check.report.rule_holds import holds_text

    print(f"{found.code} {aside(found.name, SEVERITY.text(found.rule.severity.value, lang), lang)}\n")
    print(found.explanation(lang))
    print(f"\n{holds_text(found.code, lang)}")
    print(f"\n{fix_note(found.code, lang)}")
    return 0
