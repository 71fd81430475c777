"""Maintain dsref's gettext catalogs: extract | update | compile | check | stats.

python scripts/catalog.py extract   # write dsref/text/locales/dsref.pot from the schema and message tables
python scripts/catalog.py update    # merge the template into zh_CN/LC_MESSAGES/dsref.po (changed texts: fuzzy)
python scripts/catalog.py compile   # write dsref.mo next to each .po
python scripts/catalog.py check     # exit 1 if anything is stale, untranslated, fuzzy or inconsistent
python scripts/catalog.py stats     # translated / total
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsref.text import catalog as cat
from dsref.text.i18n import LANGUAGES

TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("extract", "update", "compile", "check", "stats"))
    args = parser.parse_args(argv)
    template = cat.extract()
    if args.action == "extract":
        cat.write_catalog(template, cat.pot_path())
        print(f"{cat.pot_path()}: {len(template)} messages")
    elif args.action == "update":
        for lang in TRANSLATED:
            catalog = cat.update(lang, template)
            cat.write_catalog(catalog, cat.po_path(lang))
            done, total = cat.stats(lang, template)
            print(f"{cat.po_path(lang)}: {done}/{total} translated")
    elif args.action == "compile":
        for lang in TRANSLATED:
            catalog = cat.read_catalog(cat.po_path(lang))
            cat.po_path(lang).with_suffix(".mo").write_bytes(cat.compile_mo(catalog))
            print(f"{cat.po_path(lang).with_suffix('.mo')} written")
    elif args.action == "check":
        failed = False
        for lang in TRANSLATED:
            found = cat.problems(lang, template)
            for problem in found[:50]:
                print(f"{lang}: {problem}")
            if len(found) > 50:
                print(f"{lang}: … and {len(found) - 50} more")
            failed = failed or bool(found)
        return 1 if failed else 0
    else:
        for lang in TRANSLATED:
            done, total = cat.stats(lang, template)
            print(f"{lang}: {done}/{total} translated ({100 * done // max(total, 1)}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
