"""Nothing raw reaches a terminal: every message that repeats what the user gave (a file name, an argument, a file's
text) shows its control characters as escapes, in English and in Chinese, on standard output and standard error.

Three tests hold it together, so that a new message or a new print that forgets cannot pass:

* every ``print``/``write`` of the command line goes through :func:`dsref.text.escape.visible` (``say`` for
  standard error) or a renderer that does, or is listed here with the reason it prints only dsref's own text;
* every message that can quote input has a case below that makes the real command say it, or is listed with the
  reason no input reaches it;
* each case runs ``python -m dsref`` with ESC, BEL, CR, LF, U+202E, U+2028, U+2029, a C1 control and DEL in the input
  and finds them escaped in its output, and none of them raw.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import pkgutil
import re
import string
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import dsref
import dsref.cli
from dsref.text.i18n import Messages, registered_messages
from tests.models import SMALL_LLAMA

PAYLOAD = "\x1b]0;owned\x07\r\n\u202e\u2028\u2029\x9b\x7f"
"""Sets the terminal's title, breaks and rewinds the line, reverses what follows, and a C1 CSI and DEL."""
SHOWN = r"\x1b]0;owned\x07\r\n\u202e\u2028\u2029\x9b\x7f"
"""The payload as dsref must show it."""

COMMENT = PAYLOAD.replace("\r\n", "")
"""The payload in a comment, which ends at the line end."""
COMMENT_SHOWN = SHOWN.replace(r"\r\n", "")

SPACES = "\r\n\x0b\x0c\x1c\x85\u2028\u2029"
"""What still reaches a message where dsref strips or splits at white space (Python's white space, or ASCII's)."""

RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]")
"""What a terminal would obey: C0 controls but tab and line feed, DEL, C1, the bidirectional controls, U+2028/9."""

LANGS = {"en": "en_US.UTF-8", "zh": "zh_CN.UTF-8"}


# -- the cases: one or more per message that can quote input --------------------------------------------------------

BROKEN = '{\n  "train_batch_size": 8,\n  "bfloat16": {"enabled": "true"}\n}\n'
"""A config ``--fix`` has something to do with."""

MODEL = SMALL_LLAMA


