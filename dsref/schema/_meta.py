"""Typed metadata that dsref keeps on every schema field, beside pydantic's own.

A field is declared with :func:`option`, which takes pydantic's ``Field``
arguments (default, bounds, alias, description) and dsref's own facts
(ZeRO stages, versions, Hugging Face ``"auto"``, unit, example, …). The facts
are stored as a frozen :class:`Meta` object in the field's ``metadata`` list,
so they stay plain typed data: no callables, nothing in ``json_schema_extra``.

>>> from pydantic import BaseModel
>>> class Demo(BaseModel):
...     size: int = option(5, ge=0, unit="elements", stages=(3,), since="0.3.12")
>>> meta_of(Demo.model_fields["size"]).stages
(3,)
>>> Demo(size=7).size
7
"""

from __future__ import annotations

from typing import Any, Literal

from ..records import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pydantic.fields import FieldInfo

__all__ = [
    "UNSET",
    "HfAuto",
    "HfChange",
    "Meta",
    "Unit",
    "meta_of",
    "option",
]


class _Unset:
    """Marker for "no value recorded" where ``None`` is itself a meaningful value."""

    _instance: _Unset | None = None

    def __new__(cls) -> _Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET: Any = _Unset()

Unit = Literal[
    "elements",  # number of tensor elements (bucket sizes, thresholds): not bytes
    "bytes",
    "parameters",
    "steps",
    "samples",
    "tokens",
    "layers",
    "ranks",
    "ratio",  # a fraction between 0 and 1
    "count",
]

HfFiller = Literal["transformers", "accelerate"]

WarmupRatio = Literal["when_no_steps", "replaces_steps"]
"""How a release of transformers reads ``TrainingArguments.warmup_ratio`` for the warm-up steps
(:attr:`HfChange.warmup_ratio`)."""


@record(slots=True)
class HfChange:
    """A release of one Hugging Face integration from which it fills ``"auto"`` here as :class:`HfAuto` says
    (or, when :attr:`HfAuto.by` leaves it out, no longer fills it), and what its earlier releases did."""

    by: HfFiller
    release: str
    """The first release of ``by`` that behaves as today, written ``"4.45.0"``."""
    before: str | None
    """The value its earlier releases put in, as a short formula; None: they left ``"auto"`` unfilled here."""
    example: Any = UNSET
    """A value those earlier releases put in for common inputs (a hidden size of 4096, the training arguments'
    defaults), where a DeepSpeed release refuses it: ``dsref check`` tells a file filled by them (DS561)."""
    compared: str = ""
    """The name those earlier releases' mismatch error gives the argument a written value is compared with, where it
    is not :attr:`HfAuto.compared` (``fp16|fp16_full_eval+fp16_backend(amp)`` before transformers 5)."""
    warmup_ratio: WarmupRatio | None = None
    """How those earlier releases read ``TrainingArguments.warmup_ratio`` for the warm-up steps: ``when_no_steps``,
    ``ceil(num_training_steps * warmup_ratio)`` where ``warmup_steps`` is 0 (transformers 4); ``replaces_steps``, a
    given ``warmup_ratio`` taken as ``warmup_steps`` (5.0 to 5.14, where it was deprecated); None: not at all."""


@record(slots=True)
class HfAuto:
    """Hugging Face fills ``"auto"`` for this option.

    ``by`` names the integrations whose newest releases fill it; ``source`` is the value they put in, as a short
    formula over their own arguments (a fact, not prose). ``changes`` records where that differs in older releases
    (read from transformers 4.30-5.24 and accelerate 0.20-1.15, and held against the releases' own filling recorded
    in ``tests/data/hf_releases.json``; options without changes did not change there): an option that only older
    releases filled keeps its ``HfAuto`` with ``by`` empty.
    """

    by: tuple[HfFiller, ...] = ("transformers", "accelerate")
    source: str = ""
    changes: tuple[HfChange, ...] = ()
    compared: str = ""
    """The ``TrainingArguments`` values Trainer compares a value written here (not ``"auto"``) with, named as its
    mismatch error names them (``per_device_train_batch_size``, ``fp16|fp16_full_eval``, ``train_batch_size
    (calculated)``); Trainer refuses to start when they differ. Empty where Trainer only fills an ``"auto"``."""


