"""MkDocs hooks (``hooks:`` in ``mkdocs.yml``): what the site build does beyond Markdown.

* Every ```json block is checked as its ``dsref-check`` comment says (:mod:`dsref.site.doccheck`); one that
  fails fails the build, with its page and line.
* ``<!-- dsref-check-output -->`` after a ```json block becomes the real ``dsref check`` output for that block, in
  the page's language (:func:`dsref.site.doccheck.output`), as a ```text block (``<!-- dsref-check-output: run -->``:
  as the terminal prints it for the command the page shows, its first line included); ``<!-- dsref-fix-diff -->`` what
  ``dsref check --diff`` prints for it, and a code the fix repairs that is still reported after it fails the build.
* What dsref answers about a block (its check, output, diff) is kept between builds, keyed by the block, the
  language and dsref itself (:mod:`dsref.site.buildcache`).
* Each ```json example highlights the key it documents: the lines its expected codes are reported at, what a
  repair changed, or the option its section's heading names (:mod:`dsref.site.keylines`).
* ``{{ figure … }}`` in a page becomes the figure the estimator gives for a declared worked example, in the page's
  language (:mod:`dsref.site.figures`); a macro naming no declared case, a memory figure or saving written by hand
  in a hand-written page, and written-out batch arithmetic that does not hold fail the build with the page and line;
  so does a byte figure outside the site's one convention (GB = 2^30 bytes, :mod:`dsref.site.units`).
* The build fails (a warning, and ``mkdocs build --strict``) when a page exists in one language and not the
  other, when an option has no description in English or Chinese, or when a check-output marker follows no block.
* A line break in a page's prose that still shows as a space where Chinese needs none (between two Chinese
  characters, beside full-width punctuation: :func:`dsref.site.cjk.joins`) fails the build with the page and the
  source line; the ``dsref.site.linejoin`` Markdown extension removes every one it can (:func:`on_page_content`).
* A Chinese heading takes the id of its English twin, the heading in the same place of the English page, so that
  the language switcher keeps the reader's place; a heading id one language has and the other lacks fails the build
  with the page and line (:mod:`dsref.site.headings`).
* ``<!-- dsref-playground -->`` becomes the playground in the page's language, and each ```json example of every page
  is followed by a link that opens it there (:mod:`dsref.site.playground`); the playground's files, when
  ``scripts/playground.py`` has built them, are copied into the site.
* The jieba user dictionary is found relative to ``mkdocs.yml``, wherever mkdocs is run from.
* The top of the navigation is put in reading order, the guides in the order of the learning path; pages nobody
  placed keep MkDocs' order after them.
* Head ``<link rel="alternate">`` tags are dropped (:func:`on_post_page` says why), and the sidebars' indentation
  collapsed (:func:`compact_sidebars`).
* Each language searches its own pages: the merged search index is split into ``search/`` and ``zh/search/``
  (plain UTF-8), loaded when the search box is first used; Chinese entries also carry the glossary's Chinese terms
  for the English ones they use, and Chinese query words are kept whole (:mod:`dsref.site.search`). A query that
  names a thing (an option, a code, a glossary term) lists that thing first (:mod:`dsref.site.names`).

MkDocs loads this file by its path, so it imports dsref absolutely; it imports MkDocs only inside functions.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from dsref.site import LANGS

log = logging.getLogger("mkdocs.plugins.dsref")

NAV_ORDER = (
    "index.md",
    "playground.md",
    "guides",
    "zero.md",
    "precision.md",
    "reference",
    "rules",
    "cli.md",
    "editors.md",
    "editor-schema.md",
)
"""Top-level navigation entries in this order (a page, or a folder's section); the rest follow, then these last."""
NAV_LAST = ("glossary.md", "api.md")
GUIDE_ORDER = (
    "getting-started.md",
    "choosing-zero-stage.md",
    "mixed-precision.md",
    "offload.md",
    "huggingface.md",
    "launch.md",
    "performance-tuning.md",
    "common-mistakes.md",
    "migrate-0.19.8.md",
)
"""The guides in the order of the learning path the home page lays out; a guide not listed follows them."""

_reported: set[str] = set()


def _warn_once(message: str) -> None:
    # The i18n plugin runs the build once per language; say each problem once.
    if message not in _reported:
        _reported.add(message)
        log.warning(message)


def _priority(value: int) -> Any:
    try:
        from mkdocs.plugins import event_priority
    except ImportError:  # pragma: no cover - only without MkDocs
        return lambda fn: fn
    return event_priority(value)


@_priority(100)
def on_config(config: Any, **_: Any) -> Any:
    """Make the jieba dictionary path absolute (Material reads it relative to the working directory)."""
    root = Path(config["config_file_path"]).resolve().parent
    from dsref.site.buildcache import BuildCache

    _CACHE[:] = [BuildCache.beside(Path(config["config_file_path"]))]
    for name in ("material/search", "search"):
        plugin = config["plugins"].get(name)
        setting = getattr(plugin, "config", {}).get("jieba_dict_user") if plugin is not None else None
        if setting and not os.path.isabs(setting):
            plugin.config["jieba_dict_user"] = str(root / setting)
    return config


_CACHE: list[Any] = []


def _build_cache() -> Any:
    """The build's cache of dsref's answers about the docs' examples (:mod:`dsref.site.buildcache`)."""
    if not _CACHE:
        from dsref.site.buildcache import BuildCache

        _CACHE.append(BuildCache(None))
    return _CACHE[0]


def on_files(files: Any, config: Any, **_: Any) -> Any:
    """Report pages missing in one language, and options the reference cannot describe."""
    docs = Path(config["docs_dir"])
    for problem in missing_translations(docs):
        _warn_once(problem)
    from dsref.site.reference import missing_texts

    for problem in missing_texts():
        _warn_once(f"reference: {problem}")
    return files


def missing_translations(docs: Path) -> list[str]:
    """Every page that exists under one language folder of ``docs`` and not under the other."""
    pages = {lang: {p.relative_to(docs / lang).as_posix() for p in (docs / lang).rglob("*.md")} for lang in LANGS}
    problems = []
    for lang in LANGS:
        for other in LANGS:
            for page in sorted(pages[lang] - pages[other]):
                problems.append(f"docs/{lang}/{page} has no {other} version: write docs/{other}/{page}")
    return problems


def page_language(src_uri: str) -> str:
    """The language of a page from its path under ``docs/`` (``zh/guides/x.md`` → ``zh``)."""
    first = PurePosixPath(src_uri).parts[0] if src_uri else ""
    return first if first in LANGS else "en"


_H1 = re.compile(r"^# (?P<title>.+?)(?:\s*\{(?P<attributes>[^}]*)\})?\s*$", re.M)


def page_title(markdown: str) -> str | None:
    """The text of a page's first level-1 heading, without Markdown code marks or attributes.

    MkDocs takes a page's title from its first heading only when nothing comes before it; generated pages start
    with a comment saying so, and would otherwise be named after their file.

    >>> page_title("<!-- generated -->\\n# `tensor_parallel` · 张量并行 { .option }\\n")
    'tensor_parallel'
    >>> page_title("# Using `dsref check`\\n")
    'Using dsref check'
    """
    found = _H1.search(markdown)
    if not found:
        return None
    title = found["title"]
    if ".option" in (found["attributes"] or "").split() and title.startswith("`"):
        title = title.split("`")[1]  # an option page is named by its key alone
    return title.replace("`", "").strip()


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """Give the page its heading's title; check every ```json block as its marker says (a block that fails is a
    warning, with the page and line); replace each ``<!-- dsref-check-output -->`` with the check output of the
    block above it and each ``<!-- dsref-fix-diff -->`` with what ``dsref check --diff`` prints for it."""
    from dsref.site.doccheck import (
        DIFF_MARKERS,
        OUTPUT_MARKER,
        OUTPUT_MARKERS,
        blocks,
        check,
        fix_diff,
        output,
        still_reported,
        stray_markers,
    )

    if "title" not in page.meta:
        title = page_title(markdown)
        if title:
            page.meta["title"] = title
    src = page.file.src_uri
    if "description" not in page.meta:
        from html import escape

        from dsref.site.pagemeta import description

        described = description(markdown, src, page_language(src))  # type: ignore[arg-type]
        if described:
            # the head's <meta name="description">, in place of the site's; the theme writes it into the attribute
            # as it is
            page.meta["description"] = escape(described)
    markdown = _figures(markdown, src)
    from dsref.site.playground import MARKER, page_html

    if MARKER in markdown:
        lang = page_language(src)
        # English pages are served from the site's root, Chinese ones from zh/: the files are in playground/app/,
        # the JSON Schemas in schemas/
        up = "../" if lang == "en" else "../../"
        markdown = markdown.replace(MARKER, page_html(lang, f"{up}playground/app", f"{up}schemas"))  # type: ignore[arg-type]
    twin = _HEADING_IDS.get(_twin_key(src))
    if page_language(src) != "en" and twin is not None:
        from dsref.site.headings import with_ids

        markdown = with_ids(markdown, twin)
    cache = _build_cache()
    if "```json" in markdown:
        from dsref.site.keylines import documented_lines, expected_lines, with_highlight

        checked: dict[int, Any] = {}

        def checked_block(block: Any) -> Any:
            if block.line not in checked:
                checked[block.line] = check(block)
            return checked[block.line]

        fences = markdown.split("\n")
        previous = None
        for block in blocks(markdown, src):
            for problem in cache.lines("problems", block, "en", lambda b=block: checked_block(b).problems):
                _warn_once(f"docs/{src}:{block.line}: {problem}")
            expected = cache.lines(
                "expected-lines", block, "en", lambda b=block: [str(n) for n in expected_lines(checked_block(b))]
            )
            highlighted = documented_lines(markdown, block, tuple(int(n) for n in expected), previous)
            fences[block.line - 1] = with_highlight(fences[block.line - 1], highlighted)
            previous = block
        markdown = "\n".join(fences)
    if not any(marker in markdown for marker in (*OUTPUT_MARKERS, *DIFF_MARKERS)):
        return markdown
    for line in stray_markers(markdown):
        _warn_once(f"docs/{src}:{line}: a dsref-check comment or {OUTPUT_MARKER} that follows no ```json block")
    lang = page_language(src)
    lines = markdown.splitlines()
    for block in reversed(blocks(markdown, src)):
        if not (block.wants_output or block.wants_diff):
            continue
        marker_line = lines[block.end_line]  # the line after the closing fence (0-based index = end_line)
        indent = marker_line[: len(marker_line) - len(marker_line.lstrip())]
        shown: list[str] = []
        if block.wants_output:
            question = "run-output" if block.run else "output"  # the first line or not: two answers
            shown += _fenced(cache.text(question, block, lang, lambda b=block: output(b, lang)), "text", indent)  # type: ignore[arg-type]
        if block.wants_diff:
            diff = cache.text("diff", block, lang, lambda b=block: fix_diff(b, lang))  # type: ignore[arg-type]
            if not diff:
                _warn_once(f"docs/{src}:{block.end_line + 1}: dsref check --diff changes nothing in this block")
            for code in cache.lines("still", block, "en", lambda b=block: still_reported(b)):
                _warn_once(f"docs/{src}:{block.end_line + 1}: {code} is still reported after dsref check --fix")
            shown += _fenced(diff, "diff", indent)
        lines[block.end_line : block.end_line + block.markers] = shown
    return "\n".join(lines) + "\n"


_HEADING_IDS: dict[str, list[str]] = {}
"""The heading ids of each English page, in order, by its path under ``docs/en/`` (recorded as the English pages
are built, before the Chinese ones: the i18n plugin builds Chinese after English)."""


def _twin_key(src: str) -> str:
    parts = PurePosixPath(src).parts
    return PurePosixPath(*parts[1:]).as_posix() if parts and parts[0] in LANGS else src


def _toc_ids(toc: Any) -> list[str]:
    ids: list[str] = []
    for item in toc or []:
        ids.append(str(item.id))
        ids += _toc_ids(item.children)
    return ids


def on_page_content(html: str, page: Any, **_: Any) -> str:
    """Record an English page's heading ids, and report a Chinese page's heading that has no twin id on the English
    page or the reverse (:mod:`dsref.site.headings`); report each line break of the page's prose that a reader sees
    as a stray space in Chinese text (:func:`dsref.site.cjk.stray_joins`). Each as a warning with the page and the
    line of its source."""
    from dsref.site.cjk import StrayJoin, source_line, stray_joins
    from dsref.site.figures import fill
    from dsref.site.playground import with_try_links

    src = page.file.src_uri
    lang = page_language(src)
    # from this page's folder (en/guides/x.md is served at guides/x/, zh/guides/x.md at zh/guides/x/) up to the
    # site's root, then down to the playground of the page's language
    steps = list(PurePosixPath(src).with_suffix("").parts[1 if lang == "en" else 0 :])
    depth = len(steps) - (steps[-1:] == ["index"])
    playground = "../" * depth + ("" if lang == "en" else f"{lang}/") + "playground/"
    html = with_try_links(html, lang, playground)  # type: ignore[arg-type]
    key = _twin_key(src)
    if page_language(src) == "en":
        if not re.search(r"^::: ", page.markdown or "", re.M):  # not the API page, whose headings code writes
            _HEADING_IDS[key] = _toc_ids(page.toc)
    elif key in _HEADING_IDS:
        from dsref.site.headings import differences

        source_text = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        for problem in differences(source_text, _toc_ids(page.toc), _HEADING_IDS[key], f"docs/en/{key}"):
            where, what = problem.split(": ", 1)
            _warn_once(f"docs/{src}:{where.removeprefix('line ')}: {what}")
    pairs = _build_cache().answer(
        "strays", html, "", lambda: [[s.before, s.after] for s in stray_joins(html)], _is_pairs
    )
    strays = [StrayJoin(before, after) for before, after in pairs]
    if strays:
        src = page.file.src_uri
        # The figures filled in, as the reader sees them; filling keeps the source's line numbers.
        written = Path(page.file.abs_src_path).read_text(encoding="utf-8")
        source = fill(written, page_language(src))[0]  # type: ignore[arg-type]
        for stray in strays:
            line = source_line(source, stray) or "?"
            _warn_once(
                f"docs/{src}:{line}: the line break in “{stray}” shows as a space in Chinese text; join the two "
                "lines (dsref.site.linejoin, in mkdocs.yml, joins all but those beside an HTML comment or an image)"
            )
    return html


def figure_problems(markdown: str, lang: str = "en") -> list[str]:
    """What is wrong with the figures of a page's source (``line N: …``): macros that name no declared case,
    figures a hand-written page writes itself, batch arithmetic that does not hold, and byte figures outside the
    site's one convention once the macros are filled in the page's language (:mod:`dsref.site.units`)."""
    from dsref.site import is_generated
    from dsref.site.figures import fill, hand_written, wrong_arithmetic
    from dsref.site.units import problems as unit_problems

    filled, problems = fill(markdown, lang)  # type: ignore[arg-type]
    if not is_generated(markdown):
        problems += hand_written(markdown)
    problems += unit_problems(filled)
    return sorted(problems + wrong_arithmetic(markdown), key=lambda p: int(p.split(":")[0].split()[1]))


def _figures(markdown: str, src: str) -> str:
    """The page with its figure macros filled in its language; each problem a warning with the page and line."""
    from dsref.site.figures import fill

    for problem in figure_problems(markdown, page_language(src)):
        line, _, text = problem.partition(": ")
        _warn_once(f"docs/{src}:{line.removeprefix('line ')}: {text}")
    if "{{" not in markdown:
        return markdown
    return fill(markdown, page_language(src))[0]  # type: ignore[arg-type]


def _fenced(text: str, fence: str, indent: str) -> list[str]:
    return [
        "",
        f"{indent}```{fence}",
        *(f"{indent}{line}" if line else "" for line in text.rstrip("\n").splitlines()),
        f"{indent}```",
    ]


_ALTERNATE = re.compile(r'<link rel="alternate" href="[^"]*" hreflang="[^"]*">\s*')


_BASE = re.compile(r'("base": ")([^"]*)(")')

_SIDEBARS = re.compile(r'<div class="md-sidebar md-sidebar--primary".*?(?=<div class="md-content")', re.S)
_BETWEEN_TAGS = re.compile(r">\s+<")
_SPACES = re.compile(r"\s{2,}")


def compact_sidebars(output: str) -> str:
    """Collapse the indentation of the two sidebars (navigation and table of contents) to single spaces.

    Material's templates indent every navigation entry over several lines; on a page with a long table of contents
    (shown twice: in the sidebar, and inside the navigation for small screens) half the navigation's bytes are
    spaces. The sidebars hold no ``<pre>``, so the collapsed HTML renders the same.

    >>> compact_sidebars('<div class="md-sidebar md-sidebar--primary">\\n  <ul>\\n    <li> a  b </li>\\n  </ul>'
    ...                  '</div><div class="md-content"><pre>  x  </pre>')
    '<div class="md-sidebar md-sidebar--primary"><ul><li> a b </li></ul></div><div class="md-content"><pre>  x  </pre>'
    """
    return _SIDEBARS.sub(lambda m: _SPACES.sub(" ", _BETWEEN_TAGS.sub("><", m[0])), output, count=1)


_INLINE_CODE = re.compile(r"<code>([^<]*)</code>")
_BREAK_AFTER = re.compile(r"(?<=[A-Za-z0-9])(_+|\.(?=[A-Za-z&]))(?=[A-Za-z0-9&])")


def identifier_breaks(output: str) -> str:
    """Let inline code wrap after ``_`` and ``.`` only: a ``<wbr>`` there, and the stylesheet
    (``overrides/assets/stylesheets/dsref.css``) forbids breaking code anywhere else.

    Only the page's content is touched (from ``md-content`` on), and only inline code: a code block's ``<code>``
    holds line anchors and highlighting spans, never bare text. A dot between digits (``0.19.8``) is no place to
    break; ``<wbr>`` is not copied with the text, so a copied option path stays whole.

    >>> identifier_breaks('<code>a_b</code><div class="md-content"><code>stage3_max_live_parameters</code>')
    '<code>a_b</code><div class="md-content"><code>stage3_<wbr>max_<wbr>live_<wbr>parameters</code>'
    >>> identifier_breaks('<div class="md-content"><code>zero_optimization.stage</code> <code>0.19.8</code>')
    '<div class="md-content"><code>zero_<wbr>optimization.<wbr>stage</code> <code>0.19.8</code>'
    >>> identifier_breaks('<div class="md-content"><code>__init__</code> <code>a.&lt;name&gt;</code>')
    '<div class="md-content"><code>__init__</code> <code>a.<wbr>&lt;name&gt;</code>'
    """
    start = output.find('<div class="md-content"')
    if start < 0:
        return output

    def wrap(match: re.Match[str]) -> str:
        return f"<code>{_BREAK_AFTER.sub(lambda m: m[0] + '<wbr>', match[1])}</code>"

    return output[:start] + _INLINE_CODE.sub(wrap, output[start:])


def on_post_page(output: str, page: Any, **_: Any) -> str:
    """Drop the ``<link rel="alternate">`` tags of the head, add the link to the page's source
    (:func:`_with_source_link`), point a Chinese page's scripts at ``zh/``, compact the sidebars
    (:func:`compact_sidebars`), let identifiers wrap only after ``_`` and ``.`` (:func:`identifier_breaks`) and load
    the search worker and the bundle :func:`on_post_build` writes.

    Material's script takes each alternate as the root of another site and fetches ``<alternate>/sitemap.xml``;
    the i18n plugin's alternates are the same page in the other language, so every page load would log two 404s.
    The language switcher's own links (in the header) still lead to the same page in the other language.

    Material's scripts find the search index (and the sitemap) under the ``base`` of the page's ``__config``; on a
    Chinese page it becomes the ``zh/`` folder, where :func:`on_post_build` writes the Chinese half of the index,
    so that each language searches its own pages.
    """
    output = identifier_breaks(compact_sidebars(_ALTERNATE.sub("", output)))
    output = _with_source_link(output, page)
    output = _WORKER_CONFIG.sub(r"\1.dsref\2", output, count=1)
    output = _BUNDLE_SCRIPT.sub(r"\1.dsref\2", output, count=1)
    lang = page_language(page.file.src_uri)
    if lang != "en":
        # Material resolves other URLs against the base as against a folder: it must end with "/".
        output = _BASE.sub(lambda m: f"{m[1]}{m[2].rstrip('/') or '.'}/{lang}/{m[3]}", output, count=1)
    return output


def _with_source_link(output: str, page: Any) -> str:
    """The page with a link to its source at the foot of its text (after the search index has read the text, so
    that every page does not match "source")."""
    from dsref.site.pagemeta import source_html

    src = page.file.src_uri
    link = source_html(page.markdown or "", src, page_language(src))  # type: ignore[arg-type]
    return output.replace("</article>", link + "\n</article>", 1)


_NOT_FOUND = "<h1>404 - Not found</h1>"
"""What Material's 404 page says (its template, ``404.html``), in English only."""

_NOT_FOUND_PAGES: dict[str, str] = {}
"""The 404 page as each language's build renders it (the i18n plugin renders it once per language, into the same
file: the last one written would be the only one)."""

_HTML_LANG = re.compile(r'<html lang="(\w+)')


def on_post_template(output: str, template_name: str, config: Any, **_: Any) -> str:
    """Keep each language's 404 page, its words in that language (:func:`_not_found_pages` writes them)."""
    if template_name != "404.html" or _NOT_FOUND not in output:
        return output
    from urllib.parse import urlsplit

    from dsref.site.pagemeta import not_found_html

    found = _HTML_LANG.search(output)
    lang = found[1] if found and found[1] in LANGS else "en"
    root = urlsplit(config["site_url"]).path or "/"
    # the root's page is served for every missing address, Chinese ones too: it holds both texts and shows the one
    # of the address
    shown = LANGS if lang == "en" else (lang,)
    blocks = [not_found_html(each, root + ("" if each == "en" else f"{each}/")) for each in shown]
    choose = (
        "<script>(() => { const zh = /\\/zh\\//.test(location.pathname); "
        'for (const block of document.querySelectorAll(".dsref-not-found")) '
        'block.hidden = block.lang.startsWith("zh") !== zh; })();</script>'
    )
    output = output.replace(_NOT_FOUND, "\n".join([*blocks, *([choose] if len(blocks) > 1 else [])]))
    _NOT_FOUND_PAGES[lang] = output
    return output


def _not_found_pages(site: Path) -> None:
    """The site's 404 pages: the English build's at the root (GitHub Pages serves it for every missing address),
    the Chinese build's as ``zh/404.html``."""
    for lang, output in _NOT_FOUND_PAGES.items():
        folder = site if lang == "en" else site / lang
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "404.html").write_text(output, encoding="utf-8")


