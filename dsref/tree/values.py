"""Config values as the JSON reader hands them over: the name of their JSON type.

>>> json_type({}), json_type([1]), json_type(True), json_type(1), json_type(1.5), json_type(None)
('object', 'array', 'boolean', 'integer', 'number', 'null')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["json_type"]


def json_type(value: Any) -> str:
    """The JSON name of a Python value's type (``object``, ``array``, ``string`` …)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return type(value).__name__
