"""Every Chinese text dsref shows, as ``(where, first line, text)`` for :mod:`dsref.text.zhlint`: the catalog, every zh
page (hand-written and generated), the explain pages, and (slow) the zh output of the commands over the corpus."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

from dsref.text import catalog as cat

from .conftest import shared_path

ROOT = Path(__file__).resolve().parents[1]
DOCS_ZH = ROOT / "docs" / "zh"
MODEL = ROOT / "tests" / "data" / "hf_models" / "llama-3-8b.json"

Text = tuple[str, int, str]


def catalog_texts() -> Iterator[Text]:
    path = cat.po_path("zh")
    for message in cat.read_catalog(path):
        if message.id and isinstance(message.string, str) and message.string:
            yield f"{path.relative_to(ROOT)} msgctxt {message.context}", message.lineno, message.string


def page_texts() -> Iterator[Text]:
    for page in sorted(DOCS_ZH.rglob("*.md")):
        if page.name != "glossary.md":  # it names what it rules out
            yield str(page.relative_to(ROOT)), 1, page.read_text(encoding="utf-8")


_EXAMPLE = re.compile(r"^ {4,}[\[\]{}\"].*$|^ {4,}\d.*$", re.M)
_KEY = re.compile(r"^( *)([A-Za-z_][\w.]*)(?= {2,}|$)", re.M)
"""An option's name at the start of a line (the page's title, its table of options): code, not prose."""


def explain_texts() -> Iterator[Text]:
    """The pre-rendered ``dsref explain --lang zh`` pages (JSON examples masked; a term broken by a hard wrap is missed,
    but the catalog holds every text of them whole)."""
    from dsref.explain.pages import without_color
    from dsref.generated import pages

    data = (Path(str(pages.__file__)).parent / "pages_zh.txt").read_bytes()
    paths = pages.PATHS.strip("\n").split("\n")
    for path, start, end in zip(paths, (0, *pages.ENDS["zh"][:-1]), pages.ENDS["zh"], strict=True):
        page = _KEY.sub(r"\1`\2`", _EXAMPLE.sub("", without_color(data[start:end].decode("utf-8"))))
        yield f"dsref explain {path} --lang zh", 1, page


def rule_texts() -> Iterator[Text]:
    """What ``dsref rule CODE --lang zh`` prints for every finding code."""
    from dsref.check.findings import Kind
    from dsref.check.rules import all_rules

    for code in [*(kind.code for kind in Kind), *(rule.code for rule in all_rules())]:
        # the first line names the rule by its stable name (deprecated, batch-size-missing): code, not prose
        yield (
            f"dsref rule {code} --lang zh",
            1,
            re.sub(r"^(DS\d+) ([\w-]+)", r"\1 `\2`", _run(["rule", code, "--lang", "zh"])),
        )


def _run(argv: list[str]) -> str:
    from dsref.cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        main(argv)
    return out.getvalue()


def corpus_texts() -> Iterator[Text]:
    """What ``dsref check --lang zh`` says of every corpus file (its messages and help, not the quoted source), and
    ``dsref estimate --lang zh`` of each with a model."""
    files = sorted(str(p) for p in shared_path("corpus", "real").iterdir() if p.suffix == ".json")
    for profile in ("deepspeed", "hf"):
        report = json.loads(_run(["check", "--lang", "zh", "--format", "json", "--profile", profile, *files]))
        for entry in report["files"]:
            for finding in entry["findings"]:
                where = (
                    f"dsref check --profile {profile} {Path(entry['file']).name}:{finding['line']} {finding['code']}"
                )
                yield where, 1, "\n".join([finding["message"], *finding["help"]])
    for file in files:
        argv = ["estimate", "--config", file, "--model", str(MODEL), "--gpus-per-node", "8", "--gpu-memory", "H100"]
        yield f"dsref estimate --config {Path(file).name}", 1, _COLUMN.sub("", _run([*argv, "--lang", "zh"]))


_COLUMN = re.compile(r" +(?:[<>] )?[\d.,]+ GB$|^[- ]+$", re.M)
"""The estimate table's column of figures and its rules: layout, not prose."""
