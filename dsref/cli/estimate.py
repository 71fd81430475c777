"""``dsref estimate``: model-state memory per ZeRO stage and offload (``--params 7B``), or the peak GPU memory of a
run (``--config ds_config.json --model config.json``), and what fits a GPU."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..records import record
from ..text.escape import json_visible, visible
from ..text.i18n import messages
from .lang import add_lang_option, language

if TYPE_CHECKING:
    from ..check.read.loader import Loaded, LoadedConfig
    from ..estimate.hub import HubModel
    from ..estimate.model import Architecture
    from ..estimate.peak import Default, Run
    from ..estimate.quantities import EstimateError
    from ..launch.model import Given, Launch
    from ..text.i18n import Lang, Messages
    from ..tree.profiles import Profile

CLI = messages(
    "commands.estimate",
    error="dsref estimate: {message}",
    suggest_needs_memory="--suggest needs --gpu-memory, e.g. --gpu-memory 80GB",
    not_a_number="{option}: '{value}' is not a number",
    needs_params="give --params (a parameter count) or --model (a Hugging Face config.json)",
    needs_model="--config needs --model as well: the Hugging Face config.json of the model it trains",
    model_unreadable="cannot read the model config {path}: {reason}",
    model_not_json="the model config {path} is not JSON: {reason}",
    model_too_large=(
        "the file is larger than {limit} bytes, far more than any model's config.json; is it the right file?"
    ),
    model_unknown_type=(
        "{reason}; or describe the model with --params, --hidden-size, --layers, --seq-len and --micro-batch, "
        "without --model"
    ),
    config_unreadable="cannot read the DeepSpeed config {path}: {reason}",
    in_file="{where}: {reason}",
    stdin_twice="--model and --config cannot both be '-': standard input can be read only once",
    finding="{where}: {severity}[{code}] {message}",
    severity_error="error",
    severity_warning="warning",
    refused=(
        "DeepSpeed {version} refuses this config, so there is no run to estimate; correct it first "
        "(dsref check {path} says more, with the fixes it can make)"
    ),
    launch_error="{where}: {reason}",
    launch_no_config=(
        "{path} names no ds_config file (--deepspeed, deepspeed:, or an Accelerate config's deepspeed_config_file) "
        "to estimate; give it with --config"
    ),
    launch_no_model="{path} names no model (--model_name_or_path, model_name_or_path:, base_model:); give its "
    "config.json with --model",
    launch_unknown_model=(
        "{where}: the model {model} is not a local directory with a config.json here, nor one of the open models "
        "dsref knows offline; give its config.json with --model (from the hub: "
        "https://huggingface.co/{model}/blob/main/config.json)"
    ),
    from_launch="From {path}: {facts}",
    fact_config="ds_config {value}",
    fact_model="model {value}",
    fact_micro_batch="micro batch {value}",
    fact_seq_len="sequence length {value}",
    fact_checkpointing="gradient checkpointing",
    fact_precision="{value}",
    fact_gpus="{value} GPUs",
    from_table="{model} (dsref's table of open models: {source})",
    refused_hf=(
        'this config has "auto" values, so it is for Hugging Face Trainer or Accelerate, and they (with DeepSpeed '
        "{version}) refuse it as written, so there is no run to estimate; correct it first (dsref check --profile "
        "hf {path} says more, with the fixes it can make)"
    ),
)

FLAGS = {
    "params": "--params",
    "largest_layer": "--largest-layer",
    "hidden_size": "--hidden-size",
    "vocab_size": "--vocab-size",
    "layers": "--layers",
    "heads": "--heads",
    "seq_len": "--seq-len",
    "micro_batch": "--micro-batch",
    "gpus_per_node": "--gpus-per-node",
    "nodes": "--nodes",
    "buffer_factor": "--buffer-factor",
    "gpu_memory": "--gpu-memory",
    "cpu_memory": "--cpu-memory",
    "reserve_percent": "--reserve",
    "attention": "--attention",
}
"""The flag that gives each input of the estimate (:class:`~dsref.estimate.quantities.Param`): how the command line
names it in the library's errors. An input no flag gives is named by the DeepSpeed option it is read from
(:data:`~dsref.estimate.peak.CONFIG_PATHS`), see :func:`input_names`."""


def input_names() -> dict[str, str]:
    """How this command names each input of the estimate in a message: its flag, else its DeepSpeed option."""
    from ..estimate.peak import CONFIG_PATHS

    return {**CONFIG_PATHS, **FLAGS}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "launch",
        nargs="?",
        metavar="LAUNCH",
        help="a launch (shell script, LLaMA-Factory, axolotl or Accelerate YAML): the run it starts, its model, "
        "ds_config, micro batch, sequence length, checkpointing, precision and GPUs (flags given win)",
    )
    run = parser.add_argument_group("a run (the peak GPU memory, part by part)")
    run.add_argument("--config", metavar="FILE", help="the ds_config.json of the run (needs --model)")
    run.add_argument("--model", metavar="FILE", help="the model's Hugging Face config.json (read as JSON)")
    run.add_argument(
        "--attention", choices=("eager", "sdpa", "flash"), help="attention implementation (default: sdpa, said)"
    )
    model = parser.add_argument_group("model")
    model.add_argument("--params", metavar="N", help="parameter count: 7B, 1.5e9, 350M")
    model.add_argument("--largest-layer", metavar="N", help="parameters of the largest layer (stage 3 needs it)")
    model.add_argument("--hidden-size", metavar="H", help="hidden size (activations; largest-layer estimate)")
    model.add_argument("--vocab-size", metavar="V", help="vocabulary size (largest-layer estimate)")
    hardware = parser.add_argument_group("hardware")
    hardware.add_argument("--gpus-per-node", metavar="N", help="GPUs per node (default 1)")
    hardware.add_argument("--nodes", metavar="N", help="nodes (default 1)")
    hardware.add_argument(
        "--gpu-memory", metavar="SIZE|GPU", help="memory of one GPU: 80GB, or a name (4090, A100-80G, H100, 910B…)"
    )
    hardware.add_argument("--cpu-memory", metavar="SIZE", help="CPU memory of one node, e.g. 1TB (checked if given)")
    act = parser.add_argument_group("activations (with --hidden-size: all four, or none)")
    act.add_argument("--layers", metavar="L", help="transformer layers")
    act.add_argument("--seq-len", metavar="S", help="sequence length")
    act.add_argument("--micro-batch", metavar="B", help="micro batch per GPU")
    act.add_argument("--heads", metavar="A", help="attention heads: counts attention scores (no FlashAttention)")
    act.add_argument(
        "--gradient-checkpointing",
        "--checkpointing",
        dest="checkpointing",
        action="store_true",
        help="with activation (gradient) checkpointing",
    )
    act.add_argument(
        "--padded", action="store_true", help="batches padded to their longest sequence (an attention mask)"
    )
    act.add_argument(
        "--keep-outputs",
        action="store_true",
        help="the training loop keeps the model's outputs (the logits) until backward, as hand-written loops do",
    )
    act.add_argument(
        "--optimizer",
        choices=("fused", "foreach", "single"),
        help="how Adam steps: fused (DeepSpeed's FusedAdam, the default), foreach (torch's AdamW on CUDA, as Hugging "
        "Face's Trainer makes it: 4 bytes more per parameter stepped at once), single (torch's default on the CPU)",
    )
    parser.add_argument("--suggest", action="store_true", help="with --gpu-memory: the fastest choice that fits")
    parser.add_argument(
        "--reserve", metavar="PERCENT", help="GPU memory kept back for fragmentation (default 10, 20 at stage 3)"
    )
    parser.add_argument(
        "--precision", choices=("bf16", "fp16"), help='for a suggested config, and for "auto" (default bf16)'
    )
    parser.add_argument("--nvme-path", default="/local_nvme", help="for a suggested NVMe offload")
    parser.add_argument("--buffer-factor", default="1.5", help="DeepSpeed's additional_buffer_factor (default 1.5)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from ..estimate.quantities import EstimateError
    from .texts import say

    cli = CLI
    lang = language(args)
    if lang is None:
        return 2
    try:
        return _run(args, lang, cli)
    except EstimateError as exc:
        say(cli.text("error", lang, message=exc.message(lang, input_names())))
        return 2
    except _UsageError as exc:
        say(cli.text("error", lang, message=cli.text(exc.key, lang, **exc.details)))
        return 2


class _UsageError(Exception):
    def __init__(self, key: str, **details: object) -> None:
        super().__init__(key)
        self.key = key
        self.details = details


def _float(text: str, option: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _UsageError("not_a_number", option=option, value=visible(text, name=True)) from None


def _run(args: argparse.Namespace, lang: Lang, cli: Messages) -> int:
    import json

    from ..estimate.fit import row_peaks, suggest
    from ..estimate.gpus import gpu_memory as gpu_memory_of
    from ..estimate.messages import M
    from ..estimate.model import architecture_from_flags
    from ..estimate.peak import Run, check_run
    from ..estimate.quantities import (
        MAX_GPUS_PER_NODE,
        MAX_HIDDEN,
        MAX_LAYERS,
        MAX_MICRO_BATCH,
        MAX_NODES,
        MAX_PARAMS,
        MAX_SEQ_LEN,
        MAX_VOCAB,
        Param,
        format_bytes,
        parse_bytes,
        parse_count,
    )
    from ..estimate.render import (
        assumed_line,
        column_labels,
        fit_lines,
        fit_rule_line,
        flags_model_line,
        render_table,
        row_cells,
        title,
    )
    from ..estimate.table import assumption_lines, estimate, row_label
    from ..tree.versions import DEEPSPEED_VERSION
    from ..tree.versions import DSREF_VERSION as __version__

    if args.launch is not None:
        return _run_peak(args, lang, cli, _from_launch(args, lang, cli))
    if args.model is not None or args.config is not None:
        return _run_peak(args, lang, cli)
    if args.params is None:
        raise _UsageError("needs_params")

    def count(value: str | None, option: Param, maximum: int, whole: bool = True) -> int | None:
        return None if value is None else parse_count(value, option, maximum=maximum, whole=whole)

    params = parse_count(args.params, Param.params, maximum=MAX_PARAMS)
    gpus = count(args.gpus_per_node or "1", Param.gpus_per_node, MAX_GPUS_PER_NODE)
    nodes = count(args.nodes or "1", Param.nodes, MAX_NODES)
    largest = count(args.largest_layer, Param.largest_layer, MAX_PARAMS, whole=False)
    hidden = count(args.hidden_size, Param.hidden_size, MAX_HIDDEN)
    vocab = count(args.vocab_size, Param.vocab_size, MAX_VOCAB)
    layers = count(args.layers, Param.layers, MAX_LAYERS)
    seq = count(args.seq_len, Param.seq_len, MAX_SEQ_LEN)
    batch = count(args.micro_batch, Param.micro_batch, MAX_MICRO_BATCH)
    heads = count(args.heads, Param.heads, MAX_HIDDEN)
    gpu_memory = None if args.gpu_memory is None else gpu_memory_of(args.gpu_memory)
    cpu_memory = None if args.cpu_memory is None else parse_bytes(args.cpu_memory, Param.cpu_memory)
    factor = _float(args.buffer_factor, "--buffer-factor")
    reserve = None if args.reserve is None else _float(args.reserve.rstrip("%"), "--reserve")
    assert gpus is not None and nodes is not None

    if args.suggest and gpu_memory is None:
        raise _UsageError("suggest_needs_memory")
    flags = architecture_from_flags(params, hidden=hidden, layers=layers, heads=heads, vocab=vocab)
    run = check_run(
        Run(
            seq_len=seq or Run.seq_len,
            micro_batch=batch or 1,
            precision=args.precision or "bf16",
            attention=args.attention or "sdpa",
            checkpointing=args.checkpointing,
            padded=args.padded,
            keep_outputs=args.keep_outputs,
            optimizer=args.optimizer or "fused",
            gpus_per_node=gpus,
            nodes=nodes,
        )
    )
    described = (
        gpu_memory is not None
        or any(value is not None for value in (hidden, layers, seq, batch, heads, args.attention))
        or bool(args.checkpointing)
    )
    est = estimate(
        params,
        gpus_per_node=gpus,
        nodes=nodes,
        largest_layer=largest,
        hidden_size=hidden,
        vocab_size=vocab,
        layers=layers,
        buffer_factor=factor,
    )
    verdict = None
    peaks = row_peaks(est, flags.arch, run) if described else None
    if gpu_memory is not None:
        verdict = suggest(
            est,
            flags.arch,
            run,
            gpu_memory,
            cpu_memory=cpu_memory,
            reserve_percent=reserve,
            precision=args.precision or "bf16",
            nvme_path=args.nvme_path,
        )
    nothing_fits = bool(args.suggest and verdict is not None and verdict.row is None)
    given: dict[Default, bool] = {
        "seq_len": seq is not None,
        "micro_batch": batch is not None,
        "attention": args.attention is not None,
        "checkpointing": bool(args.checkpointing),
    }
    assumed = tuple(name for name, was in given.items() if not was)

    if args.format == "json":
        payload = {"dsref": __version__, "deepspeed": DEEPSPEED_VERSION, **est.to_json()}
        if peaks is not None:
            payload["model"] = {**flags.arch.to_json(), "assumed": list(flags.assumed)}
            payload["run"] = run.to_json()
            payload["assumed"] = list(assumed)
            for record, peak in zip(payload["rows"], peaks, strict=True):
                record["peak_bytes"], record["peak_phase"] = peak.bytes, peak.phase
        if verdict is not None:
            payload["fit"] = verdict.to_json()
            for record, fit in zip(payload["rows"], verdict.rows, strict=True):
                record["fits"] = fit.fits
        sys.stdout.write(json_visible(json.dumps(payload, ensure_ascii=False, indent=1)) + "\n")
        return 1 if nothing_fits else 0

    out = [title(est, lang), ""]
    header = column_labels(lang, with_fits=verdict is not None, with_peak=peaks is not None)
    cells = []
    for n, row in enumerate(est.rows):
        fits = None if verdict is None else verdict.rows[n].fits
        cells.append(row_cells(row, lang, fits, None if peaks is None else peaks[n].bytes))
    out.append(render_table(header, cells))
    if peaks is not None:
        out.append(flags_model_line(flags, run, lang))
        said = assumed_line(run, assumed, lang)
        if said is not None:
            out.append(said)
    if verdict is not None:
        out.append(fit_rule_line(gpu_memory or 0, reserve, cpu_memory, lang))
    out.append("")
    out.append(M.text("assumptions", lang))
    out.extend("  - " + line for line in assumption_lines(est, lang))
    if verdict is not None and (args.suggest or verdict.row is not None):
        out.append("")
        advice = verdict.advice()
        if advice is None:
            smallest = min(fit.peak.bytes for fit in verdict.rows)
            memory = format_bytes(gpu_memory or 0, lang)
            out.append(M.text("no_fit", lang, memory=memory, peak=format_bytes(smallest, lang)))
        else:
            assert verdict.row is not None
            out.append(M.text("suggestion", lang, label=row_label(verdict.row, lang)))
            out.extend(fit_lines(advice, lang))
            if args.suggest:
                out.append(M.text("suggest_order", lang))
                out.append(M.text("suggest_config", lang))
                out.append(json.dumps(verdict.config, indent=2))
    sys.stdout.write(visible("\n".join(out).rstrip("\n"), lines=True) + "\n")
    return 1 if nothing_fits else 0


def _where(name: str, line: int | None, col: int | None) -> str:
    """A place in a file as compilers and ``dsref check`` write it: ``name:line:col``, or the name alone."""
    return f"{name}:{line}:{col}" if line is not None and col is not None else name


def _stdin(args: argparse.Namespace) -> bytes | None:
    """Standard input, read once and bounded as a file is, when ``--model`` or ``--config`` is ``-``."""
    from ..check.read.loader import MAX_BYTES

    given = [path for path in (args.model, args.config) if path == "-"]
    if len(given) > 1:
        raise _UsageError("stdin_twice")
    if not given:
        return None
    return sys.stdin.buffer.read(MAX_BYTES + 1) if sys.stdin is not None else b""


def _load(path: str, profile: Profile, stdin: bytes | None) -> tuple[Loaded, str]:
    """The file at ``path`` (``-``: ``stdin``) read as ``dsref check`` reads it, and its name as messages show it:
    only a regular file, at most :data:`~dsref.check.read.loader.MAX_BYTES`, never waiting on a pipe or a device."""
    from ..check.read.loader import load, load_bytes

    if path == "-":
        return load_bytes(stdin or b"", profile), "<stdin>"
    return load(path, profile), visible(path, name=True)


def _in_file(exc: EstimateError, loaded: LoadedConfig, name: str, lang: Lang, cli: Messages) -> _UsageError:
    """An estimate's error about a value of a file, at the place the value is written."""
    where = name
    if exc.field:
        span = loaded.locate(exc.field, "value")
        where = _where(name, span.line, span.col)
    reason = exc.message(lang, input_names())
    if exc.key == "model_unknown_type":  # the command line's other way to describe a model
        reason = cli.text("model_unknown_type", lang, reason=reason)
    return _UsageError("in_file", where=where, reason=reason)


