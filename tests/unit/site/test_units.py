"""Byte figures in one convention (``dsref/site/units.py``): KB, MB and GB are binary, written with a space, a
decimal point and at most one decimal; the build names every figure written otherwise with its page and line, and
the real site and every message of the catalogs have none."""

from __future__ import annotations

import io
from pathlib import Path
from types import SimpleNamespace

import pytest
from babel.messages.pofile import read_po

from dsref.site.figures import fill
from dsref.site.hooks import on_page_markdown
from dsref.site.units import problems
from dsref.text import catalog as cat

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("the default is 64 MiB", "64 MiB: write the size as MB"),
        ("a 1 GiB buffer", "1 GiB: write the size as GB"),
        ("a 2 TB disk", "2 TB: write the size in GB"),
        ("a 10 Gb link", "10 Gb: write the unit as KB, MB or GB"),
        ("3 kB of headers", "3 kB: write the unit as KB, MB or GB"),
        ("fits in 16GB", "16GB: put a space"),
        ("needs 0,9 GB", "0,9 GB: write the number with a decimal point"),
        ("needs 0.93 GB", "0.93 GB: write the number with a decimal point"),
        ("needs 1.000 GB", "1.000 GB: write the number with a decimal point"),
        ("1 GB = 10^9 bytes", "1 GB = 10^9 bytes: a GB here is 2^30 bytes"),
        ("1 GB = 10⁹ bytes", "a GB here is 2^30 bytes"),
        ("1 GB is 1,000,000,000 bytes", "a GB here is 2^30 bytes"),
        ("1 GB = 1000 MB", "a GB here is 2^30 bytes"),
        ("1 GB 即 10^9 字节", "a GB here is 2^30 bytes"),
        ("a bucket of 5e8 elements is 500 MB", "500 MB reads the count 5e8 as decimal bytes"),
        ("500 million gradients take 0.5 GB", "0.5 GB reads the count 500 million as decimal bytes"),
        ("5 亿个元素是 500 MB", "500 MB reads the count 5 亿 as decimal bytes"),
    ],
)
def test_a_figure_outside_the_convention_is_named(text: str, said: str) -> None:
    found = problems(f"# Page\n\n{text}\n")
    assert len(found) == 1, found
    assert found[0].startswith("line 3: ") and said in found[0], found


@pytest.mark.parametrize(
    "text",
    [
        "14.6 GB per GPU on an 80 GB card, 1,303.9 GB in all, 512 MB, 4 KB",
        "1 GB = 2^30 bytes = 1024 MB; 1 MB = 2^20 bytes; 1 GB = 2³⁰ bytes",
        '5e8 elements of a 16-bit dtype take 0.9 GB, not “500 MB” and not "500 MB"',
        "`--gpu-memory 80GB` and `64 MiB`, <!-- 2 TB -->, [a link](https://x.org/5GiB)",
        "an A100-40GB and 7B parameters",
        "```\n1 GB = 10^9 bytes, 64 MiB, 16GB\n```",
    ],
)
def test_the_convention_code_and_quotations_pass(text: str) -> None:
    assert problems(text) == []


def test_a_page_with_a_figure_in_another_unit_fails_the_build_with_page_and_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    page = SimpleNamespace(meta={}, file=SimpleNamespace(src_uri="zh/guides/units.md"))
    markdown = "# 单位\n\n缓冲区默认 64 MiB。\n\n| 情形 | 显存 |\n|---|---|\n| 5e8 个元素 | 500 MB |\n"
    with caplog.at_level("WARNING", logger="mkdocs.plugins.dsref"):
        on_page_markdown(markdown, page=page)
    assert "docs/zh/guides/units.md:3: 64 MiB: write the size as MB" in caplog.text
    assert "docs/zh/guides/units.md:7: 500 MB reads the count 5e8 as decimal bytes" in caplog.text


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT / "docs").as_posix() for p in PAGES])
def test_every_page_writes_bytes_in_the_convention(page: Path) -> None:
    lang = page.relative_to(ROOT / "docs").parts[0]
    found = problems(fill(page.read_text(encoding="utf-8"), lang)[0])  # type: ignore[arg-type]
    assert not found, "\n".join(f"{page.relative_to(ROOT)}: {p}" for p in found)


TYPED = frozenset({"commands.estimate.suggest_needs_memory", "estimate.bad_size", "estimate.unknown_gpu"})
"""Messages that show what to type on the command line (``--gpu-memory 80GB``, ``1.5TB``): input as the parser takes
it, which a terminal cannot set in code as a page does."""


def test_every_message_writes_bytes_in_the_convention() -> None:
    po = read_po(io.BytesIO(cat.po_path("zh").read_bytes()))
    texts = [
        text
        for message in po
        if message.id and message.context not in TYPED
        for text in (str(message.id), str(message.string))
    ]
    assert len(texts) > 1000
    found = [f"{text[:60]}…: {p}" for text in texts for p in problems(text.replace("\n", " "))]
    assert not found, "\n".join(found)
