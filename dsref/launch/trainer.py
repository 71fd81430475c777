"""What Hugging Face's Trainer does with a ds_config under a launch: the value it holds for each argument it compares
(``trainer_config_process``, then ``trainer_config_finalize`` once the model and the step count are known), and the
config with each ``"auto"`` it fills filled in.

Which options Trainer fills, and with what, are the schema's ``HfAuto`` facts (``compared`` names the argument,
``source`` the formula of a value it fills without comparing, ``changes`` what older releases filled); this module
only works out the values from the launch. A value the launch does not decide (the number of training steps without
``max_steps``, the hidden size of a model that is not a local directory, a shell variable) is named, never guessed.
"""

from __future__ import annotations

import ast
import copy
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Literal

from ..records import record
from ..schema import UNSET, HfAuto, HfChange, WarmupRatio
from ..tree.options import Option, OptionTree
from ..tree.profiles import fill_at, release_number
from .arguments import TRAINING_ARGUMENTS, trainer_value
from .model import Given, Launch

__all__ = [
    "Fill",
    "Filling",
    "Holds",
    "Need",
    "Source",
    "Unfillable",
    "Unknown",
    "as_written",
    "trainer_fill",
    "trainer_holds",
    "training_steps",
]

Need = Literal["world_size", "steps", "hidden_size", "variable"]
"""What the launch leaves unsaid that a value needs: the number of processes, of training steps, the model's hidden
size, or an argument set through a shell variable."""


@record
class Source:
    """One of the values Trainer makes a value of: a training argument (by its ``TrainingArguments`` name), or the
    number of processes (``world_size``), with where the launch gives it."""

    name: str
    given: Given | None = None
    """Where the launch writes it; None where TrainingArguments' default is used (for ``world_size``: where it
    comes from dsref's ``--world-size``, not from the launch)."""


@record
class Holds:
    """What Trainer holds for one argument it compares, under a launch."""

    value: Any
    where: str = ""
    """The launch's lines that give it (``train.sh:6, train.sh:7``); empty where the arguments' defaults do."""
    sources: tuple[Source, ...] = ()
    """What the value is made of, the most telling first (the micro batch before the accumulation steps before the
    number of processes); empty for a value no launch gives (a fill formula's constant)."""


@record
class Unknown:
    """A value Trainer holds that the launch does not decide, and what it would need."""

    need: Need
    names: tuple[str, ...] = ()
    """For ``variable``: the arguments the launch sets through a variable dsref cannot resolve."""


@record
class Fill:
    """An ``"auto"`` Trainer fills, with the value it puts in and where the launch gives it."""

    path: str
    value: Any
    where: str = ""
    sources: tuple[Source, ...] = ()
    """What the launch made it of (:attr:`Holds.sources`)."""


@record
class Unfillable:
    """An ``"auto"`` Trainer fills from what the launch does not say; left as written."""

    path: str
    need: Need
    names: tuple[str, ...] = ()


@record
class Filling:
    """A ds_config as Trainer fills it under a launch."""

    config: Any
    """A copy of the config with each ``"auto"`` the launch decides filled in."""
    filled: tuple[Fill, ...] = ()
    unknown: tuple[Unfillable, ...] = ()


def as_written(config: Any, path: str) -> Any:
    """The value written at ``path`` under its own keys, as Trainer's ``find_config_node`` looks it up (no alias);
    UNSET where the file does not write it so."""
    node = config
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return UNSET
        node = node[key]
    return node


def training_steps(launch: Launch) -> int | None:
    """The number of optimizer steps Trainer runs: ``max_steps`` when the launch gives a positive one; None when it
    depends on the size of the data set (epochs)."""
    if "max_steps" in launch.unknown:
        return None
    steps = trainer_value("max_steps", {n: g.value for n, g in launch.arguments.items()})
    return steps if steps > 0 else None


