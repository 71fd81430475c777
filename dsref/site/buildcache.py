"""What the site build learns by running dsref on a page's examples, kept between builds.

Every ```json block of the docs is checked at build time, and the blocks that ask for it get dsref's real output
and fix diff (:mod:`dsref.site.doccheck`); that is most of the build. The answers depend only on the block (its text
and marker), the page's language and dsref itself, so each is stored under a key made of those: the block, the
language, what was asked, and a fingerprint of dsref (its version and the bytes of every file of the package: code,
catalogs, generated data). A change to any of them is another key; nothing is ever invalidated by hand.

An entry is read back only when it parses, holds the key it is stored under and a value of the expected type;
anything else (a half-written file, another format, an edited entry) is ignored and computed again. The folder is
``.cache/dsref-site/`` beside ``mkdocs.yml`` (git-ignored); ``DSREF_SITE_CACHE`` names another folder, or ``off``
turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import asdict
from functools import cache
from pathlib import Path

from .doccheck import Block

__all__ = ["BuildCache", "about", "fingerprint"]

_PACKAGE = Path(__file__).resolve().parents[1]


@cache
def fingerprint() -> str:
    """dsref's version and a digest of every file of the package (``__pycache__`` aside)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        release = version("dsref")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
        release = "unknown"
    digest = hashlib.sha256(release.encode())
    for path in sorted(_PACKAGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return f"{release}+{digest.hexdigest()[:16]}"


class BuildCache:
    """Answers about blocks, on disk under ``folder`` (None: nothing kept)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.hits = 0
        self.misses = 0

    @classmethod
    def beside(cls, config_file: Path) -> BuildCache:
        """The cache of the site whose ``mkdocs.yml`` is ``config_file`` (off when ``DSREF_SITE_CACHE=off``)."""
        setting = os.environ.get("DSREF_SITE_CACHE", "")
        if setting.lower() in ("off", "0", "no"):
            return cls(None)
        return cls(Path(setting) if setting else config_file.resolve().parent / ".cache" / "dsref-site")

    def key(self, question: str, subject: str, lang: str) -> str:
        asked = {"question": question, "lang": lang, "subject": subject, "dsref": fingerprint()}
        return hashlib.sha256(json.dumps(asked, sort_keys=True).encode()).hexdigest()

    def text(self, question: str, block: Block, lang: str, compute: Callable[[], str]) -> str:
        """The stored text answering ``question`` about ``block`` in ``lang``, else ``compute()``, stored."""
        return str(self.answer(question, about(block), lang, compute, lambda v: isinstance(v, str)))

    def lines(self, question: str, subject: Block | str, lang: str, compute: Callable[[], list[str]]) -> list[str]:
        """As :meth:`text`, for an answer that is a list of strings (about a block, or any text)."""
        found = self.answer(
            question,
            about(subject) if isinstance(subject, Block) else subject,
            lang,
            compute,
            lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
        )
        return [str(x) for x in found]  # type: ignore[attr-defined]

    def answer(
        self, question: str, subject: str, lang: str, compute: Callable[[], object], sound: Callable[[object], bool]
    ) -> object:
        """The stored answer to ``question`` about ``subject`` in ``lang`` when one is stored and ``sound`` says it
        has the right shape, else ``compute()`` (a JSON value), stored for the next build."""
        if self.folder is None:
            return compute()
        key = self.key(question, subject, lang)
        path = self.folder / key[:2] / f"{key}.json"
        stored = _read(path, key)
        if stored is not None and sound(stored[0]):
            self.hits += 1
            return stored[0]
        self.misses += 1
        value = compute()
        _write(path, {"key": key, "value": value})
        return value


def about(block: Block) -> str:
    """What an answer about a block depends on: its text and marker, not the page or line it is on."""
    return json.dumps(
        {
            "text": block.text,
            "marker": asdict(block.marker),
            "marker_error": block.marker_error,
            "diff": block.wants_diff,
        },
        sort_keys=True,
        default=repr,
    )


def _read(path: Path, key: str) -> tuple[object] | None:
    """The value of the entry at ``path`` when it parses and holds ``key``."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != key or "value" not in entry:
        return None
    return (entry["value"],)


def _write(path: Path, entry: dict[str, object]) -> None:
    """Write whole or not at all (a build killed half-way leaves no half entry)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp") as f:
            json.dump(entry, f, ensure_ascii=False)
        os.replace(f.name, path)
    except OSError:
        pass  # a cache that cannot be written is no cache, not a failed build
