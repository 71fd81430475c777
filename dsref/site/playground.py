"""The playground page (``/playground/``, ``/zh/playground/``): what its Web Worker asks dsref, and the page's texts.

Light to import (the site's hooks read :data:`MARKER`); what checks is imported when first called. The worker runs
this module in Pyodide and calls :func:`check_document`, :func:`fix_document` and :func:`hover_markdown`: the same
library functions ``dsref check --format json -``, ``dsref check --fix -`` and the language server's hover call, over
the text in the editor, so that the page says what the command line and the editor say (``tests/test_playground.py``
compares them in Chromium). The page's own files (Pyodide, the wheels, the editor) are built by
``scripts/playground.py`` into ``build/playground/``; :func:`publish` copies them into the built site, and
:func:`page_html` is what the page's marker becomes.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
import shutil
from pathlib import Path

from ..text.i18n import Lang, messages
from ..tree.profiles import HfReleases, Profile
from ..tree.versions import DEEPSPEED_VERSION

MARKER = "<!-- dsref-playground -->"
"""Where a page of ``docs/`` holds the playground (replaced by :func:`page_html` in the page's language)."""

BUILT = Path("build") / "playground"
"""Where ``scripts/playground.py`` writes the page's files, relative to the checkout."""

SHIPPED = "app"
"""The folder of the built site's ``playground/`` that holds those files."""

STDIN = "-"
SHOWN_AS = "<stdin>"
"""The text is checked as ``dsref check -`` checks standard input, and named as it names it."""

NO_HF = HfReleases()
"""Hugging Face's integrations, as the page sees them: none installed (the newest releases' fills, as documented)."""

PLAYGROUND = messages(
    "playground",
    starting="Starting Python in this page (Pyodide); the JSON syntax is checked meanwhile.",
    ready="Checked by dsref {version} running in this page; nothing leaves your browser.",
    restarted="The checker stopped and was started again.",
    not_built="This copy of the site was built without the playground's files: run python scripts/playground.py.",
    profile="Read as",
    profile_auto='as the file is written ("auto": Hugging Face)',
    profile_deepspeed="the deepspeed launcher",
    profile_hf="Hugging Face Trainer / Accelerate",
    release="DeepSpeed release",
    fix_safe="Fix all (safe)",
    fix_unsafe="Also unsafe fixes",
    fix_one="Fix: {title}",
    share="Copy a share link",
    try_it="Try it in the playground",
    shared="Link copied: the config travels in the link itself (after #), not to any server.",
    no_findings="No findings.",
    findings="errors: {errors}, warnings: {warnings}, notes: {infos}",
    fixed="{count} fixes applied.",
    syntax="JSON syntax: {detail}",
    schema="JSON Schema: {detail}",
)
"""What the playground page says, in both languages (its prose is the page's Markdown in ``docs/``)."""


def check_document(
    text: str, lang: Lang, *, profile: Profile | None = None, deepspeed_version: str = DEEPSPEED_VERSION
) -> str:
    """What ``dsref check --format json --deepspeed-version V [--profile P] -`` prints for ``text`` (on a Python
    without transformers and accelerate, as the browser's is)."""
    from ..check.batch import check_and_draw
    from ..check.report import CheckedFor, Writer
    from ..check.target import release_to_check

    release = release_to_check(deepspeed_version, None)
    pieces = check_and_draw(
        [STDIN],
        "json",
        lang,
        profile=profile,
        deepspeed_version=release.version,
        hugging_face=NO_HF,
        jobs=1,
        stdin=text.encode("utf-8"),
    )
    out = io.StringIO()
    checked_for = CheckedFor(release, profile, 1, NO_HF)
    writer = Writer(out, "json", lang, target=release.version, flush=False, checked_for=checked_for)
    for piece in pieces:
        writer.write(piece)
    writer.close()
    return out.getvalue()


def fix_document(
    text: str,
    lang: Lang,
    *,
    unsafe: bool = False,
    profile: Profile | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
) -> str:
    """``{"text": what dsref check --fix [--unsafe-fixes] - writes, "fixed": how many findings it repaired,
    "report": the JSON report of what remains}``; the text unchanged where it cannot be read."""
    from ..check.fixer import fix_text, read_text
    from ..check.pipeline import FileReport
    from ..check.report import CheckedFor, render
    from ..check.target import release_to_check

    release = release_to_check(deepspeed_version, None)
    read = read_text(STDIN, text.encode("utf-8"))
    if isinstance(read, FileReport):
        return json.dumps({"text": text, "fixed": 0, "report": None}, ensure_ascii=False)
    result = fix_text(
        read, SHOWN_AS, unsafe=unsafe, profile=profile, deepspeed_version=release.version, hugging_face=NO_HF
    )
    result.after.path = SHOWN_AS
    checked_for = CheckedFor(release, profile, 1, NO_HF)
    report = render([result.after], "json", lang, color=False, target=release.version, checked_for=checked_for)
    return json.dumps({"text": result.text, "fixed": len(result.fixed), "report": json.loads(report)})


def hover_markdown(path: str, lang: Lang) -> str | None:
    """What the language server shows on hover for the option written at ``path`` (dotted, as the file writes its
    keys): ``dsref explain`` as Markdown with a link to its reference entry; None for a key dsref does not know."""
    from ..explain.markdown import markdown
    from ..tree.index import OptionIndex
    from ..tree.links import option_url

    hit = OptionIndex.load().resolve(path)
    if hit is None:
        return None
    return markdown(hit.record, lang, link=option_url(hit.record.path, lang))


def page_texts(lang: Lang) -> dict[str, str]:
    """Every text of the page's script in ``lang``, by key."""
    return {key: PLAYGROUND.text(key, lang) for key in PLAYGROUND.table}


def page_html(lang: Lang, app: str, schemas: str) -> str:
    """The playground's part of the page: the editor's place, the choices, the findings, the texts in ``lang`` and
    the script, whose files are at ``app``, and the site's JSON Schemas at ``schemas`` (URLs relative to the page)."""
    from ..tree.releases import COVERED

    texts = page_texts(lang)
    options = "".join(f'<option value="{v}">{v}</option>' for v in reversed(COVERED))
    profiles = "".join(
        f'<option value="{value}">{html.escape(texts["profile_" + (value or "auto")])}</option>'
        for value in ("", "deepspeed", "hf")
    )
    data = json.dumps({"lang": lang, "app": app, "schemas": schemas, "texts": texts}, ensure_ascii=False).replace(
        "</", "<\\/"
    )
    return "\n".join(
        [
            '<div id="dsref-playground" class="dsref-playground">',
            '<div class="dsref-pg-bar">',
            f'<label>{html.escape(texts["profile"])} <select id="dsref-pg-profile">{profiles}</select></label>',
            f'<label>{html.escape(texts["release"])} <select id="dsref-pg-release">{options}</select></label>',
            f'<button type="button" id="dsref-pg-fix">{html.escape(texts["fix_safe"])}</button>',
            f'<button type="button" id="dsref-pg-fix-unsafe">{html.escape(texts["fix_unsafe"])}</button>',
            f'<button type="button" id="dsref-pg-share">{html.escape(texts["share"])}</button>',
            "</div>",
            '<div id="dsref-pg-editor"></div>',
            f'<p id="dsref-pg-status" role="status">{html.escape(texts["not_built"])}</p>',
            '<ul id="dsref-pg-findings"></ul>',
            "</div>",
            f'<script type="application/json" id="dsref-pg-data">{data}</script>',
            # imported, not linked: a site built without the files still builds clean, and the page says why
            f'<script type="module">import("./{app}/page.js").catch(() => {{}});</script>',
        ]
    )


_JSON_BLOCK = re.compile(r'<div class="language-json highlight"><pre>(?P<code>.*?)</pre></div>', re.S)


def config_fragment(text: str) -> str:
    """The URL fragment that opens ``text`` in the playground (what its share link writes): base64url of the UTF-8
    bytes, without padding.

    >>> config_fragment('{"fp16": {"enabled": true}}')
    '#config=eyJmcDE2IjogeyJlbmFibGVkIjogdHJ1ZX19'
    """
    return "#config=" + base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def with_try_links(page: str, lang: Lang, playground: str) -> str:
    """Each ```json example of a built page followed by a link that opens it in the playground (at ``playground``,
    a URL relative to the page)."""
    label = html.escape(PLAYGROUND.text("try_it", lang))

    def linked(match: re.Match[str]) -> str:
        text = html.unescape(re.sub(r"<[^>]+>", "", match["code"]))
        href = html.escape(playground + config_fragment(text))
        return f'{match[0]}\n<p class="dsref-try"><a href="{href}">{label}</a></p>'

    return _JSON_BLOCK.sub(linked, page)


def publish(site: Path, built: Path) -> bool:
    """Copy the page's files from ``built`` into ``site``'s ``playground/app/``; False when they were never built."""
    if not (built / "page.js").is_file():
        return False
    target = site / "playground" / SHIPPED
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(built, target)
    return True
