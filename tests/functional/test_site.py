"""The built site: a clean strict build, no broken link or anchor, both languages searchable, and a real browser.

The site is built once for the module (``mkdocs build``, both languages, about 15 s) and served on 127.0.0.1 under
the path it is published at (``/dsref/``). The browser is Debian's Chromium driven by playwright
(``scripts/install_test_deps.sh`` installs both); screenshots go to a temporary folder that the test prints.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from dsref.site.linkcheck import check_site
from dsref.tree.index import OptionIndex
from dsref.tree.links import SITE, option_url
from tests import needs

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
BASE_PATH = urlsplit(SITE).path  # "/dsref/"


def _require(module: str) -> Any:
    return needs.module(module)


@dataclass
class Build:
    site: Path
    returncode: int
    log: str
    seconds: float

    @property
    def problems(self) -> list[str]:
        return [line for line in self.log.splitlines() if re.match(r"^(WARNING|ERROR)\b", line)]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    _require("mkdocs")
    site = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": os.pathsep.join([str(ROOT), *sys.path])}
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--no-strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    return Build(site, proc.returncode, proc.stdout + proc.stderr, time.monotonic() - start)


def test_the_build_is_clean(build: Build) -> None:
    """What ``mkdocs build --strict`` requires: no warning (missing page or language, broken link, bad anchor)."""
    assert build.returncode == 0, build.log[-3000:]
    assert build.problems == []


def test_site_url_is_the_one_dsref_links_to() -> None:
    yaml = _require("yaml")
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["site_url"] == SITE


def _page_ids(path: Path) -> set[str]:
    from dsref.site.linkcheck import _parse

    return _parse(path).ids


def test_every_option_url_resolves_to_its_anchor_in_both_languages(build: Build) -> None:
    missing = []
    for entry in OptionIndex.load():
        for lang in ("en", "zh"):
            url = urlsplit(option_url(entry.path, lang))  # type: ignore[arg-type]
            page = build.site / url.path[len(BASE_PATH) :] / "index.html"
            if not page.is_file() or url.fragment not in _page_ids(page):
                missing.append(f"{lang}: {entry.path}")
    assert missing == []


def test_no_broken_link_or_anchor(build: Build) -> None:
    assert [str(b) for b in check_site(build.site, BASE_PATH)] == []


def test_check_output_markers_became_real_output_in_the_page_language(build: Build) -> None:
    import html

    from dsref.site.doccheck import OUTPUT_MARKERS, blocks, output

    sources = [
        p for p in (ROOT / "docs").rglob("*.md") if any(m in p.read_text(encoding="utf-8") for m in OUTPUT_MARKERS)
    ]
    assert sources, "no page asks for check output"
    for source in sources:
        relative = source.relative_to(ROOT / "docs")
        lang, page = relative.parts[0], relative.with_suffix("").relative_to(relative.parts[0]).as_posix()
        folder = "" if page == "index" else page.removesuffix("/index")  # index.md is its folder's page
        built = build.site / ("" if lang == "en" else lang) / folder / "index.html"
        text = built.read_text(encoding="utf-8")
        assert "dsref-check-output" not in text, built
        for block in blocks(source.read_text(encoding="utf-8")):
            if block.wants_output:
                said = output(block, lang).splitlines()  # type: ignore[arg-type]
                for line in [said[-1], *said[:1]] if block.run else said[-1:]:  # the first line: what was checked for
                    assert html.escape(line, quote=False) in text, (built, line)


def test_figure_macros_became_the_estimators_figures_in_both_languages(build: Build) -> None:
    from dsref.site.figures import fill

    stage3 = fill("{{ figure gpu model=llama-2-7b gpus=8 stage=3 }}", "en")[0]
    for lang_dir in ("", "zh/"):
        for page in ("guides/choosing-zero-stage", "guides/offload", "guides/performance-tuning", "zero"):
            text = (build.site / f"{lang_dir}{page}/index.html").read_text(encoding="utf-8")
            assert "{{" not in text and "dsref-figures" not in text, (lang_dir, page)
            if page != "guides/performance-tuning":
                assert stage3 in text, (lang_dir, page)


def test_generated_assets_are_published(build: Build) -> None:
    for lang_dir in ("", "zh/"):
        svg = build.site / f"{lang_dir}assets/zero-memory.svg"
        assert svg.read_text(encoding="utf-8").startswith("<svg")
    assert (build.site / "schemas" / "ds_config.schema.json").is_file()


def test_each_page_describes_itself_links_its_source_and_a_missing_one_is_said_in_its_language(build: Build) -> None:
    """One ``<meta name="description">`` a page, its own (the option's or rule's summary on a generated page), in
    its language; a link to its source at its foot; a 404 page at the root that speaks both languages and one under
    ``zh/`` in Chinese."""
    import html

    from dsref.site.pagemeta import REPOSITORY, description

    pages = sorted(build.site.rglob("index.html"))
    assert len(pages) > 300
    said: dict[str, str] = {}
    for page in pages:
        text = page.read_text(encoding="utf-8")
        if 'http-equiv="refresh"' in text:
            continue  # a redirect
        (content,) = re.findall(r'<meta name="description" content="([^"]*)"', text)
        said[page.relative_to(build.site).as_posix()] = html.unescape(content)
        assert '<p class="dsref-source">' in text and f"{REPOSITORY}/blob/main/docs/" in text, page
    assert len(set(said.values())) == len(said), "two pages share a description"
    for lang, prefix in (("en", ""), ("zh", "zh/")):
        src = f"{lang}/reference/fp16.md"
        assert said[f"{prefix}reference/fp16/index.html"] == description(
            (ROOT / "docs" / src).read_text(encoding="utf-8"), src, lang
        )
    assert re.search("[\u4e00-\u9fff]", said["zh/rules/DS502/index.html"])
    assert '"sum"' in said["rules/DS550/index.html"]  # a quote in a summary stays inside the attribute
    root, chinese = (build.site / "404.html").read_text("utf-8"), (build.site / "zh/404.html").read_text("utf-8")
    assert 'lang="en"' in root and root.count('class="dsref-not-found"') == 2
    assert '<html lang="zh"' in chinese and chinese.count('class="dsref-not-found"') == 1 and "页面不存在" in chinese


def _index(build: Build, lang: str) -> dict[str, Any]:
    path = build.site / ("" if lang == "en" else lang) / "search" / "search_index.json"
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _tokens(doc: dict[str, Any], separator: str) -> set[str]:
    text = re.sub(r"<[^>]+>", " ", f"{doc['title']} {doc['text']}").lower()
    return {t for t in re.split(separator, text) if t}


def test_each_language_has_its_own_search_index(build: Build) -> None:
    english, chinese = _index(build, "en"), _index(build, "zh")
    assert english["config"]["lang"] == ["en", "zh"] and "\\u200b" in english["config"]["separator"]
    assert {d["location"] for d in english["docs"]} >= {"reference/fp16/#fp16.enabled", "guides/offload/"}
    assert {d["location"] for d in chinese["docs"]} >= {"reference/fp16/#fp16.enabled", "guides/offload/"}
    assert not any(d["location"].startswith("zh/") for d in english["docs"] + chinese["docs"])
    titles = {
        lang: {d["title"] for d in index["docs"] if d["location"] == "glossary/"}
        for lang, index in (("en", english), ("zh", chinese))
    }
    assert titles == {"en": {"Glossary"}, "zh": {"术语表"}}


def test_chinese_words_are_kept_whole_and_offload_finds_the_offload_options(build: Build) -> None:
    chinese = _index(build, "zh")
    separator = chinese["config"]["separator"]
    accumulation = [
        d
        for d in chinese["docs"]
        if d["location"].startswith("reference/gradient_accumulation_steps/")
        and any(t.startswith("梯度累积") for t in _tokens(d, separator))
    ]
    assert accumulation, "梯度累积 is not a word of the Chinese gradient_accumulation_steps entry"
    for lang in ("en", "zh"):
        offload = {d["location"] for d in _index(build, lang)["docs"] if "offload" in _tokens(d, separator)}
        for path in ("zero_optimization.offload_optimizer", "zero_optimization.offload_param"):
            assert f"reference/zero_optimization/#{path}" in offload
        assert "guides/offload/" in offload


# -- in a browser -------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(build: Build, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The site at http://127.0.0.1:<port>/dsref/, as GitHub Pages serves it."""
    root = tmp_path_factory.mktemp("served")
    (root / BASE_PATH.strip("/")).symlink_to(build.site, target_is_directory=True)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{BASE_PATH}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    needs.program("chromium", CHROMIUM)
    _require("playwright")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield chromium
        finally:
            chromium.close()