def _file(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8", newline="")
    return str(path)


def _not_utf8_accelerate_config(folder: Path) -> str:
    """A launch whose Accelerate config (named with the payload) is no UTF-8 text."""
    (folder / f"a{COMMENT}.yaml").write_bytes(b"distributed_type: \xff\n")
    return _file(folder, "run.sh", f"accelerate launch --config_file 'a{COMMENT}.yaml' t.py\n")


def _model(folder: Path, **changed: object) -> str:
    return _file(folder, "model.json", json.dumps({**MODEL, **changed}))


def _hostile_config(folder: Path) -> str:
    """A config named with the payload, holding it in a key, a value and (Hjson) a comment, with CRLF line ends."""
    text = (
        "{\r\n"
        f"  // {COMMENT}\t(a tab stays)\r\n"
        '  "train_batch_size": 8,\r\n'
        '  "bfloat16": {"enabled": "true"},\r\n'
        '  "k\u202e\u2028\u2029\x9b\x7f": 1,\r\n'  # raw in a JSON string: all but the C0 controls may be
        f'  "fp16": {{"enabled": {json.dumps(PAYLOAD, ensure_ascii=False)}}}\r\n'
        "}\r\n"
    )
    return _file(folder, f"c{PAYLOAD}.json", text)


def _read_only(folder: Path) -> str:
    path = _file(folder, f"r{PAYLOAD}.json", BROKEN)
    os.chmod(path, 0o444)
    return path


def _stale_left(folder: Path, count: int) -> str:
    """A folder named with the payload, with a config to fix and ``count`` temporary files a killed ``--fix`` left."""
    inside = folder / f"s{PAYLOAD}"
    inside.mkdir()
    _file(inside, "ds.json", BROKEN)
    for n in range(count):
        _file(inside, f".ds.json.{n:08x}.dsref-fix", "{")
        os.utime(inside / f".ds.json.{n:08x}.dsref-fix", (0, 0))
    return str(inside)


def _model_folder(folder: Path) -> str:
    """A local model directory (its config.json) for a launch to name."""
    (folder / "model").mkdir()
    _file(folder / "model", "config.json", json.dumps(MODEL))
    return str(folder / "model")


def _empty_folder(folder: Path) -> str:
    (folder / f"d{PAYLOAD}").mkdir()
    return str(folder / f"d{PAYLOAD}")


def _folder_without_configs(folder: Path) -> str:
    (folder / f"d{PAYLOAD}").mkdir()
    (folder / f"d{PAYLOAD}" / "package.json").write_text('{"name": "x"}', encoding="utf-8")
    return str(folder / f"d{PAYLOAD}")


def _dash_named(folder: Path) -> str:
    _file(folder, f"-{PAYLOAD}.json", BROKEN)
    return f"-{PAYLOAD}.json"


def _launch(folder: Path, name: str, *flags: str) -> str:
    """A deepspeed launch script named ``name`` with ``flags`` after the training script (a ds.json beside it)."""
    _file(folder, "ds.json", '{"train_micro_batch_size_per_gpu": 1}')
    return _file(folder, name, "deepspeed train.py " + " ".join(flags) + "\n")


def _accelerate(folder: Path, *lines: str) -> str:
    """An Accelerate config YAML (YAML's double-quoted strings write the payload as escapes: its stream may not hold
    control characters raw)."""
    return _file(folder, "accelerate.yaml", "\n".join(["compute_environment: LOCAL_MACHINE", *lines, ""]))


YAML_PAYLOAD = json.dumps(PAYLOAD)
"""The payload as a YAML double-quoted string (JSON's escapes are YAML's)."""


JSON_SHOWN = r"\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\x9b\x7f"
"""The payload as a JSON string in a message (``json.dumps``, which escapes the C0 controls), the rest made visible."""

SUGGEST = ["estimate", "--params", "70B", "--gpu-memory", "24GB", "--cpu-memory", "256GB", "--suggest"]
SUGGEST += ["--gradient-checkpointing"]  # without it, 70B's activations fit no 24 GB GPU
SUGGEST += ["--nvme-path", f"/nvme{PAYLOAD}"]
"""A suggestion that offloads to NVMe: the path given is in the suggested config."""


@dataclass(frozen=True)
class Case:
    """A command line (made in a fresh folder) and what it makes dsref say."""

    says: tuple[str, ...]
    """The message ids (``namespace.key``) it makes dsref say with input in them, or a renderer's name."""
    args: Callable[[Path], list[str]]
    shown: str = SHOWN
    """What must be in the output: the input, escaped."""
    holds: str | None = None
    """For JSON on standard output: a string the parsed JSON must hold, raw (the escapes mean the same)."""
    lang_option: bool = True
    """Give ``--lang``; without it the language comes from the environment (``LANG``)."""
    terminal: bool = False
    """Standard output is a terminal: ``--diff`` shows the diff escaped there, and writes the patch itself to a pipe
    or a file, where ``git apply`` and ``patch`` read it (``tests/unit/check/test_fix.py``)."""


CASES = [
    # what the command line itself says
    Case(("cli.no_json",), lambda d: ["check", _empty_folder(d)]),
    Case(("cli.no_json",), lambda d: ["check", "--diff", _empty_folder(d)]),
    Case(("cli.no_config",), lambda d: ["check", _folder_without_configs(d)]),
    Case(("target.uncovered",), lambda d: ["check", "x.json", "--deepspeed-version", PAYLOAD]),
    Case(("cli.unknown_language",), lambda d: ["explain", "--lang", PAYLOAD], lang_option=False),
    Case(("cli.unknown_language",), lambda d: ["check", "x.json", "--lang", PAYLOAD], lang_option=False),
    Case(("cli.no_rule",), lambda d: ["rule", PAYLOAD]),
    Case(("cli.dash_name",), lambda d: ["check", _dash_named(d)]),
    Case(("argparse",), lambda d: [PAYLOAD]),
    Case(("argparse",), lambda d: ["check", "--format", PAYLOAD, "x.json"]),
    Case(("argparse",), lambda d: ["check", "--world-size", PAYLOAD, "x.json"]),
    Case(("argparse",), lambda d: ["estimate", "--attention", PAYLOAD]),
    Case(("argparse",), lambda d: ["explain", "x", f"--{PAYLOAD}"]),
    Case(("commands.schema.cannot_write",), lambda d: ["schema", "-o", str(d / PAYLOAD / "schema.json")]),
    # a launch file (dsref check LAUNCH): its values and its name
    Case(
        ("launch.bad_value",),
        lambda d: ["check", _file(d, "run.yaml", f"stage: sft\nlearning_rate: {json.dumps(PAYLOAD)}\n")],
    ),
    Case(
        ("launch.ds_config_missing",),
        lambda d: ["check", _file(d, "run.yaml", f"stage: sft\ndeepspeed: {json.dumps(PAYLOAD)}\n")],
    ),
    Case(("launch.bad_yaml",), lambda d: ["check", _file(d, f"l{PAYLOAD}.yaml", "stage: [sft\n")]),
    Case(("launch.unreadable",), lambda d: ["check", str(d / f"n{PAYLOAD}.sh")]),
    Case(
        ("launch.accelerate_config_missing",),
        lambda d: ["check", _file(d, "run.sh", f"accelerate launch --config_file 'a{COMMENT}.yaml' t.py\n")],
        shown=COMMENT_SHOWN,
    ),
    Case(("launch.accelerate_unreadable",), lambda d: ["check", _not_utf8_accelerate_config(d)], shown=COMMENT_SHOWN),
    # explain
    Case(("explain.unknown",), lambda d: ["explain", PAYLOAD]),
    Case(("explain.unknown",), lambda d: ["explain", PAYLOAD, "--format", "json"]),
    Case(("explain.no_matches",), lambda d: ["explain", "--search", PAYLOAD]),
    Case(("explain.no_matches",), lambda d: ["explain", "--search", PAYLOAD, "--format", "json"]),
    Case(
        ("explain.wrote",),
        lambda d: ["explain", f"zero_optimization.{SPACES}STAGE"],
        shown=r"zero_optimization.\r\n\x0b\x0c\x1c\x85\u2028\u2029STAGE",
    ),
    Case(
        ("explain.render_json",),
        lambda d: ["explain", f"zero_optimization.{SPACES}STAGE", "--format", "json"],
        shown=r'"query": "zero_optimization.\r\n\u000b\f\u001c\u0085\u2028\u2029STAGE"',
        holds=f"zero_optimization.{SPACES}STAGE",
    ),
    # check: the report, --diff, --fix, --show-effective
    Case(("check.report",), lambda d: ["check", _hostile_config(d)]),
    Case(("check.report",), lambda d: ["check", _hostile_config(d), "--format", "github"]),
    Case(
        ("check.report",),
        lambda d: ["check", _hostile_config(d), "--format", "json"],
        shown=r"\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\u009b\u007f",
        holds=PAYLOAD,
    ),
    Case(
        ("check.show_effective",),
        lambda d: ["check", _hostile_config(d), "--show-effective"],
        shown=r"\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\u009b\u007f",
        holds=PAYLOAD,
    ),
    Case(  # a release given with control characters around it is read as the release; the report names it plainly
        ("check.report",),
        lambda d: ["check", _file(d, "ok.json", "{}"), "--deepspeed-version", f"0.19.8{SPACES}", "--format", "json"],
        shown='"deepspeed": "0.19.8",',
        holds="0.19.8",
    ),
    Case(("check.diff",), lambda d: ["check", "--diff", "--unsafe-fixes", _hostile_config(d)], terminal=True),
    Case(("check.diff",), lambda d: ["check", "--diff", str(Path(_hostile_config(d)).parent)], terminal=True),
    Case(("fixer.not_written",), lambda d: ["check", "--fix", _read_only(d)]),
    Case(("fixer.stale_removed_one",), lambda d: ["check", "--fix", _stale_left(d, 1)]),
    Case(("fixer.stale_removed",), lambda d: ["check", "--fix", _stale_left(d, 2)]),
    Case(
        ("fixer.refused", "fixer.why_severity"),
        lambda d: ["check", "--fix", "--unsafe-fixes", _file(d, f"t{PAYLOAD}.json", '{"tensorboard_dir": "runs"}')],
    ),
    # estimate: its own errors, and the errors of what it reads
    Case(("commands.estimate.not_a_number",), lambda d: ["estimate", "--params", "7B", "--buffer-factor", PAYLOAD]),
    Case(("commands.estimate.model_unreadable",), lambda d: ["estimate", "--model", str(d / PAYLOAD)]),
    Case(("commands.estimate.model_not_json",), lambda d: ["estimate", "--model", _file(d, PAYLOAD, "{")]),
    Case(
        ("commands.estimate.config_unreadable", "loader.not_found"),
        lambda d: ["estimate", "--model", _model(d), "--config", str(d / PAYLOAD)],
    ),
    Case(("estimate.bad_number",), lambda d: ["estimate", "--params", PAYLOAD]),
    Case(("estimate.bad_size",), lambda d: ["estimate", "--params", "7B", "--cpu-memory", PAYLOAD]),
    Case(("estimate.unknown_gpu",), lambda d: ["estimate", "--params", "7B", "--gpu-memory", PAYLOAD]),
    Case(
        ("estimate.bad_unit",),
        lambda d: ["estimate", "--params", "7\r\n\x0b\x0cX"],
        shown=r"7\r\n\x0b\x0cX",
    ),
    Case(
        ("estimate.too_large",),
        lambda d: ["estimate", "--params", "9e99\r\n\x0b\x0cB"],
        shown=r"9e99\r\n\x0b\x0cB",
    ),
    Case(
        ("estimate.not_whole",),
        lambda d: ["estimate", "--params", "7B", "--gpus-per-node", "0.0015\r\n\x0b\x0cK"],
        shown=r"0.0015\r\n\x0b\x0cK",
    ),
    Case(
        ("estimate.too_small",),
        lambda d: ["estimate", "--params", "7B", "--gpus-per-node", "0\r\n\x0b\x0cK"],
        shown=r"0\r\n\x0b\x0cK",
    ),
    Case(
        ("estimate.model_unknown_type", "commands.estimate.model_unknown_type"),
        lambda d: ["estimate", "--model", _model(d, model_type=PAYLOAD)],
    ),
    Case(
        ("estimate.model_not_integer",),
        lambda d: ["estimate", "--model", _model(d, hidden_size=PAYLOAD)],
        shown=JSON_SHOWN,
    ),
    Case(
        ("estimate.model_not_fraction",),
        lambda d: ["estimate", "--model", _model(d, attention_dropout=PAYLOAD)],
        shown=JSON_SHOWN,
    ),
    Case(
        ("commands.estimate.in_file",),
        lambda d: ["estimate", "--model", _file(d, f"m{PAYLOAD}.json", json.dumps({**MODEL, "hidden_size": 0}))],
    ),
    Case(
        ("commands.estimate.model_too_large",),
        lambda d: ["estimate", "--model", _file(d, f"m{PAYLOAD}.json", " " * (256 * 1024 + 1))],
    ),
    Case(
        ("commands.estimate.finding", "commands.estimate.refused"),
        lambda d: [
            "estimate",
            "--model",
            _model(d),
            "--config",
            _file(d, f"ds{PAYLOAD}.json", json.dumps({"zero_optimization": {"stage": PAYLOAD}})),
        ],
    ),
    Case(
        ("commands.estimate.refused_hf",),
        lambda d: [
            "estimate",
            "--model",
            _model(d),
            "--config",
            _file(d, f"ds{PAYLOAD}.json", '{\n  // Hjson\n  "train_micro_batch_size_per_gpu": "auto"\n}\n'),
        ],
    ),
    Case(
        ("estimate.table",),
        lambda d: SUGGEST,
        shown=r"/nvme\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\u009b\u007f",  # in the suggested config's JSON
    ),
    Case(
        ("estimate.table",),
        lambda d: [*SUGGEST, "--format", "json"],
        shown=r"/nvme\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\u009b\u007f",
        holds=f"/nvme{PAYLOAD}",
    ),
    # estimate LAUNCH and the launch files check reads
    Case(
        ("commands.estimate.launch_unknown_model",),
        lambda d: ["estimate", _launch(d, "run.sh", "--deepspeed ds.json", f"--model_name_or_path 'org/m{COMMENT}'")],
        shown=COMMENT_SHOWN,
    ),
    Case(
        ("commands.estimate.launch_no_config",),
        lambda d: ["estimate", _launch(d, f"r{PAYLOAD}.sh", "--model_name_or_path meta-llama/Llama-2-7b-hf")],
    ),
    Case(
        ("commands.estimate.launch_no_model",),
        lambda d: ["estimate", _launch(d, f"r{PAYLOAD}.sh", "--deepspeed ds.json")],
    ),
    Case(("commands.estimate.launch_error",), lambda d: ["estimate", str(d / f"r{PAYLOAD}.sh")]),
    Case(
        ("commands.estimate.from_launch", "commands.estimate.fact_config", "commands.estimate.fact_model"),
        lambda d: [
            "estimate",
            _launch(d, f"r{PAYLOAD}.sh", "--deepspeed ds.json", f"--model_name_or_path {_model_folder(d)}"),
        ],
        shown=SHOWN,
    ),
    Case(
        ("launch.accelerate_not_deepspeed",),
        lambda d: ["check", _accelerate(d, f"distributed_type: {YAML_PAYLOAD}")],
    ),
    Case(
        ("launch.accelerate_ignored",),
        lambda d: [
            "check",
            _accelerate(
                d, "distributed_type: DEEPSPEED", "deepspeed_config:", "  zero_stage: 2", f"  {YAML_PAYLOAD}: 1"
            ),
        ],
    ),
    Case(
        ("launch.accelerate_refused",),
        lambda d: [
            "check",
            _accelerate(
                d,
                "distributed_type: DEEPSPEED",
                "deepspeed_config:",
                f"  deepspeed_config_file: {_file(d, 'ds.json', '{}')}",
                f"  {YAML_PAYLOAD}: 1",
            ),
        ],
    ),
]

_RECORDED = (
    "releases from dsref's own record of them (dsref/generated/releases/rules.json and engine.json), never input"
)
NO_INPUT = {
    "target.not_yet": "the releases dsref has not recorded yet, from its own table (dsref/tree/releases.py)",
    "rule_holds.proven": _RECORDED,
    "rule_holds.lacks": _RECORDED,
    "rule_holds.untold": _RECORDED,
    "rule_holds.engine_proven": _RECORDED,
    "rule_holds.engine_untold": _RECORDED,
    "rule_holds.unproven": _RECORDED,
    "rule_holds.advice": _RECORDED,
    "rule_holds.hugging_face": _RECORDED,
    "rule_holds.retired": _RECORDED,
    "launch.accelerate_flags_alone": "the names of accelerate launch's DeepSpeed flags, from dsref's own table of them "
    "(_ACCELERATE_DEEPSPEED in dsref/launch/shell.py), never the command's text",
    "launch.accelerate_default_config": "the default Accelerate config's path, from HF_HOME or XDG_CACHE_HOME, which "
    "no command line sets; both places that say it pass it through visible(name=True) (dsref/launch/opened.py, "
    "dsref/cli/check.py)",
    "launch.unknown_value": "the names of the training arguments a launch sets through a shell variable, from dsref's "
    "own list (dsref/launch/arguments.py)",
    "target.source_prerelease": "the installed DeepSpeed's version, from its metadata, which a command line cannot "
    "set; tests/unit/check/test_installed_versions.py gives versions with control characters and finds them escaped",
    "target.source_unknown": "the installed DeepSpeed's version, as for target.source_prerelease",
    "commands.estimate.fact_micro_batch": "a whole number the launch gives (an int, or the fact is not taken)",
    "commands.estimate.fact_seq_len": "a whole number the launch gives (an int, or the fact is not taken)",
    "commands.estimate.fact_gpus": "a whole number of GPUs",
    "commands.estimate.fact_precision": "bf16 or fp16, dsref's own words",
    "commands.estimate.from_table": "a hub id and its source from dsref's table of open models (dsref/estimate/hub.py)",
    "target.source_not_asked": "the language server's python setting, which no command line sets; the server escapes "
    "its status (tests/unit/server/test_escaping.py)",
    "target.unasked_not_run": "the system's reason the python setting could not be run (os_reason), no input",
    "target.unasked_failed": "the exit status of the python setting, a number",
    "cli.output_failed": "the system's reason a write failed (os_reason), no input",
    "cli.at_least_one": "the name of one of dsref's options",
    "cli.skipped": "a count of files, never input (the one-file form has its case)",
    "cli.server_extra": "the name of a package the server imports (pygls, lsprotocol), never input",
    "commands.estimate.error": "wraps each of estimate's errors, all of which have cases",
    "estimate.config_bad_value": (
        "the command line checks the config first, and check refuses a value the estimate cannot train with "
        "(commands.estimate.finding); library callers get it with the value described"
    ),
    "fixer.changed": "only when the file changes between dsref's read and its write, which a command line cannot "
    "arrange; tests/unit/check/test_fix_write.py makes it happen in-process, and the path goes through "
    "visible(name=True)",
    "fixer.fixed": "counts",
    "fixer.would_fix": "counts",
    "fixer.findings": "a count",
    "fixer.files": "a count",
    "explain.deprecated_use": "an option path from the index",
    "explain.deprecated_name": "an option name from the index",
    "explain.docs_name": "an option name from the index",
    "explain.hf_yes": "the index's text",
    "explain.top_level": "DeepSpeed's release",
    "explain.did_you_mean": "option paths from the index",
    **dict.fromkeys(
        (
            "explain.release.absent",
            "explain.release.removed",
            "explain.release.other_default",
            "explain.release.same",
            "explain.default_at",
        ),
        "release numbers as dsref writes them (digits and dots, after --deepspeed-version is checked) and defaults "
        "from the recorded facts",
    ),
    "estimate.out_of_range": "--reserve, as the number read from it",
    "estimate.layer_over_params": "numbers read from the command line",
    "estimate.heads_over_hidden": "numbers read from the command line",
    "estimate.model_missing_keys": "a model_type dsref knows (any other is estimate.model_unknown_type)",
    "estimate.model_bad_value": "an integer of the model config (any other type is estimate.model_not_integer)",
    "estimate.model_heads_kv": "integers of the model config and the names of its keys, as dsref spells them",
    "estimate.model_heads_hidden": "integers of the model config and the names of its keys, as dsref spells them",
    "estimate.bad_choice": "argparse refuses any other --attention first; only a Python caller can give one",
    "target.checked_for": "a release number made of digits and dsref's own texts; report.Writer shows the line "
    "through visible() all the same",
    "target.source_newer": "the installed DeepSpeed's version from its metadata, not the command line; the line "
    "goes through visible() (report.Writer)",
    "target.source_older": "the installed DeepSpeed's version from its metadata, not the command line; the line "
    "goes through visible() (report.Writer)",
    "target.source_between": "a release number made of digits (after --deepspeed-version is checked, or the "
    "installed one's, brought into the table) and dsref's own texts",
    "target.reading_hf_installed": "target.libraries or target.library: dsref's own texts",
    "target.reading_hf_given_installed": "target.libraries or target.library: dsref's own texts",
    "target.libraries": "two target.library texts",
    "target.library": "the installed transformers' or accelerate's name and version from its metadata, not the "
    "command line; the line goes through visible() (report.Writer)",
}
"""Messages with a placeholder that no input reaches, and why."""

WHERE_ELSE = {
    "finding": "check's report, whose every message report.py makes visible whole (the check.report cases)",
    "fix": "check's report (fix titles, made visible whole) and dsref's rule pages",
    "report": "check's report: counts and labels",
    "loader": "check's report, made visible whole (check.report); estimate says it through say()",
    "rule": "check's report, made visible whole (check.report); `dsref rule` shows no input",
    "jsonschema": "the schema's descriptions: dsref's facts (versions, option names), no input",
    "server": "the language server's messages to an editor, not a terminal",
    "site": "the site's pages, not a terminal",
    "pagemeta": "the site's page descriptions and source links (dsref/site/pagemeta.py), not a terminal",
    "playground": "the playground page, in a browser (set as text, never as HTML), not a terminal",
}
"""Namespaces whose texts reach a terminal only through a renderer that escapes each whole text, or never."""


def _tables() -> dict[str, Messages]:
    """Every message table of dsref: each module declares its own when it is imported."""
    for info in pkgutil.walk_packages(dsref.__path__, "dsref."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    return registered_messages()


def _has_placeholder(text: str) -> bool:
    return any(field for _, field, _, _ in string.Formatter().parse(text))


def _estimate_errors() -> set[str]:
    """The messages an ``EstimateError`` can carry: each of its raise sites."""
    found: set[str] = set()
    for path in (Path(dsref.cli.__file__).parents[1] / "estimate").glob("*.py"):
        found |= set(re.findall(r'EstimateError\(\s*"(\w+)"', path.read_text(encoding="utf-8")))
    return {f"estimate.{key}" for key in found}


def test_every_message_that_can_quote_input_has_a_case() -> None:
    """Each message of the command line, of explain and of estimate's errors that has a placeholder."""
    errors = _estimate_errors()
    quoting = {
        said
        for namespace, table in _tables().items()
        if namespace.split(".")[0] not in WHERE_ELSE
        for said, text in table.items()
        if _has_placeholder(text) and (namespace != "estimate" or said in errors)
    }
    covered = {said for case in CASES for said in case.says}
    assert not covered & set(NO_INPUT), "a message with a case is not one no input reaches"
    assert sorted(quoting - covered - set(NO_INPUT)) == [], "give each a Case, or say in NO_INPUT why none is needed"
    assert sorted(set(NO_INPUT) - quoting) == [], "NO_INPUT names a message that is gone or quotes nothing"


RENDERERS = {"argparse", "check.report", "check.diff", "check.show_effective", "explain.render_json", "estimate.table"}
"""What a case may say besides a message: argparse's errors, and the outputs that quote input."""


def test_the_cases_name_messages_that_exist() -> None:
    ids = {key for table in _tables().values() for key, _ in table.items()}
    assert sorted({said for case in CASES for said in case.says} - ids - RENDERERS) == []


# -- every print of the command line ------------------------------------------------------------------------------

ESCAPING = {"visible", "json_visible"}

PRINTS_AS_IS = {
    ("check.py", "piece"): "check's pieces, drawn by check/report.py, which makes each text visible",
    (
        "check.py",
        "draw(report, args.format, lang, color=color, target=each.deepspeed_version)",
    ): "a launch's filled config, drawn by check/report/draw.py, which makes each text visible",
    ("check.py", "result.text"): "the fixed file itself, sent where `check - --fix > fixed.json` redirects it",
    ("check.py", "'\\n'"): "a line feed",
    ("check.py", "diff"): "the diff on a terminal, which check/fixer.py makes visible (unified_diff, patch=False)",
    (
        "check.py",
        "diff.encode('utf-8', 'surrogateescape')",
    ): "the diff to a pipe or a file: the patch itself, which git apply and patch must read as the file's bytes",
    (
        "check.py",
        "assemble(pieces, args.format, lang, target=target, checked_for=shown_for)",
    ): "check/report/draw.py makes each text visible",
    ("explain.py", "text if use_color(sys.stdout) else without_color(text)"): "a pre-rendered page of the index",
    (
        "explain.py",
        "''.join((f'{e.path.ljust(width)}{shown_summary(e, lang)}\\n' for e in found))",
    ): "option paths and summaries from the index",
    (
        "explain.py",
        "render_json(exp, lang, link=link, release=release)",
    ): "explain/render.py writes it through json_visible()",
    (
        "explain.py",
        "render_text(exp, lang, color=use_color(sys.stdout), link=link, release=release)",
    ): "explain/render.py makes the query visible (the only input it shows; the release is as dsref writes it, "
    "after --deepspeed-version is checked)",
    ("rule.py", "f'{each.code}  {each.name}'"): "dsref's codes and names",
    (
        "rule.py",
        "f'{each.code}  {aside(each.name, SEVERITY.text(each.rule.severity.value, lang), lang)}'",
    ): "dsref's codes and names",
    (
        "rule.py",
        "f'{found.code} {found.name}\\n\\n{found.explanation(lang)}\\n\\n{fix_note(found.code, lang)}'",
    ): "dsref's explanation of a code it found",
    (
        "rule.py",
        "f'{found.code} {aside(found.name, SEVERITY.text(found.rule.severity.value, lang), lang)}\\n'",
    ): "dsref's code and name",
    ("rule.py", "found.explanation(lang)"): "the rule's explanation",
    ("rule.py", "f'\\n{fix_note(found.code, lang)}'"): "what the code's fix does",
    ("rule.py", "f'\\n{holds_text(found.code, lang)}'"): "the releases where the rule holds, from dsref's record",
    ("changes.py", "'\\n'.join(report(start, end, lang))"): "dsref's record of the releases, for releases it covers",
    (
        "changes.py",
        "json.dumps({'from': start, 'to': end, 'changes': found}, indent=1, ensure_ascii=False)",
    ): "dsref's record of the releases as JSON, for releases it covers",
    ("options.py", "''.join((path + '\\n' for path in index.paths()))"): "the index's option paths",
    ("options.py", "json.dumps(document, ensure_ascii=False, indent=1) + '\\n'"): "the index as JSON",
    ("schema.py", "text"): "the schema dsref builds (twice: to standard output, and to --output)",
    ("completion.py", "script(args.shell)"): "a completion script for a shell argparse chose",
}
"""The prints of the command line that do not escape, and why they need not."""


def _escaped(node: ast.expr) -> bool:
    """``visible(...)``, ``json_visible(...)``, or such a call with a constant string added."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ESCAPING
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return all(isinstance(side, ast.Constant) or _escaped(side) for side in (node.left, node.right))
    return False


def _prints() -> list[tuple[str, str]]:
    found = []
    for path in sorted(Path(dsref.cli.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if not (isinstance(func, ast.Name) and func.id == "print") and not (
                isinstance(func, ast.Attribute) and func.attr == "write"
            ):
                continue
            first = node.args[0] if node.args else None
            if first is not None and _escaped(first):
                continue
            found.append((path.name, ast.unparse(first) if first is not None else ""))
    return found


def test_every_print_of_the_command_line_escapes_or_says_why_it_need_not() -> None:
    prints = _prints()
    assert sorted(set(prints) - set(PRINTS_AS_IS)) == [], "escape it (visible, json_visible, say) or list it here"
    assert sorted(set(PRINTS_AS_IS) - set(prints)) == [], "PRINTS_AS_IS lists a print that is gone"


# -- each case, in both languages, with the real command ----------------------------------------------------------


def _run(case: Case, folder: Path, lang: str) -> subprocess.CompletedProcess[bytes]:
    folder.mkdir()
    args = case.args(folder) + (["--lang", lang] if case.lang_option else [])
    env = {**os.environ, "LANG": LANGS[lang], "PYTHONIOENCODING": "utf-8"}
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    if case.terminal:
        return _on_terminal([sys.executable, "-m", "dsref", *args], cwd=folder, env=env)
    return subprocess.run(
        [sys.executable, "-m", "dsref", *args], capture_output=True, cwd=folder, env=env, timeout=120, check=False
    )


def _on_terminal(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
    """``command`` run with a terminal (a pseudo-terminal in raw mode, which passes line ends as they are) as its
    standard output; what it printed there, and on standard error."""
    import pty
    import threading
    import tty

    leader, follower = pty.openpty()
    tty.setraw(follower)
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the terminal's other end is closed: all read
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    try:
        proc = subprocess.run(command, stdout=follower, stderr=subprocess.PIPE, timeout=120, check=False, **kwargs)
    finally:
        os.close(follower)
        reader.join(timeout=60)
        os.close(leader)
    return subprocess.CompletedProcess(proc.args, proc.returncode, b"".join(shown), proc.stderr)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *_strings(v)]]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []


def _problems(case: Case, proc: subprocess.CompletedProcess[bytes]) -> list[str]:
    problems = []
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")  # valid UTF-8, or this raises
    if "Traceback" in err:
        problems.append("a traceback")
    for name, text in (("stdout", out), ("stderr", err)):
        raw = sorted({f"U+{ord(c):04X}" for c in RAW.findall(text)})
        if raw:
            problems.append(f"raw {', '.join(raw)} on {name}")
    if case.shown not in out + err:
        problems.append(f"{case.shown!r} is not in the output")
    if case.holds is not None and not any(case.holds in s for s in _strings(json.loads(out))):
        problems.append(f"the JSON does not hold {case.holds!r}")
    if proc.returncode not in (0, 1, 2):
        problems.append(f"exit status {proc.returncode}")
    return problems


@pytest.mark.slow  # seconds: some ninety runs of the command; the two tests above keep the cases complete
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_no_control_character_reaches_the_terminal(tmp_path: Path, lang: str) -> None:
    def one(i: int) -> list[str]:
        case = CASES[i]
        proc = _run(case, tmp_path / str(i), lang)
        said = (proc.stdout + proc.stderr).decode("utf-8", "backslashreplace")
        return [f"case {i} {case.says} {problem}:\n{said}" for problem in _problems(case, proc)]

    with ThreadPoolExecutor(max_workers=4) as pool:
        problems = [p for found in pool.map(one, range(len(CASES))) for p in found]
    assert problems == [], "\n\n".join(problems)


def test_the_diff_keeps_its_lines_and_shows_the_file_s_controls(tmp_path: Path) -> None:
    """A CRLF file's line ends and a comment's ESC are shown escaped; the diff has one line per line of the file, and
    its tab stays."""
    config = _hostile_config(tmp_path)
    proc = _on_terminal([sys.executable, "-m", "dsref", "check", "--diff", config, "--lang", "en"])
    out = proc.stdout.decode("utf-8")
    name = str(tmp_path / f"c{SHOWN}.json")
    assert out.splitlines()[:3] == [f"--- {name}", f"+++ {name}", "@@ -1,7 +1,7 @@"]
    assert out.splitlines()[3:] == [
        " {\\r",
        f"   // {COMMENT_SHOWN}\t(a tab stays)\\r",
        '   "train_batch_size": 8,\\r',
        '-  "bfloat16": {"enabled": "true"},\\r',
        '+  "bf16": {"enabled": true},\\r',
        '   "k\\u202e\\u2028\\u2029\\x9b\\x7f": 1,\\r',
        r'   "fp16": {"enabled": "\u001b]0;owned\u0007\r\n\u202e\u2028\u2029\x9b\x7f"}\r',  # JSON's escapes stay
        " }\\r",
    ]
