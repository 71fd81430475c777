"""The playground page (``/playground/``, ``/zh/playground/``): what its Web Worker asks dsref, and the page's texts.

Light to import (the site's hooks read :data:`MARKER`); what checks is imported when first called. The worker runs
this module in Pyodide and calls :func:`check_document`, :func:`fix_document`, :func:`estimate_document`,
:func:`hover_markdown` and :func:`completions`: the same library functions ``dsref check --format json -``,
``dsref check --fix -``, ``dsref estimate`` and the language server's hover and completion call, over the text in
the editor, so that the page says what the command line and the editor say (``tests/functional/test_playground.py``
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

from ..check.settings import CheckSettings
from ..text.i18n import Lang, messages
from ..tree.profiles import HfReleases, Profile, writes_auto
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
    checked_for="Checked for DeepSpeed {release}.",
    stopped="dsref stopped while checking this text ({reason}) and was started again; it checks the text again at "
    "your next change.",
    too_slow="no answer in {seconds} s",
    world_size="Data-parallel size (--world-size)",
    world_size_unknown="unknown",
    more_findings="{hidden} more findings are not listed here (the first {shown} are); dsref check lists them all.",
    rule_link="What {code} means",
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
    schema_types="is none of the types it may be ({types})",
    fit_title="Will it fit?",
    fit_model="Model",
    fit_pasted="a pasted Hugging Face config.json",
    fit_model_json="The model's config.json",
    fit_gpu="Memory per GPU (or a GPU's name)",
    fit_gpus="GPUs per node",
    fit_nodes="Nodes",
    fit_seq="Sequence length",
    fit_run="Estimate for the config above",
    fit_waiting="The estimate needs dsref running in this page; it is still starting.",
    fit_refused="DeepSpeed {version} refuses the config in the editor, so there is no run to estimate: correct the "
    "errors its findings list first.",
    fit_model_unreadable="The model's config.json: {reason}",
    fit_config_unreadable="The config in the editor: {reason}",
    config_title="The ds_config",
    launch_title="The launch (optional)",
    launch_placeholder="Paste how the run is started: a deepspeed, torchrun or accelerate launch command line or "
    "script, a LLaMA-Factory or axolotl YAML, or an Accelerate config. Left empty, the config is checked alone.",
    launch_maps="Whatever path the launch names for its ds_config (--deepspeed, deepspeed:, deepspeed_config_file:) "
    "stands for the config in the editor; an Accelerate config that writes its deepspeed_config inline needs none.",
    launch_read="Launch read as {form}, {processes}.",
    launch_form_shell="a command line",
    launch_form_llamafactory="a LLaMA-Factory YAML",
    launch_form_axolotl="an axolotl YAML",
    launch_form_accelerate="an Accelerate config",
    launch_processes="{count} processes",
    launch_processes_unknown="the number of processes not given",
    launch_named="The ds_config it names ({written}) is the config in the editor.",
    launch_builds="It builds its ds_config itself (deepspeed_config): the config in the editor is not read.",
    launch_unread="Nothing was checked: see what is said of the launch.",
    effective_title="The config as the run sees it (dsref check LAUNCH --show-effective)",
    launch_one_file="This page holds one launch and one config: paste the Accelerate config the command names into "
    "the launch editor instead (the ds_config that config names goes in the config editor).",
)
"""What the playground page says, in both languages (its prose is the page's Markdown in ``docs/``)."""


def utf8(text: str) -> bytes:
    """The bytes the page's text stands for. A string from the browser may hold a lone surrogate (half of a UTF-16
    pair), which no UTF-8 file can: it is kept as the bytes Python would write for it, which are not UTF-8, so
    that the text is refused as ``dsref check`` refuses a file that is not UTF-8 (DS000), instead of failing here.

    >>> utf8("a\\ud800") == b"a\\xed\\xa0\\x80"
    True
    """
    return text.encode("utf-8", "surrogatepass")


def check_document(
    text: str,
    lang: Lang,
    *,
    profile: Profile | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
    world_size: int | None = None,
) -> str:
    """What ``dsref check --format json --deepspeed-version V [--profile P] [--world-size N] -`` prints for ``text``
    (on a Python without transformers and accelerate, as the browser's is); ``{"refused": what it says}`` for a
    release it refuses."""
    from ..check.batch import check_and_draw
    from ..check.report.draw import CheckedFor, Writer
    from ..check.report.target import UncoveredRelease, release_to_check

    try:
        release = release_to_check(deepspeed_version, None)
    except UncoveredRelease as exc:
        return json.dumps({"refused": exc.text(lang)}, ensure_ascii=False)
    settings = CheckSettings(profile, world_size, release.version, NO_HF)
    pieces = check_and_draw([STDIN], "json", lang, settings, jobs=1, stdin=utf8(text))
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
    world_size: int | None = None,
) -> str:
    """``{"text": what dsref check --fix [--unsafe-fixes] [--world-size N] - writes, "fixed": how many findings it
    repaired, "report": the JSON report of what remains}``; the text unchanged where it cannot be read;
    ``{"refused": what dsref says}`` for a release it refuses."""
    from ..check.fix.fixer import fix_text, read_text
    from ..check.pipeline import FileReport
    from ..check.report.draw import CheckedFor, render
    from ..check.report.target import UncoveredRelease, release_to_check

    try:
        release = release_to_check(deepspeed_version, None)
    except UncoveredRelease as exc:
        return json.dumps({"refused": exc.text(lang)}, ensure_ascii=False)
    read = read_text(STDIN, utf8(text))
    if isinstance(read, FileReport):
        return json.dumps({"text": text, "fixed": 0, "report": None}, ensure_ascii=False)
    settings = CheckSettings(profile, world_size, release.version, NO_HF)
    result = fix_text(read, SHOWN_AS, settings, unsafe=unsafe)
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