def _read_model(path: str, stdin: bytes | None, lang: Lang, cli: Messages) -> Architecture:
    """The model of a config.json, or of the config.json inside a model's folder (what from_pretrained is given),
    read as Hugging Face reads it (``json.loads``)."""
    import os

    from ..check.read.loader import LoadError
    from ..estimate.model import architecture_from_hf
    from ..estimate.quantities import EstimateError

    if path != "-" and os.path.isdir(path) and os.path.lexists(os.path.join(path, "config.json")):
        path = os.path.join(path, "config.json")
    loaded, name = _load(path, "hf", stdin)
    if isinstance(loaded, LoadError):
        where = _where(name, loaded.line, loaded.col)
        if loaded.reason == "syntax_json":  # the loader's words are about DeepSpeed configs read by Trainer
            raise _UsageError("model_not_json", path=where, reason=loaded.detail(lang) or "")
        if loaded.reason == "too_large":
            reason = cli.text("model_too_large", lang, **loaded.args)
            raise _UsageError("model_unreadable", path=where, reason=reason)
        raise _UsageError("model_unreadable", path=where, reason=loaded.text(lang))
    try:
        return architecture_from_hf(loaded.data)
    except EstimateError as exc:
        raise _in_file(exc, loaded, name, lang, cli) from None


