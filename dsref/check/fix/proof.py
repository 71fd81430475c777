"""Whether a fixed text is no worse than the text it was fixed from: the check every fix of ``--fix`` must pass.

:func:`judge` compares two reports of the same file, before and after some fixes:

* the text after still parses (a text that did not parse before and does now passes: what is found in it now was
  there all along, hidden behind the syntax error);
* no new error, and no finding's severity rises: there are no more errors, no more errors and warnings, and no more
  findings than before (an error that becomes a warning passes; two warnings that become one error fail, and so
  does a pass where one fix clears an error while another adds warnings: its fixes are then tried one by one);
* no key is written twice that was not before;
* and, for safe fixes of a file with no error (one DeepSpeed accepts, as far as dsref can tell), what the file
  means is unchanged: :func:`meaning`, the config as ``--show-effective`` computes it, after the deprecated forms
  DeepSpeed maps are mapped and, for the ``hf`` profile, after Hugging Face has filled its ``"auto"`` values.

A fix is proven per file, for the text it is applied to, never per kind of fix.

>>> from dsref.check.pipeline import check_text
>>> from dsref.check.settings import CheckSettings
>>> hf = CheckSettings("hf")
>>> before = check_text('{"train_batch_size": 8, "bfloat16": {"enabled": "auto"}}', "x", hf)
>>> after = check_text('{"train_batch_size": 8, "bf16": {"enabled": "auto"}}', "x", hf)
>>> judge(before, after, hf, safe=True)
'meaning'
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any, Literal

from ...tree.options import OptionTree
from ...tree.profiles import NEWEST, HfReleases, hugging_face_fills
from ..findings import Severity
from ..pipeline import FileReport
from ..positions import Location
from ..report.show_effective import HF_FILLED
from ..settings import DEFAULT_SETTINGS, CheckSettings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..validate.effective import Effective

__all__ = ["HF_FILLED", "Refusal", "judge", "meaning", "same_meaning"]

Refusal = Literal["unreadable", "severity", "duplicate", "meaning"]
"""Why a fixed text is refused: it no longer parses, a finding got more severe (or a new error appeared), a key is
written twice, or what DeepSpeed builds from it changed."""


_ORDER = (Severity.error, Severity.warning, Severity.info)


def judge(
    before: FileReport, after: FileReport, settings: CheckSettings, *, safe: bool, other_reading: bool = False
) -> Refusal | None:
    """Why ``after`` may not replace ``before``, or None when it may; ``settings``: what both were checked for, the
    reader decided (``settings.profile`` is the file's).

    ``other_reading``: the fixes are of findings of a file its reader refuses, as the other reader reads it
    (:attr:`~dsref.check.findings.Finding.seen_by`: a key written twice). The text after may then still be
    refused, so long as the other reader still reads it; the findings of both readings are compared as above.
    """
    refused_still = (
        other_reading and before.error is not None and after.error is not None and after.other_reading is not None
    )
    if not refused_still and (after.error is not None or after.loaded is None):
        return "unreadable"
    if before.error is not None and not refused_still:
        return None  # the reader refused the text before and reads it now: what it finds was there all along
    if any(now > was for now, was in zip(_at_or_above(after), _at_or_above(before), strict=True)):
        return "severity"
    duplicates_before = {f.location for f in before.findings if f.code == "DS003"}
    if any(f.code == "DS003" and f.location not in duplicates_before for f in after.findings):
        return "duplicate"
    accepted = before.loaded is not None and not any(f.severity is Severity.error for f in before.findings)
    if safe and accepted:
        assert before.loaded is not None and after.loaded is not None
        if not same_meaning(before.loaded.data, after.loaded.data, settings):
            return "meaning"
    return None


def same_meaning(before: Any, after: Any, settings: CheckSettings = DEFAULT_SETTINGS) -> bool:
    """Whether DeepSpeed builds the same from the configs ``before`` and ``after``: their :func:`meaning` is equal.

    The meaning is the ``--show-effective`` document, which is computed from the config's
    :class:`~dsref.check.validate.effective.Effective` view alone (the values DeepSpeed keeps, by canonical path,
    and the keys it ignores) with defaults for the rest: two configs with equal views have equal meanings, and the
    whole documents, hundreds of defaults each, are built and compared only when the views differ. Most safe fixes
    change how a value is written and not the value DeepSpeed keeps (``"true"`` → ``true``, ``bfloat16`` → ``bf16``).

    >>> same_meaning({"bfloat16": {"enabled": "true"}}, {"bf16": {"enabled": True}})
    True
    >>> same_meaning({"zero_optimization": {"stage": 2}}, {"zero_optimization": {"stage": 2, "overlap_comm": False}})
    True
    >>> same_meaning({"zero_optimization": {"stage": 3}}, {"zero_optimization": {"stage": 3, "overlap_comm": False}})
    False
    """
    from ...tree.releases import release_facts
    from ...tree.versions import DEEPSPEED_VERSION
    from ..validate.checktree import check_tree
    from ..validate.effective import effective

    was, now = (_as_read(config, settings) for config in (before, after))
    tree, release = check_tree(), release_facts(DEEPSPEED_VERSION)  # as effective_document reads a config
    views = [_view(effective(config, tree, release=release)) for config in (was, now)]
    return views[0] == views[1] or _document(was, settings) == _document(now, settings)


def _view(eff: Effective) -> tuple[dict[str, Any], list[Location]]:
    """What the effective document is built from: each value kept, except that a section of options is built
    from its options' values, so only whether it is null counts of the section's own value (but for a class's
    ``params``, handed on as written); the keys ignored."""
    values = {
        path: value is None
        if (opt := eff.tree.get(path)).kind == "section" and opt.container is None and opt.key != "params"
        else value
        for path, value in eff.values.items()
    }
    return values, eff.ignored


def _at_or_above(report: FileReport) -> tuple[int, ...]:
    """How many findings a report holds at each severity or above: errors; errors and warnings; all."""
    found = [sum(f.severity is level for f in report.findings) for level in _ORDER]
    return tuple(sum(found[: i + 1]) for i in range(len(found)))


def meaning(config: Any, settings: CheckSettings = DEFAULT_SETTINGS) -> Any:
    """What DeepSpeed builds from ``config``, as far as dsref models it: the ``--show-effective`` document of the
    config after Hugging Face's filling (``settings.profile`` ``hf``) and DeepSpeed's own mapping of deprecated forms.

    >>> meaning({"zero_optimization": {"stage": 2, "cpu_offload": "true"}}) == meaning(
    ...     {"zero_optimization": {"stage": 2, "offload_optimizer": {"device": "cpu"}}})
    True
    """
    return _document(_as_read(config, settings), settings)


def _as_read(config: Any, settings: CheckSettings) -> Any:
    """``config`` after Hugging Face's filling (``settings.profile`` ``hf``) and DeepSpeed's mapping of deprecated
    forms."""
    from ..validate.checktree import check_tree

    tree = check_tree()
    data = filled_as_hugging_face_does(config, tree, settings.hugging_face) if settings.profile == "hf" else config
    return _deprecations_mapped(data, tree)


def _document(config: Any, settings: CheckSettings) -> Any:
    from ..report.show_effective import effective_document

    return effective_document(config, world_size=settings.world_size)


def filled_as_hugging_face_does(config: Any, tree: OptionTree, hugging_face: HfReleases = NEWEST) -> Any:
    """``config`` with :data:`HF_FILLED` for each ``"auto"`` the ``hugging_face`` releases of Trainer or Accelerate
    fill in (:func:`~dsref.tree.profiles.hugging_face_fills`); any other ``"auto"`` stays, and DeepSpeed drops it."""
    if not isinstance(config, Mapping):
        return config
    filled = copy.deepcopy(dict(config))

    def walk(node: dict[Any, Any], location: tuple[str, ...]) -> None:
        for key, value in node.items():
            if not isinstance(key, str):
                continue
            here = (*location, key)
            if isinstance(value, str) and value == "auto" and hugging_face_fills(tree, here, hugging_face):
                node[key] = HF_FILLED
            elif isinstance(value, dict):
                walk(value, here)

    walk(filled, ())
    return filled


def _deprecations_mapped(config: Any, tree: OptionTree) -> Any:
    """``config`` with each deprecated option whose value DeepSpeed maps onto its successor replaced by that
    successor (``cpu_offload: true`` → ``offload_optimizer: {device: cpu}``, ``false`` → nothing), as the schema
    records the mapping (``replacement=``), for the value DeepSpeed converts what is written to."""
    from ..validate.validation import successor

    if not isinstance(config, Mapping):
        return config
    mapped = copy.deepcopy(dict(config))

    def walk(node: dict[Any, Any], parent: str | None) -> None:
        for key in list(node):
            if not isinstance(key, str) or key not in node:
                continue
            hit = tree.lookup_key(parent, key)
            if hit is None:
                continue
            opt, _ = hit
            value = node[key]
            instead = successor(opt, value)  # a deprecated option, or form of one (zero_optimization: true)
            if instead is not None:
                del node[key]
                replaced = json.loads(instead) if instead else {}
                if opt.path == "zero_optimization" and parent is None and "allgather_size" in node:
                    # DeepSpeed's read_zero_config_deprecated takes the top-level allgather_size as the bucket size
                    # of the boolean form (deepspeed/runtime/zero/config.py)
                    replaced["zero_optimization"]["allgather_bucket_size"] = node["allgather_size"]
                for new_key, new_value in replaced.items():
                    node.setdefault(new_key, new_value)
                continue
            if isinstance(value, dict) and opt.kind == "section" and opt.container is None:
                walk(value, tree.child_parent(opt))

    walk(mapped, None)
    return mapped
