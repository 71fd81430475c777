"""The Python API page: mkdocstrings renders each name ``dsref/__init__.py`` exports (English only).

The Chinese page says that the API reference is in English and links to it.

>>> "::: dsref.check.validate.validation.validate" in page("en")
True
>>> "../../api/" in page("zh")
True
"""

from __future__ import annotations

from ..text.i18n import Lang, messages
from .header import generated_header

__all__ = ["M", "exported", "page"]

SOURCE = "dsref/site/api.py"

M = messages(
    "site.api",
    title="Python API",
    intro="`import dsref` gives these names; everything else in the package may change between releases. "
    "Importing dsref is cheap: each name is imported on first use.",
    only_english="The Python API reference is written in English, from the docstrings in the code: {link}.",
    link_text="Python API (English)",
)


def exported() -> list[str]:
    """Each public name as the dotted path mkdocstrings documents it under (where it is defined)."""
    import dsref

    lazy: dict[str, str] = dsref._LAZY
    return [
        f"{lazy[name]}.{name}" if name in lazy else f"dsref.{name}" for name in dsref.__all__ if name != "__version__"
    ]


def page(lang: Lang) -> str:
    lines = [generated_header(SOURCE), f"# {M.text('title', lang)}", ""]
    if lang != "en":
        # A raw link: MkDocs resolves Markdown links within one language, and the English page is in the other.
        link = f'<a href="../../api/" hreflang="en">{M.text("link_text", lang)}</a>'
        return "\n".join([*lines, M.text("only_english", lang, link=link), ""])
    lines += [M.text("intro", lang), ""]
    for target in exported():
        lines += [f"::: {target}", ""]
    return "\n".join(lines).rstrip("\n") + "\n"
