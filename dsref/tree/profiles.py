"""The two readers of a config file, called profiles: DeepSpeed's own launcher and Hugging Face Trainer/Accelerate.

``deepspeed`` reads the file with Hjson (comments allowed, duplicate keys refused) and drops ``"auto"`` where its
pydantic models validate; ``hf`` reads it with strict ``json.load`` and fills ``"auto"`` where Hugging Face does.
The checker, the editor schema and the site take one of these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from .options import OptionTree

__all__ = ["PROFILES", "Profile", "hugging_face_fills", "might_write_auto", "writes_auto"]

Profile = Literal["deepspeed", "hf"]
PROFILES: tuple[Profile, ...] = ("deepspeed", "hf")

# Which reader a file is meant for, when nobody says (``--profile`` left out, the server's ``profile`` unset): the
# one rule that ``dsref check``, ``--fix`` and the language server follow. A file that strict ``json.load`` reads
# and that writes the value ``"auto"`` somewhere is read as Hugging Face Trainer/Accelerate read and fill it: only
# they understand ``"auto"``, and they read JSON. Any other file is read as the ``deepspeed`` launcher reads it.


def might_write_auto(text: str) -> bool:
    """Whether ``text`` may hold the value ``"auto"`` at all: the cheap test before :func:`writes_auto`."""
    return '"auto"' in text


def writes_auto(data: Any) -> bool:
    """Whether the value ``"auto"`` is written anywhere in ``data`` (a parsed config), at any depth.

    >>> writes_auto({"zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}}), writes_auto({"auto": 1})
    (True, False)
    """
    stack = [data]
    while stack:
        value = stack.pop()
        if value == "auto" and isinstance(value, str):
            return True
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def hugging_face_fills(tree: OptionTree, location: Sequence[str | int]) -> bool:
    """Whether Hugging Face Trainer or Accelerate fill an ``"auto"`` written at ``location`` (the keys as written):
    only for an option they fill, written under its own name at its own place. They look the value up key by key
    as written (transformers' ``HfDeepSpeedConfig.find_config_node``), so an ``"auto"`` under an alias
    (``bfloat16`` for ``bf16``) is not filled and reaches DeepSpeed, which drops it. The one answer the checker,
    the rules, the estimator and the proof of fixes use.

    >>> from dsref.tree.options import option_tree
    >>> tree = option_tree()
    >>> hugging_face_fills(tree, ("bf16", "enabled")), hugging_face_fills(tree, ("bfloat16", "enabled"))
    (True, False)
    """
    path = ".".join(str(step) for step in location)
    return path in tree and bool(tree.get(path).hf_auto)