_SEARCH_READY = """() => {
    const meta = document.querySelector(".md-search-result__meta");
    return meta !== null && meta.textContent !== "" && !/Initializing search|正在初始化搜索引擎/.test(meta.textContent);
}"""
"""True once Material's search worker has loaded the index: the line under the box stops saying it initialises
(the texts of its en and zh translations)."""


def _search(page: Any, words: str) -> list[str]:
    """Type ``words`` into the site search and return the result links, best first.

    Material searches on a key press, and reads the box once when its index is loaded: ``fill`` alone (which
    presses no key, as typing Chinese through an input method presses none either) only found anything when it
    came before the index was ready. So: wait for the index, fill the box, press a key.
    """
    page.click("input.md-search__input")
    page.wait_for_function(_SEARCH_READY, timeout=90_000)  # the Chinese index takes a while on a busy machine
    page.fill("input.md-search__input", words)
    page.press("input.md-search__input", "End")
    page.wait_for_selector(".md-search-result__item", timeout=20_000)
    page.wait_for_timeout(300)  # results arrive in one message; let the list render
    return [str(a.get_attribute("href")) for a in page.query_selector_all(".md-search-result__link")]


def test_option_pages_language_switch_and_search_in_a_browser(
    served: str, browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"screenshots: {shots}")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    # A request the browser aborts because the test moves to the next page (net::ERR_ABORTED) is no error.
    page.on(
        "requestfailed",
        lambda r: None if "ERR_ABORTED" in str(r.failure) else errors.append(f"request failed: {r.url} {r.failure}"),
    )
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}") if r.status >= 400 else None)

    # An option page in English, opened at the option's anchor.
    page.goto(served + "reference/zero_optimization/#zero_optimization.stage")
    heading = page.locator('[id="zero_optimization.stage"]')
    heading.wait_for()
    assert heading.is_visible() and heading.inner_text().startswith("zero_optimization.stage")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.screenshot(path=str(shots / "en-option.png"))

    # The language switcher leads to the same page in Chinese.
    page.hover(".md-header__option .md-select")
    page.click('.md-select__link[hreflang="zh"]')
    page.wait_for_url(re.compile(r"/zh/reference/zero_optimization/"))
    assert page.evaluate("document.documentElement.lang").startswith("zh")
    assert page.locator('[id="zero_optimization.stage"]').count() == 1
    page.screenshot(path=str(shots / "zh-option.png"))

    # A Chinese search finds the option by its Chinese term.
    links = _search(page, "梯度累积")
    page.screenshot(path=str(shots / "zh-search.png"))
    assert any("/dsref/zh/reference/gradient_accumulation_steps/" in link for link in links[:40]), links[:40]
    assert all("/dsref/zh/" in link for link in links), links

    # And back: the switcher on a Chinese page leads to the English one; an English search for offload.
    page.goto(served + "zh/reference/zero_optimization/")
    page.hover(".md-header__option .md-select")
    page.click('.md-select__link[hreflang="en"]')
    page.wait_for_url(re.compile(r"/dsref/reference/zero_optimization/"))
    links = _search(page, "offload")
    page.screenshot(path=str(shots / "en-search.png"))
    assert "/dsref/guides/offload/" in links[0], links[:10]
    assert not any("/zh/" in link for link in links), links

    # The ZeRO page with its chart, in Chinese.
    page.goto(served + "zh/zero/")
    chart = page.locator('img[src$="zero-memory.svg"]')
    chart.wait_for()
    assert chart.evaluate("img => img.naturalWidth") > 0
    page.screenshot(path=str(shots / "zh-zero.png"), full_page=True)
    context.close()
    assert errors == []


