"""The playground's launch pane: a launch pasted beside the config, checked as ``dsref check LAUNCH`` checks it.

The launch (a shell line or script, a LLaMA-Factory or axolotl YAML, an Accelerate config) is read by
:func:`dsref.launch.opened.open_launch`, the one reading the command line and the language server use, with the
config in the editor standing for whatever ds_config path the launch names. The page's worker asks
:func:`launch_kind` first (it loads PyYAML only for a YAML launch), then :func:`check_launch_document`.
``tests/functional/test_playground.py`` compares the page's answers with ``dsref check LAUNCH`` in Chromium.
"""

from __future__ import annotations

import io
import json
import re
from typing import TYPE_CHECKING, Any, Literal

from ..check.settings import CheckSettings
from ..text.i18n import Lang
from ..tree.profiles import HfReleases, Profile
from ..tree.versions import DEEPSPEED_VERSION
from .playground import NO_HF, PLAYGROUND, utf8

if TYPE_CHECKING:
    from ..check.pipeline import FileReport
    from ..launch.opened import Opened, Said

__all__ = ["LAUNCH_NAMES", "ON_DEMAND", "LaunchKind", "check_launch_document", "launch_kind", "launch_packages"]

LaunchKind = Literal["", "shell", "yaml"]
"""How a pasted launch is read: none (the pane is empty), as a shell script, or as a YAML file."""

LAUNCH_NAMES: dict[LaunchKind, str] = {"shell": "launch.sh", "yaml": "launch.yaml"}
"""How the pasted launch is named in what dsref says of it (``dsref check launch.sh`` would name it so)."""

_YAML_KEY = re.compile(r"""^(?:---\s*$|["']?[\w.-]+["']?\s*:(?:\s|$))""")
"""A line that starts a YAML file: a document start, or a key of the top mapping (``deepspeed: ds.json``). No shell
line that starts training begins so (``deepspeed --num_gpus 8``, ``LR=2e-5``, ``export``, ``python -m``)."""


def launch_kind(text: str) -> LaunchKind:
    """How the pasted ``text`` is read: ``""`` for an empty pane (the config is checked alone, as without a launch),
    ``"yaml"`` when its first line that is neither blank nor a comment is a YAML key or ``---``, else ``"shell"``.

    >>> launch_kind("  \\n"), launch_kind("# train\\ndeepspeed: ds.json\\n"), launch_kind("deepspeed train.py")
    ('', 'yaml', 'shell')
    """
    if not text.strip():
        return ""
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        return "yaml" if _YAML_KEY.match(stripped) else "shell"
    return "shell"  # comments alone: the shell reader says that nothing here starts training


ON_DEMAND: dict[LaunchKind, tuple[str, ...]] = {"yaml": ("pyyaml",)}
"""The packages the page loads before checking a launch of each kind (PyYAML, dsref's ``launch`` extra, reads a YAML
launch), by their name in the page's Pyodide lock file; none are loaded at start."""


def launch_packages(text: str) -> list[str]:
    """The packages the page must have loaded before checking the launch ``text``.

    >>> launch_packages("stage: sft\\n"), launch_packages("deepspeed train.py --deepspeed ds.json")
    (['pyyaml'], [])
    """
    return list(ON_DEMAND.get(launch_kind(text), ()))


