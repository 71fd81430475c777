"""Rules about Hugging Face's `"auto"` values in a file checked as a plain DeepSpeed config."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...launch.trainer import Unknown, as_written, trainer_fill, trainer_holds
from ...schema import UNSET, HfChange, HfFiller
from ...tree.options import Option
from ...tree.profiles import HF_FILLERS, release_number
from ..findings import Example, Severity
from ..validate.validation import short_repr
from ..validate.values import coerce
from . import Context, Hit, Scope, rule

LOOKS_LIKE_HF = 2
"""How many "auto" values Hugging Face fills make a file look like one written for Trainer or Accelerate."""


@rule(
    "DS560",
    "looks-like-hugging-face",
    Severity.info,
    message='{count} keys are "auto", which Hugging Face Trainer/Accelerate fill in; if this file is for them, '
    "check it with --profile hf",
    explanation=(
        'DeepSpeed itself never fills in "auto": inside its pydantic sections (zero_optimization, fp16, bf16, '
        '…) an "auto" is dropped and the default used, and elsewhere (batch sizes, gradient_clipping, '
        "optimizer and scheduler params) the string stays and breaks the run. Hugging Face Transformers and "
        "Accelerate replace these values from their own arguments before DeepSpeed sees the file. Checked as a "
        'plain DeepSpeed config, each "auto" is reported on its own (DS401, DS402); checked with `--profile hf`, '
        'dsref accepts "auto" where Hugging Face fills it, reads the file as strict JSON like Hugging Face '
        "does, and leaves the values it cannot know out of the other checks. This note is not shown under "
        "`--profile hf`."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": "auto",
          "gradient_accumulation_steps": "auto",
          "bf16": {"enabled": "auto"}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": 8,
          "bf16": {"enabled": true}
        }
        """,
        also=("DS401", "DS402"),
    ),
    scope=Scope.hugging_face,
)
def looks_like_hugging_face(ctx: Context) -> Iterator[Hit]:
    if ctx.profile != "deepspeed":
        return
    filled = sorted(ctx.effective.filled)
    if len(filled) >= LOOKS_LIKE_HF:
        yield Hit((), None, {"count": len(filled), "paths": filled})


@rule(
    "DS561",
    "hugging-face-fills-a-refused-value",
    Severity.warning,
    message='{library} {installed} fills this "auto" with {fill} (for example {value}), which DeepSpeed {target} '
    "refuses; {library} {release} and later fill a value it takes",
    explanation=(
        'Where Hugging Face fills an "auto", the installed transformers or accelerate decides the value, and some '
        "of their earlier releases filled values a later DeepSpeed refuses: before transformers 4.45 and "
        "accelerate 0.31, `stage3_prefetch_bucket_size` became 0.9 × hidden_size², a number with a fraction for "
        "most hidden sizes (15099494.4 for 4096), which DeepSpeed's integer field refuses; before transformers "
        "5.18 and accelerate 1.15, WarmupLR's `warmup_num_steps` became the warm-up steps of the training "
        "arguments, 0 unless warmup is set, which DeepSpeed refuses from 0.19.3 when the engine builds the "
        "scheduler. dsref checks the value those releases fill for common inputs against the release checked "
        "for (the older releases' verdicts are recorded from them). Upgrade the library, or write the value "
        'instead of "auto".'
    ),
    scope=Scope.hugging_face,
)
def hugging_face_fills_a_refused_value(ctx: Context) -> Iterator[Hit]:
    if ctx.profile != "hf" or not ctx.effective.hugging_face.known():
        return  # with neither release known, both fill as their newest: no change is in force (_change_in_force)
    target = ".".join(map(str, ctx.version))
    for path in sorted(ctx.effective.filled):
        if path not in ctx.tree:
            continue
        opt = ctx.tree.get(path)
        hf = opt.meta.hf_auto
        if hf is None:
            continue
        for by in HF_FILLERS:
            installed = ctx.effective.hugging_face.of(by)
            change = _change_in_force(hf.changes, by, installed)
            if change is None or change.example is UNSET or _takes(ctx, opt, change.example):
                continue
            args = {
                "library": by,
                "installed": installed,
                "fill": change.before,
                "value": short_repr(change.example),
                "target": target,
                "release": change.release,
            }
            yield Hit(ctx.where(path), path, args)
            break


