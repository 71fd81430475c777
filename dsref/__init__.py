"""dsref: the DeepSpeed ``ds_config.json`` reference, as one schema.

The public API:

* :func:`option_tree` — every option of DeepSpeed's config, by dotted path;
* :func:`validate` — a config dict checked against the schema, as findings;
* :class:`DeepSpeedConfig` — the root pydantic model.

>>> validate({"zero_optimization": {"stage": 2}})
[]
>>> option_tree().get("zero_optimization.stage").default
0
"""

from __future__ import annotations

from .findings import Finding, Kind, Severity
from .options import Option, OptionTree, option_tree
from .schema.config import DeepSpeedConfig
from .validate import validate
from .versions import DEEPSPEED_VERSION

__version__ = "0.1.0.dev0"

__all__ = [
    "DEEPSPEED_VERSION",
    "DeepSpeedConfig",
    "Finding",
    "Kind",
    "Option",
    "OptionTree",
    "Severity",
    "__version__",
    "option_tree",
    "validate",
]
