"""Whether a file is a DeepSpeed config: the one rule ``check DIR`` and the language server decide it by.

A file is taken for one by its name (``ds_config*.json``, ``*deepspeed*.json``, ``zero*.json``) or, whatever its
name, when its beginning writes two or more of the keys nearly every config has (``train_batch_size``,
``zero_optimization``, ``fp16``, ...). A model's ``config.json``, a ``package.json`` or a ``tsconfig.json`` beside the
configs is none.

>>> looks_like_config("runs/ds_config_zero3.json", "{}"), looks_like_config("model/config.json", '{"hidden_size": 4}')
(True, False)
>>> looks_like_config("stage2.json", '{"fp16": {"enabled": true}, "zero_optimization": {"stage": 2}}')
True
"""

from __future__ import annotations

import re

__all__ = ["EXTENSIONS", "SNIFF_CHARS", "looks_like_config"]

EXTENSIONS = (".json", ".jsonc", ".hjson")
"""The endings of the files a config may be written in."""

SNIFF_CHARS = 65536
"""How much of the text the keys are looked for in."""

_NAMES = re.compile(r"(^ds_config.*|.*deepspeed.*|^zero.*)\.json$", re.IGNORECASE)
_KEYS = re.compile(
    r"""["']?(train_batch_size|train_micro_batch_size_per_gpu|gradient_accumulation_steps|zero_optimization|"""
    r"""fp16|bf16|optimizer|scheduler|gradient_clipping|steps_per_print)["']?\s*:"""
)


def looks_like_config(path: str, text: str) -> bool:
    """Whether the file at ``path`` (a name or a path, ``/``-separated), whose text begins with ``text``, is a
    DeepSpeed config by its name or by its keys."""
    name = path.rsplit("/", 1)[-1]
    if not name.lower().endswith(EXTENSIONS):
        return False
    return bool(_NAMES.match(name)) or len(set(_KEYS.findall(text[:SNIFF_CHARS]))) >= 2
