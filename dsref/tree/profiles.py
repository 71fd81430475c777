"""The two readers of a config file, called profiles: DeepSpeed's own launcher and Hugging Face Trainer/Accelerate.

``deepspeed`` reads the file with Hjson (comments allowed, duplicate keys refused) and drops ``"auto"`` where its
pydantic models validate; ``hf`` reads it with strict ``json.load`` and fills ``"auto"`` where Hugging Face does.
The checker, the editor schema and the site take one of these names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..records import record

if TYPE_CHECKING:
    from ..schema import HfAuto, HfFiller
    from .options import OptionTree

__all__ = [
    "HF_FILLERS",
    "PROFILES",
    "HfReleases",
    "Profile",
    "Unfilled",
    "fill_at",
    "hugging_face_fills",
    "hugging_face_unfilled",
    "might_write_auto",
    "release_number",
    "writes_auto",
]

Profile = Literal["deepspeed", "hf"]
PROFILES: tuple[Profile, ...] = ("deepspeed", "hf")

# Which reader a file is meant for, when nobody says (``--profile`` left out, the server's ``profile`` unset): the
# one rule that ``dsref check``, ``--fix`` and the language server follow. A file that writes the value ``"auto"``
# somewhere is read as Hugging Face Trainer/Accelerate read and fill it: only they understand ``"auto"``. They read
# strict JSON, so such a file with comments fails where their ``json.load`` would. Any other file is read as the
# ``deepspeed`` launcher reads it.


def might_write_auto(text: str) -> bool:
    """Whether ``text`` may hold the value ``"auto"`` at all: the cheap test before :func:`writes_auto`."""
    return '"auto"' in text


def writes_auto(data: Any) -> bool:
    """Whether ``data`` (a parsed config) writes ``"auto"`` where Hugging Face fills a value: at an option that
    some release of Trainer or Accelerate fills, under its own name at its own place (the schema's ``HfAuto``
    facts). Such a file is written for Hugging Face's launch. An ``"auto"`` anywhere else is only a string (a
    TensorBoard ``job_name``, a W&B ``project``) and says nothing of who launches the run.

    >>> writes_auto({"zero_optimization": {"stage": 2, "reduce_bucket_size": "auto"}}), writes_auto({"auto": 1})
    (True, False)
    >>> writes_auto({"tensorboard": {"job_name": "auto"}}), writes_auto({"bfloat16": {"enabled": "auto"}})
    (False, False)
    """
    from .index import hugging_face_auto_paths

    if not isinstance(data, dict):
        return False
    filled = hugging_face_auto_paths()
    stack: list[tuple[str, dict[Any, Any]]] = [("", data)]
    while stack:
        prefix, node = stack.pop()
        for key, value in node.items():
            if not isinstance(key, str):
                continue
            path = prefix + key
            if isinstance(value, str):
                if value == "auto" and path in filled:
                    return True
            elif isinstance(value, dict):
                stack.append((path + ".", value))
    return False


HF_FILLERS: tuple[HfFiller, ...] = ("transformers", "accelerate")


@record
class HfReleases:
    """The releases of Hugging Face's integrations that fill a file's ``"auto"``, as installed; None where none is
    known, which reads as the newest (the fills the schema's ``HfAuto.by`` and ``source`` describe)."""

    transformers: str | None = None
    accelerate: str | None = None

    def of(self, by: HfFiller) -> str | None:
        return self.transformers if by == "transformers" else self.accelerate

    def known(self) -> tuple[tuple[HfFiller, str], ...]:
        """The integrations whose release is known, with it."""
        return tuple((by, release) for by in HF_FILLERS if (release := self.of(by)) is not None)


NEWEST = HfReleases()

_NUMBER = re.compile(r"\s*v?(\d{1,9})\.(\d{1,9})(?:\.(\d{1,9}))?(?!\d)")


def release_number(text: str) -> tuple[int, int, int] | None:
    """The release part of a version as installed (``4.46.0.dev0``, ``5.0.0rc1`` → ``(4, 46, 0)``, ``(5, 0, 0)``);
    None for a version that does not start with one.

    >>> release_number("4.46.0.dev0"), release_number("1.2"), release_number("main")
    ((4, 46, 0), (1, 2, 0), None)
    """
    match = _NUMBER.match(text)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2)), int(match.group(3) or 0)


