"""The worked examples of the site, declared once, and every figure a page states about them, computed here.

A page never writes a memory figure of its own. The generated pages (``zero.md``, ``fit.md``) compute theirs from
the declarations below; a hand-written page cites one with a macro the site build fills in, in the page's language::

    {{ figure gpu model=llama-2-7b gpus=8 stage=3 }}            model states per GPU: 14.6 GB
    {{ figure saving model=llama-2-7b gpus=8 stage=3 }}         stage 0's model states over stage 3's: 8.6

A macro that names an undeclared model, GPU count or sequence length, or a quantity that does not exist, fails the
build with the page and line (:func:`fill`); so does a memory figure written by hand in a hand-written page
(:func:`hand_written`) and batch arithmetic that does not add up (:func:`wrong_arithmetic`).

>>> fill("{{ figure gpu model=llama-2-7b gpus=8 stage=3 }}", "en")[0]
'14.6 GB'
>>> fill("{{ figure gpu model=llama-2-7b gpus=3 stage=3 }}", "en")[1]
['line 1: gpus=3 is not a declared GPU count (1, 8, 64)']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from typing import TYPE_CHECKING

from ..estimate.model import Architecture, architecture_from_hf
from ..estimate.model_states import BUFFER_FACTOR, SwapBuffers
from ..estimate.peak import Run, peak_memory
from ..estimate.quantities import OffloadDevice, format_bytes, format_number
from ..estimate.table import Estimate, Row, estimate
from ..records import record
from ..text.numbers import grouped, human_count
from .markdown import outside_fences

if TYPE_CHECKING:
    from ..text.i18n import Lang

__all__ = [
    "GPUS",
    "GPU_SIZES",
    "MODELS",
    "SEQ_LENS",
    "FigureError",
    "Model",
    "Statement",
    "disagreements",
    "example_run",
    "fill",
    "hand_written",
    "model_estimate",
    "peak_bytes",
    "statements",
    "wrong_arithmetic",
]


@record
class Model:
    """A model of the worked examples: its name and its shape, as its Hugging Face config.json writes it."""

    name: str
    shape: tuple[tuple[str, object], ...]
    """The keys of its config.json (pairs, so that a model can be a cache key)."""

    @property
    def config(self) -> dict[str, object]:
        return dict(self.shape)

    @property
    def arch(self) -> Architecture:
        return _architecture(self)


@cache
def _architecture(model: Model) -> Architecture:
    return architecture_from_hf(model.config)


MODELS: dict[str, Model] = {
    "llama-2-7b": Model(
        "Llama 2 7B",
        (
            ("model_type", "llama"),
            ("hidden_size", 4096),
            ("intermediate_size", 11008),
            ("num_hidden_layers", 32),
            ("num_attention_heads", 32),
            ("vocab_size", 32000),
        ),
    ),
    "llama-2-13b": Model(
        "Llama 2 13B",
        (
            ("model_type", "llama"),
            ("hidden_size", 5120),
            ("intermediate_size", 13824),
            ("num_hidden_layers", 40),
            ("num_attention_heads", 40),
            ("vocab_size", 32000),
        ),
    ),
}
"""The models of every worked example, by the id a macro names them with."""

GPUS: dict[int, tuple[int, int]] = {1: (1, 1), 8: (8, 1), 64: (8, 8)}
"""The GPU counts of the worked examples, as (GPUs per node, nodes): one GPU, one node of 8, 8 such nodes."""

SEQ_LENS = (2048, 4096)
"""The sequence lengths of the worked examples (micro batch 1)."""

GPU_SIZES = (24, 40, 80)
"""GPU memory in GB the examples are fitted to: a 4090 or an A10, an A100-40G, an A100-80G or an H100."""

DTYPE_BYTES = {"bf16": 2, "fp16": 2, "fp32": 4}


def model_estimate(model_id: str, gpus: int) -> Estimate:
    """The model-state estimate of a declared model on a declared GPU count (every stage and offload)."""
    return _estimate(model_id, gpus)


@cache
def _estimate(model_id: str, gpus: int) -> Estimate:
    arch = MODELS[model_id].arch
    per_node, nodes = GPUS[gpus]
    return estimate(arch.params, gpus_per_node=per_node, nodes=nodes, largest_layer=arch.largest_layer)


def example_run(
    stage: int, optimizer: OffloadDevice, param: OffloadDevice, seq: int, gpus: int = 8, checkpointing: bool = False
) -> Run:
    """The run of the worked examples' peak figures: micro batch 1, bf16, DeepSpeed's defaults otherwise."""
    per_node, nodes = GPUS[gpus]
    return Run(
        stage=stage,
        offload_optimizer=optimizer,
        offload_param=param,
        seq_len=seq,
        gpus_per_node=per_node,
        nodes=nodes,
        checkpointing=checkpointing,
    )


def peak_bytes(
    model_id: str,
    stage: int,
    optimizer: OffloadDevice,
    param: OffloadDevice,
    seq: int,
    gpus: int = 8,
    checkpointing: bool = False,
) -> int:
    """The peak GPU memory of a declared model in one of the worked examples' runs."""
    return peak_memory(MODELS[model_id].arch, example_run(stage, optimizer, param, seq, gpus, checkpointing)).bytes