def trainer_holds(
    compared: str,
    launch: Launch,
    world_size: int | None,
    *,
    warmup_at_least_one: bool = True,
    warmup_ratio: WarmupRatio | None = None,
) -> Holds | Unknown:
    """What Trainer holds for ``compared`` (named as its mismatch error names it) under ``launch`` on
    ``world_size`` processes. ``warmup_at_least_one``: the release fills ``max(1, …)`` warm-up steps (transformers
    5.18 and later); ``warmup_ratio``: how the release reads ``warmup_ratio`` (:attr:`HfChange.warmup_ratio`; None,
    not at all: transformers 5.15 and later)."""
    given = {name: g.value for name, g in launch.arguments.items()}
    names = tuple(n for n in re.split(r"[|+]", compared.split(" ")[0]) if n in launch.unknown)
    if names:
        return Unknown("variable", names)

    def where(*names: str) -> str:
        return ", ".join(f"{launch.path}:{launch.arguments[n].line}" for n in names if n in launch.arguments)

    def sources(*names: str) -> tuple[Source, ...]:
        return tuple(Source(n, launch.arguments.get(n)) for n in names)

    if compared == "train_batch_size (calculated)":
        factors = ("per_device_train_batch_size", "gradient_accumulation_steps")
        unknown = tuple(n for n in factors if n in launch.unknown)
        if unknown:
            return Unknown("variable", unknown)
        if world_size is None:
            return Unknown("world_size")
        per_device = trainer_value("per_device_train_batch_size", given)
        steps = trainer_value("gradient_accumulation_steps", given)
        processes = Source("world_size", launch.world_size_given if launch.world_size == world_size else None)
        return Holds(world_size * per_device * steps, where(*factors), (*sources(*factors), processes))
    if compared == "num_training_steps (calculated)":
        total = training_steps(launch)
        return Holds(total, where("max_steps"), sources("max_steps")) if total is not None else Unknown("steps")
    if compared == "warmup_steps":
        read = ("warmup_steps", "warmup_ratio") if warmup_ratio else ("warmup_steps",)
        unknown = tuple(n for n in read if n in launch.unknown)
        if unknown:
            return Unknown("variable", unknown)
        warmup = trainer_value("warmup_steps", given)
        made_of: tuple[str, ...] = ("warmup_steps",)
        if warmup_ratio == "when_no_steps":  # transformers 4: the ratio where no steps are given
            if warmup > 0:
                return Holds(int(warmup), where(*made_of), sources(*made_of))
            total = training_steps(launch)
            if total is None:
                return Unknown("steps")
            made_of = ("warmup_ratio", "max_steps")
            ratio = trainer_value("warmup_ratio", given)
            return Holds(math.ceil(total * ratio), where(*made_of), sources(*made_of))
        if warmup_ratio == "replaces_steps" and "warmup_ratio" in given:  # 5.0 to 5.14: the ratio as the steps
            warmup, made_of = given["warmup_ratio"], ("warmup_ratio",)
        if warmup >= 1:
            steps = int(warmup)
        else:
            total = training_steps(launch)
            if total is None:
                return Unknown("steps")
            steps, made_of = math.ceil(total * warmup), (*made_of, "max_steps")
        return Holds(max(1, steps) if warmup_at_least_one else steps, where(*made_of), sources(*made_of))
    if compared == "adam_beta1+adam_beta2":
        value = [trainer_value("adam_beta1", given), trainer_value("adam_beta2", given)]
        return Holds(value, where("adam_beta1", "adam_beta2"), sources("adam_beta1", "adam_beta2"))
    if "|" in compared:
        switches = compared.split("|")
        on = any(trainer_value(name, given) for name in switches)
        written = tuple(name for name in switches if name in launch.arguments)  # --bf16 alone decides bf16
        return Holds(on, where(*switches), sources(*(written or switches)))
    if compared not in TRAINING_ARGUMENTS:
        return Unknown("variable", (compared,))
    return Holds(trainer_value(compared, given), where(compared), sources(compared))


def trainer_fill(
    config: Any, launch: Launch, world_size: int | None, tree: OptionTree, transformers: str | None = None
) -> Filling:
    """``config`` as Trainer of ``transformers`` (None: the newest dsref knows) fills it under ``launch``: each
    ``"auto"`` written under its own name at an option that release fills, replaced by what it puts in. Values the
    launch does not decide stay ``"auto"`` and are listed as unknown."""
    if not isinstance(config, Mapping):
        return Filling(config)
    filled_config = copy.deepcopy(dict(config))
    filled: list[Fill] = []
    unknown: list[Unfillable] = []
    zero3 = as_written(config, "zero_optimization.stage") == 3
    for opt, hf in _filled_by_transformers(tree, transformers):
        if as_written(config, opt.path) != "auto":
            continue
        if opt.stages == (3,) and not zero3:
            continue  # Trainer fills the stage-3 sizes only for a stage-3 config
        value = _value(opt, hf, launch, world_size, transformers)
        if isinstance(value, Unknown):
            unknown.append(Unfillable(opt.path, value.need, value.names))
            continue
        _put(filled_config, opt.path, value.value)
        filled.append(Fill(opt.path, value.value, value.where, value.sources))
    return Filling(filled_config, tuple(filled), tuple(unknown))


def _filled_by_transformers(tree: OptionTree, release: str | None) -> Iterator[tuple[Option, HfAuto]]:
    for opt in tree:
        hf = opt.meta.hf_auto
        if hf is not None and opt.kind == "leaf" and fill_at(hf, "transformers", release) is not None:
            yield opt, hf


def _older(changes: tuple[HfChange, ...], release: str | None) -> HfChange | None:
    """The earliest change of transformers that ``release`` predates (None: the newest fills as ``source`` says)."""
    number = None if release is None else release_number(release)
    if number is None:
        return None
    later = [c for c in changes if c.by == "transformers" and number < (release_number(c.release) or (0, 0, 0))]
    return min(later, key=lambda c: release_number(c.release) or (0, 0, 0)) if later else None


def _value(opt: Option, hf: HfAuto, launch: Launch, world_size: int | None, release: str | None) -> Holds | Unknown:
    older = _older(hf.changes, release)
    if hf.compared:
        return trainer_holds(
            hf.compared,
            launch,
            world_size,
            warmup_at_least_one=older is None,
            warmup_ratio=None if older is None else older.warmup_ratio,
        )
    formula = (older.before or "" if older is not None else hf.source).split(",")[0]  # "0.9 * h * h, a float"
    needs_hidden = "hidden_size" in formula
    if needs_hidden and launch.hidden_size is None:
        return Unknown("hidden_size")
    try:
        return Holds(_evaluate(formula, {"hidden_size": launch.hidden_size or 0}))
    except ValueError:
        return Unknown("variable", (opt.path,))


_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {ast.Mult: operator.mul, ast.Add: operator.add}


def _evaluate(formula: str, names: Mapping[str, int]) -> int | float:
    """A fill formula of the schema (``int(0.9 * hidden_size * hidden_size)``): numbers, names, ``*``, ``+`` and
    ``int()``; ValueError for anything else."""

    def walk(node: ast.AST) -> int | float:
        if isinstance(node, ast.Expression):
            return walk(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in names:
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](walk(node.left), walk(node.right))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int" and node.args:
            return int(walk(node.args[0]))
        raise ValueError(formula)

    try:
        return walk(ast.parse(formula.strip(), mode="eval"))
    except SyntaxError:
        raise ValueError(formula) from None


def _put(config: dict[str, Any], path: str, value: Any) -> None:
    node = config
    *parents, key = path.split(".")
    for part in parents:
        node = node[part]
    node[key] = value