def _heading_id(served: str, page: str, n: int) -> str:
    """The id of the n-th h2 of a page as built."""
    from urllib.request import urlopen

    with urlopen(served + page) as response:
        return str(re.findall(r'<h2 id="([^"]+)"', response.read().decode("utf-8"))[n])


_IN_VIEW = "h => { const r = h.getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight; }"


def test_the_language_switcher_keeps_the_anchor(served: str, browser: Any) -> None:
    """From ``#zero_optimization.stage`` of a 40,000 px page, or from a section heading of a guide or a rule page,
    the other language opens at the same option or section."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for start, lang, landing, anchor in (
        ("reference/zero_optimization/", "zh", "/dsref/zh/reference/zero_optimization/", "zero_optimization.stage"),
        ("zh/reference/zero_optimization/", "en", "/dsref/reference/zero_optimization/", "zero_optimization.stage"),
        ("guides/choosing-zero-stage/", "zh", "/dsref/zh/guides/choosing-zero-stage/", "communication-cost"),
        ("zh/guides/offload/", "en", "/dsref/guides/offload/", _heading_id(served, "guides/offload/", 3)),
        ("zh/rules/DS600/", "en", "/dsref/rules/DS600/", "example"),
    ):
        page.goto(f"{served}{start}#{anchor}")
        page.locator(f'[id="{anchor}"]').wait_for()
        page.hover(".md-header__option .md-select")
        page.click(f'.md-select__link[hreflang="{lang}"]')
        page.wait_for_url(re.compile(re.escape(f"{landing}#{anchor}") + "$"))
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang").startswith(lang)
        heading = page.locator(f'[id="{anchor}"]')
        assert heading.count() == 1, f"{landing}: no #{anchor}"
        assert page.evaluate("window.scrollY") > 200, f"{landing}: the page opened at its top"
        assert heading.evaluate(_IN_VIEW), f"{landing}: #{anchor} is not on screen"
    anchor = "#zero_optimization.stage"
    # Keyboard: Enter on the focused link follows it the same way.
    page.goto(served + "reference/zero_optimization/" + anchor)
    page.hover(".md-header__option .md-select")
    page.focus('.md-select__link[hreflang="zh"]')
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(re.escape("/dsref/zh/reference/zero_optimization/" + anchor) + "$"))
    context.close()


_SPLIT_WORDS = """() => {
    // Every place where a word of a table cell or of inline code continues on the next line: two letters or
    // digits side by side in one text node, drawn on two lines. Breaks after "_", ".", "-", "/" or a space are
    // allowed; a <wbr> splits a text node, so the break it offers is between nodes and never seen here.
    const article = document.querySelector("article.md-content__inner");
    const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) => {
            const parent = node.parentElement;
            if (parent.closest("pre") || !(parent.closest("code") || parent.closest("table"))) {
                return NodeFilter.FILTER_REJECT;
            }
            return /[A-Za-z0-9]{2}/.test(node.data) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
        },
    });
    const range = document.createRange();
    const found = [];
    let checked = 0;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        checked += 1;
        range.selectNodeContents(node);
        if (range.getClientRects().length < 2) continue;  // drawn on one line
        let top = null;
        for (let i = 0; i < node.data.length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.width === 0) continue;  // a collapsed space at the end of a line
            if (top !== null && rect.top > top + 2 && /[A-Za-z0-9]/.test(node.data[i - 1] || "")
                && /[A-Za-z0-9]/.test(node.data[i])) {
                found.push(node.data.slice(Math.max(0, i - 20), i) + " / " + node.data.slice(i, i + 20));
            }
            top = rect.top;
        }
    }
    return {checked, found};
}"""


_FIRST_TABLE_INTO_VIEW = (
    '(document.querySelector("article table") ?? document.querySelector("article h2")).scrollIntoView()'
)


_SCROLLING_OUTPUT = """() => [...document.querySelectorAll("article .language-text pre > code")]
    .filter((code) => code.scrollWidth > code.clientWidth + 1).map((code) => code.textContent.slice(0, 60))"""


@pytest.mark.parametrize("width", [1280, 390])
def test_no_identifier_is_split_across_lines(
    served: str, browser: Any, width: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Tables and inline code wrap only between words (after ``_`` or ``.`` in a name), on a desktop and a phone;
    a table too wide for the screen scrolls sideways instead. Terminal output wraps; configs keep their lines."""
    shots = tmp_path_factory.mktemp(f"wrapping-{width}")
    print(f"screenshots: {shots}")
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    split: dict[str, list[str]] = {}
    for path in (
        "reference/zero_optimization/",
        "zh/reference/zero_optimization/",
        "zero/",
        "zh/zero/",
        "guides/huggingface/",
        "guides/common-mistakes/",
        "rules/DS524/",
        "zh/rules/DS524/",
    ):
        page.goto(served + path)
        page.evaluate(
            '(document.querySelector("article table") || document.querySelector("article h2")).scrollIntoView()'
        )
        page.screenshot(path=str(shots / (path.strip("/").replace("/", "-") + ".png")))
        result = page.evaluate(_SPLIT_WORDS)
        assert result["checked"] > 3, path
        if result["found"]:
            split[path] = result["found"]
        # The text column never grows past the screen: a wide table scrolls inside its own box.
        assert page.evaluate("document.documentElement.scrollWidth") <= width, path
        # Terminal output wraps: no ```text block scrolls sideways.
        assert page.evaluate(_SCROLLING_OUTPUT) == [], path
    context.close()
    assert split == {}


