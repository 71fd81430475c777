"""The ``TrainingArguments`` of Hugging Face Transformers that a launch gives and Trainer compares with a ds_config:
their types and defaults, as transformers 5.24 declares them (``tests`` hold them against the installed release),
and how a command line or a YAML value becomes one."""

from __future__ import annotations

from typing import Any

__all__ = [
    "CHECKPOINTING_NAMES",
    "FORMER_ARGUMENTS",
    "MODEL_NAMES",
    "SEQUENCE_NAMES",
    "TRAINING_ARGUMENTS",
    "convert",
    "switch",
    "trainer_value",
]

TRAINING_ARGUMENTS: dict[str, tuple[type, Any]] = {
    "per_device_train_batch_size": (int, 8),
    "gradient_accumulation_steps": (int, 1),
    "learning_rate": (float, 5e-05),
    "adam_beta1": (float, 0.9),
    "adam_beta2": (float, 0.999),
    "adam_epsilon": (float, 1e-08),
    "weight_decay": (float, 0.0),
    "max_grad_norm": (float, 1.0),
    "warmup_steps": (float, 0),
    "warmup_ratio": (float, 0.0),
    "max_steps": (int, -1),
    "num_train_epochs": (float, 3.0),
    "fp16": (bool, False),
    "bf16": (bool, False),
    "fp16_full_eval": (bool, False),
    "bf16_full_eval": (bool, False),
    "auto_find_batch_size": (bool, False),
}
"""Name → (type, default) of the arguments the checks read."""

FORMER_ARGUMENTS = ("warmup_ratio",)
"""Arguments of :data:`TRAINING_ARGUMENTS` that only older releases have (``warmup_ratio``, gone in transformers
5.15; the ``HfChange`` facts of ``scheduler.params.warmup_num_steps`` say how each release reads it), with their
transformers 4 default; the newest leaves them to the script."""

MODEL_NAMES = ("model_name_or_path", "base_model")
"""Where a launch names its model: the training scripts' ``--model_name_or_path`` (LLaMA-Factory's too), axolotl's
``base_model``."""
SEQUENCE_NAMES = ("cutoff_len", "sequence_len", "model_max_length", "max_seq_length", "max_length")
"""Where a launch gives the longest sequence it trains on: LLaMA-Factory's ``cutoff_len``, axolotl's
``sequence_len``, the Alpaca/FastChat scripts' ``model_max_length``, TRL's ``max_seq_length`` and ``max_length``."""

CHECKPOINTING_NAMES = ("gradient_checkpointing", "activation_checkpointing")
"""Where a launch turns on recomputing activations (transformers 5 calls it ``activation_checkpointing`` and keeps
``gradient_checkpointing`` as its alias; LLaMA-Factory and axolotl take ``gradient_checkpointing``)."""


def switch(value: Any) -> bool | None:
    """A switch as a command line or YAML writes it (``True``, ``true``, ``yes``, ``1``; bare: True); None for
    anything else."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in _TRUE else False if text in _FALSE else None


_TRUE = {"true", "yes", "y", "1", "t"}
_FALSE = {"false", "no", "n", "0", "f"}


def convert(name: str, value: Any) -> Any:
    """``value`` (a command line's text, or a YAML scalar) as ``TrainingArguments`` holds it for ``name``, as
    HfArgumentParser converts it (a switch: ``true``/``yes``/``1`` and their opposites, any case); raises
    ``ValueError`` for a value the parser refuses.

    >>> convert("bf16", "True"), convert("learning_rate", "2e-5"), convert("per_device_train_batch_size", 4)
    (True, 2e-05, 4)
    """
    kind, _ = TRAINING_ARGUMENTS[name]
    if kind is bool:
        converted = switch(value)
        if converted is None:
            raise ValueError(f"{name}: {value!r} is not true or false")
        return converted
    if isinstance(value, bool):
        raise ValueError(f"{name}: {value!r} is not a number")
    if kind is int:
        if isinstance(value, int):
            return value
        return int(str(value).strip())
    return float(value) if not isinstance(value, str) else float(value.strip())


def trainer_value(name: str, given: dict[str, Any]) -> Any:
    """The value Trainer holds for ``name``: the one the launch gives, else the default."""
    return given[name] if name in given else TRAINING_ARGUMENTS[name][1]
