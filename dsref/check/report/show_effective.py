"""``--show-effective``: the config as DeepSpeed will see it.

Defaults are filled in for every option of the sections the file uses (and for the top-level keys), aliases are
resolved to the keys DeepSpeed documents, "auto" values DeepSpeed drops are gone, derived batch values are
computed for a known world size, and keys DeepSpeed ignores are listed apart. The ``params`` of the optimizer and
of the scheduler are the keyword arguments of the one class the file names in ``type``, which DeepSpeed holds as
written and hands on (``DeepSpeedConfig.optimizer_params``), with the defaults of the keys the file leaves out for
one of DeepSpeed's own schedulers: no other class's keys are added, and without a ``type`` DeepSpeed reads none.
For a file read as Hugging Face's, each ``"auto"`` Trainer or Accelerate fills shows as :data:`HF_FILLED`.

>>> doc = effective_document({"train_micro_batch_size_per_gpu": 4, "zero_optimization": {"stage": 3}}, world_size=8)
>>> doc["config"]["train_batch_size"], doc["config"]["zero_optimization"]["overlap_comm"]
(32, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...tree.options import Option, OptionTree
from ...tree.profiles import NEWEST, HfReleases, hugging_face_fills
from ...tree.releases import release_facts
from ...tree.versions import DEEPSPEED_VERSION
from ..findings import format_location
from ..rules.batch import GAS, MICRO, TBS, derive
from ..validate.checktree import check_tree
from ..validate.constructors import SCHEDULER_KEYWORDS, SCHEDULER_OWN_DEFAULTS
from ..validate.effective import Effective, effective

HF_FILLED = "<filled by Hugging Face>"
"""What an ``"auto"`` Hugging Face fills stands for: the value comes from the training arguments or the model."""


def effective_document(
    config: Any,
    *,
    world_size: int | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
    hugging_face: HfReleases | None = None,
) -> dict[str, Any]:
    """The config DeepSpeed ``deepspeed_version`` builds from ``config``; ``hugging_face``: the releases of
    Transformers and Accelerate that fill its ``"auto"`` values first, for a file read as theirs (None: as written).

    >>> doc = effective_document({"optimizer": {"type": "AdamW", "params": {"lr": "auto"}}}, hugging_face=NEWEST)
    >>> doc["config"]["optimizer"]["params"]
    {'lr': '<filled by Hugging Face>'}
    """
    tree = check_tree()  # the generated tree: neither pydantic nor the models are imported to check a file
    eff = effective(config, tree, hugging_face or NEWEST, release=release_facts(deepspeed_version))
    filled = eff.filled if hugging_face is not None else set()
    out: dict[str, Any] = {}
    for opt in tree.top_level():
        if opt.removed_in is not None:
            continue
        if opt.kind == "leaf":
            out[opt.key] = HF_FILLED if opt.path in filled else eff.get(opt.path)
        elif eff.is_set(opt.path) or opt.default == {}:
            value = _section(tree, opt, eff, filled)
            if value is not None or eff.is_set(opt.path):
                out[opt.key] = value
    derived = None
    if world_size is not None:
        values = [eff.get(p) for p in (TBS, MICRO, GAS)]
        ints = [v if isinstance(v, int) and not isinstance(v, bool) and v > 0 else None for v in values]
        derived = derive(ints[0], ints[1], ints[2], world_size)
        if derived is not None:
            out[TBS], out[MICRO], out[GAS] = derived
    return {
        "config": out,
        "world_size": world_size,
        "ignored": [format_location(loc) for loc in eff.ignored],
    }


def _section(tree: OptionTree, opt: Option, eff: Effective, filled: set[str]) -> Any:
    if opt.container is not None:
        return eff.get(opt.path)
    if not eff.is_set(opt.path) and opt.default != {}:
        return None
    value = eff.get(opt.path)
    if value is None and eff.is_set(opt.path):
        return None
    section: dict[str, Any] = {}
    for child in tree.children(opt.path):
        if child.removed_in is not None or child.meta.docs_only or child.meta.deprecated:
            continue
        if child.kind == "section" and _constructor_arguments(tree, child):
            section[child.key] = _as_handed_on(tree, opt, child, eff, filled)
        elif child.kind == "section":
            inner = _section(tree, child, eff, filled)
            if inner is not None:
                section[child.key] = inner
        else:
            section[child.key] = HF_FILLED if child.path in filled else eff.get(child.path)
    return section


def _constructor_arguments(tree: OptionTree, opt: Option) -> bool:
    """Whether ``opt`` is the ``params`` beside a ``type``: the keyword arguments of the class ``type`` names, which
    DeepSpeed hands on as written (its schema lists every class's keys together)."""
    return opt.key == "params" and opt.parent is not None and f"{opt.parent}.type" in tree


def _as_handed_on(tree: OptionTree, section: Option, params: Option, eff: Effective, filled: set[str]) -> Any:
    """The ``params`` as the class ``type`` names gets them, and only with a ``type``: the keys written, and for one
    of DeepSpeed's own schedulers each other key it takes with its default (for the release checked for); an
    ``"auto"`` Hugging Face fills (when ``filled`` is in use) shown as :data:`HF_FILLED`. An optimizer's defaults
    are its implementation's, which DeepSpeed picks at start-up (fused, CPU or torch's): only the keys written."""
    kind = eff.get(f"{section.path}.type")
    written = eff.get(params.path) if eff.is_set(params.path) else {}
    if kind is None or not isinstance(written, Mapping):
        return None
    where = eff.location(params.path) or ()
    out = {
        key: HF_FILLED
        if filled and value == "auto" and hugging_face_fills(tree, (*where, key), eff.hugging_face)
        else value
        for key, value in written.items()
    }
    if section.path == "scheduler" and isinstance(kind, str) and kind in SCHEDULER_KEYWORDS:
        defaults = {
            key: SCHEDULER_OWN_DEFAULTS.get((kind, key), eff.get(f"{params.path}.{key}"))
            for key in SCHEDULER_KEYWORDS[kind]
            if key not in out and f"{params.path}.{key}" in tree
        }
        order = {key: i for i, key in enumerate(SCHEDULER_KEYWORDS[kind])}
        out = dict(sorted({**out, **defaults}.items(), key=lambda item: order.get(item[0], len(order))))
    if not out:
        return {} if eff.is_set(params.path) else None  # DeepSpeed holds None when no params are written
    return out