FIT_NAMES = {
    "seq_len": "fit_seq",
    "gpus_per_node": "fit_gpus",
    "nodes": "fit_nodes",
    "gpu_memory": "fit_gpu",
}
"""The estimate's inputs the fit panel gives, by the key of the field's label (the others are the config's options)."""


def estimate_document(
    text: str,
    model: str,
    lang: Lang,
    *,
    gpu_memory: str,
    gpus_per_node: str,
    nodes: str,
    seq_len: str,
) -> str:
    """What the "Will it fit?" panel shows: ``{"ok": true, "text": ...}`` with what ``dsref estimate --config -
    --model config.json --gpu-memory G --gpus-per-node N --nodes M --seq-len S`` prints (the same library calls:
    the run read from the config as DeepSpeed reads it, its peak part by part and whether it fits), or
    ``{"ok": false, "text": why not}`` in ``lang``, the inputs named as the panel labels them."""
    from ..check.pipeline import check_text
    from ..check.read.loader import LoadError, load_bytes
    from ..check.validate.effective import effective
    from ..estimate.advice import advise
    from ..estimate.gpus import gpu_memory as gpu_memory_of
    from ..estimate.model import architecture_from_hf
    from ..estimate.peak import CONFIG_PATHS, DEFAULTS, Default, peak_memory, run_from_config
    from ..estimate.quantities import (
        MAX_GPUS_PER_NODE,
        MAX_NODES,
        MAX_SEQ_LEN,
        EstimateError,
        Param,
        parse_count,
    )
    from ..estimate.render import render_peak

    names = {**CONFIG_PATHS, **{key: PLAYGROUND.text(label, lang) for key, label in FIT_NAMES.items()}}

    def answer(ok: bool, said: str) -> str:
        return json.dumps({"ok": ok, "text": said}, ensure_ascii=False)

    loaded_model = load_bytes(utf8(model), "hf")
    if isinstance(loaded_model, LoadError):
        return answer(False, PLAYGROUND.text("fit_model_unreadable", lang, reason=loaded_model.text(lang)))
    loaded = load_bytes(utf8(text), "deepspeed")
    if isinstance(loaded, LoadError):
        return answer(False, PLAYGROUND.text("fit_config_unreadable", lang, reason=loaded.text(lang)))
    try:
        arch = architecture_from_hf(loaded_model.data)
    except EstimateError as exc:
        return answer(False, PLAYGROUND.text("fit_model_unreadable", lang, reason=exc.message(lang, names)))
    eff = effective(loaded.data, hugging_face=NO_HF)  # "auto" as the newest releases fill it, as check_document
    hf = writes_auto(loaded.data)  # an "auto" where Hugging Face fills a value, as dsref check decides
    try:
        per_node = parse_count(gpus_per_node, Param.gpus_per_node, maximum=MAX_GPUS_PER_NODE, whole=True)
        node_count = parse_count(nodes, Param.nodes, maximum=MAX_NODES, whole=True)
        seq = parse_count(seq_len, Param.seq_len, maximum=MAX_SEQ_LEN, whole=True)
        memory = gpu_memory_of(gpu_memory)
        reading: Profile = "hf" if hf else "deepspeed"  # as the command line checks a config with "auto"
        report = check_text(loaded.text, SHOWN_AS, CheckSettings(reading, per_node * node_count, hugging_face=NO_HF))
        if not report.ok:
            return answer(False, PLAYGROUND.text("fit_refused", lang, version=DEEPSPEED_VERSION))
        paths = set(CONFIG_PATHS.values())
        values = {p: eff.get(p) for p in paths}
        run, filled = run_from_config(
            values, eff.filled & paths, arch, seq_len=seq, gpus_per_node=per_node, nodes=node_count
        )
        peak = peak_memory(arch, run)
        advice = advise(arch, run, memory, batch_auto="train_micro_batch_size_per_gpu" in eff.autos)
    except EstimateError as exc:
        return answer(False, exc.message(lang, names))
    written = {p for p in paths if eff.is_set(p) or p in eff.autos}
    given: dict[Default, bool] = {
        "seq_len": True,
        "micro_batch": any(CONFIG_PATHS[name] in written for name in ("micro_batch", "train_batch_size")),
        "precision": any(CONFIG_PATHS[name] in written for name in ("bf16", "fp16")),
        "attention": False,
        "checkpointing": False,
    }
    assumed = tuple(name for name in DEFAULTS if not given[name])
    return answer(True, render_peak(peak, lang, advice=advice, filled=filled, assumed=assumed))


