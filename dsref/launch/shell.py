"""A launch written as a shell command line or script: ``deepspeed``, ``torchrun``, ``python -m torch.distributed.run``,
``accelerate launch`` or plain ``python``, each followed by the training script and its arguments.

Lines are read as the shell reads them (:mod:`shlex`: quotes, ``\\`` at a line's end), variables assigned earlier in
the script (``LR=2e-5``, ``export NUM_GPUS=8``) are expanded, and ``${VAR:-default}`` takes its default; a value that
stays unknown is named, never guessed.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..records import record
from .arguments import CHECKPOINTING_NAMES, MODEL_NAMES, SEQUENCE_NAMES, TRAINING_ARGUMENTS, convert, switch
from .model import Given, Launch, LaunchError

__all__ = ["launcher", "read_shell"]

# Launcher options that take a value (everything else before the script is a switch); from each launcher's --help.
_DEEPSPEED_VALUES = {
    "--num_gpus", "--num_nodes", "--hostfile", "-H", "--include", "-i", "--exclude", "-e", "--master_port",
    "--master_addr", "--launcher", "--launcher_args", "--node_rank", "--min_elastic_nodes", "--max_elastic_nodes",
    "--ssh_port", "--bind_core_list", "--venv_script", "--autotuning", "--comment", "--elastic_training",
}  # fmt: skip
_TORCHRUN_VALUES = {
    "--nproc_per_node", "--nproc-per-node", "--nnodes", "--node_rank", "--node-rank", "--master_addr",
    "--master-addr", "--master_port", "--master-port", "--rdzv_backend", "--rdzv-backend", "--rdzv_endpoint",
    "--rdzv-endpoint", "--rdzv_id", "--rdzv-id", "--rdzv_conf", "--rdzv-conf", "--max_restarts", "--max-restarts",
    "--monitor_interval", "--monitor-interval", "--start_method", "--start-method", "--role", "--log_dir",
    "--log-dir", "-r", "--redirects", "-t", "--tee", "--local_addr", "--local-addr", "--logs_specs",
}  # fmt: skip
_ACCELERATE_VALUES = {
    "--config_file", "--mixed_precision", "--num_processes", "--num_machines", "--num_cpu_threads_per_process",
    "--dynamo_backend", "--dynamo_mode", "--gpu_ids", "--machine_rank", "--main_process_ip", "--main_process_port",
    "-t", "--tee", "--log_dir", "--role", "--rdzv_backend", "--rdzv_conf", "--max_restarts", "--monitor_interval",
    "--vm", "--env", "--main_training_function", "--deepspeed_config_file", "--zero_stage",
    "--offload_optimizer_device", "--offload_param_device", "--offload_optimizer_nvme_path",
    "--offload_param_nvme_path", "--gradient_accumulation_steps", "--gradient_clipping", "--zero3_init_flag",
    "--zero3_save_16bit_model", "--deepspeed_hostfile", "--deepspeed_exclusion_filter", "--deepspeed_inclusion_filter",
    "--deepspeed_multinode_launcher", "--deepspeed_moe_layer_cls_names", "--fsdp_version", "--fsdp_offload_params",
    "--fsdp_min_num_params", "--fsdp_sharding_strategy", "--fsdp_reshard_after_forward", "--fsdp_auto_wrap_policy",
    "--fsdp_transformer_layer_cls_to_wrap", "--fsdp_backward_prefetch", "--fsdp_state_dict_type",
    "--fsdp_forward_prefetch", "--fsdp_use_orig_params", "--fsdp_cpu_ram_efficient_loading",
    "--fsdp_sync_module_states", "--fsdp_activation_checkpointing", "--fsdp_activation_checkpointing_offload",
    "--megatron_lm_tp_degree", "--megatron_lm_pp_degree", "--megatron_lm_num_micro_batches",
    "--megatron_lm_gradient_clipping", "--fp8_backend", "--fp8_margin", "--fp8_interval", "--fp8_format",
    "--fp8_amax_history_len", "--fp8_amax_compute_algo", "--fp8_override_linear_precision", "--fp8_opt_level",
    "--aws_access_key_id", "--aws_secret_access_key", "--mpirun_hostfile",
}  # fmt: skip
"""``accelerate launch``'s options that take a value (accelerate/commands/launch.py, ``launch_command_parser``;
its ``--megatron_lm_*``, ``--fp8_*`` and ``--parallelism_config_*`` options all do too)."""
_ACCELERATE_DEEPSPEED = {
    "--use_deepspeed": "use_deepspeed", "--deepspeed_config_file": "deepspeed_config_file",
    "--zero_stage": "zero_stage", "--offload_optimizer_device": "offload_optimizer_device",
    "--offload_param_device": "offload_param_device", "--offload_optimizer_nvme_path": "offload_optimizer_nvme_path",
    "--offload_param_nvme_path": "offload_param_nvme_path", "--gradient_accumulation_steps":
    "gradient_accumulation_steps", "--gradient_clipping": "gradient_clipping", "--zero3_init_flag": "zero3_init_flag",
    "--zero3_save_16bit_model": "zero3_save_16bit_model", "--deepspeed_hostfile": "deepspeed_hostfile",
    "--deepspeed_exclusion_filter": "deepspeed_exclusion_filter",
    "--deepspeed_inclusion_filter": "deepspeed_inclusion_filter",
    "--deepspeed_multinode_launcher": "deepspeed_multinode_launcher",
    "--deepspeed_moe_layer_cls_names": "deepspeed_moe_layer_cls_names",
}  # fmt: skip
"""``accelerate launch``'s DeepSpeed flags, and the key of an Accelerate config's ``deepspeed_config`` each sets."""
_VALUE_PREFIXES = {"accelerate": ("--megatron_lm_", "--fp8_", "--parallelism_config_")}
_VARIABLE = re.compile(r"\$(?:\{(\w+)(?::?-([^}]*))?\}|(\w+))")
_ASSIGNMENT = re.compile(r"^([A-Za-z_]\w*)=(.*)$")


@record
class _Token:
    text: str
    line: int
    col: int
    written: str
    known: bool = True


def read_shell(text: str, path: str) -> Launch:
    """The launch in a shell script or command line: the first command that starts training with ``--deepspeed``
    (else the first launcher command); :class:`LaunchError` when there is none."""
    variables: dict[str, str | None] = {}
    first: list[_Token] | None = None
    for tokens in _commands(text, variables):
        if any(t.text == "--deepspeed" or t.text.startswith("--deepspeed=") for t in tokens):
            return replace(_launch(tokens, path), text=text)
        if first is None and _launcher(tokens) is not None:
            first = tokens
    if first is not None:
        return replace(_launch(first, path), text=text)
    raise LaunchError("no_command", path)


def _commands(text: str, variables: dict[str, str | None]) -> Iterator[list[_Token]]:
    """Each command of the script as its words, variables expanded; assignments recorded as they come."""
    physical = [line.removesuffix("\r") for line in text.split("\n")]  # the shell's lines: \u2028 and the like are
    # characters of a word to it, not line ends (str.splitlines would end a line there)
    number = 0
    while number < len(physical):
        start = number
        parts: list[tuple[int, str]] = []
        while True:
            line = physical[number]
            number += 1
            stripped = line.rstrip()
            if stripped.endswith("\\"):  # a continuation; on the last line, one the shell takes as the end
                parts.append((start + len(parts) + 1, stripped[:-1]))
                if number < len(physical):
                    continue
                break
            parts.append((start + len(parts) + 1, line))
            break
        tokens: list[_Token] = []
        try:
            for line_no, segment in parts:
                tokens.extend(_words(segment, line_no, variables))
        except ValueError:  # a quote left open: not a command dsref can read
            continue
        for command in _split_commands(tokens):
            words = command[1:] if command[0].text in ("export", "declare", "local", "readonly") else command
            if words and all(_ASSIGNMENT.match(t.text) for t in words):
                for token in words:
                    name, _, value = token.text.partition("=")
                    variables[name] = value if token.known else None
                continue
            while command and _ASSIGNMENT.match(command[0].text) and not command[0].text.startswith("--"):
                command = command[1:]  # VAR=value before a command sets its environment only
            if command:
                yield command


def _words(segment: str, line: int, variables: dict[str, str | None]) -> Iterator[_Token]:
    lexer = shlex.shlex(segment, posix=True, punctuation_chars=";&|")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    position = 0
    for word in lexer:
        raw_at = segment.find(word.split("$")[0][:8] or word, position)
        col = raw_at + 1 if raw_at >= 0 else 1
        position = max(position, raw_at + 1)
        expanded, known = _expand(word, variables)
        yield _Token(expanded, line, col, word, known)


def _expand(word: str, variables: dict[str, str | None]) -> tuple[str, bool]:
    known = True

    def value(match: re.Match[str]) -> str:
        nonlocal known
        name = match.group(1) or match.group(3)
        found = variables.get(name)
        if found is None and match.group(2) is not None:
            return match.group(2)
        if found is None:
            known = False
            return match.group(0)
        return found

    return _VARIABLE.sub(value, word), known


def _split_commands(tokens: list[_Token]) -> Iterator[list[_Token]]:
    command: list[_Token] = []
    for token in tokens:
        if token.text in (";", "&&", "||", "|", "&"):
            if command:
                yield command
            command = []
        else:
            command.append(token)
    if command:
        yield command


def _launcher(tokens: list[_Token]) -> tuple[str, int] | None:
    return launcher([t.text for t in tokens])


def launcher(words: Sequence[str]) -> tuple[str, int] | None:
    """Which launcher a command runs (``deepspeed``, ``torchrun``, ``accelerate`` or ``python``), and where its own
    arguments start; None for any other command.

    >>> launcher(["torchrun", "--nproc_per_node", "8", "train.py"]), launcher(["ls"])
    (('torchrun', 1), None)
    """
    index = 0
    while index < len(words) and words[index] in ("nohup", "exec", "time", "srun", "env"):
        index += 1
    if index >= len(words):
        return None
    head = words[index].rsplit("/", 1)[-1]
    if head == "deepspeed":
        return "deepspeed", index + 1
    if head == "torchrun":
        return "torchrun", index + 1
    if head == "accelerate" and index + 1 < len(words) and words[index + 1] == "launch":
        return "accelerate", index + 2
    if re.fullmatch(r"python[\d.]*", head):
        rest = index + 1
        while rest < len(words) and words[rest].startswith("-") and words[rest] != "-m":
            rest += 1
        if rest + 1 < len(words) and words[rest] == "-m":
            module = words[rest + 1]
            if module in ("torch.distributed.run", "torch.distributed.launch"):
                return "torchrun", rest + 2
            if module == "deepspeed.launcher.runner":
                return "deepspeed", rest + 2
            return "python", rest + 2
        return "python", rest
    return None


def _launch(tokens: list[_Token], path: str) -> Launch:
    found = _launcher(tokens)
    if found is None:
        raise LaunchError("no_command", path, tokens[0].line)
    launcher, index = found
    values = {"deepspeed": _DEEPSPEED_VALUES, "torchrun": _TORCHRUN_VALUES, "accelerate": _ACCELERATE_VALUES}
    takes_value = values.get(launcher, set())
    options: dict[str, _Token] = {}
    flags: dict[str, _Token] = {}
    if launcher != "python":
        while index < len(tokens) and tokens[index].text.startswith("-"):
            name, _, inline = tokens[index].text.partition("=")
            flags[name] = tokens[index]
            if inline:
                options[name] = _Token(inline, tokens[index].line, tokens[index].col, tokens[index].written)
                index += 1
            elif (name in takes_value or name.startswith(_VALUE_PREFIXES.get(launcher, "\0"))) and index + 1 < len(
                tokens
            ):
                options[name] = tokens[index + 1]
                index += 2
            else:
                index += 1
        if launcher == "torchrun" and index < len(tokens) and tokens[index].text == "-m":
            index += 1
        index += 1  # the training script itself
    arguments, script_unknown, ds_config, facts = _script_arguments(tokens[index:], path)
    unknown = list(script_unknown)
    nodes = processes_per_node = processes = None
    hostfile = None

    def given(name: str) -> Given | None:
        token = options.get(name)
        if token is None or not token.known:
            return None
        return Given(token.text, token.line, token.col, token.written, flags[name].line, flags[name].col)

    accelerate_config = mixed_precision = None
    accelerate_flags: dict[str, Given] = {}

    def count(*names: str) -> Given | None:
        name = next((n for n in names if n in options), None)
        return None if name is None else _count(options[name], flags[name])

    if launcher == "deepspeed":
        nodes, processes_per_node = count("--num_nodes"), count("--num_gpus")
        written = options.get("--hostfile") or options.get("-H")
        if written is not None and written.known:
            hostfile = Given(written.text, written.line, written.col, written.written)
    elif launcher == "torchrun":
        nodes = count("--nnodes")
        processes_per_node = count("--nproc_per_node", "--nproc-per-node")
    elif launcher == "accelerate":
        processes, nodes = count("--num_processes"), count("--num_machines")
        accelerate_config, mixed_precision = given("--config_file"), given("--mixed_precision")
        for flag, key in _ACCELERATE_DEEPSPEED.items():
            if flag == "--use_deepspeed" and flag in flags:
                token = flags[flag]
                accelerate_flags[key] = Given(True, token.line, token.col, token.written)
            elif (found_flag := given(flag)) is not None:
                accelerate_flags[key] = found_flag
            elif flag in options:  # set through a variable dsref cannot resolve: named, by its own name (the
                unknown.append(f"accelerate launch {flag}")  # script's argument of that name is still compared)
    else:
        processes = Given(1, tokens[0].line, tokens[0].col, tokens[0].written)
    model = next((facts[n] for n in MODEL_NAMES if n in facts), None)
    length = next((facts[n] for n in SEQUENCE_NAMES if n in facts), None)
    return Launch(
        path,
        "shell",
        ds_config,
        None,
        arguments,
        nodes,
        processes_per_node,
        processes,
        tuple(unknown),
        model=model,
        sequence_length=length,
        gradient_checkpointing=next((facts[n] for n in CHECKPOINTING_NAMES if n in facts), None),
        hostfile=hostfile,
        accelerate_config=accelerate_config,
        mixed_precision=mixed_precision,
        accelerate_flags=accelerate_flags,
        accelerate_default=launcher == "accelerate" and accelerate_config is None and not accelerate_flags,
        accelerate_default_at=tokens[0].line,
    )


def _count(token: _Token, flag: _Token) -> Given | None:
    if not token.known:
        return None
    text = token.text.split(":")[-1]  # torchrun's --nnodes MIN:MAX: the most it starts
    return Given(int(text), token.line, token.col, token.written, flag.line, flag.col) if text.isdigit() else None


def _script_arguments(
    tokens: list[_Token], path: str
) -> tuple[dict[str, Given], tuple[str, ...], Given | None, dict[str, Given]]:
    """The training arguments, those set through unknown variables, the ds_config, and the model and sequence length
    (by the name the script takes them under)."""
    arguments: dict[str, Given] = {}
    facts: dict[str, Given] = {}
    unknown: list[str] = []
    ds_config: Given | None = None
    index = 0
    while index < len(tokens):
        token = tokens[index]
        index += 1
        if not token.text.startswith("--"):
            continue
        name, equals, inline = token.text[2:].partition("=")
        value: _Token | None
        if equals:
            value = _Token(inline, token.line, token.col, token.written, token.known)
        elif index < len(tokens) and not tokens[index].text.startswith("--"):
            value = tokens[index]
            index += 1
        else:
            value = None  # a bare switch
        if name == "deepspeed" and value is not None:
            ds_config = Given(value.text, value.line, value.col, value.written)
            if not value.known:
                unknown.append(name)
            continue
        if name in CHECKPOINTING_NAMES:
            if value is not None and switch(value.text) is None:
                index -= 1  # a bare switch followed by a word of the script's: not its value
                value = None
            if value is None or value.known:
                on = True if value is None else switch(value.text)
                where = value or token
                facts[name] = Given(on, where.line, where.col, where.written)
            continue
        if name in MODEL_NAMES or name in SEQUENCE_NAMES:
            if value is not None and value.known:
                shown = int(value.text) if value.text.isdigit() else value.text
                facts[name] = Given(shown, value.line, value.col, value.written)
            continue
        if name not in TRAINING_ARGUMENTS:
            continue  # the script's own flags, or arguments no check reads
        if value is not None and not value.known:
            unknown.append(name)
            continue
        try:
            converted = convert(name, True if value is None else value.text)
        except ValueError:
            raise LaunchError("bad_value", path, token.line, name=name, value=value.text if value else "") from None
        where = value or token
        arguments[name] = Given(converted, where.line, where.col, where.written, token.line, token.col)
    return arguments, tuple(unknown), ds_config, facts
