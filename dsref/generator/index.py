"""The generated forms of the option tree kept for start-up speed: the option index and the explain pages.

The index (``dsref/generated/index/``) holds one record per option, the records of ``dsref options --format json``;
the explain pages (``dsref/generated/pages_<lang>.txt``) are ``dsref explain PATH`` drawn for every option.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..schema import UNSET
from ..text.numbers import human_forms
from ..tree.examples import example_config
from ..tree.index import GENERATED_DIR, INDEX_DIR, KEY_FIELDS, KEYS_MODULE, PAGES_PREFIX
from ..tree.options import Option, OptionTree, option_tree
from ..tree.record import top_of
from ..tree.versions import DEEPSPEED_VERSION, DSREF_VERSION

_INDEX_HEADER = '''"""{what} of the option index, generated from the schema by scripts/generate.py: do not edit.

See dsref/tree/index.py for how it is read.
"""

'''


def python_literal(value: object) -> str:
    """``value`` (JSON data) as a Python literal that evaluates back to it."""
    text = repr(value)
    if "inf" in text or "nan" in text:
        import ast

        if ast.literal_eval(text) != value:
            raise ValueError(f"not writable as a Python literal: {value!r}")
    return text


def dump_record(option: Option, tree: OptionTree | None = None) -> dict[str, Any]:
    """The documented record of an option (``dsref options --format json``): its facts, after the docs' default
    the large defaults in each language's short form (``500M``, ``5亿``), made with Babel here so that
    ``dsref explain`` shows them without importing it, and after its example value the whole config that shows it
    at work (:func:`dsref.tree.examples.example_config`)."""
    record: dict[str, Any] = {}
    for key, value in option.to_json().items():
        record[key] = value
        if key == "has_example":
            record["example_config"] = example_config(option, tree)
        if key == "docs_default_differs":
            meta = option.meta
            record["default_human"] = None if option.default is UNSET else human_forms(option.default, meta.unit)
            record["docs_default_human"] = (
                None if meta.docs_default is UNSET else human_forms(meta.docs_default, meta.unit)
            )
    return record


def index_document(tree: OptionTree | None = None) -> dict[str, Any]:
    """The option dump: ``{"dsref": …, "deepspeed": …, "options": [record, …]}`` (also the generated index)."""
    tree = tree or option_tree()
    return {"dsref": DSREF_VERSION, "deepspeed": DEEPSPEED_VERSION, "options": [dump_record(opt, tree) for opt in tree]}


def _rows_module(what: str, fields: tuple[str, ...], rows: list[list[object]]) -> bytes:
    """A module with ``FIELDS`` and ``ROWS`` (one option per line, so that a diff shows which options changed)."""
    body = "".join(f"    {python_literal(tuple(row))},\n" for row in rows)
    text = f"{_INDEX_HEADER.format(what=what)}FIELDS = {python_literal(fields)}\n\nROWS = (\n{body})\n"
    return text.encode("utf-8")


def index_files() -> dict[Path, bytes]:
    """The option index: a package with the key module and one module per top-level key."""
    import keyword

    from ..text.i18n import LANGUAGES

    document = index_document()
    directory = Path(INDEX_DIR)
    records: list[dict[str, object]] = document["options"]
    fields = tuple(records[0])
    shards: dict[str, list[list[object]]] = {}
    for record in records:
        shards.setdefault(top_of(str(record["path"])), []).append([record[k] for k in fields])
    for top in shards:
        if not top.isidentifier() or keyword.iskeyword(top) or top.startswith("_"):
            raise ValueError(f"top-level key {top!r} cannot name a module of the index")
    package = (
        f"{_INDEX_HEADER.format(what='The package')}"
        f"DSREF = {python_literal(document['dsref'])}\nDEEPSPEED = {python_literal(document['deepspeed'])}\n\n"
        f"SHARDS = {python_literal(tuple(shards))}\n"
        f"LANGUAGES = {python_literal(LANGUAGES)}\n"
        f"HF_AUTO = {python_literal(tuple(opt.path for opt in option_tree() if opt.meta.hf_auto is not None))}\n"
    )
    keys = [[record[k] for k in KEY_FIELDS] for record in records]
    files = {
        directory / "__init__.py": package.encode("utf-8"),
        directory / f"{KEYS_MODULE}.py": _rows_module("The key module", KEY_FIELDS, keys),
    }
    for top, rows in shards.items():
        files[directory / f"{top}.py"] = _rows_module(f"The records under {top!r}", fields, rows)
    return files


def page_files() -> dict[Path, bytes]:
    """``dsref explain PATH`` pre-rendered for every option's own path: per language, one text file holding every
    page (in colour) and a module of where each page is in it.

    Rendering is cheap; starting Python with the renderer, the index and the catalog is not: printing a
    pre-rendered page lets the everyday call start nearly as fast as the bare interpreter. Any other call (another
    spelling, ``--recursive``, ``--format json``) renders live, with the same :func:`dsref.explain.render.render_text`.
    """
    from ..explain.render import page, page_paths
    from ..text.i18n import LANGUAGES

    written = page_paths()
    directory = Path(GENERATED_DIR)
    files: dict[Path, bytes] = {}
    paths = "".join(f"    {python_literal(path + chr(10))}\n" for path in written)
    ends: dict[str, tuple[int, ...]] = {}
    for lang in LANGUAGES:
        blob = bytearray()
        lang_ends = []
        for path in written:
            blob += page(path, lang).encode("utf-8")
            lang_ends.append(len(blob))
        ends[lang] = tuple(lang_ends)
        files[directory / f"{PAGES_PREFIX}{lang}.txt"] = bytes(blob)
    what = f"Where each explain page is in {PAGES_PREFIX}<lang>.txt"
    module = (
        f"{_INDEX_HEADER.format(what=what)}"
        "# PATHS: every option path and its other names written in full, one per line (between newlines).\n"
        "# ENDS[lang][i]: where the page of the i-th path ends in that language's text file (it starts where the one\n"
        "# before ends). One string and a tuple of numbers per language load several times faster than a dict.\n"
        f'PATHS = (\n    "\\n"\n{paths})\n\nENDS = {{\n'
        + "".join(f"    {python_literal(lang)}: {python_literal(numbers)},\n" for lang, numbers in ends.items())
        + "}\n"
    )
    files[directory / "pages.py"] = module.encode("utf-8")
    return files
