"""The two readers of a config file, called profiles: DeepSpeed's own launcher and Hugging Face Trainer/Accelerate.

``deepspeed`` reads the file with Hjson (comments allowed, duplicate keys refused) and drops ``"auto"`` where its
pydantic models validate; ``hf`` reads it with strict ``json.load`` and fills ``"auto"`` where Hugging Face does.
The checker, the editor schema and the site take one of these names.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["PROFILES", "Profile"]

Profile = Literal["deepspeed", "hf"]
PROFILES: tuple[Profile, ...] = ("deepspeed", "hf")
