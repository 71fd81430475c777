"""Where each option lives on the reference site: one URL scheme for every face (CLI, editor schema, pages).

>>> option_url("zero_optimization.stage", "zh")
'https://dsref.github.io/dsref/zh/reference/zero_optimization/#zero_optimization.stage'
>>> option_url("zero_optimization.stage", "en")
'https://dsref.github.io/dsref/reference/zero_optimization/#zero_optimization.stage'
>>> schema_url("en", "hf")
'https://dsref.github.io/dsref/schemas/ds_config.hf.schema.json'
>>> is_site_url(page_url("rules/DS301/", "zh")), is_site_url("https://dsref.github.io.evil.example/dsref/")
(True, False)
"""

from __future__ import annotations

SITE = "https://dsref.github.io/dsref/"
"""The published site (``site_url`` in ``mkdocs.yml``; ``tests/functional/test_site.py`` checks that they agree)."""

LANG_PATHS: dict[str, str] = {"en": "", "zh": "zh/"}
"""Where each language's pages are under :data:`SITE`: mkdocs-static-i18n builds the default language, English, at
the root and Chinese under ``zh/``."""


def reference_page(path: str) -> str:
    """The reference page an option is on: named after its top-level key."""
    return path.split(".", 1)[0].split("[", 1)[0]


def page_url(page: str, lang: str) -> str:
    """The URL of a page of the site (``reference/fp16/``, ``rules/DS510/``) in ``lang``."""
    return f"{SITE}{LANG_PATHS[lang]}{page}"


def is_site_url(url: object) -> bool:
    """Whether ``url`` is a page of the site and nothing else: the scheme and host of :data:`SITE`, a path under
    its path that no ``..`` leaves, no user name, no port, nothing but printable ASCII (the server opens only such
    a URL in the user's browser).

    >>> [is_site_url(u) for u in ("javascript:alert(1)", "file:///etc/passwd", "http://dsref.github.io/dsref/")]
    [False, False, False]
    >>> is_site_url("https://dsref.github.io@evil.example/dsref/"), is_site_url("https://dsref.github.io/dsref/%2e%2e/x")
    (False, False)
    """
    from urllib.parse import unquote, urlsplit

    if not isinstance(url, str) or len(url) > 2048 or not url.isascii() or not url.isprintable() or " " in url:
        return False
    if "\\" in url:  # a browser reads a backslash as a slash
        return False
    try:
        site, parts = urlsplit(SITE), urlsplit(url)
    except ValueError:  # an unclosed "[" of an IPv6 host
        return False
    if (parts.scheme, parts.netloc.lower()) != (site.scheme, site.netloc) or not parts.path.startswith(site.path):
        return False
    return not any(segment in (".", "..") for segment in unquote(parts.path).split("/"))


def option_url(path: str, lang: str) -> str:
    """The URL of an option's anchor (its dotted path) on the site, in ``lang``."""
    return page_url(f"reference/{reference_page(path)}/", lang) + f"#{path}"


def schema_file(lang: str, profile: str = "deepspeed") -> str:
    """The file name of an editor JSON Schema: ``ds_config[.hf][.zh].schema.json`` (English, DeepSpeed: no infix)."""
    infix = "".join(
        f".{part}" for part in (profile if profile != "deepspeed" else "", lang if lang != "en" else "") if part
    )
    return f"ds_config{infix}.schema.json"


def schema_url(lang: str, profile: str = "deepspeed") -> str:
    """The stable URL the site serves an editor JSON Schema at (the committed ``schemas/`` file of that name)."""
    return f"{SITE}schemas/{schema_file(lang, profile)}"
