"""The bilingual reference site: pages generated from the schema, the doc checks, and the MkDocs hooks.

Everything a reader sees on the site that is a fact about an option, a rule or a ZeRO stage is generated here
from the schema (``docs/{en,zh}/reference/``, ``rules/``, ``zero.md``, ``precision.md``, ``fit.md``, ``api.md``,
``changes.md``) and
committed; :func:`site_files` lists them for :mod:`dsref.generator.files`, so ``scripts/generate.py`` writes them and
``tests/unit/generator/test_generated.py`` fails when one is stale. :mod:`dsref.site.doccheck` checks every ```json
block of the
docs, :mod:`dsref.site.hooks` is what ``mkdocs.yml`` loads, and :mod:`dsref.site.linkcheck` checks the built site.

Nothing here imports MkDocs at module level, so the package imports (and its doctests run) without it. The site sits
on top with the CLI: it may import every face and everything below them, but not the CLI.
"""

from __future__ import annotations

from pathlib import Path

from ..text.i18n import Lang
from .header import generated_header, is_generated

__all__ = ["LANGS", "generated_header", "is_generated", "site_files"]

LANGS: tuple[Lang, ...] = ("en", "zh")


def site_files(docs: Path) -> dict[Path, bytes]:
    """Every generated page and asset of the site under ``docs`` (the ``docs/`` folder of a checkout)."""
    from .api import page as api_page
    from .changes import pages as change_pages
    from .fit import pages as fit_pages
    from .reference import pages as reference_pages
    from .rules import pages as rule_pages
    from .zero import pages as comparison_pages

    files: dict[Path, bytes] = {}
    for lang in LANGS:
        for name, text in reference_pages(lang).items():
            files[docs / lang / "reference" / name] = text.encode("utf-8")
        for name, text in rule_pages(lang).items():
            files[docs / lang / "rules" / name] = text.encode("utf-8")
        for name, content in comparison_pages(lang).items():
            files[docs / lang / name] = content if isinstance(content, bytes) else content.encode("utf-8")
        for name, text in fit_pages(lang).items():
            files[docs / lang / name] = text.encode("utf-8")
        files[docs / lang / "api.md"] = api_page(lang).encode("utf-8")
        for name, text in change_pages(lang).items():
            files[docs / lang / name] = text.encode("utf-8")
    return files
