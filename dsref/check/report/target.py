"""Which DeepSpeed a check is for: the release asked for, or the one installed, and how dsref knows.

The one rule ``dsref check`` and the language server follow:

1. a release the user names (``--deepspeed-version``, the server's ``deepspeedVersion``) is checked for as named;
   one outside the releases dsref covers is refused (:class:`UncoveredRelease`);
2. otherwise the DeepSpeed installed in the environment: this interpreter's, or the one given (the server's
   ``python`` setting), read from its package metadata, never by importing DeepSpeed (which takes seconds and may
   start a GPU runtime). A release newer than dsref knows is checked as the newest it covers, an older one as the
   oldest, and the statement says so;
3. no DeepSpeed installed: the newest release dsref covers, said as such.

:func:`statement` says the result in the user's language, with the reader the file was read as
(:mod:`dsref.tree.profiles`): the first line of ``dsref check``'s text output and the server's status. For a file
read as Hugging Face's it names the transformers and accelerate found the same way (:func:`installed_hugging_face`),
whose releases decide which ``"auto"`` they fill; none found reads as their newest.
"""

from __future__ import annotations

import enum
import os
import re
import sys
from functools import cache

from ...records import record
from ...text.escape import visible
from ...text.i18n import Lang, messages
from ...text.punctuation import listed, quoted
from ...tree.profiles import HF_FILLERS, NEWEST, HfReleases, Profile, release_number
from ...tree.releases import COVERED, OLDEST_COVERED, PUBLISHED, recorded_release
from ...tree.versions import DEEPSPEED_VERSION, parse_version

__all__ = [
    "TEXTS",
    "Release",
    "ReleaseSource",
    "UncoveredRelease",
    "covered",
    "deepspeed_on_path",
    "distribution_on_path",
    "installed_deepspeed",
    "installed_hugging_face",
    "release_to_check",
    "statement",
]

TEXTS = messages(
    "target",
    checked_for="Checked for DeepSpeed {version} ({source}), {reading}.",
    source_given="as asked",
    source_installed="installed",
    source_not_installed="no DeepSpeed installed here: the newest release dsref covers",
    source_newer="{installed} is installed, newer than dsref knows: checked as the newest release it covers",
    source_older="{installed} is installed, older than dsref covers: checked as the oldest release it covers",
    source_prerelease="{installed} is installed, a pre-release of {release}: checked as {release}",
    source_unknown="the installed DeepSpeed gives its version as {installed}, which is no release number: checked "
    "as the newest release dsref covers",
    reading_deepspeed="read as the deepspeed launcher reads it",
    reading_hf='read as Hugging Face fills it (the file writes "auto" where they fill a value)',
    reading_hf_given="read as Hugging Face fills it",
    reading_hf_installed=(
        'read as Hugging Face fills it (the file writes "auto" where they fill a value; {libraries} installed)'
    ),
    reading_hf_given_installed="read as Hugging Face fills it ({libraries} installed)",
    library="{name} {version}",
    libraries="{first}, {second}",
    reading_by_file=(
        'each file read as Hugging Face fills it when it writes "auto" where they fill a value, else as the '
        "deepspeed launcher reads it"
    ),
    source_between="{source}; read as {recorded}, the next release recorded",
    uncovered=(
        "{value} is not a DeepSpeed release dsref covers: name one DeepSpeed published, from {oldest} to {newest}, "
        "each recorded from the release itself{missing}"
    ),
    not_yet=" (not yet: {releases})",
)

_PROBE = "import importlib.metadata as m\ntry: print(m.version('deepspeed'))\nexcept m.PackageNotFoundError: print('')"
"""What another interpreter runs to say its DeepSpeed release: package metadata only, DeepSpeed is not imported."""

_HF_PROBE = (
    "import importlib.metadata as m\nfor n in ('transformers', 'accelerate'):\n"
    "    try: print(m.version(n))\n    except m.PackageNotFoundError: print('')"
)
"""The same for transformers and accelerate, one line each."""


class ReleaseSource(enum.Enum):
    """How the release checked for was chosen."""

    given = "given"
    installed = "installed"
    not_installed = "not_installed"
    newer = "newer"
    older = "older"
    prerelease = "prerelease"
    """A development or candidate build of a release (``0.19.8rc1``, ``0.19.8.dev0``): checked as that release."""
    unknown = "unknown"
    """Installed, with a version that is no release number (``main``, empty, thousands of digits)."""


