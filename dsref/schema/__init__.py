"""dsref's schema of DeepSpeed's ``ds_config.json``: pydantic models, one module per config section.

The root model is :class:`~dsref.schema.config.DeepSpeedConfig`. Field metadata
beyond pydantic's own lives in :mod:`dsref.schema._meta`; how DeepSpeed reads a
section (unknown keys, ``"auto"``, coercion) is the section model's base class,
from :mod:`dsref.schema._base`. This is the truth every other package derives from:
it imports nothing else of dsref. Other packages import what they need of it from
here, never from its private modules.
"""

from __future__ import annotations

import importlib

from ._meta import UNSET, HfAuto, HfChange, HfFiller, Meta, Unit, WarmupRatio, meta_of, option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._base import DictSection, PassthroughSection, Section, StrictSection, UnknownKeys
    from ._types import StrOrStrList
    from .config import DeepSpeedConfig

__all__ = [
    "UNSET",
    "DeepSpeedConfig",
    "DictSection",
    "HfAuto",
    "HfChange",
    "HfFiller",
    "Meta",
    "PassthroughSection",
    "Section",
    "StrOrStrList",
    "StrictSection",
    "Unit",
    "UnknownKeys",
    "WarmupRatio",
    "meta_of",
    "option",
]

# Imported on first use: these need pydantic, and ``dsref check`` reads the generated check tree with only the
# pydantic-free helpers of this package (``_meta``, ``_coerce``).
_LAZY = {
    "DeepSpeedConfig": ".config",
    "DictSection": "._base",
    "PassthroughSection": "._base",
    "Section": "._base",
    "StrictSection": "._base",
    "UnknownKeys": "._base",
    "StrOrStrList": "._types",
}


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)
