"""Which launch runs a ds_config: the launch files of the workspace, and the one that names the open ds_config.

The server checks a ds_config with the launch that names it, as ``dsref check LAUNCH`` would: a launch file
(:data:`~dsref.launch.read.LAUNCH_SUFFIXES`) whose ``--deepspeed`` or ``deepspeed:`` resolves to that file. It looks
among the documents open in the editor first, then among the launch files of the workspace folders, found by one walk
that stops after :data:`WALK_LIMIT` entries (the status says so) and is kept until a launch file is opened or saved.
Only a file whose text names the ds_config's file name is read as a launch; none larger than :data:`READ_LIMIT`.

>>> import os, tempfile
>>> root = tempfile.mkdtemp()
>>> for name, text in [("ds.json", "{}"), ("a/train.yaml", "stage: sft\\ndeepspeed: ../ds.json\\n")]:
...     os.makedirs(os.path.dirname(os.path.join(root, name)), exist_ok=True)
...     _ = open(os.path.join(root, name), "w").write(text)
>>> found = walk_launch_files([root])
>>> [os.path.relpath(p, root) for p in found.paths], found.capped
(['a/train.yaml'], False)
>>> os.path.relpath(launch_for(os.path.join(root, "ds.json"), {}, found.paths).path, root)
'a/train.yaml'
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping, Sequence

from ..launch.opened import Opened, open_launch
from ..launch.read import is_launch_file
from ..records import record

__all__ = ["READ_LIMIT", "WALK_LIMIT", "Found", "choose_launch", "launch_for", "same_file", "walk_launch_files"]

WALK_LIMIT = 20_000
"""The most directory entries one walk of the workspace looks at: a workspace with a dataset or a virtual
environment in it is not read to its end (the launch files beyond are not seen, and the status says so)."""
READ_LIMIT = 1 << 20
"""The largest launch file read from the disk (a YAML or a script of a megabyte is no launch a person writes)."""
_SKIPPED = frozenset({"node_modules", "__pycache__", "site-packages", "venv", "wandb", "outputs", "checkpoints"})
"""Folders no launch is written in (besides hidden ones): not walked."""


@record
class Found:
    """The launch files of the workspace folders, in the order found; ``capped`` when the walk stopped early."""

    paths: tuple[str, ...]
    capped: bool = False


def walk_launch_files(roots: Iterable[str], limit: int = WALK_LIMIT) -> Found:
    """The launch files below ``roots`` (sorted within each folder; hidden folders and :data:`_SKIPPED` left out),
    looking at no more than ``limit`` directory entries."""
    found: list[str] = []
    seen = 0
    for root in roots:
        for folder, dirs, names in os.walk(root):
            seen += len(dirs) + len(names)
            if seen > limit:
                return Found(tuple(found), capped=True)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIPPED)
            found.extend(os.path.join(folder, n) for n in sorted(names) if is_launch_file(n))
    return Found(tuple(found))


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (links followed; for a file not there, the paths compared as written)."""
    return os.path.normcase(os.path.realpath(a)) == os.path.normcase(os.path.realpath(b))


def choose_launch(config: str, launches: Sequence[tuple[Opened, bool]]) -> Opened | None:
    """Of ``launches`` (each read, and whether it is open in the editor), the one that runs the ds_config at
    ``config``: among those that name it, an open one before one on the disk, then the one nearest to the config
    (the fewest folders between them), then the first by path. None when none names it."""
    folder = os.path.dirname(os.path.realpath(config))

    def distance(opened: Opened) -> int:
        between = os.path.relpath(folder, os.path.dirname(os.path.realpath(opened.path)))
        return 0 if between == "." else len(between.split(os.sep))

    naming = [(o, is_open) for o, is_open in launches if o.named is not None and same_file(o.named, config)]
    if not naming:
        return None
    return min(naming, key=lambda pair: (not pair[1], distance(pair[0]), pair[0].path))[0]


def launch_for(config: str, open_texts: Mapping[str, str], on_disk: Iterable[str]) -> Opened | None:
    """The launch that runs the ds_config at ``config``: from the launch documents open in the editor
    (``open_texts``, their text by path) and the launch files ``on_disk`` (read here); only those whose text names
    the config's file name are read as a launch."""
    name = os.path.basename(config)
    launches: list[tuple[Opened, bool]] = []
    for path, text in open_texts.items():
        if is_launch_file(path) and name in text:
            launches.append((open_launch(path, text), True))
    for path in on_disk:
        if os.path.realpath(path) in open_texts:
            continue
        read = _read(path)
        if read is not None and name in read:
            launches.append((open_launch(path, read), False))
    return choose_launch(config, launches)


def _read(path: str) -> str | None:
    """The text of a launch file on the disk; None for one that cannot be read, is too large, or is no regular file
    (a pipe would block)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        with open(path, "rb") as handle:
            data = handle.read(READ_LIMIT + 1)
    except OSError:
        return None
    return None if len(data) > READ_LIMIT else data.decode("utf-8", errors="replace")
