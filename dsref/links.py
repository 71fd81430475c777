"""Where each option lives on the reference site: one URL scheme for every face (CLI, editor schema, pages).

>>> option_url("zero_optimization.stage", "zh")
'https://dsref.github.io/dsref/zh/reference/zero_optimization/#zero_optimization.stage'
"""

from __future__ import annotations

from .i18n import Lang

SITE = "https://dsref.github.io/dsref/"


def reference_page(path: str) -> str:
    """The reference page an option is on: named after its top-level key."""
    return path.split(".", 1)[0].split("[", 1)[0]


def option_url(path: str, lang: Lang) -> str:
    """The URL of an option's anchor (its dotted path) on the site, in ``lang``."""
    return f"{SITE}{lang}/reference/{reference_page(path)}/#{path}"
