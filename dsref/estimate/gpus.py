"""GPUs by name, with the memory they are sold with (``80GB`` is read as 80 × 2**30 bytes, as everywhere here).

>>> gpu_memory("A100-80G") // GIB, gpu_memory("rtx 4090") // GIB, gpu_memory("24GB") // GIB
(80, 24, 24)
"""

from __future__ import annotations

import re

from .quantities import GIB, EstimateError, Param, parse_bytes

__all__ = ["GPUS", "gpu_memory"]

GPUS: dict[str, int] = {
    "RTX3090": 24,
    "RTX4090": 24,
    "RTX5090": 32,
    "A10": 24,
    "L4": 24,
    "A6000": 48,
    "L40S": 48,
    "V100-16G": 16,
    "V100-32G": 32,
    "A100-40G": 40,
    "A100-80G": 80,
    "A800": 80,
    "H100": 80,
    "H800": 80,
    "H20": 96,
    "H200": 141,
    "B200": 180,
    "MI300X": 192,
    "910B": 64,
}
"""Memory of one device in GB, by the name people use (NVIDIA, AMD, Huawei Ascend)."""


def _key(name: str) -> str:
    key = re.sub(r"[\s_\-]+", "", name.upper())
    key = re.sub(r"^(NVIDIA|GEFORCE|ASCEND|AMD|INSTINCT)+", "", key)
    return re.sub(r"GB$", "G", key)


_LOOKUP = {_key(name): size for name, size in GPUS.items()}
_LOOKUP.update({_key(name[3:]): size for name, size in GPUS.items() if name.startswith("RTX")})


def gpu_memory(text: str, option: Param = Param.gpu_memory) -> int:
    """Bytes of one GPU: a name from :data:`GPUS` (case, spaces and dashes ignored) or a size such as ``24GB``."""
    size = _LOOKUP.get(_key(text))
    if size is not None:
        return size * GIB
    if re.fullmatch(r"\s*[+\-]?[0-9.,_]+\s*[A-Za-z]*\s*", text) and not re.search(
        r"[A-Za-z]{2,}\d|\d[A-Za-z]+\d", text
    ):
        return parse_bytes(text, option)
    raise EstimateError("unknown_gpu", option=option, value=text.strip(), known=", ".join(GPUS))