@_priority(-200)
def on_post_build(config: Any, **_: Any) -> None:
    """Split the search index by language (after the i18n plugin has merged both languages' entries into it), give
    the Chinese entries the glossary's Chinese terms (:func:`dsref.site.search.synonyms`), and publish the search
    worker that keeps Chinese query words whole.

    The i18n plugin builds Chinese inside the English build's ``on_post_build``; this runs after it each time, and
    the last run sees the merged index.
    """
    site = Path(config["site_dir"])
    _not_found_pages(site)
    _publish_search_worker(site)
    from dsref.site.playground import BUILT, publish

    if not publish(site, Path(config["config_file_path"]).parent / BUILT) and "playground" not in _reported:
        _reported.add("playground")
        log.info("the playground's files are not built (python scripts/playground.py): its page says so")
    merged = site / "search" / "search_index.json"
    if not merged.is_file():
        return
    data = json.loads(merged.read_text(encoding="utf-8"))
    docs = data["docs"]
    for lang in LANGS:
        prefix = "" if lang == "en" else f"{lang}/"
        if lang == "en":
            mine = [d for d in docs if page_language(str(d["location"])) == "en"]
            target = merged
        else:
            mine = [{**d, "location": d["location"][len(prefix) :]} for d in docs if d["location"].startswith(prefix)]
            target = site / lang / "search" / "search_index.json"
            sitemap = site / "sitemap.xml"
            if sitemap.is_file():
                (site / lang / "sitemap.xml").write_bytes(sitemap.read_bytes())
        if lang != "en" and not mine:
            continue
        if lang == "zh":
            separator = re.compile(data["config"]["separator"])
            mine = [_with_synonyms(doc, separator) for doc in mine]
        from dsref.site.names import glossary_words, name_index

        names = _build_cache().answer(
            "names", json.dumps(mine, ensure_ascii=False), lang, lambda docs=mine: name_index(docs), _is_name_index
        )
        config = {**data["config"], "names": names, "terms": glossary_words()}
        target.parent.mkdir(parents=True, exist_ok=True)
        # Plain UTF-8: escaped, the Chinese index was half as large again.
        target.write_text(
            json.dumps({"config": config, "docs": mine}, separators=(",", ":"), ensure_ascii=False), encoding="utf-8"
        )


