"""An Accelerate config YAML (``accelerate config`` writes it; ``accelerate launch --config_file`` reads it) with
``distributed_type: DEEPSPEED``: the ds_config Accelerate builds from its ``deepspeed_config`` section, or the file
its ``deepspeed_config_file`` names, and where in the YAML each value of it comes from.

Read from Accelerate 1.15 (``accelerate/commands/launch.py`` hands each ``deepspeed_config`` key to the training
process as an environment variable, ``DeepSpeedPlugin.__post_init__`` in ``utils/dataclasses.py`` turns those into
a config, ``set_mixed_precision`` adds the precision sections), with what older and newer releases build otherwise
(:data:`PLUGIN_CHANGES`); ``tests/unit/launch/test_hf_records.py`` holds the result against the plugin of each
Accelerate release recorded in ``tests/data/hf_releases.json``, and ``tests/functional/test_accelerate_config.py``
against the installed one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from ..records import record
from ..tree.profiles import release_number
from .model import Built, Given, Launch, LaunchError, Place

__all__ = [
    "ACCELERATE_KEYS",
    "FLAG_KEYS",
    "PLUGIN_CHANGES",
    "REFUSED_WITH_FILE",
    "PluginChange",
    "as_the_plugin_reads",
    "plugin_values",
    "read_accelerate",
    "set_mixed_precision",
]


@record
class PluginChange:
    """A release of Accelerate from which ``DeepSpeedPlugin`` builds a ds_config as :func:`read_accelerate` does
    at ``what``, which its earlier releases built otherwise."""

    release: str
    what: Literal["clipping_auto", "fp8_bf16", "clipping_zero"]
    """``clipping_auto``: a ``gradient_clipping`` left unset is written ``"auto"`` (before: left out);
    ``fp8_bf16``: ``mixed_precision: fp8`` turns bf16 on (before: neither precision); ``clipping_zero``: a
    ``gradient_clipping`` of 0 is written (before: left out, as any false value)."""


PLUGIN_CHANGES = (
    PluginChange("0.30.0", "clipping_auto"),
    PluginChange("0.34.0", "fp8_bf16"),
    PluginChange("1.16.0", "clipping_zero"),
)
"""Where Accelerate's plugin changed what it builds, recorded from its releases (``tests/data/hf_releases.json``)."""

ACCELERATE_KEYS = (
    "deepspeed_config_file",
    "deepspeed_hostfile",
    "deepspeed_multinode_launcher",
    "deepspeed_moe_layer_cls_names",
    "deepspeed_exclusion_filter",
    "deepspeed_inclusion_filter",
    "gradient_accumulation_steps",
    "gradient_clipping",
    "offload_optimizer_device",
    "offload_optimizer_nvme_path",
    "offload_param_device",
    "offload_param_nvme_path",
    "zero3_init_flag",
    "zero3_save_16bit_model",
    "zero_stage",
)
"""The keys of ``deepspeed_config`` that ``accelerate launch`` reads (its DeepSpeed arguments); it sets any other
on its arguments and never reads it."""

REFUSED_WITH_FILE = (
    "gradient_accumulation_steps",
    "gradient_clipping",
    "zero_stage",
    "offload_optimizer_device",
    "offload_param_device",
    "offload_param_nvme_path",
    "offload_optimizer_nvme_path",
    "zero3_save_16bit_model",
)
"""Keys ``DeepSpeedPlugin._deepspeed_config_checks`` refuses beside ``deepspeed_config_file`` (with a top-level
``mixed_precision``): the file decides them."""

FLAG_KEYS = (*ACCELERATE_KEYS, "use_deepspeed")
"""``accelerate launch``'s own DeepSpeed flags by the key of ``deepspeed_config`` each sets (``--zero_stage`` sets
``zero_stage``: ``_validate_launch_command`` takes a key of the config only where the command line leaves it unset),
and ``--use_deepspeed``."""