def _all_results(page: Any) -> list[str]:
    """Every result link of the search on screen: Material shows the first ten pages and the next ones as the list
    is scrolled, so scroll it to the end until no more come."""
    count = -1
    links: list[str] = []
    while len(links) != count:
        count = len(links)
        # Material loads more when the list reaches its end, as a change: leave the end, then go back to it.
        page.evaluate('document.querySelector(".md-search__scrollwrap").scrollTop = 0')
        page.wait_for_timeout(100)
        page.evaluate('document.querySelector(".md-search__scrollwrap").scrollTop = 1e9')
        page.wait_for_timeout(300)
        links = [str(a.get_attribute("href")) for a in page.query_selector_all(".md-search-result__link")]
    return links


_MARKS = """() => [...document.querySelectorAll(".md-search-result mark")].map((mark) => mark.textContent)"""


@pytest.mark.parametrize(
    ("words", "options"),
    [
        (
            "卸载",
            (
                "zero_optimization/#zero_optimization.offload_optimizer",
                "zero_optimization/#zero_optimization.offload_param",
            ),
        ),
        ("梯度累积", ("gradient_accumulation_steps/",)),
        ("混合精度", ("fp16/", "bf16/")),
    ],
)
def test_chinese_search_finds_options_by_their_glossary_term(
    served: str, browser: Any, words: str, options: tuple[str, ...], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A Chinese term finds the options the Chinese reference writes with the English term (the glossary's pairs
    are in the index), and each highlight in the results is the whole term, never a part of it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(served + "zh/")
    _search(page, words)
    links = [re.sub(r"\?h=[^#]*", "", link) for link in _all_results(page)]  # ?h= highlights the words there
    shots = tmp_path_factory.mktemp("search")
    page.screenshot(path=str(shots / f"{words}.png"))
    print(f"screenshots: {shots}")
    for option in options:
        assert any(f"/dsref/zh/reference/{option}" in link for link in links), (option, links)
    marks = page.evaluate(_MARKS)
    assert marks and all(words in mark for mark in marks), marks
    context.close()


def test_a_page_carries_only_its_own_branch_of_the_navigation(build: Build) -> None:
    """navigation.prune and the groups of the reference and the codes: a rule page links to the codes of its group
    and to the other groups, not to every code; the reference likewise by area."""

    def navigation(page: str) -> str:
        text = (build.site / page / "index.html").read_text(encoding="utf-8")
        return text[text.index('<nav class="md-nav md-nav--primary"') : text.index('<div class="md-content"')]

    for lang in ("", "zh/"):
        rule = navigation(f"{lang}rules/DS510")
        assert 'href="../DS511/"' in rule and 'href="../DS541/"' not in rule and 'href="../DS601/"' not in rule
        reference = navigation(f"{lang}reference/zero_optimization")
        assert 'href="../allgather_size/"' in reference and 'href="../fp16/"' not in reference
        assert len(rule.encode()) < 12_000, "a rule page carries more navigation than its own group"


# -- search by name -----------------------------------------------------------------------------------------------

_BEST_RESULT = """() => {
    // The result Enter opens: the best-scored link of the first entry (Material's own rule).
    const first = document.querySelector(".md-search-result__item");
    if (first === null) return null;
    const links = [...first.querySelectorAll("a[href]")].filter((a) => a.firstElementChild !== null);
    const score = (a) => parseFloat(a.firstElementChild.dataset.mdScore);
    links.sort((a, b) => score(b) - score(a));
    return links.length ? links[0].getAttribute("href") : null;
}"""

_ZERO = "reference/zero_optimization/#zero_optimization."
NAMED = {
    "en": [
        # every miss the issue lists, then more of each kind: paths, keys, codes, rule names, topics
        ("overlap_comm", _ZERO + "overlap_comm"),
        ("reduce_bucket_size", _ZERO + "reduce_bucket_size"),
        ("contiguous_gradients", _ZERO + "contiguous_gradients"),
        ("offload_optimizer", _ZERO + "offload_optimizer"),
        ("stage3_prefetch_bucket_size", _ZERO + "stage3_prefetch_bucket_size"),
        ("auto", "guides/huggingface/#"),
        ('"auto"', "guides/huggingface/#"),
        ("zero_optimization.stage", _ZERO + "stage"),
        ("Zero_Optimization.Overlap_Comm", _ZERO + "overlap_comm"),
        ("offload_optimizer.device", _ZERO + "offload_optimizer.device"),
        ("offload_param", _ZERO + "offload_param"),
        ("gradient_accumulation_steps", "reference/gradient_accumulation_steps/"),
        ("train_micro_batch_size_per_gpu", "reference/train_micro_batch_size_per_gpu/"),
        ("bf16.enabled", "reference/bf16/#bf16.enabled"),
        ("weight_decay", "reference/optimizer/#optimizer.params.weight_decay"),
        ("DS600", "rules/DS600/"),
        ("ds536", "rules/DS536/"),
        ("DS004", "rules/DS004/"),
        ("overlap-comm-off", "rules/DS600/"),
        ("offload", "guides/offload/"),
        ("mixed precision", "guides/mixed-precision/"),
        ("ZeRO", "zero/"),
        ("gradient clipping", "reference/gradient_clipping/"),
        ("tensor parallel", "reference/tensor_parallel/"),
    ],
    "zh": [
        ("通信重叠", _ZERO + "overlap_comm"),
        ("梯度裁剪", "reference/gradient_clipping/"),
        ("优化器卸载", _ZERO + "offload_optimizer"),
        ("参数卸载", _ZERO + "offload_param"),
        ("零冗余优化器", "zero/"),
        ("显存", "guides/choosing-zero-stage/#"),
        ("重叠通信", _ZERO + "overlap_comm"),
        ("通信 重叠", _ZERO + "overlap_comm"),
        ("梯度累积步数", "reference/gradient_accumulation_steps/"),
        ("混合精度", "guides/mixed-precision/"),
        ("卸载", "guides/offload/"),
        ("张量并行", "reference/tensor_parallel/"),
        ("激活检查点", "reference/activation_checkpointing/"),
        ("损失缩放", "reference/fp16/#fp16.loss_scale"),
        ("锁页内存", _ZERO + "offload_optimizer.pin_memory"),
        ("调度器", "reference/scheduler/"),
        ("自动调优", "reference/autotuning/"),
        ("overlap_comm", _ZERO + "overlap_comm"),
        ("stage3_prefetch_bucket_size", _ZERO + "stage3_prefetch_bucket_size"),
        ("auto", "guides/huggingface/#"),
        ("DS600", "rules/DS600/"),
        ("ds536", "rules/DS536/"),
        ("zero_optimization.stage", _ZERO + "stage"),
        ("ＤＳ６００", "rules/DS600/"),
    ],
}
"""Queries and the place the result Enter opens must lead to (a place ending in "#": any section of that page).
Add every miss a reader reports here."""

ODD_QUERIES = [
    "comm",
    "ٱلعربية",
    "😀",
    "~:^",
    "foo~1 bar:",
    "*",
    "+-",
    "a" * 300,
    "<script>",
    "日本語のテキスト",
    "🤖 offload",
]
"""Queries that name nothing: they get results or "nothing found" in the page's language, never an error."""

_NOTHING_FOUND = {"en": "No matching documents", "zh": "没有找到符合条件的结果"}


def _typed(page: Any, words: str) -> None:
    page.fill("input.md-search__input", words)
    page.press("input.md-search__input", "End")
    page.wait_for_function(_SEARCH_READY, timeout=20_000)
    page.wait_for_timeout(500)  # results arrive in one message; let the list render


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_search_puts_the_thing_a_query_names_first(served: str, browser: Any, lang: str) -> None:
    """An option's path or key, a code, a rule's name, a glossary term (Chinese ones included) lead to that thing
    first; a query that names nothing, in any script, gets results or "nothing found" in the page's language."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    prefix = "" if lang == "en" else f"{lang}/"
    page.goto(served + prefix)
    page.click("input.md-search__input")
    page.wait_for_function(_SEARCH_READY, timeout=90_000)
    wrong = []
    for words, place in NAMED[lang]:
        _typed(page, words)
        best = page.evaluate(_BEST_RESULT) or ""
        target = re.sub(r"\?h=[^#]*", "", best).removeprefix(served + prefix)
        if not (target.startswith(place) if place.endswith("#") else target == place):
            wrong.append((words, place, target))
    assert wrong == []
    for words in ODD_QUERIES:
        _typed(page, words)
        meta = page.inner_text(".md-search-result__meta")
        if page.query_selector(".md-search-result__item") is None:
            assert meta == _NOTHING_FOUND[lang], (words, meta)
    context.close()
    assert errors == []


def test_the_search_index_loads_on_first_use_as_plain_utf8(served: str, browser: Any, build: Build) -> None:
    chinese = (build.site / "zh" / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "梯度" in chinese and not re.search(r"\\u[4-9][0-9a-f]{3}", chinese), "Chinese written as \\u escapes"
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    for start in ("reference/zero_optimization/", "zh/guides/offload/"):
        page.goto(served + start)
        page.wait_for_load_state("networkidle")
        assert not any("search_index" in url for url in requested), start
        page.click("input.md-search__input")
        page.wait_for_function(_SEARCH_READY, timeout=90_000)
        index = served + ("zh/" if start.startswith("zh/") else "") + "search/search_index.json"
        assert index in requested, requested
        requested.clear()
    context.close()


# -- phones -------------------------------------------------------------------------------------------------------

_CUT_TABLES = """() => [...document.querySelectorAll("article table")].flatMap((table) => {
    // A table whose box scrolls sideways must say so (the frame dsref.js marks, with its edge cue) and keep its
    // first column on screen (sticky).
    const scroller = table.closest(".md-typeset__scrollwrap");
    if (scroller === null) return [`not wrapped: ${table.innerText.slice(0, 40)}`];
    if (scroller.scrollWidth <= scroller.clientWidth + 1) return [];
    const frame = scroller.parentElement;
    const cue = getComputedStyle(frame, "::after").content;
    const first = table.querySelector("tr > :first-child");
    const ok = frame.classList.contains("dsref-wide") && cue !== "none" && cue !== ""
        && getComputedStyle(first).position === "sticky";
    return ok ? [] : [`no cue: ${table.innerText.slice(0, 40)}`];
})"""

_HIDDEN_KEYS = """() => [...document.querySelectorAll("article pre > code .hll")].flatMap((line) => {
    // The documented line of an example starts inside its box, as the reader sees it.
    const code = line.closest("code");
    const text = line.textContent;
    const node = document.createTreeWalker(line, NodeFilter.SHOW_TEXT).nextNode();
    const start = text.length - text.trimStart().length;
    const range = document.createRange();
    range.setStart(node, Math.min(start, node.length));
    range.setEnd(node, Math.min(start + 1, node.length));
    const left = range.getBoundingClientRect().left - code.getBoundingClientRect().left;
    return left < 0 || left > code.clientWidth - 8 ? [text.trim().slice(0, 40)] : [];
})"""


def test_on_a_phone_no_table_cuts_off_a_column_without_a_cue(served: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cut: dict[str, list[str]] = {}
    highlighted: dict[str, int] = {}
    for path in (
        "reference/zero_optimization/",
        "zh/reference/zero_optimization/",
        "zero/",
        "zh/zero/",
        "fit/",
        "zh/fit/",
        "guides/huggingface/",
        "zh/guides/performance-tuning/",
        "rules/",
        "zh/precision/",
    ):
        page.goto(served + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        found = page.evaluate(_CUT_TABLES) + page.evaluate(_HIDDEN_KEYS)
        if found:
            cut[path] = found
        if "guides/" in path:  # the guides' examples mark their documented key too, and the check above saw them
            highlighted[path] = page.evaluate('document.querySelectorAll("article pre > code .hll").length')
    context.close()
    assert cut == {}
    assert len(highlighted) == 2 and all(highlighted.values()), highlighted


def test_the_stage_table_is_split_by_stages(served: str, browser: Any) -> None:
    """The options that act only at some stages: a table per set of stages, none of them a wall of rows."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    for path in ("zero/", "zh/zero/"):
        page.goto(served + path)
        heights = page.evaluate('[...document.querySelectorAll("article table")].map((t) => t.offsetHeight)')
        assert len(heights) >= 6 and max(heights) < 4000, (path, heights)
    context.close()


def test_copying_a_shell_session_leaves_prompts_and_output_behind_and_the_chart_reads_in_dark_mode(
    served: str, browser: Any
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(served + "cli/")
    copied = page.evaluate(
        """() => [...document.querySelectorAll("article .language-console code")].map((code) => {
            code.setAttribute("data-md-copying", "");  // what Material sets while it copies a block
            const text = code.innerText;
            code.removeAttribute("data-md-copying");
            return text;
        })"""
    )
    assert copied and all(not line.startswith("$") for text in copied for line in text.splitlines()), copied[:2]
    assert any(line.startswith("dsref ") or line.startswith("pip ") for text in copied for line in text.splitlines())
    # Wrapped terminal output keeps clear of the copy button.
    page.goto(served + "rules/DS600/")
    clear = page.evaluate(
        """() => [...document.querySelectorAll("article .language-text pre")].map((pre) => {
            const button = pre.querySelector(".md-clipboard");
            const code = pre.querySelector("code");
            if (button === null) return true;
            const right = code.getBoundingClientRect().right - parseFloat(getComputedStyle(code).paddingRight);
            return right <= button.getBoundingClientRect().left;
        })"""
    )
    assert clear and all(clear), clear
    page.goto(served + "zh/zero/")
    page.evaluate('document.body.setAttribute("data-md-color-scheme", "slate")')
    background = page.eval_on_selector('img[src$="zero-memory.svg"]', "img => getComputedStyle(img).backgroundColor")
    assert background == "rgb(255, 255, 255)", background
    context.close()
