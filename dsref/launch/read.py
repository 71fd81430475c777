"""Read a launch from a file and find the ds_config it names."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace

from ..text.i18n import messages
from .model import Given, Launch, LaunchError

__all__ = [
    "LAUNCH_SUFFIXES",
    "MESSAGES",
    "candidates",
    "default_accelerate_config",
    "hidden_size",
    "is_launch_file",
    "read_launch",
    "resolve",
    "with_accelerate_config",
    "with_default_accelerate_config",
    "with_files",
]

LAUNCH_SUFFIXES = (".sh", ".bash", ".yaml", ".yml")
"""The files ``dsref check`` reads as a launch rather than as a ds_config."""

MESSAGES = messages(
    "launch",
    no_command="no command here starts training (deepspeed, torchrun, python -m torch.distributed.run, accelerate "
    "launch or python with --deepspeed)",
    unknown_yaml="this YAML is none of the launch files dsref reads: a LLaMA-Factory or axolotl training file, or "
    "an Accelerate config (distributed_type: DEEPSPEED); dsref also reads shell scripts that run deepspeed, "
    "torchrun, accelerate launch or python",
    accelerate_not_deepspeed="this Accelerate config does not run DeepSpeed (distributed_type: {kind}); dsref "
    "checks those with distributed_type: DEEPSPEED",
    accelerate_ignored="Accelerate does not read {key} in deepspeed_config; it reads {known}",
    accelerate_refused="Accelerate refuses {key} beside deepspeed_config_file (DeepSpeedPlugin: the file decides "
    "it): remove it from the Accelerate config, and write it in the ds_config",
    bad_yaml="the YAML does not parse: {detail}",
    yaml_too_deep="the YAML nests its values too deeply to be read (a launch file nests a few levels); check that "
    "this is the launch file meant",
    yaml_missing="reading a YAML launch needs dsref's `launch` extra (PyYAML): `python -m pip install 'dsref[launch]'`",
    bad_value="{name} is given as {value}, which the training arguments do not take",
    unreadable="the launch file cannot be read: {reason}",
    no_ds_config="the launch names no ds_config (--deepspeed, or deepspeed: in the YAML)",
    ds_config_missing="the ds_config named here is not there: {written} (looked for {tried})",
    accelerate_config_missing="the Accelerate config named here is not there: {written} (looked for {tried})",
    accelerate_unreadable="the Accelerate config named here cannot be read (it is no readable UTF-8 text file): "
    "{written}",
    accelerate_flags_alone="accelerate launch runs DeepSpeed only with --use_deepspeed or a config with "
    "distributed_type: DEEPSPEED; without them it ignores {flags}: add --use_deepspeed, or --config_file",
    accelerate_default_config="accelerate launch names no config here, so it reads its default config, as dsref "
    "does: {path}",
    unknown_value="the launch leaves {names} to the run (a shell variable dsref cannot resolve, or axolotl's "
    '"auto"): the checks that need them are left out',
)


def is_launch_file(path: str) -> bool:
    return path.lower().endswith(LAUNCH_SUFFIXES)


def read_launch(path: str, text: str, accelerate: str | None = None) -> Launch:
    """The launch in ``text`` (read from ``path``), with its ds_config found; :class:`~.model.LaunchError` when it
    cannot be read as one. ``accelerate``: the release of Accelerate whose plugin builds an Accelerate config's
    ds_config (None: the newest dsref knows)."""
    if path.lower().endswith((".yaml", ".yml")):
        from .yaml_files import read_yaml

        launch = read_yaml(text, path, accelerate)
    else:
        from .shell import read_shell

        launch = read_shell(text, path)
    return with_files(launch, accelerate)


def with_files(launch: Launch, accelerate: str | None = None) -> Launch:
    """``launch`` with the files it names found: its ds_config, and its model's ``config.json`` where the model is
    a local directory (with the hidden size Trainer reads from it); an Accelerate config a command names, read as
    Accelerate ``accelerate`` builds it (None: the newest dsref knows)."""
    if launch.ds_config is not None:
        launch = replace(launch, ds_config_path=resolve(str(launch.ds_config.value), launch.path))
    if launch.accelerate_config is None and launch.built is None and launch.form == "shell":
        launch = with_default_accelerate_config(launch)
    if (launch.accelerate_config is not None or launch.accelerate_flags) and launch.built is None:
        launch = with_accelerate_config(launch, accelerate)
    if launch.hostfile is not None and launch.processes is None:
        path = resolve(str(launch.hostfile.value), launch.path)
        slots = None if path is None else hostfile_slots(path)
        if slots:
            nodes = launch.nodes.value if launch.nodes is not None else 0
            used = slots[:nodes] if nodes > 0 else slots
            per_node = launch.processes_per_node.value if launch.processes_per_node is not None else 0
            total = per_node * len(used) if per_node > 0 else sum(used)
            launch = replace(launch, processes=replace(launch.hostfile, value=total))
    if launch.model is not None and isinstance(launch.model.value, str):
        for folder in candidates(launch.model.value, launch.path):
            config = os.path.join(folder, "config.json")
            if os.path.isfile(config):
                return replace(launch, model_config_path=config, hidden_size=hidden_size(config))
    return launch


def with_accelerate_config(launch: Launch, release: str | None = None) -> Launch:
    """``launch`` (``accelerate launch --config_file acc.yaml train.py …``) with what the Accelerate config gives: its
    number of processes where the command gives none, and, where the script is not handed ``--deepspeed`` (which
    Trainer would read instead), the ds_config ``DeepSpeedPlugin`` builds from it or the file it names, with the
    mixed precision the training process sets (``--fp16``/``--bf16``, else ``--mixed_precision``, else the
    config's); :class:`LaunchError` at ``--config_file`` when it is not there or runs no DeepSpeed."""
    named = launch.accelerate_config
    flags = dict(launch.accelerate_flags)
    if named is None and launch.ds_config is not None:
        return launch  # TrainingArguments reads --deepspeed; the flags alone configure no plugin
    if named is None and "use_deepspeed" not in flags:
        first = min(flags.values(), key=lambda g: (g.key_line or g.line, g.key_col if g.key_line else g.col))
        line = first.key_line or first.line
        names = " ".join(f"--{key}" for key in flags)
        raise LaunchError("accelerate_flags_alone", launch.path, line, flags=names)
    path, text = "", ""
    if named is not None:
        written = str(named.value)
        found = resolve(written, launch.path)
        if found is None:
            tried = ", ".join(candidates(written, launch.path))
            raise LaunchError("accelerate_config_missing", launch.path, named.line, written=written, tried=tried)
        path = found
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read(1 << 20)
        except (OSError, ValueError):
            raise LaunchError("accelerate_unreadable", launch.path, named.line, written=written) from None
    given = {n: g.value for n, g in launch.arguments.items()}
    precision = (
        "fp16"
        if given.get("fp16")
        else "bf16"
        if given.get("bf16")
        else str(launch.mixed_precision.value).lower()
        if launch.mixed_precision is not None
        else None
    )
    from .accelerate import read_accelerate
    from .yaml_files import read_accelerate_text

    other_kinds = launch.ds_config is not None
    try:
        if named is None:
            accelerate = read_accelerate(
                None, launch.path, precision=precision, other_kinds=other_kinds, release=release, flags=flags,
                flags_text=launch.text, flags_path=launch.path,
            )  # fmt: skip
        else:
            accelerate = read_accelerate_text(
                text, path, precision, other_kinds=other_kinds, release=release, flags=flags,
                flags_text=launch.text, flags_path=launch.path,
            )  # fmt: skip
    except LaunchError as exc:
        raise LaunchError(exc.reason, launch.path, named.line if named else 0, **exc.details) from None
    processes = launch.processes
    if processes is None and accelerate.processes is not None:
        processes = replace(accelerate.processes, file=path)
    if launch.ds_config is not None:
        return replace(launch, processes=processes)  # TrainingArguments reads --deepspeed before the plugin
    ds_config, ds_config_path = None, None
    if accelerate.ds_config is not None:
        from_flag = "deepspeed_config_file" in flags
        ds_config = accelerate.ds_config if from_flag or not path else replace(accelerate.ds_config, file=path)
        found = str(accelerate.ds_config.value)
        ds_config_path = resolve(found, launch.path) if from_flag or not path else None
        ds_config_path = ds_config_path or (resolve(found, path) if path else None) or resolve(found, launch.path)
    return replace(
        launch,
        processes=processes,
        built=accelerate.built,
        ds_config=ds_config if ds_config is not None else named,
        ds_config_path=ds_config_path,
    )


def default_accelerate_config() -> str:
    """Where ``accelerate launch`` looks for its default config (accelerate/commands/config/config_args.py:
    ``$HF_HOME/accelerate/default_config.yaml``, ``$HF_HOME`` defaulting to ``$XDG_CACHE_HOME/huggingface``, that to
    ``~/.cache/huggingface``)."""
    cache = os.environ.get("XDG_CACHE_HOME", "~/.cache")
    home = os.path.expanduser(os.environ.get("HF_HOME", os.path.join(cache, "huggingface")))
    return os.path.join(home, "accelerate", "default_config.yaml")


def with_default_accelerate_config(launch: Launch) -> Launch:
    """``launch`` (``accelerate launch train.py …``, naming no config and giving no DeepSpeed flag) with the default
    config ``accelerate launch`` reads (:func:`default_accelerate_config`) where it is a file on this machine;
    ``launch`` itself otherwise, and for any other command."""
    if not launch.accelerate_default or launch.accelerate_config is not None or launch.accelerate_flags:
        return launch
    path = default_accelerate_config()
    if not os.path.isfile(path):
        return launch
    return replace(launch, accelerate_config=Given(path, launch.accelerate_default_at, 0, path))


_HOST = re.compile(r"^(\S+)\s+slots=(\d+)")


def hostfile_slots(path: str) -> list[int] | None:
    """The slots of each host of a deepspeed hostfile (``worker-0 slots=8``), in order, as its launcher reads it;
    None for a file it refuses (a line of another form, a host twice) or that cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read(1 << 20).split("\n")  # as readlines() reads it: only line ends end a line
    except (OSError, ValueError):
        return None
    hosts: dict[str, int] = {}
    for line in (raw.strip() for raw in lines):
        if not line or line.startswith("#"):
            continue
        match = _HOST.search(line)
        if match is None or match.group(1) in hosts:
            return None
        hosts[match.group(1)] = int(match.group(2))
    return list(hosts.values()) or None


def hidden_size(config_path: str) -> int | None:
    """The hidden size transformers' Trainer takes from a model's ``config.json``: ``hidden_size``, else the largest
    of ``hidden_sizes``, else the same in ``text_config``; None where it finds none (or the file does not read)."""
    try:
        with open(config_path, encoding="utf-8") as handle:
            config = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return None
    for node in (config, config.get("text_config") if isinstance(config, dict) else None):
        if not isinstance(node, dict):
            continue
        size = node.get("hidden_size")
        if type(size) is int:
            return size
        sizes = node.get("hidden_sizes")
        if isinstance(sizes, list) and sizes and all(type(s) is int for s in sizes):
            return max(sizes)
    return None


def candidates(written: str, launch_path: str) -> list[str]:
    """Where a relative ds_config path may be: the directory the launch is run from is not written anywhere, so
    the launch file's folder and each folder above it (a script in ``scripts/`` is run from the repository's root),
    then the working directory."""
    if os.path.isabs(written):
        return [written]
    folder = os.path.dirname(os.path.abspath(launch_path))
    places = []
    for _ in range(4):
        places.append(os.path.join(folder, written))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    places.append(os.path.abspath(written))
    return list(dict.fromkeys(os.path.normpath(p) for p in places))


def resolve(written: str, launch_path: str) -> str | None:
    """The first of :func:`candidates` that is a file; None when none is."""
    return next((p for p in candidates(written, launch_path) if os.path.isfile(p)), None)