def completions(text: str, offset: int, lang: Lang, *, profile: Profile | None = None) -> str:
    """What the language server offers at ``offset`` (in code points) of ``text``: the items of
    :func:`dsref.editor.completion.complete`, the function it calls, as a JSON list of their fields."""
    import dataclasses

    from ..editor.completion import complete

    items = complete(text, offset, lang, profile or "deepspeed")
    return json.dumps([dataclasses.asdict(item) for item in items], ensure_ascii=False)


def page_texts(lang: Lang) -> dict[str, str]:
    """Every text of the page's script in ``lang``, by key."""
    return {key: PLAYGROUND.text(key, lang) for key in PLAYGROUND.table}


SHOWN_FINDINGS = 200
"""Most findings the page lists and marks in the editor (a pasted log can hold thousands, and drawing 12,000 held
the page for over a second); the rest are counted, and ``dsref check`` lists them all."""

CHECK_SECONDS = 30
"""How long the page waits for one answer of the checker before it starts it again (what takes longer than this
runs in the worker, whose Python cannot be interrupted, and would hold every later answer)."""


def page_html(lang: Lang, app: str, schemas: str, rules: str = "../rules/") -> str:
    """The playground's part of the page: the editor's place, the choices, the findings, the texts in ``lang`` and
    the script, whose files are at ``app``, the site's JSON Schemas at ``schemas`` and the rule pages at ``rules``
    (URLs relative to the page)."""
    from ..check.read.loader import MAX_BYTES
    from ..check.report.draw import S as REPORT
    from ..tree.releases import COVERED
    from .figures import GPU_SIZES, MODELS, SEQ_LENS
    from .fit import GPUS

    texts = page_texts(lang)
    options = "".join(f'<option value="{v}"></option>' for v in reversed(COVERED))
    profiles = "".join(
        f'<option value="{value}">{html.escape(texts["profile_" + (value or "auto")])}</option>'
        for value in ("", "deepspeed", "hf")
    )
    models = {key: {"name": model.name, "config": model.config} for key, model in MODELS.items()}
    model_options = "".join(
        f'<option value="{key}">{html.escape(model.name)}</option>' for key, model in MODELS.items()
    )
    model_options += f'<option value="">{html.escape(texts["fit_pasted"])}</option>'
    sizes = "".join(f'<option value="{size}GB"></option>' for size in GPU_SIZES)
    seqs = "".join(f'<option value="{seq}"></option>' for seq in SEQ_LENS)

    def field(key: str, element: str) -> str:
        return f"<label>{html.escape(texts[key])} {element}</label>"

    fit = [
        '<section id="dsref-pg-fit" class="dsref-pg-fit">',
        f"<h2>{html.escape(texts['fit_title'])}</h2>",
        '<div class="dsref-pg-bar">',
        field("fit_model", f'<select id="dsref-pg-fit-model">{model_options}</select>'),
        field(
            "fit_gpu", f'<input id="dsref-pg-fit-gpu" list="dsref-pg-fit-sizes" value="{GPU_SIZES[-1]}GB" size="10">'
        ),
        f'<datalist id="dsref-pg-fit-sizes">{sizes}</datalist>',
        field("fit_gpus", f'<input id="dsref-pg-fit-gpus" type="number" min="1" value="{GPUS}" size="4">'),
        field("fit_nodes", '<input id="dsref-pg-fit-nodes" type="number" min="1" value="1" size="4">'),
        field("fit_seq", f'<input id="dsref-pg-fit-seq" list="dsref-pg-fit-seqs" value="{SEQ_LENS[-1]}" size="7">'),
        f'<datalist id="dsref-pg-fit-seqs">{seqs}</datalist>',
        f'<button type="button" id="dsref-pg-fit-run">{html.escape(texts["fit_run"])}</button>',
        "</div>",
        f"<label hidden>{html.escape(texts['fit_model_json'])} "
        '<textarea id="dsref-pg-fit-json" rows="6" cols="60"></textarea></label>',
        '<pre id="dsref-pg-fit-out"></pre>',
        "</section>",
    ]
    data = json.dumps(
        {
            "lang": lang,
            "app": app,
            "schemas": schemas,
            "rules": rules,
            "texts": texts,
            "severities": {name: REPORT.text(name, lang) for name in ("error", "warning", "info")},
            "models": models,
            "max_bytes": MAX_BYTES,  # the loader's limit: a longer text is not parsed in the page either
            "shown": SHOWN_FINDINGS,
            "check_seconds": CHECK_SECONDS,
        },
        ensure_ascii=False,
    ).replace("</", "<\\/")
    return "\n".join(
        [
            '<div id="dsref-playground" class="dsref-playground">',
            '<div class="dsref-pg-bar">',
            f'<label>{html.escape(texts["profile"])} <select id="dsref-pg-profile">{profiles}</select></label>',
            # any release --deepspeed-version takes, the recorded ones offered
            f'<label>{html.escape(texts["release"])} <input id="dsref-pg-release" list="dsref-pg-releases" '
            f'value="{COVERED[-1]}" size="8"></label><datalist id="dsref-pg-releases">{options}</datalist>',
            f'<label>{html.escape(texts["world_size"])} <input id="dsref-pg-world" type="number" min="1" step="1" '
            f'size="5" placeholder="{html.escape(texts["world_size_unknown"])}"></label>',
            f'<button type="button" id="dsref-pg-fix">{html.escape(texts["fix_safe"])}</button>',
            f'<button type="button" id="dsref-pg-fix-unsafe">{html.escape(texts["fix_unsafe"])}</button>',
            f'<button type="button" id="dsref-pg-share">{html.escape(texts["share"])}</button>',
            "</div>",
            '<div class="dsref-pg-panes">',
            f'<div><p class="dsref-pg-pane-title">{html.escape(texts["config_title"])}</p>',
            '<div id="dsref-pg-editor"></div></div>',
            f'<div><p class="dsref-pg-pane-title">{html.escape(texts["launch_title"])}</p>',
            '<div id="dsref-pg-launch"></div>',
            f'<p class="dsref-pg-pane-note">{html.escape(texts["launch_maps"])}</p></div>',
            "</div>",
            f'<p id="dsref-pg-status" role="status">{html.escape(texts["not_built"])}</p>',
            '<ul id="dsref-pg-findings"></ul>',
            f'<details id="dsref-pg-effective" hidden><summary>{html.escape(texts["effective_title"])}</summary>'
            "<pre></pre></details>",
            *fit,
            "</div>",
            f'<script type="application/json" id="dsref-pg-data">{data}</script>',
            # imported, not linked: a site built without the files still builds clean, and the page says why
            f'<script type="module">import("./{app}/page.js").catch(() => {{}});</script>',
        ]
    )