def _is_pairs(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in value
    )


def _is_name_index(value: object) -> bool:
    return isinstance(value, dict) and all(
        isinstance(places, list) and all(isinstance(p, int) for p in places) for places in value.values()
    )


def _nav_groups(folder: str, lang: str) -> tuple[Callable[[str], str], tuple[str, ...], Callable[[str], str]] | None:
    """For a folder whose pages the navigation nests by group: a page name's group, the groups in order, and a
    group's title in ``lang``."""
    if folder == "reference":
        from dsref.site import reference

        return (
            reference.area_of,
            tuple(area for area, _ in reference.AREAS),
            lambda area: reference.M.text(f"area_{area}", lang),  # type: ignore[arg-type]
        )
    if folder == "rules":
        from dsref.site import rules

        return rules.nav_group, rules.GROUPS, lambda group: rules.M.text(f"group_{group}", lang)  # type: ignore[arg-type]
    return None


def _nest(section: Any, folder: str) -> None:
    """Nest the pages of a long section (the reference, the finding codes) into one sub-section per group, so that
    with ``navigation.prune`` a page carries its own group of the navigation, not the whole folder."""
    from mkdocs.structure.nav import Section

    children = list(section.children)
    if not children or any(getattr(child, "file", None) is None for child in children):
        return  # already nested, or not a plain folder of pages
    grouping = _nav_groups(folder, page_language(children[0].file.src_uri))
    if grouping is None:
        return
    group_of, order, title = grouping
    index = [c for c in children if PurePosixPath(c.file.src_uri).name == "index.md"]
    grouped: dict[str, list[Any]] = {}
    for child in children:
        if child not in index:
            grouped.setdefault(group_of(PurePosixPath(child.file.src_uri).stem), []).append(child)
    nested: list[Any] = []
    for group in sorted(grouped, key=lambda g: order.index(g) if g in order else len(order)):
        sub = Section(title(group), grouped[group])
        sub.parent = section
        for child in grouped[group]:
            child.parent = sub
        nested.append(sub)
    section.children = [*index, *nested]


