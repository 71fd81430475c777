"""The plain functions some field types run before pydantic validates a value (``BeforeValidator``).

They live apart from the models and import nothing heavy, because the generated check tree
(:mod:`dsref.check.validate.checktree`) names them in its validators: ``dsref check`` calls them without importing
pydantic or
building a model.

>>> reject_bool(True)
Traceback (most recent call last):
ValueError: a boolean is not a number here
>>> one_string_is_a_list("a.B"), upper_case("warn")
(['a.B'], 'WARN')
"""

from __future__ import annotations

from typing import Any

__all__ = ["one_string_is_a_list", "reject_bool", "reject_str", "upper_case"]


def reject_bool(value: Any) -> Any:
    """Refuses ``true``/``false`` where a number belongs (pydantic would read them as 1 and 0)."""
    if isinstance(value, bool):
        raise ValueError("a boolean is not a number here")
    return value


def reject_str(value: Any) -> Any:
    """Refuses a string where a number belongs (pydantic's lax mode would parse ``"2"``)."""
    if isinstance(value, str):
        raise ValueError("a string is not a number here")
    return value


def one_string_is_a_list(value: Any) -> Any:
    """A single string counts as a list of one."""
    return [value] if isinstance(value, str) else value


def upper_case(value: Any) -> Any:
    """Upper-cases a string value, as DeepSpeed does before comparing it."""
    return value.upper() if isinstance(value, str) else value