def _change_in_force(changes: tuple[HfChange, ...], by: HfFiller, installed: str | None) -> HfChange | None:
    """The change ``by`` at ``installed`` has not made yet, the earliest such: what it fills is that change's
    ``before``. None for the newest, or a release not known."""
    number = None if installed is None else release_number(installed)
    if number is None:
        return None
    later = [c for c in changes if c.by == by and number < (release_number(c.release) or (0, 0, 0))]
    return min(later, key=lambda c: release_number(c.release) or (0, 0, 0)) if later else None


def _takes(ctx: Context, opt: Option, value: Any) -> bool:
    """Whether the release checked for takes ``value`` at ``opt``: its recorded verdict where one was recorded,
    else 0.19.8's (the schema's type and bounds, as DeepSpeed's validation converts values)."""
    facts = ctx.release
    recorded = None if facts is None else facts.accepts_value(opt.path, value)
    if recorded is not None:
        return recorded
    try:
        coerce(opt, value)
    except ValueError:
        return False
    return True


# -- what Trainer compares: the launch a file read as Hugging Face's must match ------------------------------------


def _compared(ctx: Context) -> Iterator[tuple[Option, Any]]:
    """Each option Trainer compares with its arguments that the file writes with a value (not ``"auto"``), in the
    tree's order, with the value as written."""
    for opt in ctx.tree:
        hf = opt.meta.hf_auto
        if hf is None or not hf.compared:
            continue
        value = as_written(ctx.config, opt.path)
        if value is UNSET or value is None or (isinstance(value, str) and value == "auto"):
            continue
        yield opt, value


def _flag_value(value: Any) -> str | None:
    """A value as a ``TrainingArguments`` flag takes it on the command line; None for one no flag can give."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return repr(value)
    return None


def _flags(compared: str, value: Any) -> str | None:
    """The command-line arguments that make Trainer's ``compared`` equal ``value``; None where no flag can (a
    calculated value, a value of the wrong type)."""
    if compared.endswith("(calculated)"):
        return None
    if compared == "adam_beta1+adam_beta2":
        if not (isinstance(value, list) and len(value) == 2):
            return None
        betas = [_flag_value(v) for v in value]
        if None in betas or any(isinstance(v, bool) for v in value):
            return None
        return f"--adam_beta1 {betas[0]} --adam_beta2 {betas[1]}"
    name = compared.split("|", 1)[0]
    if "|" in compared:  # fp16|fp16_full_eval: a switch
        return (f"--{name}" if value else f"--{name} False") if isinstance(value, bool) else None
    shown = _flag_value(value)
    if shown is None or isinstance(value, bool):
        return None
    return f"--{name} {shown}"


@rule(
    "DS612",
    "launch-must-match",
    Severity.info,
    message="Trainer compares {values} of this file with its arguments and refuses to start when one differs: "
    "launch it with {flags}{batch}",
    phrases={
        "batch": ", and with per_device_train_batch_size × gradient_accumulation_steps × processes = {total}",
        "one_value": "1 value",
        "many_values": "{count} values",
    },
    explanation=(
        'Hugging Face\'s Trainer fills each "auto" from its TrainingArguments, and compares a value written '
        "explicitly with the argument it would have filled: when the two differ, it stops before training with "
        '"Please correct the following DeepSpeed config values that mismatch TrainingArguments values", listing '
        "each pair. A file read as Hugging Face's therefore carries a contract with its launch: the batch sizes, "
        "the optimizer's learning rate, betas, epsilon and weight decay, the scheduler's peak learning rate and "
        "step counts, gradient clipping and fp16/bf16 must be given the same on the command line. This note lists "
        'the arguments that make the launch match. Writing "auto" instead of a value removes it from the '
        "contract: Trainer then fills it. The note is not shown for a file Hugging Face's reader refuses (not "
        "strict JSON): no launch starts with it."
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": 4,
          "gradient_accumulation_steps": "auto",
          "bf16": {"enabled": true},
          "optimizer": {"type": "AdamW", "params": {"lr": 2e-5, "weight_decay": "auto"}}
        }
        """,
        repaired="""
        {
          "train_micro_batch_size_per_gpu": "auto",
          "gradient_accumulation_steps": "auto",
          "bf16": {"enabled": "auto"},
          "optimizer": {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto"}}
        }
        """,
        hf=True,
    ),
    about_launch=True,
    scope=Scope.hugging_face,
)
def launch_must_match(ctx: Context) -> Iterator[Hit]:
    launch = ctx.settings.launch
    if ctx.profile != "hf" or (launch is not None and launch.form != "accelerate"):
        return  # with the launch given, DS589 says where it does not match (an Accelerate config gives no command)
    flags: list[str] = []
    total = None
    count = 0
    for opt, value in _compared(ctx):
        hf = opt.meta.hf_auto
        assert hf is not None
        if isinstance(value, str):
            continue  # never equal to a number or a switch: DS588 says so
        if opt.path == "train_batch_size":
            if isinstance(value, int) and not isinstance(value, bool):
                total, count = value, count + 1
            continue
        given = _flags(hf.compared, value)
        if given is not None:
            count += 1
            if given not in flags:  # the learning rate is compared twice, with the optimizer's and the scheduler's
                flags.append(given)
    if not flags and total is None:
        return
    values = "one_value" if count == 1 else "many_values"
    args: dict[str, Any] = {"count": count, "values": values, "flags": " ".join(flags) or "…", "batch": ""}
    if total is not None:
        args.update(batch="batch", total=total)
    yield Hit((), None, args)