def _guide_rank(name: str) -> int:
    return GUIDE_ORDER.index(name) if name in GUIDE_ORDER else len(GUIDE_ORDER)


def _with_synonyms(doc: dict[str, Any], separator: re.Pattern[str]) -> dict[str, Any]:
    """A Chinese search entry with the glossary's Chinese terms for the English ones it uses
    (:func:`dsref.site.search.entry_synonyms`), in hidden spans (found by search, not shown in the results): terms
    of the title go with the title, which search weighs most, so that 卸载 lists the options named ``offload_*``
    before pages that mention offload in passing."""
    from dsref.site.search import entry_synonyms

    in_title, in_text = entry_synonyms(doc["title"], doc["text"], separator)
    doc = dict(doc)
    for field, extra in (("title", in_title), ("text", in_text)):
        if extra:
            doc[field] = f"{doc[field]} <span hidden>{' '.join(extra)}</span>"
    return doc


_WORKER = re.compile(r"search\.[0-9a-f]+\.min\.js")
_WORKER_CONFIG = re.compile(r'("search": "[^"]*/workers/search\.[0-9a-f]+)(\.min\.js")')
_BUNDLE = re.compile(r"bundle\.[0-9a-f]+\.min\.js")
_BUNDLE_SCRIPT = re.compile(r'(<script src="[^"]*assets/javascripts/bundle\.[0-9a-f]+)(\.min\.js")')


