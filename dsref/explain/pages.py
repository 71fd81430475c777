"""The pre-rendered pages of ``dsref explain PATH``: found without loading the renderer, the index or the catalog.

``scripts/generate.py`` renders every option's page in each language, in colour, with
:func:`dsref.explain.render.page` into ``dsref/generated/pages_<lang>.txt`` (with ``pages.py`` saying where each
page is); a test keeps them equal to what the renderer draws now. Printing one takes a fraction of a
millisecond, so ``dsref explain zero_optimization.stage`` starts nearly as fast as the bare interpreter. An
option's own dotted path has a page, and so have its other accepted names written in full
(:func:`dsref.explain.render.page_paths`); every other spelling is resolved and rendered live.

>>> without_color(prerendered("zero_optimization.stage", "en")).splitlines()[:2]
['zero_optimization.stage', '  type           enum']
>>> without_color(prerendered("zero_optimization.prefetch_bucket_size", "en")).splitlines()[0]  # an alias
'zero_optimization.stage3_prefetch_bucket_size'
>>> prerendered("prefetch_bucket_size", "en") is None  # no section prefix: resolved and rendered live
True
"""

from __future__ import annotations

import os

__all__ = ["prerendered", "without_color"]


def prerendered(path: str, lang: str) -> str | None:
    """The coloured page of the option whose canonical path is ``path``; None when ``path`` is anything else."""
    from ..generated import pages

    ends: tuple[int, ...] | None = pages.ENDS.get(lang)
    if ends is None or "\n" in path:
        return None
    found = pages.PATHS.find(f"\n{path}\n")
    if found < 0:
        return None
    number = pages.PATHS.count("\n", 0, found)
    start, end = (ends[number - 1] if number else 0), ends[number]
    try:
        with open(os.path.join(os.path.dirname(str(pages.__file__)), f"pages_{lang}.txt"), "rb") as handle:
            handle.seek(start)
            return handle.read(end - start).decode("utf-8")
    except (OSError, UnicodeDecodeError):  # a damaged installation: render the page live instead
        return None


def without_color(text: str) -> str:
    """``text`` with its ANSI colour codes (``ESC [ digits m``) removed."""
    first, *rest = text.split("\033[")
    return first + "".join(part.split("m", 1)[1] for part in rest)
