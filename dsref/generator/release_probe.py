"""Runs inside one DeepSpeed release's environment and reports what that release does with a config, as JSON.

Started as a file by :func:`dsref.generator.release_env.run_in_release`, never imported by dsref: it imports only
the standard library and the release under study (whose pydantic may be 1.10, which dsref cannot share).

    python release_probe.py facts REQUEST.json OUT.json     # the release's config facts (below)
    python release_probe.py verdicts REQUEST.json OUT.json  # DeepSpeedConfig's verdict on each file
    python release_probe.py behaviour REQUEST.json OUT.json # what it does with each option of the battery
    python release_probe.py rules REQUEST.json OUT.json     # its verdict on each cross-field rule's configs
    python release_probe.py engine REQUEST.json OUT.json    # each rule's configs started as an engine

``facts`` finds them by introspection, not from a list typed by hand:

* the pydantic config models (fields, aliases, defaults, types, constraints, deprecations, unknown keys refused or
  not), starting from the classes the request names and following nested models;
* every key ``DeepSpeedConfig`` reads with ``dict.get`` (``get_scalar_param`` included) and the default it passes,
  recorded by handing it dictionaries that note each lookup, once with each section empty and once enabled;
* the constructor defaults of each learning-rate scheduler, and the optimizer names the config layer knows;
* the verdict of ``DeepSpeedConfig`` on each small config of the request's ``probes`` (value spellings, unknown
  keys, ``"auto"`` where a boolean is read).

``behaviour`` builds each config of the one-option battery (:mod:`dsref.generator.release_battery`) and compares
what the built ``DeepSpeedConfig`` holds (its attributes and the pydantic models under them, followed a few levels
down) with what it holds for the same config without the option: whether the release reads the option, its default
there, and its verdict on each value (:func:`option_behaviour`).
"""

from __future__ import annotations

import contextlib
import copy
import enum
import importlib
import inspect
import io
import json
import logging
import os
import re
import sys
from collections.abc import KeysView
from typing import Any

READS: list[tuple[str, str, str, Any]] = []
"""(section path, key, how it was read, default passed) for each lookup in a :class:`Recording` dictionary."""

_NO_DEFAULT = "<none>"