def _publish_search_worker(site: Path) -> None:
    """Write Material's search worker with whole Chinese words in queries
    (:func:`dsref.site.search.whole_word_queries`) and names first (``search-names.js``, before Material's code), and
    Material's bundle loading the search index when the search box is first used
    (:func:`dsref.site.search.index_on_first_use`), next to the originals; :func:`on_post_page` points every page at
    them."""
    from dsref.site.search import index_on_first_use, whole_word_queries

    scripts = site / "assets" / "javascripts"
    folder = scripts / "workers"
    workers = [p for p in folder.glob("search.*.min.js") if _WORKER.fullmatch(p.name)] if folder.is_dir() else []
    if not workers and scripts.is_dir():
        _warn_once(f"no Material search worker in {folder}: Chinese search cannot be set up")
    names_first = scripts / "search-names.js"
    for worker in workers:
        try:
            patched = whole_word_queries(worker.read_text(encoding="utf-8"))
        except ValueError as problem:
            _warn_once(f"{worker.name}: {problem}; see dsref/site/search.py")
            continue
        if names_first.is_file():
            patched = names_first.read_text(encoding="utf-8") + patched
        worker.with_name(worker.name.replace(".min.js", ".dsref.min.js")).write_text(patched, encoding="utf-8")
    for bundle in [p for p in scripts.glob("bundle.*.min.js") if _BUNDLE.fullmatch(p.name)] if scripts.is_dir() else []:
        try:
            patched = index_on_first_use(bundle.read_text(encoding="utf-8"))
        except ValueError as problem:
            _warn_once(f"{bundle.name}: {problem}; see dsref/site/search.py")
            continue
        bundle.with_name(bundle.name.replace(".min.js", ".dsref.min.js")).write_text(patched, encoding="utf-8")