@record
class _Config:
    """What ``--config`` gives a run, and the file it was read from (None without ``--config``)."""

    values: dict[str, object]
    autos: set[str]
    written: set[str]
    """The paths of :data:`~dsref.estimate.peak.CONFIG_PATHS` the file sets (the others are DeepSpeed's defaults)."""
    loaded: LoadedConfig | None
    name: str
    hf: bool = False
    """The file writes "auto" somewhere: it is for Hugging Face Trainer or Accelerate, which read it with
    ``json.load`` and fill the "auto" values."""


def _read_config(path: str | None, stdin: bytes | None, lang: Lang) -> _Config:
    """The options a run is read from, as DeepSpeed sees them (dsref check's loader), and those written "auto"."""
    from ..estimate.peak import CONFIG_PATHS

    if path is None:
        return _Config({}, set(), set(), None, "")
    from ..check.read.loader import LoadError
    from ..check.report.target import installed_hugging_face
    from ..check.validate.effective import effective
    from ..tree.profiles import writes_auto

    loaded, name = _load(path, "deepspeed", stdin)
    if isinstance(loaded, LoadError):
        raise _UsageError("config_unreadable", path=_where(name, loaded.line, loaded.col), reason=loaded.text(lang))
    eff = effective(loaded.data, hugging_face=installed_hugging_face())  # "auto" as the installed releases fill it
    paths = set(CONFIG_PATHS.values())
    written = {p for p in paths if eff.is_set(p) or p in eff.autos}
    hf = writes_auto(loaded.data)  # an "auto" where Hugging Face fills a value: the rule dsref check follows
    return _Config({p: eff.get(p) for p in paths}, eff.filled & paths, written, loaded, name, hf)