_JSON_BLOCK = re.compile(
    r"(?:<!-- dsref-check: (?P<marker>[^>]*?) -->\s*)?"
    r'<div class="language-json highlight"><pre>(?P<code>.*?)</pre></div>',
    re.S,
)
"""A built ```json example, with the ``dsref-check`` comment that says how the site checks it, when it has one."""


def _base64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def config_fragment(
    text: str,
    *,
    world_size: int | None = None,
    profile: Profile | None = None,
    release: str | None = None,
    launch: str | None = None,
) -> str:
    """The URL fragment that opens ``text`` in the playground (what its share link writes): base64url of the UTF-8
    bytes, without padding, then the settings the page should check it with, where they are not its defaults, and
    the launch pasted beside it (base64url too), where there is one.

    >>> config_fragment('{"fp16": {"enabled": true}}')
    '#config=eyJmcDE2IjogeyJlbmFibGVkIjogdHJ1ZX19'
    >>> config_fragment("{}", world_size=8, profile="hf", release="0.14.5")
    '#config=e30&world=8&reading=hf&release=0.14.5'
    >>> config_fragment("{}", launch="deepspeed t.py --deepspeed ds.json")
    '#config=e30&launch=ZGVlcHNwZWVkIHQucHkgLS1kZWVwc3BlZWQgZHMuanNvbg'
    """
    settings = {
        "world": world_size,
        "reading": profile,
        "release": release,
        "launch": _base64url(launch) if launch else None,
    }
    tail = "".join(f"&{name}={value}" for name, value in settings.items() if value is not None)
    return "#config=" + _base64url(text) + tail


def with_try_links(page: str, lang: Lang, playground: str) -> str:
    """Each ```json example of a built page followed by a link that opens it in the playground (at ``playground``,
    a URL relative to the page), set up as the site checks the example (its ``dsref-check`` comment's world size,
    reader and release), so that the playground finds what the page says it does."""
    from .doccheck import MarkerError, asked_profile, parse_marker

    label = html.escape(PLAYGROUND.text("try_it", lang))

    def linked(match: re.Match[str]) -> str:
        text = html.unescape(re.sub(r"<[^>]+>", "", match["code"]))
        try:
            marker = parse_marker(match["marker"] or "")
        except MarkerError:  # the build reports it (dsref/site/hooks.py); the link opens the text as it is
            marker = parse_marker("")
        profile = asked_profile(text, marker)  # none where the page, reading the text as written, reads it so
        fragment = config_fragment(
            text, world_size=marker.world_size, profile=profile, release=marker.deepspeed_version
        )
        href = html.escape(playground + fragment)
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
