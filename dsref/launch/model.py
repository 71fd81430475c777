"""A launch as plain data: where its ds_config is, how many processes it starts, the training arguments it gives."""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from ..records import record

__all__ = ["Built", "Form", "Given", "Launch", "LaunchError", "Place"]

Form = Literal["shell", "llamafactory", "axolotl", "accelerate"]
"""How the launch is written: a shell command line or script, a LLaMA-Factory YAML, an axolotl YAML, an Accelerate
config."""


@record
class Given:
    """A value the launch gives, and where: the line and column in the launch file (1-based)."""

    value: Any
    line: int
    col: int = 1
    written: str = ""
    """As the launch writes it (``$LR``, ``2e-5``), for messages."""
    key_line: int = 0
    """Where the flag or key that gives the value starts (``--per_device_train_batch_size``,
    ``micro_batch_size:``), 1-based; 0 where the value stands alone (a bare switch is its own flag)."""
    key_col: int = 1
    file: str = ""
    """The file that writes it, where it is not the launch's own (the Accelerate config ``--config_file`` names)."""

    def span(self) -> tuple[int, int, int]:
        """The line, first column and column after the end of the flag (or key) with its value, as the launch
        writes them: the whole ``--per_device_train_batch_size 0``, or only the flag where the value is on a line
        of its own (after a continuation)."""
        end = self.col + max(1, len(self.written or str(self.value)))
        if not self.key_line or (self.key_line, self.key_col) >= (self.line, self.col):
            return self.line, self.col, end
        if self.key_line == self.line:
            return self.line, self.key_col, end
        return self.key_line, self.key_col, self.key_col + 1


@record
class Place:
    """Where a value is written in a launch file: offsets into its text (key and value; the key's -1 where there
    is none), and how the value is written (``number``, ``string``, ``boolean``, ``object``, ``null``)."""

    form: str
    key_start: int
    key_end: int
    value_start: int
    value_end: int


@record
class Built:
    """A ds_config a launch file builds itself (an Accelerate config's inline ``deepspeed_config``), with where
    each value comes from."""

    config: dict[str, Any] | None
    """The config; None where the launch names a file instead."""
    places: dict[tuple[str, ...], Place]
    """For each location in :attr:`config`, the entry of the launch file it comes from."""
    ignored: tuple[Given, ...] = ()
    """Keys the tool does not read (``value`` is the key)."""
    refused: tuple[Given, ...] = ()
    """Keys the tool refuses beside the file the launch names (``value`` is the key)."""
    path: str = ""
    """The file it is built from (the Accelerate config), whose text :attr:`places` point into."""
    text: str = ""
    mixed_precision: str = "no"
    """The precision the plugin sets (``set_mixed_precision``): the training arguments' ``--fp16``/``--bf16``, else
    ``accelerate launch --mixed_precision``, else the config's ``mixed_precision``."""
    plugin_values: dict[tuple[str, ...], Any] = field(default_factory=dict)
    """What the plugin fills into the ``"auto"`` of the file the launch names, by location, from the keys the launch
    sets (``accelerate launch --zero_stage 3``); the plugin's defaults elsewhere."""


@record
class Launch:
    """What a launch says of a run, as far as the checks need it."""

    path: str
    """The launch file (``-`` for a command line given on dsref's own)."""
    form: Form
    ds_config: Given | None
    """The ds_config as the launch names it (``value`` is the name as written), or None when it names none."""
    ds_config_path: str | None
    """Where that file is, resolved as the training script resolves it (relative to the directory it runs in)."""
    arguments: dict[str, Given]
    """Training arguments by ``TrainingArguments`` name, converted to its types (``--bf16`` → True)."""
    nodes: Given | None = None
    processes_per_node: Given | None = None
    processes: Given | None = None
    """The total number of processes where the launcher says it directly (``accelerate launch --num_processes``)."""
    unknown: tuple[str, ...] = ()
    """Arguments whose value the launch leaves to the run: set through a shell variable dsref cannot resolve, or
    axolotl's ``auto`` (decided by the GPU it runs on)."""
    model: Given | None = None
    """The model as the launch names it (``--model_name_or_path``, ``model_name_or_path:``, ``base_model:``)."""
    model_config_path: str | None = None
    """The model's ``config.json``, where the model is a local directory that has one."""
    hidden_size: int | None = None
    """The model's hidden size as Trainer reads it from that ``config.json`` (None when it is not at hand)."""
    sequence_length: Given | None = None
    """The longest sequence trained on (``--model_max_length``, ``cutoff_len:``, ``sequence_len:``)."""
    gradient_checkpointing: Given | None = None
    """Whether activations are recomputed (``--gradient_checkpointing``, ``gradient_checkpointing:``)."""
    hostfile: Given | None = None
    """The deepspeed launcher's ``--hostfile`` as written: its hosts' slots give the world size (read by
    :func:`~dsref.launch.read.with_files`)."""
    built: Built | None = None
    """The ds_config the launch file builds or the keys it sets beside one (an Accelerate config)."""
    text: str = ""
    """The launch's text as read (a command given after ``--``: the command, quoted as the shell would), whose
    lines a finding on a value the launch gives shows."""
    accelerate_config: Given | None = None
    """``accelerate launch --config_file`` as written: the Accelerate config the command runs with (its
    ``distributed_type: DEEPSPEED`` section builds or names the ds_config, read by
    :func:`~dsref.launch.read.with_files` into :attr:`built`)."""
    mixed_precision: Given | None = None
    """``accelerate launch --mixed_precision`` as written (it overrides the Accelerate config's)."""
    accelerate_flags: dict[str, Given] = field(default_factory=dict)
    """``accelerate launch``'s own DeepSpeed flags (``--use_deepspeed``, ``--zero_stage 3``, …) by the key of the
    Accelerate config each sets (:data:`~dsref.launch.accelerate.FLAG_KEYS`), the value as written."""
    accelerate_default: bool = False
    """The command is ``accelerate launch`` naming no config and giving no DeepSpeed flag: Accelerate reads its
    default config file where there is one (:func:`~dsref.launch.read.with_files` looks for it, and makes it
    :attr:`accelerate_config`)."""
    accelerate_default_at: int = 0
    """The line of that command."""

    def line_text(self, line: int, file: str = "") -> str | None:
        """The launch's ``line`` (1-based) as written (of ``file``: the Accelerate config it runs with); None past
        its end."""
        text = self.built.text if file and self.built is not None and file == self.built.path else self.text
        lines = text.split("\n")
        return lines[line - 1].removesuffix("\r") if 0 < line <= len(lines) else None

    @property
    def world_size_given(self) -> Given | None:
        """Where the launch gives its world size: the total number of processes, else the processes per node."""
        return self.processes or self.processes_per_node

    @property
    def world_size(self) -> int | None:
        """How many processes train, when the launch says: processes per node × nodes, or the total given."""
        if self.processes is not None and isinstance(self.processes.value, int):
            return self.processes.value
        per_node = self.processes_per_node.value if self.processes_per_node is not None else None
        nodes = self.nodes.value if self.nodes is not None else 1
        if isinstance(per_node, int) and isinstance(nodes, int):
            return per_node * nodes
        return None


class LaunchError(ValueError):
    """A launch dsref cannot read: why (a key of :data:`dsref.launch.read.MESSAGES`), and where."""

    def __init__(self, reason: str, path: str, line: int = 0, **args: Any) -> None:
        super().__init__(reason, path, line)
        self.reason, self.path, self.line, self.details = reason, path, line, args