@record
class _Said:
    """One of check's findings as this command says it: a line, and the fields of its JSON record."""

    line: str
    record: dict[str, object]


def _checked(
    config: _Config, world_size: int | None, lang: Lang, cli: Messages, launch: Launch | None = None
) -> tuple[list[_Said], bool]:
    """The config through ``dsref check``'s pipeline (the library, not its text): its errors and warnings, and
    whether DeepSpeed refuses it. A config with "auto" is for Hugging Face, and is checked as Hugging Face reads it
    (with its launch, when the estimate is of one)."""
    from ..check.findings import Severity
    from ..check.pipeline import check_loaded, check_text
    from ..check.report.draw import rendered
    from ..check.settings import CheckSettings

    loaded = config.loaded
    if loaded is None:
        return [], False
    hf = config.hf
    if hf:
        report = check_text(loaded.text, config.name, CheckSettings("hf", world_size, launch=launch))
    else:
        report = check_loaded(loaded, config.name, CheckSettings(world_size=world_size))
    said = []
    for finding in rendered(report, lang):
        if finding.severity is Severity.info:
            continue
        where = _where(config.name, finding.line, finding.column)
        severity = cli.text(f"severity_{finding.severity.value}", lang)
        line = cli.text("finding", lang, where=where, severity=severity, code=finding.code, message=finding.message)
        record = {**finding.to_json(), "profile": "hf" if hf else "deepspeed"}
        said.append(_Said(visible(line), record))
    return said, not report.ok