@record
class _Mark:
    """A position in a launch's text as PyYAML marks one (0-based)."""

    index: int
    line: int
    column: int


@record
class _Span:
    """Where a flag of the command line and its value are written, as a PyYAML node's marks say it."""

    start_mark: _Mark
    end_mark: _Mark
    foreign: bool = False
    """Written in another text than the one the built config's places point into (the script, beside the
    Accelerate config the built config is read from): no place."""


def _flag_entry(flag: Given, name: str, text: str, *, foreign: bool) -> tuple[Any, Any, Any]:
    """The flag ``name`` of the command line as an entry of the config (key node, value node, value), its marks at
    the flag and its value in ``text``."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)

    def mark(line: int, col: int, width: int = 0) -> _Mark:
        index = starts[line - 1] + col - 1 + width if 0 < line < len(starts) else 0
        return _Mark(index, line - 1, col - 1 + width)

    key_line, key_col = (flag.key_line, flag.key_col) if flag.key_line else (flag.line, flag.col)
    width = max(1, len(flag.written or str(flag.value)))
    key = _Span(mark(key_line, key_col), mark(key_line, key_col, len(name)), foreign)
    value = _Span(mark(flag.line, flag.col), mark(flag.line, flag.col, width), foreign)
    return key, value, flag.value


def read_accelerate(
    root: Any,
    path: str,
    text: str = "",
    precision: str | None = None,
    *,
    other_kinds: bool = False,
    release: str | None = None,
    flags: dict[str, Given] | None = None,
    flags_text: str = "",
    flags_path: str = "",
) -> Launch:
    """The launch an Accelerate config gives, whose YAML mapping node is ``root`` (PyYAML's): its world size
    (``num_processes``, every machine's together), the file it names or the config Accelerate ``release`` builds
    (:class:`Built`; None: the newest dsref knows). ``precision``: the mixed precision the training process sets
    instead of the config's (``--bf16``). ``other_kinds``: a config that runs no DeepSpeed gives its world size alone
    (else :class:`LaunchError`). ``flags``: ``accelerate launch``'s own DeepSpeed flags by the key each sets
    (:data:`FLAG_KEYS`), written in ``flags_text`` (the file ``flags_path``); each wins over the config's key, and
    ``--use_deepspeed`` runs DeepSpeed whatever the config's ``distributed_type``. ``root`` None: the command line's
    flags alone, with no config file."""
    top: dict[str, tuple[Any, Any, Any]] = {}
    section: dict[str, tuple[Any, Any, Any]] = {}
    section_node = None
    if root is not None:
        import yaml

        constructor = yaml.SafeLoader("")
        for key_node, value_node in root.value:
            if isinstance(key_node, yaml.ScalarNode):
                top[str(key_node.value)] = (key_node, value_node, constructor.construct_object(value_node, deep=True))
        section_node = top.get("deepspeed_config")
        if section_node is not None and isinstance(section_node[1], yaml.MappingNode):
            for key_node, value_node in section_node[1].value:
                if isinstance(key_node, yaml.ScalarNode):
                    section[str(key_node.value)] = (key_node, value_node, constructor.construct_object(value_node))
    from_config = dict(section)  # the keys DeepSpeedPlugin refuses beside a file: the config's, not the flags'
    flags = flags or {}
    for key, flag in flags.items():
        if key in ACCELERATE_KEYS:
            section[key] = _flag_entry(flag, f"--{key}", flags_text, foreign=root is not None)
    if root is None:
        path, text = flags_path, flags_text
    kind = top.get("distributed_type")
    deepspeed = "use_deepspeed" in flags or (kind is not None and str(kind[2]).upper() == "DEEPSPEED")
    if not deepspeed and not other_kinds:
        raise LaunchError("accelerate_not_deepspeed", path, _line(kind[1]) if kind else 0, kind=kind[2] if kind else "")

    def given(entry: tuple[Any, Any, Any], value: Any = None) -> Given:
        key, node = entry[0], entry[1]
        if isinstance(node, _Span):  # a flag of the command line
            flag = flags[next(k for k, e in section.items() if e is entry)]
            return replace(flag, value=entry[2] if value is None else value)
        written = (
            str(text[node.start_mark.index : node.end_mark.index]) if node.start_mark.line == node.end_mark.line else ""
        )
        return Given(
            entry[2] if value is None else value,
            _line(node),
            node.start_mark.column + 1,
            written,
            _line(key),
            key.start_mark.column + 1,
        )

    processes = machines = None
    if "num_processes" in top and type(top["num_processes"][2]) is int:
        processes = given(top["num_processes"])
    if "num_machines" in top and type(top["num_machines"][2]) is int:
        machines = given(top["num_machines"])
    if not deepspeed:  # the world size alone (the script is handed --deepspeed itself)
        return Launch(path, "accelerate", None, None, {}, nodes=machines, processes=processes)
    ignored = tuple(given(entry, key) for key, entry in section.items() if key not in ACCELERATE_KEYS)
    values = plugin_values(section)
    file_entry = section.get("deepspeed_config_file")
    ds_config = None
    if file_entry is not None and isinstance(file_entry[2], str) and file_entry[2] not in ("", "none"):
        ds_config = given(file_entry)
    precision_entry = top.get("mixed_precision")
    written = "no" if precision_entry is None or precision_entry[2] is None else str(precision_entry[2]).lower()
    mixed_precision = precision or written
    if ds_config is not None:
        refused = [given(from_config[key], key) for key in REFUSED_WITH_FILE if key in from_config]
        if "mixed_precision" in top:
            refused.append(given(top["mixed_precision"], "mixed_precision"))
        built = Built(None, {}, ignored, tuple(refused), path, text, mixed_precision, values)
    else:
        config, places = _build(section, top, section_node, mixed_precision, precision is None, _changes_made(release))
        built = Built(config, places, ignored, (), path, text, mixed_precision, values)
    return Launch(path, "accelerate", ds_config, None, {}, nodes=machines, processes=processes, built=built)


def _line(node: Any) -> int:
    return int(node.start_mark.line) + 1


def _place(entry: tuple[Any, Any, Any] | None, value: Any) -> Place | None:
    if entry is None or (isinstance(entry[1], _Span) and entry[1].foreign):
        return None
    key, node = entry[0], entry[1]
    form = (
        "boolean"
        if isinstance(value, bool)
        else "number"
        if isinstance(value, (int, float))
        else "object"
        if isinstance(value, dict)
        else "null"
        if value is None
        else "string"
    )
    return Place(form, key.start_mark.index, key.end_mark.index, node.start_mark.index, node.end_mark.index)


def _changes_made(release: str | None) -> frozenset[str]:
    """What of :data:`PLUGIN_CHANGES` Accelerate ``release`` has made (None, or a version that is no release
    number: all of them)."""
    number = None if release is None else release_number(release)
    return frozenset(
        c.what for c in PLUGIN_CHANGES if number is None or number >= (release_number(c.release) or (0, 0, 0))
    )


def _build(
    section: dict[str, tuple[Any, Any, Any]],
    top: dict[str, tuple[Any, Any, Any]],
    section_node: tuple[Any, Any, Any] | None,
    precision: str,
    precision_written: bool,
    made: frozenset[str],
) -> tuple[dict[str, Any], dict[tuple[str, ...], Place]]:
    """The config ``DeepSpeedPlugin`` builds without a file: each value as the launcher passes it through the
    environment (``str()``, lower case for the switches and devices) and the plugin converts it back, as a release
    that has made the changes ``made`` builds it."""

    def read(key: str) -> str | None:
        entry = section.get(key)
        return None if entry is None or entry[2] is None else str(entry[2])

    steps_text = read("gradient_accumulation_steps")
    steps: Any = "auto" if steps_text is None else int(steps_text) if steps_text.isdigit() else steps_text
    clipping_text = read("gradient_clipping")
    clipping: Any = "auto" if "clipping_auto" in made else None
    if clipping_text is not None and clipping_text.lower() != ("auto" if "clipping_auto" in made else "none"):
        clipping = _number(clipping_text.lower())
    stage_text = read("zero_stage")
    stage: Any = 2 if stage_text is None else int(stage_text) if stage_text.lstrip("-").isdigit() else stage_text
    optimizer_device = (read("offload_optimizer_device") or "none").lower()
    param_device = (read("offload_param_device") or "none").lower()
    save_16bit = (read("zero3_save_16bit_model") or "false").lower() == "true"
    config: dict[str, Any] = {
        "train_batch_size": "auto",
        "train_micro_batch_size_per_gpu": "auto",
        "gradient_accumulation_steps": steps,
        "zero_optimization": {
            "stage": stage,
            "offload_optimizer": {
                "device": optimizer_device,
                "nvme_path": (read("offload_optimizer_nvme_path") or "none") if optimizer_device == "nvme" else None,
            },
            "offload_param": {
                "device": param_device,
                "nvme_path": (read("offload_param_nvme_path") or "none") if param_device == "nvme" else None,
            },
            "stage3_gather_16bit_weights_on_model_save": save_16bit,
        },
    }
    if clipping or (clipping is not None and "clipping_zero" in made):
        config["gradient_clipping"] = clipping
    set_mixed_precision(config, precision, fp8_is_bf16="fp8_bf16" in made)
    precision_entry = top.get("mixed_precision") if precision_written else None

    where: list[tuple[tuple[str, ...], tuple[Any, Any, Any] | None, Any]] = [
        ((), section_node, {}),
        (("gradient_accumulation_steps",), section.get("gradient_accumulation_steps"), steps),
        (("gradient_clipping",), section.get("gradient_clipping"), clipping),
        (("zero_optimization",), section_node, {}),
        (("zero_optimization", "stage"), section.get("zero_stage"), stage),
        (("zero_optimization", "offload_optimizer"), section.get("offload_optimizer_device"), {}),
        (("zero_optimization", "offload_optimizer", "device"), section.get("offload_optimizer_device"), ""),
        (("zero_optimization", "offload_optimizer", "nvme_path"), section.get("offload_optimizer_nvme_path"), ""),
        (("zero_optimization", "offload_param"), section.get("offload_param_device"), {}),
        (("zero_optimization", "offload_param", "device"), section.get("offload_param_device"), ""),
        (("zero_optimization", "offload_param", "nvme_path"), section.get("offload_param_nvme_path"), ""),
        (
            ("zero_optimization", "stage3_gather_16bit_weights_on_model_save"),
            section.get("zero3_save_16bit_model"),
            save_16bit,
        ),
        (("fp16",), precision_entry, {}),
        (("fp16", "enabled"), precision_entry, True),
        (("bf16",), precision_entry, {}),
        (("bf16", "enabled"), precision_entry, True),
    ]
    places = {loc: place for loc, entry, value in where if (place := _place(entry, value)) is not None}
    return config, places


def set_mixed_precision(config: dict[str, Any], precision: str, *, fp8_is_bf16: bool = True) -> None:
    """What ``DeepSpeedPlugin.set_mixed_precision`` does to ``config``: a section for the precision where there is
    none, both switches present, and an ``"auto"`` switch filled (``fill_match`` without matching).
    ``fp8_is_bf16``: ``fp8`` turns bf16 on (Accelerate 0.34 and later, :data:`PLUGIN_CHANGES`)."""
    bf16 = ("bf16", "fp8") if fp8_is_bf16 else ("bf16",)
    if precision == "fp16" and "fp16" not in config:
        config["fp16"] = {"enabled": True, "auto_cast": True}
    elif precision in bf16 and "bf16" not in config:
        config["bf16"] = {"enabled": True}
    for dtype in ("fp16", "bf16"):
        if dtype not in config:
            config[dtype] = {"enabled": False}
    wanted = {"fp16": precision == "fp16", "bf16": precision in bf16}
    for dtype, on in wanted.items():
        section = config.get(dtype)
        if isinstance(section, dict) and section.get("enabled") == "auto":
            section["enabled"] = on


_FILLED_FROM_THE_PLUGIN = {
    ("zero_optimization", "stage"): 2,
    ("zero_optimization", "offload_optimizer", "device"): "none",
    ("zero_optimization", "offload_param", "device"): "none",
    ("zero_optimization", "offload_param", "nvme_path"): "none",
    ("zero_optimization", "offload_optimizer", "nvme_path"): "none",
    ("zero_optimization", "stage3_gather_16bit_weights_on_model_save"): False,
}
"""What ``DeepSpeedPlugin`` fills into an ``"auto"`` of the file ``deepspeed_config_file`` names, when the launch
sets none of its variables (the config may not set them beside a file): its defaults. ``gradient_accumulation_steps``
and ``gradient_clipping`` stay ``"auto"`` (Trainer fills them)."""


_FROM_KEYS = {
    "gradient_accumulation_steps": ("gradient_accumulation_steps",),
    "gradient_clipping": ("gradient_clipping",),
    "zero_stage": ("zero_optimization", "stage"),
    "offload_optimizer_device": ("zero_optimization", "offload_optimizer", "device"),
    "offload_param_device": ("zero_optimization", "offload_param", "device"),
    "zero3_save_16bit_model": ("zero_optimization", "stage3_gather_16bit_weights_on_model_save"),
}
"""The keys whose value ``accelerate launch`` hands the plugin through the environment (``prepare_deepspeed_cmd_env``;
it hands on no NVMe path), and the location of the file's ``"auto"`` each fills (``plugin_to_config_mapping``)."""


def plugin_values(section: dict[str, tuple[Any, Any, Any]]) -> dict[tuple[str, ...], Any]:
    """What ``DeepSpeedPlugin`` fills into the ``"auto"`` of a file from the keys the launch sets (``section``: key
    → (key node, value node, value)), by location, converted as the plugin converts its environment."""
    values: dict[tuple[str, ...], Any] = {}
    for key, location in _FROM_KEYS.items():
        entry = section.get(key)
        if entry is None or entry[2] is None:
            continue
        text = str(entry[2]).lower() if isinstance(entry[2], bool) else str(entry[2])
        if key == "gradient_accumulation_steps":
            values[location] = int(text) if text.isdigit() else text
        elif key == "gradient_clipping":
            values[location] = text.lower() if text.lower() == "auto" else _number(text.lower())
        elif key == "zero_stage":
            values[location] = int(text) if text.lstrip("-").isdigit() else text
        elif key == "zero3_save_16bit_model":
            values[location] = text.lower() == "true"
        else:
            values[location] = text.lower()
    return values


def as_the_plugin_reads(config: Any, precision: str, values: dict[tuple[str, ...], Any] | None = None) -> Any:
    """The ds_config file an Accelerate config names, as ``DeepSpeedPlugin`` hands it to Trainer: one accumulation
    step written where the file writes none, the launch's ``values`` (:func:`plugin_values`), else the plugin's
    defaults, in place of ``"auto"`` (:data:`_FILLED_FROM_THE_PLUGIN`), and the mixed precision set
    (:func:`set_mixed_precision`). A copy; ``config`` as it is when it is no mapping."""
    if not isinstance(config, dict):
        return config
    import copy

    config = copy.deepcopy(config)
    config.setdefault("gradient_accumulation_steps", 1)
    for path, value in {**_FILLED_FROM_THE_PLUGIN, **(values or {})}.items():
        node: Any = config
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and node.get(path[-1]) == "auto":
            node[path[-1]] = value
    set_mixed_precision(config, precision)
    return config


def _number(text: str) -> Any:
    """``float()`` as the plugin converts the clipping; the text itself where it is no number (dsref says so)."""
    try:
        return float(text)
    except ValueError:
        return text
