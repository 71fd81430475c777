"""dsref's schema of DeepSpeed's ``ds_config.json``: pydantic models, one module per config section.

The root model is :class:`~dsref.schema.config.DeepSpeedConfig`. Field metadata
beyond pydantic's own lives in :mod:`dsref.schema._meta`; how DeepSpeed reads a
section (unknown keys, ``"auto"``, coercion) is the section model's base class,
from :mod:`dsref.schema._base`. This is the truth every other package derives from:
it imports nothing else of dsref.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .config import DeepSpeedConfig

__all__ = ["DeepSpeedConfig"]


def __getattr__(name: str) -> object:
    # Imported on first use: ``dsref check`` reads the generated check tree and only needs the pydantic-free
    # helpers of this package (``_meta``, ``_coerce``), not the models.
    if name == "DeepSpeedConfig":
        return importlib.import_module(".config", __name__).DeepSpeedConfig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