def check_launch_document(
    launch: str,
    config: str,
    lang: Lang,
    *,
    profile: Profile | None = None,
    deepspeed_version: str = DEEPSPEED_VERSION,
    world_size: int | None = None,
) -> str:
    """What ``dsref check --format json [--profile P] [--world-size N] --deepspeed-version V launch.sh`` says of the
    pasted ``launch`` with the pasted ``config`` as the ds_config it names (on a Python without transformers and
    accelerate, as the browser's is), as JSON for the page:

    - ``said``: what dsref says of the launch before checking (on standard error), each at its line;
    - ``report``: the JSON report, of the config (``pane`` ``"config"``) or of the ds_config the launch builds
      itself, on the launch's lines (``"launch"``); None when there is nothing to check;
    - ``marks``: for each finding of the config about a value the launch gives (``DS589``: Trainer compares them),
      the places in the launch that give it (a finding on an ``"auto"`` the launch fills is placed in the launch
      by ``dsref check`` itself: its ``file`` and ``related``);
    - ``effective``: what ``--show-effective`` prints (the config filled as Trainer fills it under the launch);
    - ``form``, ``named`` (the ds_config's path as the launch writes it), ``builds``, ``world_size``.

    ``{"refused": what dsref says}`` for a release it refuses. An empty ``launch`` is the caller's to avoid: the
    page checks the config alone then (:func:`dsref.site.playground.check_document`)."""
    from ..check.fix.offered import offered
    from ..check.pipeline import check_built, check_bytes
    from ..check.read.loader import MAX_BYTES
    from ..check.report.draw import CheckedFor, Writer, draw
    from ..check.report.target import UncoveredRelease, release_to_check
    from ..launch.opened import open_launch

    try:
        release = release_to_check(deepspeed_version, None)
    except UncoveredRelease as exc:
        return json.dumps({"refused": exc.text(lang)}, ensure_ascii=False)
    # as dsref check reads a launch file: its first MAX_BYTES, what is not UTF-8 replaced
    launch = utf8(launch)[:MAX_BYTES].decode("utf-8", errors="replace")
    path = LAUNCH_NAMES[launch_kind(launch) or "shell"]
    opened = open_launch(path, launch, config_given=True)
    lines = launch.splitlines()
    answer: dict[str, Any] = {
        "launch_file": path,
        "form": opened.launch.form if opened.launch is not None else None,
        "named": None,
        "builds": opened.built is not None,
        "world_size": None,
        "said": [_said_json(said, lines, lang) for said in opened.said],
        "report": None,
        "pane": None,
        "marks": [],
        "effective": None,
    }
    if opened.launch is None or (opened.built is None and opened.named is None):
        return json.dumps(answer, ensure_ascii=False)
    settings = CheckSettings(profile, world_size, release.version, NO_HF).launched_by(opened.launch)
    answer["world_size"] = settings.world_size
    if opened.built is not None:
        report = check_built(launch, path, opened.built, settings)
        report.path = path
        answer["pane"] = "launch"
    else:
        assert opened.named is not None
        report = check_bytes(utf8(config), opened.named, settings)
        if any(f.fix is not None for f in report.findings):
            report = offered(report, settings)  # the fixes listed are those --fix applies
        report.path = opened.named
        answer.update(named=opened.named, pane="config", marks=_marks(report, settings, lines))
    answer["effective"] = _effective(report, opened, settings)
    out = io.StringIO()
    checked_for = CheckedFor(release, profile, 1, NO_HF)
    writer = Writer(out, "json", lang, target=release.version, flush=False, checked_for=checked_for)
    writer.write(draw(report, "json", lang, target=release.version))
    writer.close()
    answer["report"] = json.loads(out.getvalue())
    return json.dumps(answer, ensure_ascii=False)


_OTHER_FILES = frozenset({"accelerate_config_missing"})
"""What is said of a file the launch names beside its ds_config (``accelerate launch --config_file``), which the page,
holding one launch and one config, cannot be given: said as ``dsref check`` says it, with how to paste it instead."""


def _said_json(said: Said, lines: list[str], lang: Lang) -> dict[str, Any]:
    """What dsref says of the launch, where: its line (1 for the whole file) from its column to the line's end; in
    another file (``file``) where it is about one the launch names."""
    line = said.line or 1
    end = len(lines[line - 1]) + 1 if 0 < line <= len(lines) else 1
    return {
        "file": said.file or None,  # another file the launch names (its Accelerate config), whose lines these are
        "reason": said.reason,
        "severity": said.severity,
        "line": line,
        "column": said.col or 1,
        "end_line": line,
        "end_column": max(end, said.col or 1),
        "message": said.text(lang),
        "help": [PLAYGROUND.text("launch_one_file", lang)] if said.reason in _OTHER_FILES else [],
    }


def _marks(report: FileReport, settings: CheckSettings, lines: list[str]) -> list[dict[str, Any]]:
    """For each finding of the config at an option Trainer compares with an argument the launch gives, the places
    in the launch that give it (``finding``: the finding's index in the report)."""
    from ..check.validate.checktree import check_tree
    from ..launch.places import givens

    launch = settings.launch
    if launch is None or launch.form == "accelerate":
        return []  # an Accelerate config gives no training arguments: Trainer's comparison is not made
    tree = check_tree()
    marks = []
    for index, finding in enumerate(report.findings):
        if finding.filled is not None and finding.filled.at is not None:
            continue  # placed in the launch already, the "auto" beside it (dsref.check.filled)
        opt = tree.get(finding.option) if finding.option is not None and finding.option in tree else None
        hf = opt.meta.hf_auto if opt is not None else None
        if hf is None or not hf.compared:
            continue
        for given in givens(hf.compared, launch):
            width = len(given.written) or 1
            marks.append(
                {
                    "finding": index,
                    "line": given.line,
                    "column": given.col,
                    "end_line": given.line,
                    "end_column": given.col + width,
                }
            )
    return marks


def _effective(report: FileReport, opened: Opened, settings: CheckSettings) -> Any:
    """What ``dsref check LAUNCH --show-effective`` prints for the file checked (None where it could not be read)."""
    from ..check.pipeline import launched
    from ..check.report.show_effective import effective_document

    hugging_face: HfReleases | None
    if opened.built is not None:
        config = opened.built.config
        hugging_face = settings.hugging_face
    elif report.loaded is not None:
        config = launched(report.loaded, settings)
        hugging_face = settings.hugging_face if report.loaded.profile == "hf" else None
    else:
        return None
    document = effective_document(
        config, world_size=settings.world_size, deepspeed_version=settings.deepspeed_version, hugging_face=hugging_face
    )
    return {"file": report.path, "launch": opened.path, **document}
