"""Base classes of dsref's section models: one per way DeepSpeed reads a section.

How DeepSpeed treats a key it does not know, an ``"auto"`` value or a string
where a number belongs depends on how the section is read, so the base class
of each model records it once:

* :class:`StrictSection` mirrors a DeepSpeed pydantic model
  (``DeepSpeedConfigModel``): unknown keys are rejected, ``"auto"`` values are
  dropped so the default applies, and values are coerced in pydantic's lax mode.
* :class:`DictSection` mirrors a section read with ``dict.get``: unknown keys
  are silently ignored and values are used as written.
* :class:`PassthroughSection` is handed on whole (for example as constructor
  keyword arguments): keys dsref does not know are passed along unchecked.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict

UnknownKeys = Literal["reject", "ignore", "passthrough"]

_COMMON = ConfigDict(
    populate_by_name=True,
    use_enum_values=True,
    protected_namespaces=(),
    arbitrary_types_allowed=False,
    defer_build=True,  # the core schema is built on first validation; dsref mostly reads field metadata
)


class Section(BaseModel):
    """Any section of a DeepSpeed config."""

    model_config = ConfigDict(**_COMMON, extra="ignore")

    ds_class: ClassVar[str | None] = None
    """Import path of the DeepSpeed pydantic class this model mirrors, if any."""
    unknown_keys: ClassVar[UnknownKeys] = "ignore"
    drops_auto: ClassVar[bool] = False
    coerces: ClassVar[bool] = False


class StrictSection(Section):
    """A section DeepSpeed validates with pydantic (``DeepSpeedConfigModel``)."""

    model_config = ConfigDict(**_COMMON, extra="forbid")
    unknown_keys: ClassVar[UnknownKeys] = "reject"
    drops_auto: ClassVar[bool] = True
    coerces: ClassVar[bool] = True


class DictSection(Section):
    """A section DeepSpeed reads key by key with ``dict.get``."""

    model_config = ConfigDict(**_COMMON, extra="ignore")
    unknown_keys: ClassVar[UnknownKeys] = "ignore"


class PassthroughSection(Section):
    """A section DeepSpeed hands on whole; unknown keys travel with it."""

    model_config = ConfigDict(**_COMMON, extra="allow")
    unknown_keys: ClassVar[UnknownKeys] = "passthrough"