@rule(
    "DS588",
    "trainer-compares-a-string",
    Severity.error,
    message="Trainer compares {value} with its argument {argument} as written: a string never equals it, so "
    "Trainer refuses to start whatever the launch gives; write {fixed}",
    explanation=(
        "Trainer compares a value written in the DeepSpeed config with its own argument as Python compares them: "
        'the string "8" is not the number 8, and "true" is not True. DeepSpeed itself may read such a string '
        '(its pydantic sections convert it), but Trainer never gets that far: it stops with "Please correct the '
        'following DeepSpeed config values that mismatch TrainingArguments values", showing the two as '
        '"gradient_accumulation_steps=8 vs gradient_accumulation_steps=8", which look equal. Write the number or '
        'the boolean itself, or "auto".'
    ),
    example=Example(
        """
        {
          "train_micro_batch_size_per_gpu": "auto",
          "gradient_accumulation_steps": "8"
        }
        """,
        hf=True,
        also=("DS201",),
    ),
    scope=Scope.hugging_face,
)
def trainer_compares_a_string(ctx: Context) -> Iterator[Hit]:
    if ctx.profile != "hf":
        return
    for opt, value in _compared(ctx):
        if not isinstance(value, str):
            continue
        hf = opt.meta.hf_auto
        assert hf is not None
        try:
            converted = coerce(opt, value)
        except ValueError:
            continue  # not a number or a switch at all: the schema's own finding says so
        if isinstance(converted, str):
            continue
        fixed = short_repr(converted)
        yield Hit(ctx.where(opt.path), opt.path, {"value": short_repr(value), "argument": hf.compared, "fixed": fixed})


# -- with the launch given: what Trainer will compare, predicted ---------------------------------------------------


