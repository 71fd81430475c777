"""The names of the units an option counts in, as every face shows them (explain, the site, the editor schema)."""

from __future__ import annotations

from .i18n import messages

UNITS = messages(
    "unit",
    elements="elements (a count of tensor elements, not bytes)",
    bytes="bytes",
    parameters="parameters",
    steps="steps",
    samples="samples",
    tokens="tokens",
    layers="layers",
    ranks="ranks (GPUs)",
    ratio="ratio (0 to 1)",
    count="count",
)
"""Unit key (an option's ``unit``) → its name in each language."""