@record
class Release:
    """The DeepSpeed release a check is for, and why that one."""

    version: str
    source: ReleaseSource
    installed: str | None = None
    """The installed release as its metadata gives it, when one was found."""

    def to_json(self) -> dict[str, str | None]:
        return {"deepspeed": self.version, "source": self.source.value, "installed": self.installed}


class UncoveredRelease(ValueError):
    """A release named by the user that dsref does not cover (or that is no release number at all)."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value

    def text(self, lang: Lang) -> str:
        value = visible(self.value, name=True)
        newest, oldest = parse_version(DEEPSPEED_VERSION), parse_version(OLDEST_COVERED)
        gaps = [r for r in PUBLISHED if oldest <= parse_version(r) <= newest and not covered(r)]
        missing = TEXTS.text("not_yet", lang, releases=listed(gaps, lang)) if gaps else ""
        return TEXTS.text(
            "uncovered", lang, oldest=OLDEST_COVERED, newest=DEEPSPEED_VERSION, value=value, missing=missing
        )


def covered(version: str) -> bool:
    """Whether ``version`` names a release dsref has recorded from the release itself: one DeepSpeed published
    (never 0.15.99), whose facts are in ``dsref/generated/releases/`` (or the schema's own, 0.19.8)."""
    try:
        number = parse_version(version)
    except ValueError:
        return False
    return any(parse_version(release) == number for release in COVERED)


def installed_deepspeed(python: str | None = None, *, timeout: float = 10.0) -> str | None:
    """The DeepSpeed release installed for ``python`` (None: this interpreter), from its package metadata; None
    when there is none, or when ``python`` cannot be run or does not answer within ``timeout`` seconds."""
    if python is None:
        return deepspeed_on_path(sys.path)
    answer = _ask(python, _PROBE, timeout)
    return answer[0] if answer and answer[0] else None


def installed_hugging_face(python: str | None = None, *, timeout: float = 10.0) -> HfReleases:
    """The transformers and accelerate releases installed for ``python`` (None: this interpreter), found as
    :func:`installed_deepspeed` finds DeepSpeed's, neither imported; each None when not found."""
    if python is None:
        found = [distribution_on_path(name, sys.path) for name in HF_FILLERS]
    else:
        answer = _ask(python, _HF_PROBE, timeout) or []
        found = [(answer[i] if i < len(answer) else "") or None for i in range(len(HF_FILLERS))]
    return HfReleases(transformers=found[0], accelerate=found[1])


def _ask(python: str, probe: str, timeout: float) -> list[str] | None:
    """The lines ``python`` prints running ``probe``; None when it cannot be run or fails."""
    import subprocess  # only the server asks another interpreter; check's start-up does without it

    try:
        done = subprocess.run(
            [python, "-I", "-c", probe],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return [line.strip() for line in done.stdout.splitlines()] if done.returncode == 0 else None


def deepspeed_on_path(path: list[str]) -> str | None:
    """The version of the first ``deepspeed`` distribution on ``path`` (:func:`distribution_on_path`)."""
    return distribution_on_path("deepspeed", path)


def distribution_on_path(name: str, path: list[str]) -> str | None:
    """The version of the first distribution called ``name`` on ``path``, as ``importlib.metadata.version`` finds
    it: by the name of its ``.dist-info`` (or ``.egg-info``) folder, whose version part the packaging standards fix,
    or by the ``Version`` line of its metadata. Without importing ``importlib.metadata`` (tens of milliseconds of
    every start-up)."""
    pattern = _dist_info(name)
    for entry in path:
        egg = _egg(name).fullmatch(os.path.basename(entry.rstrip("/\\")))
        if egg is not None:  # an egg on the path itself: its metadata in EGG-INFO, else its name's version part
            return _metadata_version(os.path.join(entry, "EGG-INFO")) or egg.group(1) or None
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for folder in names:
            match = pattern.fullmatch(folder)
            if match is None:
                continue
            return _metadata_version(os.path.join(entry or ".", folder)) or match.group(1) or None
    return None


@cache
def _dist_info(name: str) -> re.Pattern[str]:
    """``name-1.2.dist-info``, ``name-1.2-py3.11.egg-info`` (``setup.py install``), or ``name.egg-info`` (a
    development install: the version only in its metadata)."""
    return re.compile(rf"{re.escape(name)}(?:-([^-]*)(?:-.*)?)?\.(?:dist|egg)-info", re.IGNORECASE)


@cache
def _egg(name: str) -> re.Pattern[str]:
    """An egg put on the path by ``easy_install``: ``name-1.2-py3.11.egg``."""
    return re.compile(rf"{re.escape(name)}-([^-]*)(?:-.*)?\.egg", re.IGNORECASE)


def _metadata_version(folder: str) -> str | None:
    for file in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as handle:
                for line in handle:
                    if line.startswith("Version:"):
                        return line.removeprefix("Version:").strip() or None
                    if not line.strip():
                        break  # the headers end at the first empty line
        except OSError:
            continue
    return None


def release_to_check(given: str | None, installed: str | None) -> Release:
    """The release to check for: ``given`` when the user named one (:class:`UncoveredRelease` when dsref does not
    cover it), else the ``installed`` one, brought within the releases dsref covers."""
    if given is not None:
        if not covered(given):
            raise UncoveredRelease(given)
        return Release(_canonical(given), ReleaseSource.given, installed)
    if installed is None:
        return Release(DEEPSPEED_VERSION, ReleaseSource.not_installed)
    number = release_number(installed) if len(installed) <= _LONGEST_VERSION else None
    if number is None:
        return Release(DEEPSPEED_VERSION, ReleaseSource.unknown, _shortened(installed))
    if number > parse_version(DEEPSPEED_VERSION):
        return Release(DEEPSPEED_VERSION, ReleaseSource.newer, installed)
    if number < parse_version(OLDEST_COVERED):
        return Release(OLDEST_COVERED, ReleaseSource.older, installed)
    release = ".".join(str(n) for n in number)
    source = ReleaseSource.prerelease if is_prerelease(installed) else ReleaseSource.installed
    return Release(release, source, installed)


_LONGEST_VERSION = 64
"""Longer than any version pip writes (a release, a pre/post/dev part and a local label): anything longer is no
version at all, and is shown cut."""

_RELEASE = re.compile(r"\s*v?\d+\.\d+(?:\.\d+)?")
_PRE = re.compile(r"[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev)(?:[-_.]?\d+)?(?:$|[-_.+])", re.IGNORECASE)


def is_prerelease(version: str) -> bool:
    """Whether a version as pip writes it is a pre-release or development build of its release, which comes before
    the release itself (PEP 440: ``a``, ``b``, ``rc`` and their long spellings, ``dev``); a post-release or a
    local label (``.post1``, ``+cu118``) is the release itself.

    >>> [is_prerelease(v) for v in ("0.19.8rc1", "0.19.8.dev0", "0.19.8-beta.2", "0.19.8+cu118", "0.19.8.post1")]
    [True, True, True, False, False]
    """
    match = _RELEASE.match(version)
    if match is None:
        return False
    rest = version[match.end() :].split("+", 1)[0]
    return _PRE.match(rest) is not None


def _shortened(version: str) -> str:
    return version if len(version) <= _LONGEST_VERSION else version[: _LONGEST_VERSION - 1] + "…"


def _canonical(version: str) -> str:
    return ".".join(str(n) for n in parse_version(version))


def statement(
    release: Release,
    reading: Profile | None,
    lang: Lang,
    *,
    detected: bool,
    hugging_face: HfReleases = NEWEST,
) -> str:
    """What a check was for, in one sentence: the release and how it was chosen, and the reader (``reading``: the
    profile the file was read as; None for several files each read as it is written; ``detected``: chosen by
    the file rather than by the user); read as Hugging Face's, the ``hugging_face`` releases found installed.

    >>> statement(Release("0.19.8", ReleaseSource.installed), "hf", "en", detected=False,
    ...           hugging_face=HfReleases(transformers="4.46.0"))
    'Checked for DeepSpeed 0.19.8 (installed), read as Hugging Face fills it (transformers 4.46.0 installed).'
    """
    installed = visible(release.installed or "", name=True)
    if release.source is ReleaseSource.unknown:
        installed = quoted(installed, lang)
    source = TEXTS.text(f"source_{release.source.value}", lang, installed=installed, release=release.version)
    recorded = recorded_release(release.version)
    if recorded != release.version:
        source = TEXTS.text("source_between", lang, source=source, recorded=recorded)
    if reading is None:
        how = TEXTS.text("reading_by_file", lang)
    elif reading == "hf":
        known = [TEXTS.text("library", lang, name=name, version=version) for name, version in hugging_face.known()]
        if known:
            libraries = known[0] if len(known) == 1 else TEXTS.text("libraries", lang, first=known[0], second=known[1])
            key = "reading_hf_installed" if detected else "reading_hf_given_installed"
            how = TEXTS.text(key, lang, libraries=libraries)
        else:
            how = TEXTS.text("reading_hf" if detected else "reading_hf_given", lang)
    else:
        how = TEXTS.text("reading_deepspeed", lang)
    return TEXTS.text("checked_for", lang, version=release.version, source=source, reading=how)