@record(slots=True)
class Meta:
    """dsref's facts about one option (leaf or section field).

    Versions are DeepSpeed release numbers written ``"0.19.7"``. ``None`` for
    ``since`` means "as old as its parent section".
    """

    stages: tuple[int, ...] | None = None
    """ZeRO stages in which the option has an effect; None: not stage-specific."""
    since: str | None = None
    removed_in: str | None = None
    use_instead: str | None = None
    """Dotted path of what replaces a removed or deprecated option, if one does."""
    removal_note: str | None = None
    """Why it went and what to do now (English; translated through the catalogs)."""
    deprecated: bool = False
    """Still accepted by DeepSpeed, but superseded (see ``use_instead``)."""
    deprecated_aliases: tuple[str, ...] = ()
    """Old spellings DeepSpeed still maps onto this option, with a warning."""
    docs_names: tuple[str, ...] = ()
    """Names DeepSpeed's documentation uses that DeepSpeed itself does not read."""
    hf_auto: HfAuto | None = None
    unit: Unit | None = None
    example: Any = UNSET
    """A value worth writing here, shown in the option's example; without one the example shows the default (for a
    bool, the value that changes something)."""
    requires: tuple[tuple[str, Any], ...] = ()
    """Other options that must be set beside this one for it to take effect, as (dotted path, value) pairs, e.g.
    ``(("zero_optimization.offload_param.device", "cpu"),)``; a section's hold for every option in it. Stages,
    a section's ``enabled`` switch and the batch size are derived and need not be listed (dsref/tree/examples.py)."""
    no_example: Literal["refused", "set_in_code", "filled_in"] | None = None
    """Why no config shows this option at work, where its other facts do not say so: DeepSpeed refuses any value
    but the default, the value is a Python object set in code, or DeepSpeed fills it in itself."""
    docs_default: Any = UNSET
    """The default DeepSpeed's docs state, recorded only where it differs from the code."""
    default_note: str | None = None
    """How the runtime fills a default that is not a constant (English)."""
    enum_docs: tuple[tuple[Any, str], ...] = ()
    """What each allowed value means, as (value, English text) pairs."""
    replacement: tuple[tuple[Any, str], ...] = ()
    """For a deprecated option whose successor has another shape: (written value, what to write instead, as JSON
    text placed in the same section; ``""``: delete the key, DeepSpeed behaves the same without it) pairs."""
    former_values: tuple[tuple[Any, Any], ...] = ()
    """Values earlier DeepSpeed releases accepted with the meaning of another one: (as they wrote it, what to write
    now) pairs. Which releases accepted the old spelling is recorded from the releases (``dsref/generated/releases``);
    a config written for them is carried to the target release by a safe fix."""
    former_names: tuple[str, ...] = ()
    """Keys, in the same section, that earlier DeepSpeed releases read with this option's meaning and later ones
    ignore. Which releases read them is recorded from the releases (``dsref/generated/releases``); checked for a later
    one, the old key is said to be this option's former name, and renaming it keeps what the file did there."""
    deprecated_forms: tuple[Literal["bool", "int", "str", "list", "null"], ...] = ()
    """JSON kinds of value DeepSpeed still accepts here in an old, deprecated form (e.g. a bool for a section)."""
    docs_only: bool = False
    """DeepSpeed's docs list this option, but DeepSpeed 0.19.8 rejects it."""
    enforced: bool = False
    """In a section DeepSpeed reads with dict.get, DeepSpeed itself still refuses a value of the wrong type or
    out of range (an assert or an exception when the config is built or the engine starts)."""
    enforced_when: str | None = None
    """With ``enforced``: the dotted path of a switch that must be true for DeepSpeed to check the value at all
    (e.g. ``expert_parallel.enabled``); while it is off, a wrong value is only a warning."""
    case_insensitive: bool = False
    """DeepSpeed compares the (string) value without regard to case."""
    parsed_unused: bool = False
    """DeepSpeed reads the key but nothing uses its value."""
    map_key: str = "name"
    """For a map of user-named entries (``dict[str, Model]``): the placeholder shown in paths, e.g. ``metric``."""
    ds_constant: str | None = None
    """Full dotted path of the DeepSpeed constant holding the default, e.g.
    ``deepspeed.runtime.constants.GRADIENT_CLIPPING_DEFAULT`` (for the cross-check)."""


_META_KEYS = frozenset(Meta.__dataclass_fields__)


def option(default: Any = UNSET, /, **kwargs: Any) -> Any:
    """Declare a field: pydantic ``Field`` arguments plus :class:`Meta` facts.

    ``default_factory`` may be given instead of a default. Keys that are
    :class:`Meta` attributes go to the metadata, the rest to ``Field``.
    """
    from pydantic import Field  # here, not at the top: the check path reads Meta without importing pydantic

    meta_kwargs = {k: kwargs.pop(k) for k in list(kwargs) if k in _META_KEYS}
    if default is UNSET and "default_factory" not in kwargs:
        info: FieldInfo = Field(**kwargs)
    elif default is UNSET:
        info = Field(**kwargs)
    else:
        info = Field(default, **kwargs)
    info.metadata.append(Meta(**meta_kwargs))
    return info


_EMPTY = Meta()


def meta_of(info: FieldInfo) -> Meta:
    """The :class:`Meta` of a field, or an empty one."""
    for item in info.metadata:
        if isinstance(item, Meta):
            return item
    return _EMPTY
