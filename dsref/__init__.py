"""dsref: the DeepSpeed ``ds_config.json`` reference, as one schema.

The public API (imported on first use, so that ``import dsref`` stays cheap):

* :func:`option_tree` — every option of DeepSpeed's config, by dotted path;
* :func:`validate` — a config dict checked against the schema, as findings;
* :class:`DeepSpeedConfig` — the root pydantic model.

>>> import dsref
>>> dsref.validate({"zero_optimization": {"stage": 2}})
[]
>>> dsref.option_tree().get("zero_optimization.stage").default
0
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False

__version__ = "0.1.0.dev0"

_LAZY = {
    "DEEPSPEED_VERSION": "dsref.versions",
    "DeepSpeedConfig": "dsref.schema.config",
    "Finding": "dsref.findings",
    "Kind": "dsref.findings",
    "Severity": "dsref.findings",
    "Option": "dsref.options",
    "OptionTree": "dsref.options",
    "option_tree": "dsref.options",
    "validate": "dsref.validation",
}

if TYPE_CHECKING:
    from .findings import Finding, Kind, Severity
    from .options import Option, OptionTree, option_tree
    from .schema.config import DeepSpeedConfig
    from .validation import validate
    from .versions import DEEPSPEED_VERSION


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dsref' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


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
