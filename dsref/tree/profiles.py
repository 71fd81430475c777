"""The two readers of a config file, called profiles: DeepSpeed's own launcher and Hugging Face Trainer/Accelerate.

``deepspeed`` reads the file with Hjson (comments allowed, duplicate keys refused) and drops ``"auto"`` where its
pydantic models validate; ``hf`` reads it with strict ``json.load`` and fills ``"auto"`` where Hugging Face does.
The checker, the editor schema and the site take one of these names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .options import OptionTree

__all__ = ["PROFILES", "Profile", "hugging_face_fills"]

Profile = Literal["deepspeed", "hf"]
PROFILES: tuple[Profile, ...] = ("deepspeed", "hf")


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
