"""Check a built site: every internal link leads to a file, and every ``#anchor`` to an element with that id.

MkDocs validates the links written in Markdown; this checks what the reader gets, the HTML of every page (theme
navigation, generated tables, raw links and the check-output blocks included), without a network.

>>> import tempfile, pathlib
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> (root / "a").mkdir()
>>> _ = (root / "index.html").write_text('<a href="a/#x.y">ok</a> <a href="a/#nope">bad</a> <a href="b/">gone</a>')
>>> _ = (root / "a" / "index.html").write_text('<h2 id="x.y">X</h2>')
>>> [str(p) for p in check_site(root)]
['index.html: a/#nope: no element with id "nope" in a/index.html', 'index.html: b/: b/ does not exist']
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

from ..records import record

__all__ = ["Broken", "check_site"]

_LINKING = {("a", "href"), ("link", "href"), ("img", "src"), ("script", "src"), ("source", "src"), ("iframe", "src")}
_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)\s([^>]*)>")
_ATTRIBUTE = re.compile(r'([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|\'([^\']*)\')')


@record
class Broken:
    page: str
    href: str
    reason: str

    def __str__(self) -> str:
        return f"{self.page}: {self.href}: {self.reason}"


@record(frozen=False)
class _Page:
    ids: set[str]
    links: list[str]


@cache
def _parse(path: Path) -> _Page:
    """Ids and link targets of a page (attribute values unescaped). A regular expression over the tags: the HTML
    MkDocs writes quotes every attribute, and this is ten times faster than ``html.parser`` on 200 large pages."""
    page = _Page(set(), [])
    text = path.read_text(encoding="utf-8", errors="replace")
    for tag, attributes in _TAG.findall(text):
        tag = tag.lower()
        for name, double, single in _ATTRIBUTE.findall(attributes):
            value = html.unescape(double or single)
            name = name.lower()
            if name == "id" or (tag == "a" and name == "name"):
                page.ids.add(value)
            elif (tag, name) in _LINKING:
                page.links.append(value)
    return page


def _internal(href: str) -> bool:
    parts = urlsplit(href)
    return not (parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:", "data:")))


def _target(root: Path, page: Path, path: str, base_path: str) -> Path | None:
    """The file a URL path leads to from ``page`` (directory URLs end in ``index.html``), or None. An absolute path
    must start with ``base_path``, the path the site is published under."""
    base = PurePosixPath(page.relative_to(root).as_posix()).parent
    if path.startswith("/"):
        if not path.startswith(base_path):
            return None
        joined = PurePosixPath(path[len(base_path) :] or ".")
    else:
        joined = base / path
    parts: list[str] = []
    for part in joined.parts:
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part != ".":
            parts.append(part)
    candidate = root.joinpath(*parts)
    if path.endswith("/") or candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def check_site(root: Path, base_path: str = "/") -> list[Broken]:
    """Every broken internal link and anchor of the HTML pages under ``root``, page by page.

    ``base_path`` is the path of the published site (``/dsref/`` for ``https://dsref.github.io/dsref/``): absolute
    links such as the language switcher's on the home page start with it.
    """
    _parse.cache_clear()
    broken: list[Broken] = []
    for page in sorted(root.rglob("*.html")):
        name = page.relative_to(root).as_posix()
        for href in _parse(page).links:
            if not _internal(href):
                continue
            parts = urlsplit(href)
            target = _target(root, page, unquote(parts.path), base_path) if parts.path else page
            if target is None:
                broken.append(Broken(name, href, f"{unquote(parts.path)} does not exist"))
                continue
            # a fragment that carries data (the playground's #config=...) names no element
            if parts.fragment and target.suffix == ".html" and "=" not in parts.fragment:
                anchor = unquote(parts.fragment)
                if anchor not in _parse(target).ids:
                    where = target.relative_to(root).as_posix()
                    broken.append(Broken(name, href, f'no element with id "{anchor}" in {where}'))
    return broken