@rule(
    "DS589",
    "launch-mismatch",
    Severity.error,
    message="Trainer refuses to start with this launch: it compares {value} with {argument}={given} ({where})",
    phrases={"default": "its default, not given by the launch"},
    explanation=(
        "Checked with its launch (`dsref check LAUNCH`), a file read as Hugging Face's is compared as Trainer "
        "compares it: each value written explicitly at an option Trainer fills is set against the training "
        "argument the launch gives (or that argument's default), and where the two differ Trainer stops before "
        'training with "Please correct the following DeepSpeed config values that mismatch TrainingArguments '
        'values". The batch size is compared with per_device_train_batch_size × gradient_accumulation_steps × '
        'the number of processes the launcher starts. Give the launch the file\'s value, or write "auto" in the '
        "file so that Trainer fills it."
    ),
    scope=Scope.hugging_face,
)
def launch_mismatch(ctx: Context) -> Iterator[Hit]:
    launch = ctx.settings.launch
    if ctx.profile != "hf" or launch is None or launch.form == "accelerate":
        return  # an Accelerate config does not say whether the script runs Trainer, nor its arguments
    for opt, value in _compared(ctx):
        hf = opt.meta.hf_auto
        assert hf is not None
        if isinstance(value, str):
            continue  # DS588
        older = _change_in_force(hf.changes, "transformers", ctx.effective.hugging_face.of("transformers"))
        side = trainer_holds(
            hf.compared,
            launch,
            ctx.world_size,
            warmup_at_least_one=older is None,
            warmup_ratio=None if older is None else older.warmup_ratio,
        )
        if isinstance(side, Unknown):
            continue  # DS613 names what the launch leaves unsaid
        expected, where = side.value, side.where
        if value != expected:
            args = {
                "value": short_repr(value),
                "argument": older.compared if older is not None and older.compared else hf.compared,
                "given": repr(expected),
                "where": where or "default",
            }
            yield Hit(ctx.where(opt.path), opt.path, args)


@rule(
    "DS613",
    "launch-leaves-unknown",
    Severity.info,
    message='Trainer fills {paths} from {needs}; the launch does not say it, so dsref checks them as "auto" and '
    "compares none of them",
    phrases={
        "world_size": "the number of processes (give --world-size, or the launcher's --num_gpus, --nproc_per_node "
        "or --num_processes)",
        "steps": "the number of training steps (the launch gives no max_steps, so Trainer counts them from "
        "num_train_epochs and the size of the data set, which dsref does not know; give --max_steps, or max_steps: "
        "in a YAML launch)",
        "hidden_size": "the model's hidden size (name a local model directory that holds its config.json)",
        "variable": "what the launch leaves to the run ({names}: a shell variable dsref cannot resolve, or "
        'axolotl\'s "auto")',
    },
    explanation=(
        'Checked with its launch, a file read as Hugging Face\'s has each "auto" filled as Trainer fills it: the '
        "batch sizes, learning rate, betas, clipping and precision from the training arguments when Trainer starts "
        "(trainer_config_process), the bucket sizes from the model's hidden size and the scheduler's step counts "
        "from the number of training steps once the model is loaded and the data counted (trainer_config_finalize). "
        'Where the launch does not say what a value is made of, dsref does not guess: the value stays "auto", '
        "the checks that need it leave it out, and this note says what would decide it."
    ),
    about_launch=True,
    scope=Scope.hugging_face,
)
def launch_leaves_unknown(ctx: Context) -> Iterator[Hit]:
    launch = ctx.settings.launch
    if ctx.profile != "hf" or launch is None or launch.form == "accelerate":
        return
    transformers = ctx.effective.hugging_face.of("transformers")
    filling = trainer_fill(ctx.config, launch, ctx.world_size, ctx.tree, transformers)
    needs: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    for unknown in filling.unknown:
        needs.setdefault(unknown.need, []).append(unknown.path)
        names.setdefault(unknown.need, []).extend(n for n in unknown.names if n not in names[unknown.need])
    for need, paths in needs.items():
        args = {"paths": ", ".join(paths), "needs": need, "names": ", ".join(names[need])}
        yield Hit(ctx.where(paths[0]), paths[0], args)