@_priority(-150)  # after the i18n plugin (-100), which builds each language's navigation
def on_nav(nav: Any, **_: Any) -> Any:
    """Put the top-level entries in reading order (:data:`NAV_ORDER` first, :data:`NAV_LAST` last), the guides
    in the order of the learning path (:data:`GUIDE_ORDER`), and the reference and the codes into groups
    (:func:`_nest`)."""

    def key(item: Any) -> str:
        file = getattr(item, "file", None)
        if file is not None:
            return PurePosixPath(file.src_uri).name
        children = getattr(item, "children", None) or []
        for child in children:
            child_file = getattr(child, "file", None)
            if child_file is not None:
                return PurePosixPath(child_file.src_uri).parent.name
        return ""

    def rank(item: Any) -> tuple[int, int]:
        name = key(item)
        if name in NAV_ORDER:
            return (0, NAV_ORDER.index(name))
        if name in NAV_LAST:
            return (2, NAV_LAST.index(name))
        return (1, 0)

    nav.items.sort(key=rank)
    for item in nav.items:
        if key(item) == "guides":
            item.children.sort(key=lambda child: _guide_rank(PurePosixPath(child.file.src_uri).name))
        elif key(item) in ("reference", "rules"):
            _nest(item, key(item))
    pages: list[Any] = []

    def collect(items: list[Any]) -> None:
        for item in items:
            if getattr(item, "file", None) is not None:
                pages.append(item)
            collect(getattr(item, "children", None) or [])

    collect(nav.items)
    # The footer's previous / next links follow the new order.
    for before, after in zip([None, *pages], [*pages, None], strict=True):
        if before is not None:
            before.next_page = after
        if after is not None:
            after.previous_page = before
    nav.pages = pages
    return nav
