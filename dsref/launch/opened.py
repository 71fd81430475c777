"""A launch file read for checking: the launch, what its tool does with it that dsref says before any check (a key
Accelerate ignores or refuses, a ds_config that is not there, a value left to the run), and what there is to check.

``dsref check LAUNCH`` says each :class:`Said` on standard error; the language server publishes them on the launch
file's lines. Both read the launch here, so they say the same.

>>> opened = open_launch("train.yaml", "stage: sft\\nper_device_train_batch_size: 2\\ndeepspeed: nowhere/ds.json\\n")
>>> [(s.reason, s.line, s.severity, s.stops) for s in opened.said]
[('ds_config_missing', 3, 'error', True)]
>>> open_launch("compose.yaml", "services: {}\\n").is_launch
False
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from ..records import record
from ..text.escape import visible
from ..text.i18n import Lang
from .model import Built, Launch, LaunchError
from .read import MESSAGES, candidates, read_launch

__all__ = ["NOT_A_LAUNCH", "Opened", "Said", "open_launch"]

NOT_A_LAUNCH = frozenset({"no_command", "unknown_yaml", "accelerate_not_deepspeed", "no_ds_config"})
"""Reasons that say the file is no DeepSpeed launch at all (a shell script that starts no training, another YAML):
``dsref check`` names them, an editor leaves such a file alone."""


@record
class Said:
    """What dsref says of a launch file before checking it: a key of :data:`~.read.MESSAGES` with its arguments
    (shown already: escaped), where (1-based; line 0 for the whole file), and how much it weighs."""

    reason: str
    args: dict[str, str]
    line: int = 0
    col: int = 0
    severity: Literal["error", "warning", "info"] = "error"
    stops: bool = False
    """Nothing is checked after it: the launch cannot be read, or names no ds_config that is there."""
    file: str = ""
    """The file :attr:`line` is in, where it is not the launch file (the Accelerate config its command names)."""

    def text(self, lang: Lang) -> str:
        return MESSAGES.text(self.reason, lang, **self.args)


@record
class Opened:
    """A launch file as read for checking."""

    path: str
    launch: Launch | None
    """None when the file cannot be read as a launch (its :attr:`said` says why)."""
    said: tuple[Said, ...] = ()
    built: Built | None = None
    """The ds_config the file builds itself (an Accelerate config's inline ``deepspeed_config``), to check on the
    file's own lines; else None."""
    named: str | None = None
    """The ds_config file the launch names, found; None when it builds one or names none that is there."""

    @property
    def is_launch(self) -> bool:
        """Whether the file is a DeepSpeed launch at all (else an editor says nothing of it)."""
        return not any(s.reason in NOT_A_LAUNCH for s in self.said)

    @property
    def refused(self) -> bool:
        """The tool refuses the launch file itself (a key Accelerate refuses)."""
        return any(s.reason == "accelerate_refused" for s in self.said)


def open_launch(path: str, text: str, accelerate: str | None = None, *, config_given: bool = False) -> Opened:
    """Read the launch file ``path`` whose text is ``text``, find the ds_config it names or builds, and collect
    what is said of it, in the order ``dsref check`` says it; an Accelerate config's ds_config as Accelerate
    ``accelerate`` builds it (None: the newest dsref knows). ``config_given``: the ds_config is given beside the
    launch (the playground's pasted config), so whatever path the launch names is that config, named as written,
    and never looked for."""
    try:
        launch = read_launch(path, text, accelerate)
    except LaunchError as exc:
        args = {name: visible(str(value)) for name, value in exc.details.items()}
        return Opened(path, None, (Said(exc.reason, args, exc.line, stops=True),))
    if config_given and launch.ds_config is not None:
        launch = replace(launch, ds_config_path=str(launch.ds_config.value))
    said: list[Said] = []
    if launch.accelerate_default and launch.accelerate_config is not None:
        shown = visible(str(launch.accelerate_config.value), name=True)
        said.append(Said("accelerate_default_config", {"path": shown}, launch.accelerate_config.line, severity="info"))
    if launch.built is not None:
        from .accelerate import ACCELERATE_KEYS

        known = ", ".join(ACCELERATE_KEYS)
        elsewhere = launch.built.path if launch.built.path and launch.built.path != path else ""
        for key in launch.built.ignored:
            args = {"key": visible(str(key.value)), "known": known}
            said.append(Said("accelerate_ignored", args, key.line, key.col, "warning", file=elsewhere))
        for key in launch.built.refused:
            args = {"key": visible(str(key.value))}
            said.append(Said("accelerate_refused", args, key.line, key.col, file=elsewhere))
        if launch.built.config is not None:
            if launch.unknown:
                said.append(Said("unknown_value", {"names": ", ".join(launch.unknown)}, severity="info"))
            return Opened(path, launch, tuple(said), built=launch.built)
    if launch.ds_config is None:
        said.append(Said("no_ds_config", {}, stops=True))
        return Opened(path, launch, tuple(said))
    if launch.ds_config_path is None:
        written = str(launch.ds_config.value)
        where = launch.ds_config
        tried = ", ".join(visible(p, name=True) for p in candidates(written, where.file or path))
        args = {"written": visible(written), "tried": tried}
        said.append(Said("ds_config_missing", args, where.line, where.col, stops=True, file=where.file))
        return Opened(path, launch, tuple(said))
    if launch.unknown:
        said.append(Said("unknown_value", {"names": ", ".join(launch.unknown)}, severity="info"))
    return Opened(path, launch, tuple(said), named=launch.ds_config_path)
