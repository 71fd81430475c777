"""Reusable field types for values DeepSpeed checks more strictly than pydantic's lax mode.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(NumberNotBool).validate_python(2)
2.0
>>> TypeAdapter(StrOrStrList).validate_python("a.B")
['a.B']
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator

from ._coerce import one_string_is_a_list as _one_string_is_a_list
from ._coerce import reject_bool as _reject_bool
from ._coerce import reject_str as _reject_str

NumberNotBool = Annotated[float, BeforeValidator(_reject_bool)]
"""A float that refuses ``true``/``false`` (pydantic would read them as 1.0/0.0)."""

IntNotBool = Annotated[int, BeforeValidator(_reject_bool)]
"""An int that refuses ``true``/``false``."""


IntNotStr = Annotated[int, BeforeValidator(_reject_str)]
"""An int that refuses strings such as ``"2"``: what pydantic does for ``Union[str, int]`` fields
whose validator then accepts only ``"auto"`` as a string."""

StrOrStrList = Annotated[list[str], BeforeValidator(_one_string_is_a_list)]
"""A list of strings; a single string counts as a list of one."""
