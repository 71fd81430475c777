"""Each page's description and source link (dsref/site/pagemeta.py), and the 404 page's words in both languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsref.check.report.codes import find_code
from dsref.site.pagemeta import LIMIT, REPOSITORY, description, not_found_html, source_html
from dsref.text.facts import shown_summary
from dsref.tree.index import OptionIndex

ROOT = Path(__file__).resolve().parents[3]
CJK = re.compile("[\u4e00-\u9fff]")


def _pages() -> list[tuple[str, str]]:
    return [
        (p.relative_to(ROOT / "docs").as_posix(), p.read_text(encoding="utf-8"))
        for p in sorted(ROOT.glob("docs/*/**/*.md"))
    ]


@pytest.mark.slow  # every page of docs/, about a second
def test_every_page_has_a_description_of_its_own_in_its_language() -> None:
    pages = _pages()
    assert len(pages) > 300
    described = {src: description(text, src, src[:2]) for src, text in pages}  # type: ignore[arg-type]
    assert all(described.values()), [src for src, said in described.items() if not said]
    said = [d for d in described.values() if d]
    assert len(set(said)) == len(said), "two pages share a description"
    assert all(len(d) <= LIMIT for d in said)
    for src, d in described.items():
        assert bool(CJK.search(d or "")) == src.startswith("zh/"), (src, d)
        assert not re.search(r"[`*]|\]\(|<[a-z]", d or ""), (src, d)  # plain text, no Markdown or HTML


def test_a_reference_page_is_described_by_its_section_and_a_rule_page_by_its_code() -> None:
    record = OptionIndex.load().get("zero_optimization")
    for lang in ("en", "zh"):
        src = f"{lang}/reference/zero_optimization.md"
        text = (ROOT / "docs" / src).read_text(encoding="utf-8")
        said = description(text, src, lang)
        assert said and shown_summary(record, lang).replace("`", "").startswith(said)  # its first sentence
        rule = f"{lang}/rules/DS502.md"
        said = description((ROOT / "docs" / rule).read_text(encoding="utf-8"), rule, lang)
        found = find_code("DS502")
        assert found is not None and said is not None
        assert said.startswith(f"DS502 {found.name}: ") and said.split(": ", 1)[1][:10] in found.explanation(lang)


def test_the_source_link_names_the_page_and_the_module_that_generates_it() -> None:
    src = "zh/reference/fp16.md"
    link = source_html((ROOT / "docs" / src).read_text(encoding="utf-8"), src, "zh")
    assert f'href="{REPOSITORY}/blob/main/docs/{src}"' in link
    assert f'href="{REPOSITORY}/blob/main/dsref/site/reference.py"' in link and CJK.search(link)
    written = "en/guides/" + sorted(p.name for p in (ROOT / "docs/en/guides").glob("*.md"))[0]
    link = source_html((ROOT / "docs" / written).read_text(encoding="utf-8"), written, "en")
    assert f"docs/{written}" in link and "dsref/site/" not in link


def test_the_404_page_speaks_each_language() -> None:
    en, zh = not_found_html("en", "/dsref/"), not_found_html("zh", "/dsref/zh/")
    assert 'href="/dsref/"' in en and 'href="/dsref/zh/"' in zh
    assert not CJK.search(en) and CJK.search(zh) and 'lang="zh-CN"' in zh
