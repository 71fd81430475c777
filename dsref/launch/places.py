"""Where a launch gives what Trainer compares a config option with: the launch's values behind one argument, so that
a finding about that option can be shown on the launch's lines too (the playground marks both of its panes).

>>> from .model import Given, Launch
>>> launch = Launch("run.sh", "shell", None, None, {"bf16": Given(True, 4, 3, "--bf16")})
>>> [(g.line, g.written) for g in givens("bf16|bf16_full_eval", launch)]
[(4, '--bf16')]
>>> givens("learning_rate", launch)
()
"""

from __future__ import annotations

import re

from .model import Given, Launch

__all__ = ["arguments_of", "givens"]

_CALCULATED = {
    "train_batch_size (calculated)": ("per_device_train_batch_size", "gradient_accumulation_steps"),
    "num_training_steps (calculated)": ("max_steps",),
    "warmup_steps": ("warmup_steps", "max_steps"),  # a ratio below 1 is of the training steps
}
"""The arguments behind what Trainer works out itself (its mismatch error names these as it names them)."""


def arguments_of(compared: str) -> tuple[str, ...]:
    """The ``TrainingArguments`` names behind ``compared``, as the schema's ``HfAuto.compared`` and Trainer's
    mismatch error write it (``bf16|bf16_full_eval``: either; ``adam_beta1+adam_beta2``: both).

    >>> arguments_of("adam_beta1+adam_beta2")
    ('adam_beta1', 'adam_beta2')
    >>> arguments_of("train_batch_size (calculated)")
    ('per_device_train_batch_size', 'gradient_accumulation_steps')
    """
    if compared in _CALCULATED:
        return _CALCULATED[compared]
    return tuple(name for name in re.split(r"[|+]", compared.split(" ")[0]) if name)


def givens(compared: str, launch: Launch) -> tuple[Given, ...]:
    """The values ``launch`` gives for the arguments behind ``compared``, where it gives them; for the batch size
    Trainer works out, the launcher's process counts too (they are its third factor)."""
    found = [launch.arguments[name] for name in arguments_of(compared) if name in launch.arguments]
    if compared == "train_batch_size (calculated)":
        counts = (launch.processes, launch.processes_per_node, launch.nodes)
        found.extend(given for given in counts if given is not None)
    return tuple(found)
