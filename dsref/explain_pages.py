"""The pre-rendered pages of ``dsref explain PATH``: found without loading the renderer, the index or the catalog.

``scripts/generate.py`` renders every option's page in each language, in colour, with
:func:`dsref.explain.page` into ``dsref/index_data/text_<lang>_<top>.py``; a test keeps them equal to what the
renderer draws now. Printing one takes a fraction of a millisecond, so ``dsref explain zero_optimization.stage``
starts nearly as fast as the bare interpreter. Only an option's own dotted path has a page; every other spelling
is resolved and rendered live.

>>> without_color(prerendered("zero_optimization.stage", "en")).splitlines()[:2]
['zero_optimization.stage', '  type           enum']
>>> prerendered("zero_optimization.prefetch_bucket_size", "en") is None  # an alias: rendered live
True
"""

from __future__ import annotations

import importlib

__all__ = ["prerendered", "without_color"]


def prerendered(path: str, lang: str) -> str | None:
    """The coloured page of the option whose canonical path is ``path``; None when ``path`` is anything else."""
    from .index_data import SHARDS

    top = path.split(".", 1)[0].split("[", 1)[0]
    if top not in SHARDS:
        return None
    module = importlib.import_module(f"dsref.index_data.text_{lang}_{top}")
    text: str | None = module.PAGES.get(path)
    return text


def without_color(text: str) -> str:
    """``text`` with its ANSI colour codes (``ESC [ digits m``) removed."""
    first, *rest = text.split("\033[")
    return first + "".join(part.split("m", 1)[1] for part in rest)