@record
class _Launched:
    """What ``dsref estimate LAUNCH`` takes from the launch: the launch itself, the model's shape where dsref's
    table gives it, and what the command line was given from it (for the line that says so)."""

    launch: Launch
    hub: HubModel | None
    facts: tuple[_Fact, ...]

    def text(self, lang: Lang, cli: Messages) -> str:
        return "; ".join(f"{cli.text('fact_' + f.setting, lang, value=f.value)} ({f.where})" for f in self.facts)


@record
class _Fact:
    """A setting of the estimate taken from the launch: which, its value as shown, and where the launch gives it."""

    setting: str
    value: str
    where: str

    def to_json(self) -> dict[str, str]:
        return {"setting": self.setting, "value": self.value, "where": self.where}


def _from_launch(args: argparse.Namespace, lang: Lang, cli: Messages) -> _Launched:
    """Fill ``args`` from the launch file: each setting the command line leaves out that the launch gives."""
    from ..check.read.loader import MAX_BYTES, LoadError, read_file
    from ..estimate.hub import hub_model
    from ..launch.model import LaunchError
    from ..launch.read import MESSAGES, read_launch

    name = visible(args.launch, name=True)
    read = read_file(args.launch)
    if isinstance(read, LoadError):
        raise _UsageError("launch_error", where=name, reason=MESSAGES.text("unreadable", lang, reason=read.text(lang)))
    try:
        launch = read_launch(args.launch, read.data[:MAX_BYTES].decode("utf-8", errors="replace"))
    except LaunchError as exc:
        where = f"{name}:{exc.line}" if exc.line else name
        details = {key: visible(str(value)) for key, value in exc.details.items()}
        raise _UsageError("launch_error", where=where, reason=MESSAGES.text(exc.reason, lang, **details)) from None
    facts: list[_Fact] = []

    def place(given: Given) -> str:
        return f"{name}:{given.line}"

    if args.config is None:
        if launch.ds_config_path is None:
            raise _UsageError("launch_no_config", path=name)
        args.config = launch.ds_config_path
        written = launch.ds_config.value if launch.ds_config is not None else ""
        facts.append(_Fact("config", visible(str(written)), place(launch.ds_config) if launch.ds_config else name))
    hub = None
    if args.model is None:
        if launch.model_config_path is not None:
            args.model = launch.model_config_path
        elif launch.model is None:
            raise _UsageError("launch_no_model", path=name)
        else:
            hub = hub_model(str(launch.model.value))
            if hub is None:
                model = visible(str(launch.model.value))
                raise _UsageError("launch_unknown_model", where=place(launch.model), model=model)
        if launch.model is not None:
            shown = visible(str(launch.model.value))
            if hub is not None:
                shown = cli.text("from_table", lang, model=hub.hub_id, source=hub.source)
            facts.append(_Fact("model", shown, place(launch.model)))
    batch = launch.arguments.get("per_device_train_batch_size")
    if args.micro_batch is None and batch is not None:
        args.micro_batch = str(batch.value)
        facts.append(_Fact("micro_batch", str(batch.value), place(batch)))
    if args.seq_len is None and launch.sequence_length is not None and type(launch.sequence_length.value) is int:
        args.seq_len = str(launch.sequence_length.value)
        facts.append(_Fact("seq_len", str(launch.sequence_length.value), place(launch.sequence_length)))
    checkpointing = launch.gradient_checkpointing
    if not args.checkpointing and checkpointing is not None and checkpointing.value is True:
        args.checkpointing = True
        facts.append(_Fact("checkpointing", "", place(checkpointing)))
    if args.precision is None:
        for precision in ("bf16", "fp16"):
            given = launch.arguments.get(precision)
            if given is not None and given.value is True:
                args.precision = precision
                facts.append(_Fact("precision", precision, place(given)))
    if args.gpus_per_node is None and args.nodes is None:
        nodes = launch.nodes.value if launch.nodes is not None and type(launch.nodes.value) is int else 1
        per_node = launch.processes_per_node
        if per_node is not None and type(per_node.value) is int:
            args.gpus_per_node, args.nodes = str(per_node.value), str(nodes)
            facts.append(_Fact("gpus", f"{per_node.value} × {nodes}", place(per_node)))
        elif launch.processes is not None and type(launch.processes.value) is int and nodes > 0:
            total = launch.processes.value
            if total % nodes == 0:
                args.gpus_per_node, args.nodes = str(total // nodes), str(nodes)
                facts.append(_Fact("gpus", f"{total // nodes} × {nodes}", place(launch.processes)))
    return _Launched(launch, hub, tuple(facts))


def _run_peak(args: argparse.Namespace, lang: Lang, cli: Messages, launched: _Launched | None = None) -> int:
    import dataclasses
    import json

    from ..estimate.advice import advise
    from ..estimate.gpus import gpu_memory as gpu_memory_of
    from ..estimate.messages import M
    from ..estimate.peak import peak_memory, run_from_config, run_warnings
    from ..estimate.quantities import (
        MAX_GPUS_PER_NODE,
        MAX_HIDDEN,
        MAX_LAYERS,
        MAX_MICRO_BATCH,
        MAX_NODES,
        MAX_SEQ_LEN,
        MAX_VOCAB,
        EstimateError,
        Param,
        parse_bytes,
        parse_count,
    )
    from ..estimate.render import model_note, render_peak, warning_text
    from ..tree.versions import DEEPSPEED_VERSION
    from ..tree.versions import DSREF_VERSION as __version__
    from .texts import say

    if args.model is None and (launched is None or launched.hub is None):
        raise _UsageError("needs_model")

    def count(value: str | None, option: Param, maximum: int) -> int | None:
        return None if value is None else parse_count(value, option, maximum=maximum, whole=True)

    stdin = _stdin(args)
    if launched is not None and launched.hub is not None:
        from ..estimate.model import architecture_from_hf

        arch = architecture_from_hf(launched.hub.config)
    else:
        arch = _read_model(args.model, stdin, lang, cli)
    shape = {
        "hidden": count(args.hidden_size, Param.hidden_size, MAX_HIDDEN),
        "layers": count(args.layers, Param.layers, MAX_LAYERS),
        "heads": count(args.heads, Param.heads, MAX_HIDDEN),
        "vocab": count(args.vocab_size, Param.vocab_size, MAX_VOCAB),
    }
    changed: dict[str, Any] = {key: value for key, value in shape.items() if value is not None}
    if changed:
        arch = dataclasses.replace(arch, **changed)
        if "hidden" in changed or "heads" in changed:
            kv_heads = arch.kv_heads if arch.heads % arch.kv_heads == 0 else arch.heads
            arch = dataclasses.replace(arch, head_dim=max(1, arch.hidden // arch.heads), kv_heads=kv_heads)
    config = _read_config(args.config, stdin, lang)
    seq = count(args.seq_len, Param.seq_len, MAX_SEQ_LEN)
    micro_batch = count(args.micro_batch, Param.micro_batch, MAX_MICRO_BATCH)
    gpus_per_node = count(args.gpus_per_node, Param.gpus_per_node, MAX_GPUS_PER_NODE)
    nodes = count(args.nodes, Param.nodes, MAX_NODES)
    world_size = None if gpus_per_node is None and nodes is None else (gpus_per_node or 1) * (nodes or 1)
    findings, refused = _checked(config, world_size, lang, cli, None if launched is None else launched.launch)
    if refused:
        for finding in findings:
            say(cli.text("error", lang, message=finding.line))
        raise _UsageError("refused_hf" if config.hf else "refused", version=DEEPSPEED_VERSION, path=config.name)
    try:
        run, filled = run_from_config(
            config.values,
            config.autos,
            arch,
            micro_batch=micro_batch,
            precision=args.precision,
            seq_len=seq,
            gpus_per_node=gpus_per_node,
            nodes=nodes,
            attention=args.attention,
            checkpointing=args.checkpointing or None,
            padded=args.padded or None,
            keep_outputs=args.keep_outputs or None,
            optimizer=args.optimizer,
        )
    except EstimateError as exc:
        if exc.field is None or config.loaded is None:
            raise
        raise _in_file(exc, config.loaded, config.name, lang, cli) from None
    peak = peak_memory(arch, run)
    assumed = _assumed(args, config, run, filled)
    warnings = [M.text("warning", lang, message=warning_text(w, lang)) for w in run_warnings(arch, run)]
    advice = None
    if args.gpu_memory is not None:
        cpu_memory = None if args.cpu_memory is None else parse_bytes(args.cpu_memory, Param.cpu_memory)
        reserve = None if args.reserve is None else _float(args.reserve.rstrip("%"), "--reserve")
        advice = advise(
            arch,
            run,
            gpu_memory_of(args.gpu_memory),
            reserve_percent=reserve,
            cpu_memory=cpu_memory,
            batch_auto="train_micro_batch_size_per_gpu" in config.autos,
        )
    status = 1 if advice is not None and not advice.fits else 0
    if args.format == "json":
        payload = {"dsref": __version__, "deepspeed": DEEPSPEED_VERSION, **peak.to_json(), "auto_filled": filled}
        payload["assumed"] = list(assumed)
        payload["warnings"] = [warning_text(w, lang) for w in run_warnings(arch, run)]
        payload["findings"] = [finding.record for finding in findings]
        note = model_note(arch, lang)
        if note is not None:
            payload["model"]["note"] = note
        payload["fit"] = None if advice is None else advice.to_json()
        if launched is not None:
            payload["launch"] = {"path": args.launch, "from_launch": [f.to_json() for f in launched.facts]}
        sys.stdout.write(json_visible(json.dumps(payload, ensure_ascii=False, indent=1)) + "\n")
        return status
    for line in [finding.line for finding in findings] + warnings:
        say(cli.text("error", lang, message=line))
    if launched is not None and launched.facts:
        said = cli.text("from_launch", lang, path=args.launch, facts=launched.text(lang, cli))
        sys.stdout.write(visible(said) + "\n\n")
    sys.stdout.write(visible(render_peak(peak, lang, advice=advice, filled=filled, assumed=assumed), lines=True))
    return status


def _assumed(args: argparse.Namespace, config: _Config, run: Run, filled: list[str]) -> tuple[Default, ...]:
    """The settings of the run that neither the command line nor the config gave, in the order of
    :data:`~dsref.estimate.peak.DEFAULTS`."""
    from ..estimate.peak import CONFIG_PATHS, DEFAULTS

    batch_given = args.micro_batch is not None or any(
        CONFIG_PATHS[name] in config.written for name in ("micro_batch", "train_batch_size")
    )
    precision_given = args.precision is not None or any(
        CONFIG_PATHS[name] in config.written for name in ("bf16", "fp16")
    )
    given: dict[Default, bool] = {
        "seq_len": args.seq_len is not None,
        "micro_batch": batch_given,
        "precision": precision_given,
        "attention": args.attention is not None,
        "checkpointing": bool(args.checkpointing),
    }
    return tuple(name for name in DEFAULTS if not given[name])