def fill_at(hf: HfAuto, by: HfFiller, release: str | None) -> str | None:
    """What ``by`` at ``release`` (None: its newest) fills into ``"auto"`` at an option with these facts: the value
    as a short formula ("" where the schema gives none), or None when it leaves the ``"auto"`` unfilled.

    >>> from dsref.schema import HfAuto, HfChange
    >>> amp = HfAuto(by=(), changes=(HfChange("transformers", "5.0.0", "TrainingArguments.fp16_opt_level"),))
    >>> [fill_at(amp, "transformers", release) for release in ("4.57.6", "5.0.0", None)]
    ['TrainingArguments.fp16_opt_level', None, None]
    """
    number = None if release is None else release_number(release)
    if number is not None:
        later = [c for c in hf.changes if c.by == by and number < _number(c.release)]
        if later:
            return min(later, key=lambda c: _number(c.release)).before
    return hf.source if by in hf.by else None


@record
class Unfilled:
    """Why an ``"auto"`` that some release of an integration fills is not filled by the one installed: ``by`` at
    ``installed`` (None: its newest) leaves it; it fills it from ``release`` on (``since``) or only before it."""

    by: HfFiller
    installed: str | None
    release: str
    since: bool


def _facts(tree: OptionTree, location: Sequence[str | int]) -> HfAuto | None:
    path = ".".join(map(str, location))
    return tree.get(path).meta.hf_auto if path in tree else None


def hugging_face_unfilled(
    tree: OptionTree, location: Sequence[str | int], releases: HfReleases = NEWEST
) -> Unfilled | None:
    """For an ``"auto"`` at ``location`` that neither installed integration fills (:func:`hugging_face_fills`),
    the release of one of them that does; None when no release dsref knows of fills it there."""
    hf = _facts(tree, location)
    if hf is None or hugging_face_fills(tree, location, releases):
        return None
    for by in HF_FILLERS:
        installed = releases.of(by)
        number = None if installed is None else release_number(installed)
        changes = sorted((c for c in hf.changes if c.by == by), key=lambda c: _number(c.release))
        later = [c for c in changes if number is not None and _number(c.release) > number]
        for change in later:  # the first later release that fills it
            if fill_at(hf, by, change.release) is not None:
                return Unfilled(by, installed, change.release, since=True)
        for change in reversed([c for c in changes if c not in later]):  # the last release before which it did
            if change.before is not None:
                return Unfilled(by, installed, change.release, since=False)
    return None


def _number(release: str) -> tuple[int, int, int]:
    return release_number(release) or (0, 0, 0)


def hugging_face_fills(tree: OptionTree, location: Sequence[str | int], releases: HfReleases = NEWEST) -> bool:
    """Whether Hugging Face Trainer or Accelerate fill an ``"auto"`` written at ``location`` (the keys as written):
    only for an option they fill, written under its own name at its own place. They look the value up key by key
    as written (transformers' ``HfDeepSpeedConfig.find_config_node``), so an ``"auto"`` under an alias
    (``bfloat16`` for ``bf16``) is not filled and reaches DeepSpeed, which drops it. ``releases``: the installed
    transformers and accelerate; an option filled only by some of their releases is filled when either installed
    one fills it (:func:`fill_at`). The one answer the checker, the rules, the estimator and the proof of fixes use.

    >>> from dsref.tree.options import option_tree
    >>> tree = option_tree()
    >>> hugging_face_fills(tree, ("bf16", "enabled")), hugging_face_fills(tree, ("bfloat16", "enabled"))
    (True, False)
    >>> hugging_face_fills(tree, ("amp", "enabled"), HfReleases(transformers="4.57.6"))
    True
    """
    hf = _facts(tree, location)
    return hf is not None and any(fill_at(hf, by, releases.of(by)) is not None for by in HF_FILLERS)
