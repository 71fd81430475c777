"""JSON written the way Prettier writes it, so that the committed schemas pass SchemaStore's formatting check as is.

Prettier (its ``json`` parser, default options) keeps an object broken over lines when its source was, puts an
array on one line when it fits in 80 columns with what follows it, and otherwise gives each item its own line
(numbers fill their lines instead); numbers are written in their shortest form (``1e-8``, not ``1e-08``).
Every object here is written broken, as Prettier then keeps it. ``tests/functional/test_schemastore.py`` runs Prettier
itself on every file this module writes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..text.width import display_width

__all__ = ["PRINT_WIDTH", "format_json"]

PRINT_WIDTH = 80
"""Prettier's default ``printWidth``."""

_EXPONENT = re.compile(r"e([+-]?)0*(\d)")


def format_json(value: Any) -> str:
    """``value`` as Prettier formats JSON, with a final newline.

    >>> print(format_json({"enum": ["a", "b"], "default": [0.9, 0.999], "eps": 1e-08, "empty": {}}), end="")
    {
      "enum": ["a", "b"],
      "default": [0.9, 0.999],
      "eps": 1e-8,
      "empty": {}
    }
    """
    return _value(value, 0, 0, 0) + "\n"


def _scalar(value: Any) -> str:
    if isinstance(value, float):
        text = json.dumps(value, allow_nan=False)
        return _EXPONENT.sub(lambda m: f"e{'-' if m.group(1) == '-' else ''}{m.group(2)}", text)
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _value(value: Any, indent: int, column: int, after: int) -> str:
    """``value`` printed at ``column`` of a line indented by ``indent``, followed by ``after`` characters (a comma)."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + 2
        items = list(value.items())
        lines = []
        for i, (key, item) in enumerate(items):
            head = " " * inner + json.dumps(str(key), ensure_ascii=False) + ": "
            comma = 1 if i < len(items) - 1 else 0
            lines.append(head + _value(item, inner, display_width(head), comma) + ("," if comma else ""))
        return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + 2
        flat = [_value(item, inner, 0, 0) for item in value]
        if not any("\n" in part for part in flat) and not any(isinstance(i, dict) and i for i in value):
            line = "[" + ", ".join(flat) + "]"
            if column + display_width(line) + after <= PRINT_WIDTH:  # CJK counts two columns, as in Prettier
                return line
        if all(isinstance(i, (int, float)) and not isinstance(i, bool) for i in value):
            return _fill(flat, indent)
        parts = [
            " " * inner + _value(item, inner, inner, 1 if i < len(value) - 1 else 0) for i, item in enumerate(value)
        ]
        return "[\n" + ",\n".join(parts) + "\n" + " " * indent + "]"
    return _scalar(value)


def _fill(numbers: list[str], indent: int) -> str:
    """Numbers as Prettier fills them: as many to a line as fit."""
    inner = " " * (indent + 2)
    lines: list[str] = []
    current = ""
    for i, number in enumerate(numbers):
        piece = number + ("," if i < len(numbers) - 1 else "")
        candidate = f"{current} {piece}" if current else piece
        if current and len(inner) + len(candidate) > PRINT_WIDTH:
            lines.append(current)
            current = piece
        else:
            current = candidate
    lines.append(current)
    return "[\n" + "\n".join(inner + line for line in lines) + "\n" + " " * indent + "]"
