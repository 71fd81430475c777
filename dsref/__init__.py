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

_LAZY = {
    "__version__": "dsref.tree.versions",  # as DSREF_VERSION there
    "DEEPSPEED_VERSION": "dsref.tree.versions",
    "DeepSpeedConfig": "dsref.schema.config",
    "Finding": "dsref.check.findings",
    "Kind": "dsref.check.findings",
    "Severity": "dsref.check.findings",
    "Option": "dsref.tree.options",
    "OptionTree": "dsref.tree.options",
    "option_tree": "dsref.tree.options",
    "validate": "dsref.check.validate.validation",
}

if TYPE_CHECKING:
    from .check.findings import Finding, Kind, Severity
    from .check.validate.validation import validate
    from .schema.config import DeepSpeedConfig
    from .tree.options import Option, OptionTree, option_tree
    from .tree.versions import DEEPSPEED_VERSION
    from .tree.versions import DSREF_VERSION as __version__


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'dsref' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), "DSREF_VERSION" if name == "__version__" else name)
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