def estimate_command(model_id: str, gpus: int) -> str:
    """The ``dsref estimate`` command that prints a declared case's model-state table."""
    arch = MODELS[model_id].arch
    per_node, nodes = GPUS[gpus]
    command = f"dsref estimate --params {arch.params} --largest-layer {arch.largest_layer} --gpus-per-node {per_node}"
    return command + (f" --nodes {nodes}" if nodes > 1 else "")


class FigureError(ValueError):
    """A macro that does not name a declared case or a known quantity (the message says what is wrong)."""


_MACRO = re.compile(r"\{\{\s*figure\b(?P<words>[^}]*)\}\}")
_OPENING = re.compile(r"\{\{\s*figure\b")

_DEVICES = ("none", "cpu", "nvme")

QUANTITIES = {
    "gpu": "model states per GPU",
    "cpu": "CPU memory per node for the model states",
    "nvme": "NVMe space per node",
    "saving": "stage 0's model states per GPU divided by this stage's",
    "peak": "the peak GPU memory of a run (micro batch 1, bf16)",
    "params": "the model's parameters",
    "largest-layer": "the parameters of its largest layer",
    "params-per-gpu": "its parameters divided by the GPUs",
    "swap-buffers": "the optimizer's NVMe swap buffers per GPU (sub-group= for another sub_group_size)",
    "command": "the dsref estimate command of the model-state table",
    "bytes": "elements= elements of dtype= (bf16, fp16, fp32), in MB or GB (2**20, 2**30 bytes)",
    "buffer-factor": "DeepSpeed's additional_buffer_factor for CPU memory",
}
"""What a macro can show, with what it means."""

_NEEDS_MODEL = {"gpu", "cpu", "nvme", "saving", "peak", "params", "largest-layer", "params-per-gpu", "swap-buffers"}
_NEEDS_MODEL |= {"command"}


@record
class Macro:
    """One parsed ``{{ figure … }}``."""

    quantity: str
    model: str | None = None
    gpus: int = 8
    stage: int = 0
    optimizer: OffloadDevice = "none"
    param: OffloadDevice = "none"
    zero_init: bool = True
    seq: int | None = None
    checkpointing: bool = False
    elements: int | None = None
    dtype: str = "bf16"
    sub_group: int | None = None

    @property
    def key(self) -> str:
        """The case and quantity, the same however the macro was spelt (what two pages must agree on):
        ``gpu llama-2-7b gpus=8 stage=3``."""
        parts = [self.quantity]
        if self.model is not None:
            parts.append(self.model)
        if self.quantity in ("params", "largest-layer", "bytes", "buffer-factor"):
            parts += [f"elements={self.elements} dtype={self.dtype}"] if self.quantity == "bytes" else []
            return " ".join(parts)
        parts.append(f"gpus={self.gpus}")
        if self.quantity in ("params-per-gpu", "swap-buffers", "command"):
            parts += [f"sub-group={self.sub_group}"] if self.sub_group is not None else []
            return " ".join(parts)
        parts.append(f"stage={self.stage}")
        parts += [f"optimizer={self.optimizer}"] if self.optimizer != "none" else []
        parts += [f"param={self.param}"] if self.param != "none" else []
        parts += ["init=no"] if not self.zero_init and self.stage == 3 else []
        parts += [f"seq={self.seq}"] if self.seq is not None else []
        parts += ["ckpt=yes"] if self.checkpointing else []
        return " ".join(parts)


