"""The catalogs: in sync with the schema, fully translated, placeholders intact, .mo compiled."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from dsref.text import catalog as cat
from dsref.text.i18n import MoCatalog


def test_catalog_is_complete_and_in_sync() -> None:
    problems = cat.problems("zh")
    assert [str(p) for p in problems] == []


def test_every_option_text_has_its_path_as_context() -> None:
    from dsref.tree.options import option_tree

    pot = read_po(io.BytesIO(cat.pot_path().read_bytes()))
    contexts = {m.context for m in pot if m.id}
    for opt in option_tree():
        assert opt.path in contexts, opt.path


def test_the_same_english_can_be_translated_differently() -> None:
    """msgctxt keeps equal English texts under different options apart."""
    pot = read_po(io.BytesIO(cat.pot_path().read_bytes()))
    by_text: dict[str, set[str | None]] = {}
    for message in pot:
        if message.id:
            by_text.setdefault(str(message.id), set()).add(message.context)
    assert any(len(contexts) > 1 for contexts in by_text.values())


def test_check_reports_untranslated_and_broken_placeholders() -> None:
    po = cat.read_catalog(cat.po_path("zh"), "zh_CN")
    first = next(m for m in po if m.id and m.context == "explain.wrote")
    first.string = ""
    found = [p for p in cat.problems("zh", translated=po) if p.context == first.context]
    assert [p.problem for p in found] == ["not translated"]
    first.string = "你输入的是 {written}"
    found = [p for p in cat.problems("zh", translated=po) if p.context == first.context]
    assert found and "placeholders differ" in found[0].problem
    first.string = "你输入的是 {written}：{how}"
    first.flags.add("fuzzy")
    found = [p for p in cat.problems("zh", translated=po) if p.context == first.context]
    assert found and found[0].problem.startswith("fuzzy")


@pytest.mark.slow  # the script in a process of its own; the checks it runs are tested in-process above
def test_check_script_passes() -> None:
    proc = subprocess.run([sys.executable, "scripts/catalog.py", "check"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout


def test_stats() -> None:
    done, total = cat.stats("zh")
    assert done == total > 800


def test_the_mo_is_compared_by_what_it_says_not_by_who_compiled_it(tmp_path: Path) -> None:
    """A .mo that differs from a fresh compile only in its Generated-By line is current; one translation, or a
    header field that changes how it is read, makes it stale."""
    po = cat.read_catalog(cat.po_path("zh"), "zh_CN")
    fresh = cat.compile_mo(po)
    texts = MoCatalog(fresh).messages()
    header = texts[(None, "")]
    assert re.search(r"^Generated-By: Babel ", header, re.M), header
    other = tmp_path / "dsref.mo"

    texts[(None, "")] = re.sub(r"^Generated-By: Babel .*$", "Generated-By: Babel 9.99.0", header, flags=re.M)
    other.write_bytes(cat.mo_bytes(texts))
    assert other.read_bytes() != fresh
    assert cat.mo_problem(other, po) is None

    key = next(k for k in texts if k[0] == "explain.wrote")
    texts[key] = texts[key] + "！"
    other.write_bytes(cat.mo_bytes(texts))
    problem = cat.mo_problem(other, po)
    assert (
        problem is not None and "explain.wrote" in problem.problem and "scripts/catalog.py compile" in problem.problem
    )

    texts[key] = MoCatalog(fresh).messages()[key]
    texts[(None, "")] = header + "Plural-Forms: nplurals=2; plural=(n != 1);\n"
    other.write_bytes(cat.mo_bytes(texts))
    problem = cat.mo_problem(other, po)
    assert problem is not None and "Plural-Forms" in problem.problem

    other.write_bytes(b"not a catalog at all")
    problem = cat.mo_problem(other, po)
    assert problem is not None and "cannot be read" in problem.problem