def jsonable(value: Any) -> Any:
    """A JSON value for a default, or ``{"repr": ...}`` for what JSON cannot hold."""
    if isinstance(value, enum.Enum):
        return jsonable(value.value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else {"repr": repr(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in (sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value)]
    for dump in ("model_dump", "dict"):
        method = getattr(value, dump, None)
        if callable(method) and hasattr(value, "__fields__"):
            with contextlib.suppress(Exception):
                return jsonable(method())
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return {"repr": repr(value)}


class Recording(dict[str, Any]):
    """A config section that notes every key DeepSpeed looks up in it, with the default it passes."""

    def __init__(self, path: str, items: dict[str, Any]) -> None:
        super().__init__(
            {k: Recording(f"{path}.{k}" if path else k, v) if type(v) is dict else v for k, v in items.items()}
        )
        self.path = path

    def get(self, key: Any, default: Any = None) -> Any:
        READS.append((self.path, str(key), "get", jsonable(default)))
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        READS.append((self.path, str(key), "item", _NO_DEFAULT))
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        READS.append((self.path, str(key), "in", _NO_DEFAULT))
        return super().__contains__(key)

    def keys(self) -> Any:  # `KEY in d.keys()` is a lookup too: the view asks the dictionary itself
        return KeysView(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> Recording:
        return Recording(self.path, {k: copy.deepcopy(v, memo) for k, v in dict.items(self)})


def _quiet() -> None:
    logging.disable(logging.WARNING)
    with contextlib.suppress(Exception):
        from deepspeed.utils import logger

        logger.setLevel(logging.ERROR)


def _deepspeed_config() -> Any:
    with contextlib.redirect_stdout(io.StringIO()):
        from deepspeed.runtime.config import DeepSpeedConfig
    _quiet()
    return DeepSpeedConfig


def _build(config: dict[str, Any]) -> str | None:
    """None when ``DeepSpeedConfig`` accepts ``config``, else the exception's type and first line."""
    config_class = _deepspeed_config()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            config_class(config)
    except BaseException as exc:  # DeepSpeed raises assorted types, SystemExit included
        lines = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
    return None


# ---- pydantic models -------------------------------------------------------------------------------------------


def _base_model() -> Any:
    from deepspeed.runtime import config_utils

    return config_utils.DeepSpeedConfigModel


def _all_models() -> dict[str, Any]:
    base = _base_model()
    found: dict[str, Any] = {}
    todo = [base]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            found.setdefault(sub.__name__, sub)
            todo.append(sub)
    return found


def _find_class(dotted: str) -> Any:
    module, _, name = dotted.rpartition(".")
    with contextlib.suppress(Exception), contextlib.redirect_stdout(io.StringIO()):
        return getattr(importlib.import_module(module), name)
    return _all_models().get(name)


def _type_name(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "").replace("typing_extensions.", "")


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, _base_model())


def _nested_models(tp: Any) -> list[Any]:
    if _is_model(tp):
        return [tp]
    return [m for arg in getattr(tp, "__args__", ()) or () for m in _nested_models(arg)]


def _constraints(metadata: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name in ("ge", "gt", "le", "lt"):
        for item in metadata:
            value = getattr(item, name, None)
            if value is not None:
                found[name] = jsonable(value)
    return found


def model_facts(cls: Any) -> dict[str, Any]:
    """One model's fields and whether it refuses unknown keys, with its nested models under ``"models"``."""
    fields: dict[str, Any] = {}
    nested: dict[str, Any] = {}
    if hasattr(cls, "model_fields"):  # pydantic 2
        extra = cls.model_config.get("extra")
        for name, info in cls.model_fields.items():
            schema_extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
            required = info.is_required()
            default = None if required else info.get_default(call_default_factory=True)
            fields[name] = {
                "alias": info.alias if info.alias and info.alias != name else None,
                "type": _type_name(info.annotation),
                "default": None if required else jsonable(default),
                "required": required,
                "constraints": _constraints(info.metadata),
                "deprecated": bool(schema_extra.get("deprecated")),
                "new_param": schema_extra.get("new_param") or None,
            }
            for model in _nested_models(info.annotation):
                nested[info.alias or name] = model_facts(model)
    else:  # pydantic 1 (or pydantic.v1)
        extra = getattr(cls.__config__, "extra", None)
        for name, field in cls.__fields__.items():
            info = field.field_info
            required = bool(field.required)
            default = None if required else field.get_default()
            outer = field.outer_type_
            limits = {k: getattr(info, k, None) for k in ("ge", "gt", "le", "lt")}
            if type(outer).__name__ == "ConstrainedNumberMeta" or outer.__name__.startswith("Constrained"):
                # pydantic 1 folds Field(ge=…) into a constrained type: name its base, keep its limits
                limits = {k: getattr(outer, k, None) for k in limits}
                outer = next(base for base in outer.__mro__[1:] if base.__module__ == "builtins")
            type_name = _type_name(outer)
            if field.allow_none and not type_name.startswith("Optional["):
                type_name = f"Optional[{type_name}]"
            fields[name] = {
                "alias": field.alias if field.alias and field.alias != name else None,
                "type": type_name,
                "default": None if required else jsonable(default),
                "required": required,
                "constraints": {k: jsonable(v) for k, v in limits.items() if v is not None},
                "deprecated": bool(info.extra.get("deprecated")),
                "new_param": info.extra.get("new_param") or None,
            }
            for model in _nested_models(field.outer_type_):
                nested[field.alias or name] = model_facts(model)
    extra_name = getattr(extra, "value", extra)
    return {
        "class": f"{cls.__module__}.{cls.__qualname__}",
        "extra": str(extra_name) if extra_name is not None else "ignore",
        "fields": fields,
        "models": nested,
    }


# ---- what DeepSpeedConfig reads ----------------------------------------------------------------------------------


def _reads_for(config: dict[str, Any]) -> tuple[list[tuple[str, str, str, Any]], str | None]:
    READS.clear()
    error = _build(Recording("", config))
    return list(READS), error


def _put(config: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    node = config
    *parents, last = path.split(".")
    for key in parents:
        node = node.setdefault(key, {})
    node[last] = value
    return config


def dict_reads(base: dict[str, Any], sections: list[str], depth: int = 3) -> dict[str, Any]:
    """Each section path → key → the default passed to ``get`` (``"<none>"`` when read only with ``[]``/``in``),
    over the base config and each section given empty and enabled, following sections read inside them."""
    reads: dict[str, dict[str, Any]] = {}
    errors: dict[str, str] = {}

    def note(found: list[tuple[str, str, str, Any]]) -> None:
        for path, key, how, default in found:
            slot = reads.setdefault(path, {})
            if how == "get" or key not in slot:
                slot[key] = default

    found, error = _reads_for(copy.deepcopy(base))
    note(found)
    if error:
        errors[""] = error
    seen: set[str] = set()
    todo = list(sections)
    level = {s: 1 for s in sections}
    while todo:
        section = todo.pop(0)
        if section in seen:
            continue
        seen.add(section)
        for variant in ({}, {"enabled": True}):
            found, error = _reads_for(_put(copy.deepcopy(base), section, dict(variant)))
            note(found)
            if error:
                errors[f"{section} {json.dumps(variant)}"] = error
            if level[section] >= depth:
                continue
            for path, key, _how, default in found:
                child = f"{path}.{key}" if path else key
                if path == section and (default == {} or isinstance(default, dict)) and child not in level:
                    level[child] = level[section] + 1
                    todo.append(child)
    return {"reads": {path: dict(sorted(keys.items())) for path, keys in sorted(reads.items())}, "errors": errors}


# ---- what the release does with each option: the battery ------------------------------------------------------

_ADDRESS = re.compile(r" (?:object )?at 0x[0-9a-fA-F]+")
_SKIPPED_ATTRIBUTES = {"_param_dict", "param_dict", "ds_config", "config_dict"}


def _flatten(value: Any, prefix: str, out: dict[str, str], depth: int, seen: set[int]) -> None:
    """What a built config object holds, as ``attribute path`` → JSON text (objects followed to ``depth``)."""
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or isinstance(value, (bool, int, float, str)):
        out[prefix] = json.dumps(jsonable(value), sort_keys=True)
        return
    if id(value) in seen or depth > 6:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{prefix}.{key}", out, depth + 1, seen)
        return
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value) if not isinstance(value, (set, frozenset)) else sorted(value, key=repr)
        for index, item in enumerate(items):
            _flatten(item, f"{prefix}[{index}]", out, depth + 1, seen)
        out[f"{prefix}#len"] = str(len(items))
        return
    attributes = getattr(value, "__dict__", None)
    module = type(value).__module__ or ""
    if isinstance(attributes, dict) and (module.startswith("deepspeed") or hasattr(value, "__fields__")):
        for key, item in attributes.items():
            if key.startswith("__") or key in _SKIPPED_ATTRIBUTES:
                continue
            _flatten(item, f"{prefix}.{key}", out, depth + 1, seen)
        return
    out[prefix] = json.dumps(_ADDRESS.sub("", repr(value)))


def _state(config: dict[str, Any]) -> tuple[dict[str, str] | None, str | None]:
    """What ``DeepSpeedConfig(config)`` holds (None when it refuses), and its error."""
    config_class = _deepspeed_config()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            built = config_class(copy.deepcopy(config))
    except BaseException as exc:
        lines = str(exc).strip().splitlines()
        return None, f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
    flat: dict[str, str] = {}
    _flatten(built, "", flat, 0, set())
    return flat, None


_ABSENT: dict[str, tuple[dict[str, str] | None, str | None, set[str]]] = {}


def _absent_state(config: dict[str, Any]) -> tuple[dict[str, str] | None, str | None, set[str]]:
    """:func:`_state` of a config without the option, built twice: what differs between the two is noise (a
    time, a counter). Kept per config: many options share one."""
    key = json.dumps(config, sort_keys=True)
    if key not in _ABSENT:
        first, error = _state(config)
        again, _ = _state(config)
        noise = set(_changed(first, again, set())) if first is not None and again is not None else set()
        _ABSENT[key] = (first, error, noise)
    return _ABSENT[key]


def _dict_default(config: dict[str, Any], path: str) -> Any:
    """The default ``DeepSpeedConfig`` passes to ``dict.get`` for ``path`` when building ``config`` (which does
    not hold it), or ``_NO_DEFAULT``."""
    section, _, key = path.rpartition(".")
    found, _error = _reads_for(copy.deepcopy(config))
    for where, name, how, default in found:
        if where == section and name == key and how == "get":
            return default
    return _NO_DEFAULT


def _changed(a: dict[str, str], b: dict[str, str], noise: set[str]) -> list[str]:
    return sorted(k for k in a.keys() | b.keys() if k not in noise and a.get(k) != b.get(k))


def _example_tells(
    item: dict[str, Any], absent: dict[str, str] | None, example: dict[str, str] | None, noise: set[str]
) -> bool:
    """Whether the example, accepted, changes the built object where the value can be found as written: then it
    is read, and what the object held there is its default; the second value and 0.19.8's default would tell
    nothing more. (An example that changes nothing may be the release's default: the second value tells.)"""
    if absent is None or example is None:
        return False
    changed = _changed(absent, example, noise)
    written = json.dumps(jsonable(item["values"]["example"]), sort_keys=True)
    return any(example.get(key) == written and key in absent for key in changed)


def option_behaviour(item: dict[str, Any]) -> dict[str, Any]:
    """What the release does with one option (:mod:`dsref.generator.release_battery` builds ``item``):

    * ``verdicts``: the error of each variant's config (None: accepted);
    * ``reads``: True when writing a value changes what the built config holds, or a value is refused that the
      config without the option passes; False when every accepted value leaves the object as without the option;
      None when nothing could be told (the config without the option is refused, or every value is);
    * ``default``: where a value lands in the built object, what the object holds there without the option
      (``{"unknown": true}`` when the value cannot be found there as written).
    """
    absent, absent_error, noise = _absent_state(item["absent"])
    states: dict[str, dict[str, str] | None] = {}
    verdicts: dict[str, str | None] = {}
    for variant, config in item["configs"].items():
        if variant in ("alt", "schema_default") and _example_tells(item, absent, states.get("example"), noise):
            continue  # the example alone tells whether it is read and its default: the other values are not built
        states[variant], verdicts[variant] = _state(config)
    result: dict[str, Any] = {"verdicts": verdicts, "absent_error": absent_error}
    if absent is None:
        result["reads"] = None
        return result
    changes = {v: _changed(absent, s, noise) for v, s in states.items() if s is not None}
    valued = ("example", "alt", "schema_default")
    if any(changes.get(v) for v in valued):
        result["reads"] = True
    elif any(verdicts.get(v) is not None for v in ("wrong_type", "out_of_range", *valued)):
        # refused where the config without it passes: read (its value judged) or refused as an unknown key
        result["reads"] = None if all(verdicts.get(v) is not None for v in valued if v in verdicts) else True
    elif any(v in changes for v in valued):
        result["reads"] = False
    else:
        result["reads"] = None
    if result["reads"]:
        default: Any = {"unknown": True}
        if not changes.get("schema_default") and "schema_default" in changes:
            default = {"same_as_written": item["values"]["schema_default"]}
        for variant in valued:
            written = json.dumps(jsonable(item["values"].get(variant)), sort_keys=True)
            state = states.get(variant)
            if state is None or variant not in item["values"]:
                continue
            if not changes.get(variant):
                default = {"same_as_written": item["values"][variant]}
                break
            landed = [key for key in changes[variant] if state.get(key) == written and key in absent]
            landed.sort(key=lambda key: not key.endswith(f".{item['key']}"))  # its own name first
            if landed:
                default = {"value": json.loads(absent[landed[0]]), "at": landed[0]}
                break
        if "unknown" in default:  # read with dict.get into a value of another name: the default it passes
            passed = _dict_default(item["absent"], item["path"])
            if passed != _NO_DEFAULT:
                default = {"value": passed, "at": "dict.get"}
        result["default"] = default
    return result


def behaviour(request: dict[str, Any]) -> dict[str, Any]:
    import deepspeed

    _deepspeed_config()
    options = {path: option_behaviour(item) for path, item in request["battery"].items()}
    return {"release": deepspeed.__version__.split("+")[0].strip(), "options": options}


# ---- the cross-field rules: each rule's configs built as the engine builds them --------------------------------


class _DataParallel:
    """A model-parallel unit that says only the data-parallel world size (what ``DeepSpeedConfig`` asks it)."""

    def __init__(self, size: int) -> None:
        self.size = size

    def get_data_parallel_world_size(self) -> int:
        return self.size


def _build_with_world(config: dict[str, Any], world_size: int | None) -> str | None:
    """:func:`_build`, with ``world_size`` data-parallel GPUs where given: ``DeepSpeedConfig`` then asks the
    ``mpu`` it is handed (its rank asked of ``deepspeed.comm`` answers 0, as on the first GPU of a run)."""
    if world_size is None:
        return _build(config)
    from deepspeed import comm

    config_class = _deepspeed_config()
    saved = comm.get_rank
    comm.get_rank = lambda *args, **kwargs: 0
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            config_class(config, mpu=_DataParallel(world_size))
    except BaseException as exc:
        lines = str(exc).strip().splitlines()
        return f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
    finally:
        comm.get_rank = saved
    return None


def rules(request: dict[str, Any]) -> dict[str, Any]:
    """The release's verdict on each config of ``request["configs"]`` (label → ``{"config", "world_size"}``)."""
    import deepspeed

    _deepspeed_config()
    verdicts = {
        label: _build_with_world(copy.deepcopy(item["config"]), item.get("world_size"))
        for label, item in request["configs"].items()
    }
    return {"release": deepspeed.__version__.split("+")[0].strip(), "verdicts": verdicts}


# ---- the rules checked when the engine starts: each rule's configs started as an engine ----------------------------


class _AnyOp:
    """A stand-in for a compiled DeepSpeed op: every attribute is a function that does nothing. Starting an engine
    loads the op of the optimizer it builds (fused Adam, Lamb, Lion…) but calls none of it; a release would compile
    it with the system's compiler, which a probe of the release's checks does not need."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


class _NoEvent:
    """A device event or stream that records and waits for nothing (the CPU runs each operation to its end)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None


class _StubBuilder:
    """An op builder whose ``load`` gives :class:`_AnyOp`, whatever the accelerator has for the op (even none)."""

    def __init__(self, builder: Any) -> None:
        self._builder = builder

    def load(self, *args: Any, **kwargs: Any) -> Any:
        return _AnyOp()

    def __getattr__(self, name: str) -> Any:
        if self._builder is None:
            raise AttributeError(name)
        return getattr(self._builder, name)


def _start_engines() -> None:
    """One process of a world of one, on the CPU over gloo, with no op compiled (:class:`_AnyOp`), fp16 taken as a
    GPU takes it (the CPU accelerator refuses fp16 before any of the checks probed), and device events and streams
    that do nothing where an old CPU accelerator has none (:class:`_NoEvent`). What is stood in for is the device,
    never a check: the checks probed are the release's own code, run as it is."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK="0", WORLD_SIZE="1", LOCAL_RANK="0")
    os.environ.update(LOCAL_SIZE="1", CROSS_RANK="0", CROSS_SIZE="1")
    with contextlib.redirect_stdout(io.StringIO()):
        import deepspeed
        from deepspeed.ops.op_builder.builder import OpBuilder

        with contextlib.suppress(Exception):  # the accelerator's own builders, subclasses of OpBuilder
            from deepspeed.accelerator import get_accelerator

            importlib.import_module(get_accelerator().op_builder_dir())
        todo = [OpBuilder]
        while todo:
            cls = todo.pop()
            cls.load = lambda self, *args, **kwargs: _AnyOp()
            todo.extend(cls.__subclasses__())
        compatible = getattr(deepspeed.ops, "__compatible_ops__", None)
        if isinstance(compatible, dict):
            compatible["deepspeed_shm_comm"] = False
        from deepspeed.accelerator import get_accelerator

        accelerator = type(get_accelerator())
        accelerator.communication_backend_name = lambda self: "gloo"  # old releases ask for oneCCL on the CPU
        if hasattr(accelerator, "is_fp16_supported"):  # fp16 as on a GPU: the CPU would refuse it before any rule
            accelerator.is_fp16_supported = lambda self: True
        for name in ("Event", "Stream"):  # old CPU accelerators have none; ZeRO 1-2 asks for both
            if getattr(get_accelerator(), name, _NoEvent) is None:
                setattr(accelerator, name, property(lambda self: _NoEvent))
        create = getattr(accelerator, "create_op_builder", None)
        if create is not None:  # the ops a CPU has none of (fused Lamb…) stand in too
            accelerator.create_op_builder = lambda self, name: _StubBuilder(create(self, name))
        deepspeed.init_distributed(dist_backend="gloo")
    _quiet()


def _raised_at(exc: BaseException) -> str | None:
    """Where in DeepSpeed the exception was raised: the innermost frame of the traceback inside the ``deepspeed``
    package, as ``module/path.py:function`` (the call site, for a TypeError of a call's arguments)."""
    import traceback

    import deepspeed

    root = os.path.dirname(os.path.abspath(deepspeed.__file__))
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.abspath(frame.filename)
        if path.startswith(root + os.sep):
            found = f"{os.path.relpath(path, root).replace(os.sep, '/')}:{frame.name}"
    return found


def _engine_verdict(config: dict[str, Any], world_size: int | None) -> dict[str, Any]:
    """``deepspeed.initialize`` of a one-layer model with ``config``: the error and where DeepSpeed raised it, or
    the classes of the optimizer and the scheduler it built; a config without an optimizer section is handed a
    torch SGD built in code, as a training script hands one. ``world_size`` other than 1 is answered by the
    data-parallel unit :class:`_DataParallel`, as for the config's verdict."""
    import deepspeed
    import torch

    torch.manual_seed(0)
    model = torch.nn.Linear(8, 8)
    for param in model.parameters():
        param.use_muon = param.ndim >= 2  # type: ignore[attr-defined]  # Muon asks each parameter its half
    kwargs: dict[str, Any] = {"model": model, "model_parameters": list(model.parameters()), "config": config}
    if "optimizer" not in config:  # the optimizer comes from code, as in a training script (the scheduler needs one)
        kwargs["optimizer"] = torch.optim.SGD(model.parameters(), lr=0.1)
    if world_size not in (None, 1):
        kwargs["mpu"] = _DataParallel(world_size)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            engine, _, _, scheduler = deepspeed.initialize(**kwargs)
    except BaseException as exc:  # DeepSpeed raises assorted types, SystemExit included
        lines = str(exc).strip().splitlines()
        error = f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
        return {"error": error, "raised_at": _raised_at(exc)}
    basic = getattr(engine, "basic_optimizer", None)
    return {
        "error": None,
        "optimizer": None if basic is None else type(basic).__name__,
        "scheduler": None if scheduler is None else type(scheduler).__name__,
    }


def engine(request: dict[str, Any]) -> dict[str, Any]:
    """Each config of ``request["configs"]`` (label → ``{"config", "world_size"}``) started as an engine."""
    import deepspeed

    try:
        _start_engines()
    except Exception as exc:  # no engine starts at all: each config says so, and none proves a rule
        lines = str(exc).strip().splitlines()
        failed = {"error": f"{type(exc).__name__}: {lines[0] if lines else ''}".strip(), "raised_at": _raised_at(exc)}
        return {
            "release": deepspeed.__version__.split("+")[0].strip(),
            "verdicts": dict.fromkeys(request["configs"], failed),
        }
    verdicts = {
        label: _engine_verdict(copy.deepcopy(item["config"]), item.get("world_size"))
        for label, item in request["configs"].items()
    }
    return {"release": deepspeed.__version__.split("+")[0].strip(), "verdicts": verdicts}


# ---- the rest ----------------------------------------------------------------------------------------------------


def scheduler_defaults() -> dict[str, Any]:
    with contextlib.redirect_stdout(io.StringIO()):
        from deepspeed.runtime import lr_schedules
    names = getattr(lr_schedules, "VALID_LR_SCHEDULES", [])
    found: dict[str, Any] = {}
    for name in names:
        cls = getattr(lr_schedules, name, None)
        if cls is None:
            continue
        params = inspect.signature(cls.__init__).parameters
        found[name] = {
            p.name: jsonable(p.default)
            for p in params.values()
            if p.name not in ("self", "optimizer") and p.default is not inspect.Parameter.empty
        }
    return found


def scheduler_probes(values: dict[str, Any]) -> dict[str, str | None]:
    """The verdict of each scheduler that takes the parameter on each value of ``values`` (``param`` → value),
    built as the engine builds it, over a one-parameter torch optimizer: ``scheduler.params.<param>=<json>`` →
    None (every such scheduler accepts it) or the first error."""
    import torch

    with contextlib.redirect_stdout(io.StringIO()):
        from deepspeed.runtime import lr_schedules

    def build(cls: Any, params: dict[str, Any]) -> str | None:
        optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.1)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                cls(optimizer, **params)
        except Exception as exc:
            lines = str(exc).strip().splitlines()
            return f"{type(exc).__name__}: {lines[0] if lines else ''}".strip()
        return None

    found: dict[str, str | None] = {}
    for param, value in values.items():
        verdict: str | None = None
        for name in getattr(lr_schedules, "VALID_LR_SCHEDULES", []):
            cls = getattr(lr_schedules, name, None)
            if cls is None or param not in inspect.signature(cls.__init__).parameters or build(cls, {}) is not None:
                continue  # a scheduler without the parameter, or one that needs more than its defaults
            verdict = verdict or build(cls, {param: value})
        found[f"scheduler.params.{param}={json.dumps(value)}"] = verdict
    return found


def optimizer_names() -> list[str]:
    with contextlib.redirect_stdout(io.StringIO()):
        from deepspeed.runtime import config
    return sorted(str(n) for n in getattr(config, "DEEPSPEED_OPTIMIZERS", []))


def facts(request: dict[str, Any]) -> dict[str, Any]:
    import deepspeed

    base = request["base"]
    models: dict[str, Any] = {}
    for path, dotted in request["models"].items():
        cls = _find_class(dotted)
        models[path] = model_facts(cls) if cls is not None else None
    probes = {label: _build(copy.deepcopy(config)) for label, config in request["probes"].items()}
    probes.update(scheduler_probes(request.get("scheduler_values", {})))
    return {
        "release": deepspeed.__version__.split("+")[0].strip(),
        "models": models,
        "dict": dict_reads(base, request["sections"]),
        "schedulers": scheduler_defaults(),
        "optimizers": optimizer_names(),
        "probes": probes,
    }


def verdicts(request: dict[str, Any]) -> dict[str, Any]:
    """Each file read as the ``deepspeed`` launcher reads it (hjson, duplicate keys refused), then built with
    ``DeepSpeedConfig(config)`` (``torch.distributed`` left uninitialised: world size 1)."""
    import hjson
    from deepspeed.runtime.config_utils import dict_raise_error_on_duplicate_keys

    _deepspeed_config()
    out: dict[str, Any] = {}
    for name in request["files"]:
        try:
            with open(name, encoding="utf-8") as handle:
                config = hjson.load(handle, object_pairs_hook=dict_raise_error_on_duplicate_keys)
        except (ValueError, UnicodeDecodeError) as exc:
            out[name] = {"parsed": False, "error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0]}"}
            continue
        out[name] = {"parsed": True, "error": _build(config)}
    return out


def main(argv: list[str]) -> int:
    command, request_path, out_path = argv
    with open(request_path, encoding="utf-8") as handle:
        request = json.load(handle)
    result = {"facts": facts, "verdicts": verdicts, "behaviour": behaviour, "rules": rules, "engine": engine}[command](
        request
    )
    with open(out_path, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
