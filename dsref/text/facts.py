"""An option's facts written for a reader, the same in every face (``dsref explain``, hovers and completions, the
site): its one-line summary in a language, its default, its range, a value with its short form.

Nothing here imports :mod:`json` (which imports :mod:`re`), so that ``dsref explain`` starts fast.

>>> json_text({"stage": 3, "offload_param": {"device": "cpu"}})
'{"stage": 3, "offload_param": {"device": "cpu"}}'
>>> shown_value(500000000, {"en": "500M", "zh": "5亿"}, "zh")
'500000000（5亿）'
>>> shown_value(2**63 - 1, {"en": "9223372T"}, "en")
'9223372036854775807 (no limit)'
>>> from dsref.tree.record import Bounds
>>> shown_bounds(Bounds(ge=1, le=3))
'≥ 1, ≤ 3'
"""

from __future__ import annotations

from .i18n import Lang, messages, option_text, translate
from .punctuation import aside

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ..tree.record import Bounds, OptionRecord

__all__ = ["M", "json_text", "shown_bounds", "shown_default", "shown_summary", "shown_value"]

M = messages("facts", none="(none)", no_limit="no limit")

UNLIMITED = 2**63 - 1
"""The largest 64-bit integer (Python's ``sys.maxsize``): DeepSpeed's way of writing "no limit" as a default."""

_JSON_ESCAPES = {i: f"\\u{i:04x}" for i in range(0x20)}
_JSON_ESCAPES.update({ord('"'): '\\"', ord("\\"): "\\\\", 8: "\\b", 9: "\\t", 10: "\\n", 12: "\\f", 13: "\\r"})

_SIGNS = {"gt": ">", "ge": "≥", "lt": "<", "le": "≤", "min_length": "len ≥", "max_length": "len ≤"}


def json_text(value: Any) -> str:
    """A JSON value as ``json.dumps(value, ensure_ascii=False)`` writes it (without importing :mod:`json`, which
    imports :mod:`re`: together a quarter of ``dsref explain``'s start-up)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return float.__repr__(value)
    if isinstance(value, str):
        return '"' + value.translate(_JSON_ESCAPES) + '"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(json_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json_text(_json_key(k))}: {json_text(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"not a JSON value: {value!r}")


def _json_key(key: object) -> str:
    return key if isinstance(key, str) else json_text(key)


def shown_value(value: Any, human: Mapping[str, str] | None, lang: Lang) -> str:
    """A value as JSON, followed by its short form when it is a large count (``500000000 (500M)``); the short
    forms are in the record (``default_human``, ``docs_default_human``), made with Babel when it was generated."""
    shown = json_text(value)
    if value == UNLIMITED and not isinstance(value, bool):
        return aside(shown, M.text("no_limit", lang), lang)
    return aside(shown, human[lang], lang) if human else shown


def shown_default(record: OptionRecord, lang: Lang) -> str:
    """The default DeepSpeed uses, with its short form (:func:`shown_value`); ``(none)`` when there is none."""
    if not record.has_default:
        return M.text("none", lang)
    return shown_value(record.default, record.default_human, lang)


def shown_bounds(bounds: Bounds) -> str:
    """The limits on a value, as ``≥ 1, ≤ 3``."""
    return ", ".join(f"{_SIGNS[name]} {json_text(value)}" for name, value in bounds.items())


def shown_summary(record: OptionRecord, lang: Lang) -> str:
    """The one-line summary in ``lang``: the section's own line, or the first sentence of the description."""
    english = record.summary or ""
    if record.summary_is_own:
        return translate(f"{record.path}#summary", english, lang)
    if lang == "en":
        return english
    text = option_text(record.path, record.description, lang) or ""
    flat = " ".join(text.split())
    end = flat.find("。")
    return flat if end < 0 else flat[: end + 1]


def option_texts(record: OptionRecord, lang: Lang) -> dict[str, Any]:
    """Every text of an option in ``lang`` (English where there is no translation), as the JSON outputs give them
    (``text`` in ``dsref explain --format json`` and ``dsref options``)."""
    return {
        "summary": shown_summary(record, lang),
        "description": option_text(record.path, record.description, lang),
        "default_note": option_text(record.path, record.default_note, lang, "default_note"),
        "removal_note": option_text(record.path, record.removal_note, lang, "removal_note"),
        "enum": {str(v): option_text(record.path, t, lang, f"enum:{v}") for v, t in record.enum_docs},
        "hf_auto_source": option_text(record.path, record.hf_auto_source, lang, "hf_source"),
    }
