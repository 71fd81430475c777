"""Explain an option or a section: look it up, and render what is known about it.

>>> print(render_text(explain("zero_optimization.offload_param.device")).splitlines()[0])
zero_optimization.offload_param.device
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any

from .options import Option, OptionTree, Resolution, option_tree
from .schema._meta import UNSET

__all__ = ["Explanation", "UnknownOption", "explain", "render_json", "render_text", "suggest"]


class UnknownOption(LookupError):
    """No option has the path the user wrote."""

    def __init__(self, written: str, suggestions: list[str]) -> None:
        super().__init__(written)
        self.written = written
        self.suggestions = suggestions


@dataclass(frozen=True)
class Explanation:
    resolution: Resolution | None
    option: Option | None
    children: list[Option]
    recursive: bool
    max_depth: int | None


def explain(
    path: str | None = None, *, recursive: bool = False, max_depth: int | None = None, tree: OptionTree | None = None
) -> Explanation:
    """What to show for ``path`` (``None``: the top level). Raises :class:`UnknownOption`."""
    tree = tree or option_tree()
    if not path:
        return Explanation(None, None, tree.top_level(), recursive, max_depth)
    resolution = tree.resolve(path)
    if resolution is None:
        raise UnknownOption(path, suggest(path, tree))
    opt = resolution.option
    children = tree.children(opt.path) if opt.kind == "section" else []
    return Explanation(resolution, opt, children, recursive, max_depth)


def suggest(written: str, tree: OptionTree | None = None, n: int = 5) -> list[str]:
    """Canonical paths closest to what the user wrote."""
    tree = tree or option_tree()
    paths = [opt.path for opt in tree]
    close = difflib.get_close_matches(written, paths, n=n, cutoff=0.6)
    last = written.rsplit(".", 1)[-1]
    for opt in tree.by_key().get(last, ()):
        if opt.path not in close:
            close.append(opt.path)
    return close[:n]


def _value(value: Any) -> str:
    if value is UNSET:
        return "(none)"
    return json.dumps(value, ensure_ascii=False)


def _subtree(tree: OptionTree, opt: Option | None, depth: int, max_depth: int | None) -> list[tuple[int, Option]]:
    rows: list[tuple[int, Option]] = []
    children = tree.top_level() if opt is None else tree.children(opt.path)
    for child in children:
        rows.append((depth, child))
        if child.kind == "section" and (max_depth is None or depth + 1 < max_depth):
            rows.extend(_subtree(tree, child, depth + 1, max_depth))
    return rows


def render_text(exp: Explanation, tree: OptionTree | None = None) -> str:
    """Plain-text explanation (English)."""
    tree = tree or option_tree()
    opt = exp.option
    lines: list[str] = []
    if opt is not None:
        lines.append(opt.path)
        if exp.resolution is not None and exp.resolution.via != "path":
            lines.append(f"  (you wrote {exp.resolution.written!r}, a {exp.resolution.via.replace('_', ' ')})")
        lines.append(f"  type:        {opt.type}")
        lines.append(f"  default:     {_value(opt.default)}")
        if opt.meta.default_note:
            lines.append(f"               {opt.meta.default_note}")
        if opt.meta.docs_default is not UNSET:
            lines.append(f"  docs say:    {_value(opt.meta.docs_default)} (DeepSpeed's code uses the default above)")
        if opt.allowed is not None:
            lines.append("  allowed:     " + ", ".join(_value(v) for v in opt.allowed))
            for value, text in opt.meta.enum_docs:
                lines.append(f"    {_value(value)}: {text}")
        if opt.bounds:
            lines.append("  range:       " + ", ".join(f"{k} {v}" for k, v in opt.bounds.items()))
        if opt.unit:
            lines.append(f"  unit:        {opt.unit}")
        if opt.stages is not None:
            lines.append("  ZeRO stages: " + ", ".join(str(s) for s in opt.stages))
        if opt.since:
            lines.append(f"  since:       {opt.since}")
        if opt.removed_in:
            lines.append(f"  removed in:  {opt.removed_in}")
            if opt.meta.removal_note:
                lines.append(f"               {opt.meta.removal_note}")
        if opt.meta.deprecated:
            lines.append(f"  deprecated:  use {opt.meta.use_instead}")
        elif opt.meta.use_instead:
            lines.append(f"  instead:     {opt.meta.use_instead}")
        if opt.aliases or opt.deprecated_aliases:
            names = list(opt.aliases) + [f"{a} (deprecated)" for a in opt.deprecated_aliases]
            lines.append("  also:        " + ", ".join(names))
        if opt.meta.hf_auto is not None:
            lines.append(f'  HF "auto":   yes ({opt.meta.hf_auto.source})')
        if opt.kind == "section" and opt.unknown_keys:
            lines.append(f"  unknown keys: {opt.unknown_keys}")
        if opt.description:
            lines.append("")
            lines.extend("  " + line for line in opt.description.splitlines())
        if opt.meta.example is not UNSET:
            lines.append("")
            lines.append("  example:     " + json.dumps({opt.key: opt.meta.example}, ensure_ascii=False))
    if opt is None or opt.kind == "section":
        if opt is not None:
            lines.append("")
        depth = exp.max_depth if exp.recursive else 1
        for level, child in _subtree(tree, opt, 0, depth):
            summary = (child.summary or "").rstrip(".")
            name = "  " * level + child.key
            lines.append(f"  {name:<44} {child.type:<16} {_value(child.default):<14} {summary}")
    return "\n".join(lines) + "\n"


def render_json(exp: Explanation, tree: OptionTree | None = None) -> str:
    """The JSON form: the option's record and its (sub)tree of records."""
    tree = tree or option_tree()
    payload: dict[str, Any] = {"option": exp.option.to_json() if exp.option is not None else None}
    if exp.option is None or exp.option.kind == "section":
        depth = exp.max_depth if exp.recursive else 1
        payload["children"] = [opt.to_json() for _, opt in _subtree(tree, exp.option, 0, depth)]
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
