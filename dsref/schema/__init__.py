"""dsref's schema of DeepSpeed's ``ds_config.json``: pydantic models, one module per config section.

The root model is :class:`~dsref.schema.config.DeepSpeedConfig`. Field metadata
beyond pydantic's own lives in :mod:`dsref.schema._meta`; how DeepSpeed reads a
section (unknown keys, ``"auto"``, coercion) is the section model's base class,
from :mod:`dsref.schema._base`.
"""

from __future__ import annotations

from .config import DeepSpeedConfig

__all__ = ["DeepSpeedConfig"]
