"""Where each option lives on the reference site: one URL scheme for every face (CLI, editor schema, pages).

>>> option_url("zero_optimization.stage", "zh")
'https://dsref.github.io/dsref/zh/reference/zero_optimization/#zero_optimization.stage'
>>> schema_url("en", "hf")
'https://dsref.github.io/dsref/schemas/ds_config.hf.schema.json'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .i18n import Lang

SITE = "https://dsref.github.io/dsref/"


def reference_page(path: str) -> str:
    """The reference page an option is on: named after its top-level key."""
    return path.split(".", 1)[0].split("[", 1)[0]


def option_url(path: str, lang: Lang) -> str:
    """The URL of an option's anchor (its dotted path) on the site, in ``lang``."""
    return f"{SITE}{lang}/reference/{reference_page(path)}/#{path}"


def schema_file(lang: Lang, profile: str = "deepspeed") -> str:
    """The file name of an editor JSON Schema: ``ds_config[.hf][.zh].schema.json`` (English, DeepSpeed: no infix)."""
    infix = "".join(
        f".{part}" for part in (profile if profile != "deepspeed" else "", lang if lang != "en" else "") if part
    )
    return f"ds_config{infix}.schema.json"


def schema_url(lang: Lang, profile: str = "deepspeed") -> str:
    """The stable URL the site serves an editor JSON Schema at (the committed ``schemas/`` file of that name)."""
    return f"{SITE}schemas/{schema_file(lang, profile)}"
