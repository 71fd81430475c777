"""A launch written as a YAML file of training arguments: LLaMA-Factory's (``llamafactory-cli train x.yaml``) and
axolotl's (``axolotl train x.yaml``), with the line of each value (PyYAML's own reading)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .arguments import CHECKPOINTING_NAMES, MODEL_NAMES, SEQUENCE_NAMES, TRAINING_ARGUMENTS, convert, switch
from .model import Form, Given, Launch, LaunchError

__all__ = ["read_accelerate_text", "read_yaml"]

_AXOLOTL_NAMES = {
    "micro_batch_size": "per_device_train_batch_size",
    "num_epochs": "num_train_epochs",
    "adam_beta1": "adam_beta1",
    "adam_beta2": "adam_beta2",
    "adam_epsilon": "adam_epsilon",
}
"""axolotl's keys that are another ``TrainingArguments`` name (the rest it passes on under the same name)."""


def read_yaml(text: str, path: str, accelerate: str | None = None) -> Launch:
    """The launch in a LLaMA-Factory or axolotl YAML file, or an Accelerate config (the ds_config it builds as
    Accelerate ``accelerate`` builds it; None: the newest dsref knows); :class:`LaunchError` for any other YAML."""
    try:
        return _read_yaml(text, path, accelerate)
    except RecursionError:  # PyYAML composes and builds nested values by recursion
        raise LaunchError("yaml_too_deep", path) from None


def _read_yaml(text: str, path: str, accelerate: str | None) -> Launch:
    try:
        import yaml
    except ImportError:
        raise LaunchError("yaml_missing", path) from None

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise LaunchError("bad_yaml", path, mark.line + 1 if mark else 0, detail=str(exc).splitlines()[0]) from None
    if not isinstance(root, yaml.MappingNode):
        raise LaunchError("unknown_yaml", path)
    constructor = yaml.SafeLoader("")
    entries: dict[str, tuple[Any, int, int, str, int, int]] = {}
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            continue
        value = constructor.construct_object(value_node, deep=True)
        written = value_node.value if isinstance(value_node, yaml.ScalarNode) else ""
        if isinstance(value_node, yaml.ScalarNode) and value_node.end_mark.line == value_node.start_mark.line:
            written = text_of(text, value_node) or written  # with its quotes, as the line shows it
        entries[str(key_node.value)] = (
            value,
            value_node.start_mark.line + 1,
            value_node.start_mark.column + 1,
            written,
            key_node.start_mark.line + 1,
            key_node.start_mark.column + 1,
        )
    if "distributed_type" in entries or "deepspeed_config" in entries:
        from .accelerate import read_accelerate

        return replace(read_accelerate(root, path, text, release=accelerate), text=text)
    form: Form
    if {"base_model", "micro_batch_size", "sequence_len"} & entries.keys():
        form = "axolotl"
    elif {"model_name_or_path", "cutoff_len", "finetuning_type", "stage"} & entries.keys():
        form = "llamafactory"
    else:
        raise LaunchError("unknown_yaml", path)
    arguments: dict[str, Given] = {}
    unknown: list[str] = []
    for key, (value, line, col, written, key_line, key_col) in entries.items():
        name = _AXOLOTL_NAMES.get(key, key) if form == "axolotl" else key
        if name not in TRAINING_ARGUMENTS or value is None:
            continue
        if form == "axolotl" and isinstance(value, str) and value.strip().lower() == "auto":
            unknown.append(name)  # axolotl's bf16: auto, decided by the GPU it runs on
            continue
        try:
            arguments[name] = Given(convert(name, value), line, col, written or str(value), key_line, key_col)
        except ValueError:
            raise LaunchError("bad_value", path, line, name=key, value=str(value)) from None
    deepspeed = entries.get("deepspeed")
    ds_config = None
    if deepspeed is not None and isinstance(deepspeed[0], str):
        ds_config = Given(*deepspeed[:4])
    facts = {key: Given(*entry[:4]) for key, entry in entries.items()}
    model = next((facts[n] for n in MODEL_NAMES if n in facts and isinstance(facts[n].value, str)), None)
    length = next((facts[n] for n in SEQUENCE_NAMES if n in facts and type(facts[n].value) is int), None)
    return Launch(
        path,
        form,
        ds_config,
        None,
        arguments,
        unknown=tuple(unknown),
        model=model,
        sequence_length=length,
        gradient_checkpointing=next(
            (replace(facts[n], value=switch(facts[n].value)) for n in CHECKPOINTING_NAMES if n in facts), None
        ),
        text=text,
    )


def text_of(text: str, node: Any) -> str:
    """The text of a one-line YAML scalar ``node`` as ``text`` writes it (quotes included)."""
    return str(text[node.start_mark.index : node.end_mark.index])


def read_accelerate_text(
    text: str,
    path: str,
    precision: str | None = None,
    *,
    other_kinds: bool = False,
    release: str | None = None,
    flags: dict[str, Given] | None = None,
    flags_text: str = "",
    flags_path: str = "",
) -> Launch:
    """The Accelerate config in ``text`` (the file ``path``), as :func:`~.accelerate.read_accelerate` reads it, with
    the training process's ``precision``, as Accelerate ``release`` builds it (None: the newest dsref knows), and
    ``accelerate launch``'s own DeepSpeed ``flags`` over it (written in ``flags_text``, the file ``flags_path``);
    :class:`LaunchError` for a YAML that is no Accelerate config."""
    try:
        import yaml
    except ImportError:
        raise LaunchError("yaml_missing", path) from None
    from .accelerate import read_accelerate

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
        if not isinstance(root, yaml.MappingNode):
            raise LaunchError("unknown_yaml", path)
        return replace(
            read_accelerate(
                root,
                path,
                text,
                precision,
                other_kinds=other_kinds,
                release=release,
                flags=flags,
                flags_text=flags_text,
                flags_path=flags_path,
            ),
            text=text,
        )
    except yaml.YAMLError as exc:
        raise LaunchError("bad_yaml", path, 0, detail=str(exc).splitlines()[0]) from None
    except RecursionError:
        raise LaunchError("yaml_too_deep", path) from None