def _number(name: str, text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise FigureError(f"{name}={text} is not a number") from None
    if value != int(value) or value < 0:
        raise FigureError(f"{name}={text} is not a whole number")
    return int(value)


def _settings(tokens: list[str]) -> dict[str, str]:
    settings = {}
    for token in tokens:
        name, sep, value = token.partition("=")
        if not sep or not value:
            raise FigureError(f"{token!r} is not name=value")
        settings[name] = value
    return settings


def parse(words: str, defaults: Mapping[str, str] | None = None) -> Macro:
    """A macro's words (``gpu model=llama-2-7b gpus=8 stage=3``) as a :class:`Macro`, with ``defaults`` (from the
    page's ``<!-- dsref-figures: … -->``) for the settings it leaves out; :class:`FigureError` for anything else."""
    tokens = words.split()
    if not tokens or "=" in tokens[0]:
        raise FigureError("a figure macro starts with its quantity: " + ", ".join(QUANTITIES))
    quantity = tokens[0]
    if quantity not in QUANTITIES:
        raise FigureError(f"unknown quantity {quantity!r} ({', '.join(QUANTITIES)})")
    settings = {**(defaults or {}), **_settings(tokens[1:])}
    if quantity not in _NEEDS_MODEL:
        settings.pop("model", None)
    fields: dict[str, object] = {"quantity": quantity}
    for name, value in settings.items():
        if name == "model":
            if value not in MODELS:
                raise FigureError(f"model={value} is not a declared model ({', '.join(MODELS)})")
            fields["model"] = value
        elif name == "gpus":
            if not value.isdigit() or int(value) not in GPUS:
                raise FigureError(f"gpus={value} is not a declared GPU count ({', '.join(map(str, GPUS))})")
            fields["gpus"] = int(value)
        elif name == "stage":
            if value not in ("0", "1", "2", "3"):
                raise FigureError(f"stage={value} is not a ZeRO stage (0-3)")
            fields["stage"] = int(value)
        elif name in ("optimizer", "param"):
            if value not in _DEVICES:
                raise FigureError(f"{name}={value} is not an offload device ({', '.join(_DEVICES)})")
            fields[name] = value
        elif name == "init":
            if value not in ("yes", "no"):
                raise FigureError(f"init={value}: yes or no (the model built inside zero.Init)")
            fields["zero_init"] = value == "yes"
        elif name == "seq":
            if not value.isdigit() or int(value) not in SEQ_LENS:
                raise FigureError(f"seq={value} is not a declared sequence length ({', '.join(map(str, SEQ_LENS))})")
            fields["seq"] = int(value)
        elif name == "ckpt":
            if value not in ("yes", "no"):
                raise FigureError(f"ckpt={value}: yes or no (gradient checkpointing)")
            fields["checkpointing"] = value == "yes"
        elif name == "elements":
            fields["elements"] = _number(name, value)
        elif name == "sub-group":
            fields["sub_group"] = _number(name, value)
        elif name == "dtype":
            if value not in DTYPE_BYTES:
                raise FigureError(f"dtype={value} is not one of {', '.join(DTYPE_BYTES)}")
            fields["dtype"] = value
        else:
            raise FigureError(f"unknown setting {name!r} (model, gpus, stage, optimizer, param, init, seq, ckpt, ...)")
    macro = Macro(**fields)  # type: ignore[arg-type]
    if quantity in _NEEDS_MODEL and macro.model is None:
        raise FigureError(f"{quantity} needs model= ({', '.join(MODELS)})")
    if quantity == "peak" and macro.seq is None:
        raise FigureError(f"peak needs seq= ({', '.join(map(str, SEQ_LENS))})")
    if quantity == "bytes" and macro.elements is None:
        raise FigureError("bytes needs elements=")
    return macro


def _row(macro: Macro) -> Row:
    assert macro.model is not None
    est = _estimate(macro.model, macro.gpus)
    try:
        return est.row(macro.stage, macro.optimizer, macro.param, macro.zero_init if macro.stage == 3 else None)
    except KeyError:
        raise FigureError(
            f"the estimate has no row for stage {macro.stage} with optimizer={macro.optimizer} param={macro.param}"
        ) from None


def memory_bytes(n: int, lang: Lang) -> str:
    """Bytes as the whole site counts them, GB = 2**30 (as the estimator, DeepSpeed's estimators and GPU makers
    do): GB with one decimal from half a GB up, whole MB (2**20) below: ``0.9 GB`` for 1e9 bytes, ``381 MB``."""
    if n >= 2**29:
        return format_bytes(n, lang)
    return f"{format_number(n / 2**20, 0, lang)} MB"


def value(macro: Macro, lang: Lang) -> str:
    """What a macro shows, in ``lang``."""
    q = macro.quantity
    if q == "bytes":
        assert macro.elements is not None
        return memory_bytes(macro.elements * DTYPE_BYTES[macro.dtype], lang)
    if q == "buffer-factor":
        return format_number(BUFFER_FACTOR, 1, lang)
    assert macro.model is not None
    arch = MODELS[macro.model].arch
    if q in ("gpu", "cpu", "nvme"):
        row = _row(macro)
        n = {"gpu": row.gpu_bytes, "cpu": row.cpu_bytes, "nvme": row.nvme_bytes}[q]
        if n is None:
            raise FigureError(f"stage {macro.stage} with optimizer={macro.optimizer} uses no NVMe")
        return format_bytes(n, lang)
    if q == "saving":
        ratio = _estimate(macro.model, macro.gpus).row(0).gpu_bytes / _row(macro).gpu_bytes
        return format_number(ratio, 1 if ratio < 10 else 0, lang)
    if q == "peak":
        assert macro.seq is not None
        n = peak_bytes(
            macro.model, macro.stage, macro.optimizer, macro.param, macro.seq, macro.gpus, macro.checkpointing
        )
        return format_bytes(n, lang)
    if q == "params":
        return human_count(arch.params, lang)
    if q == "largest-layer":
        return human_count(arch.largest_layer, lang)
    if q == "params-per-gpu":
        return human_count(arch.params / macro.gpus, lang)
    if q == "swap-buffers":
        buffers = _estimate(macro.model, macro.gpus).buffers
        if macro.sub_group is not None:
            buffers = SwapBuffers(
                buffers.param_buffer_count, buffers.param_buffer_size, buffers.optimizer_buffer_count, macro.sub_group
            )
        return format_bytes(buffers.optimizer_bytes_per_gpu(arch.params, macro.gpus), lang)
    if q == "command":
        return estimate_command(macro.model, macro.gpus)
    raise FigureError(f"unknown quantity {q!r}")  # pragma: no cover - parse() refuses it first


_DEFAULTS = re.compile(r"^\s*<!--\s*dsref-figures:(?P<words>.*?)-->\s*$")


def _defaults(line: str, number: int, current: dict[str, str], problems: list[str]) -> dict[str, str]:
    """The settings a ``<!-- dsref-figures: model=llama-2-7b -->`` line gives the macros after it."""
    found = _DEFAULTS.match(line)
    if not found:
        return current
    try:
        settings = _settings(found["words"].split())
        parse("command" if "model" in settings else "buffer-factor", settings)  # a macro's checks
    except FigureError as problem:
        problems.append(f"line {number}: {problem}")
        return current
    return settings


def fill(markdown: str, lang: Lang) -> tuple[str, list[str]]:
    """``markdown`` with every ``{{ figure … }}`` replaced by its value in ``lang``, and the problems, each
    ``line N: …`` (a macro with a problem is left as it is).

    A line ``<!-- dsref-figures: model=llama-2-7b gpus=8 -->`` sets what the macros after it leave out.
    """
    problems: list[str] = []
    lines = markdown.split("\n")
    defaults: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        defaults = _defaults(line, number, defaults, problems)
        if _DEFAULTS.match(line):
            lines[number - 1] = ""  # said, not shown: an empty line keeps the page's line numbers
            continue
        if "{{" not in line:
            continue

        def replace(match: re.Match[str], number: int = number, defaults: dict[str, str] = defaults) -> str:
            try:
                return value(parse(match["words"], defaults), lang)
            except FigureError as problem:
                problems.append(f"line {number}: {problem}")
                return match[0]

        if len(_OPENING.findall(line)) > len(_MACRO.findall(line)):
            problems.append(f"line {number}: a figure macro that does not close with }}}} on its line")
        lines[number - 1] = _MACRO.sub(replace, line)
    return "\n".join(lines), problems


@record
class Statement:
    """A figure a page states: where, about which case and quantity (:attr:`Macro.key`), and what it says."""

    page: str
    line: int
    lang: Lang
    macro: Macro
    text: str

    @property
    def key(self) -> str:
        return self.macro.key


def statements(markdown: str, page: str, lang: Lang) -> list[Statement]:
    """Every figure a page cites with a macro, with its line and the text :func:`fill` puts there."""
    found = []
    defaults: dict[str, str] = {}
    for number, line in enumerate(markdown.split("\n"), 1):
        defaults = _defaults(line, number, defaults, [])
        for match in _MACRO.finditer(line):
            try:
                macro = parse(match["words"], defaults)
                found.append(Statement(page, number, lang, macro, value(macro, lang)))
            except FigureError:
                continue
    return found


def disagreements(found: Iterable[Statement]) -> list[str]:
    """One line for each case and quantity that pages state with different figures in one language, naming every
    page and line and what each says."""
    by_key: dict[tuple[str, str], list[Statement]] = {}
    for statement in found:
        by_key.setdefault((statement.lang, statement.key), []).append(statement)
    problems = []
    for (lang, key), said in sorted(by_key.items()):
        if len({s.text for s in said}) > 1:
            where = "; ".join(f"{s.page}:{s.line} says {s.text}" for s in said)
            problems.append(f"{key} ({lang}) differs between pages: {where}")
    return problems


_INLINE_CODE = re.compile(r"`[^`\n]*`")
_QUOTED = re.compile(r"\"[^\"\n]*\"|“[^”\n]*”")
"""A figure in quotes is one the page quotes to correct ("4×", “500 MB”), not one it states."""
_NUM = r"(?<![\w.])\d+(?:[.,]\d+)*"
_MEMORY = re.compile(rf"{_NUM}\s?[KMGT]i?B\b|{_NUM}×|{_NUM}\s?倍")


def _prose_lines(markdown: str) -> list[tuple[int, str]]:
    """The lines outside fenced code, with inline code, macros, HTML comments and quotations blanked."""
    found = []
    for number, line in outside_fences(markdown):
        text = _MACRO.sub(" ", line)
        text = re.sub(r"<!--.*?-->", " ", text)
        found.append((number, _QUOTED.sub(" ", _INLINE_CODE.sub(" ", text))))
    return found


def hand_written(markdown: str) -> list[str]:
    """Memory figures and savings a hand-written page states itself instead of citing with a macro
    (``line N: '15.2 GB' …``)."""
    problems = []
    for number, text in _prose_lines(markdown):
        for match in _MEMORY.finditer(text):
            problems.append(
                f"line {number}: {match[0].strip()!r} written by hand; cite it with "
                "{{ figure … }} (dsref/site/figures.py) so that it comes from the estimator"
            )
    return problems


_PRODUCT = re.compile(r"(?<![\w.])(\d[\d,]*(?:\s*×\s*\d[\d,]*)+)\s*=\s*(\d[\d,]*)(?![\w.])")


def wrong_arithmetic(markdown: str) -> list[str]:
    """Products written out (``4 × 8 × 16 = 512``, batch arithmetic) that do not hold, anywhere on a page."""
    problems = []
    for number, line in enumerate(markdown.split("\n"), 1):
        for match in _PRODUCT.finditer(line):
            factors = [int(f.replace(",", "")) for f in match[1].split("×")]
            product = 1
            for factor in factors:
                product *= factor
            if product != int(match[2].replace(",", "")):
                problems.append(f"line {number}: {match[0]} does not hold: the product is {grouped(product, 'en')}")
    return problems
