"""Which DeepSpeed a check is for: the release asked for, or the one installed, and how dsref knows.

The one rule ``dsref check`` and the language server follow:

1. a release the user names (``--deepspeed-version``, the server's ``deepspeedVersion``) is checked for as named;
   one outside the releases dsref covers is refused (:class:`UncoveredRelease`);
2. otherwise the DeepSpeed installed in the environment: this interpreter's, or the one given (the server's
   ``python`` setting, asked once, in a thread, by :func:`ask_interpreter`), read from its package metadata, never
   by importing DeepSpeed (which takes seconds and may start a GPU runtime). A release newer than dsref knows is
   checked as the newest it covers, an older one as the oldest, and the statement says so;
3. no DeepSpeed installed: the newest release dsref covers, said as such; an interpreter that could not be asked
   (it cannot be run, fails, or does not answer in time): the same, said as "could not ask".

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
from typing import Any

from ...records import record
from ...text.escape import visible
from ...text.i18n import Lang, messages
from ...text.punctuation import listed, quoted
from ...tree.profiles import HF_FILLERS, NEWEST, HfReleases, Profile, release_number
from ...tree.releases import COVERED, OLDEST_COVERED, PUBLISHED, recorded_release
from ...tree.versions import DEEPSPEED_VERSION, parse_version

__all__ = [
    "TEXTS",
    "Answer",
    "Release",
    "ReleaseSource",
    "Unasked",
    "UncoveredRelease",
    "ask_interpreter",
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
    source_not_asked="could not ask {python} ({reason}): the newest release dsref covers",
    unasked_timed_out="timed out",
    unasked_not_run="it cannot be run: {error}",
    unasked_failed="it exited with status {status}",
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

_PROBE = (
    "import importlib.metadata as m\nfor n in ('deepspeed', 'transformers', 'accelerate'):\n"
    "    try: print(m.version(n))\n    except m.PackageNotFoundError: print('')"
)
"""What another interpreter runs to say its DeepSpeed, transformers and accelerate releases, one line each: package
metadata only, none of them is imported."""

PROBE_TIMEOUT = 10.0
"""Seconds an interpreter has to answer (a cold conda environment, a container wrapper: seconds)."""


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
    not_asked = "not_asked"
    """The interpreter named could not be asked: checked for the newest release, as with none installed."""


@record
class Unasked:
    """An interpreter that could not be asked, and why: ``timed_out``, ``not_run`` (with the ``errno``, and the
    system's words for it), ``failed`` (with its exit ``status``)."""

    python: str
    reason: str
    errno: int | None = None
    status: int | None = None
    error: str = ""

    def text(self, lang: Lang) -> str:
        from ...text.oserror import os_reason

        error = os_reason(self.errno, lang, fallback=visible(self.error)) if self.reason == "not_run" else ""
        return TEXTS.text(f"unasked_{self.reason}", lang, error=error, status=self.status)


@record
class Answer:
    """What an interpreter said of its releases (each None where not installed), or why it could not be asked."""

    deepspeed: str | None = None
    hugging_face: HfReleases = NEWEST
    unasked: Unasked | None = None


@record
class Release:
    """The DeepSpeed release a check is for, and why that one."""

    version: str
    source: ReleaseSource
    installed: str | None = None
    """The installed release as its metadata gives it, when one was found."""
    unasked: Unasked | None = None
    """The interpreter that could not be asked (:attr:`ReleaseSource.not_asked`)."""

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


def installed_deepspeed(python: str | None = None, *, timeout: float = PROBE_TIMEOUT) -> str | None:
    """The DeepSpeed release installed for ``python`` (None: this interpreter), from its package metadata; None
    when there is none, or when ``python`` cannot be asked (:func:`ask_interpreter`)."""
    if python is None:
        return deepspeed_on_path(sys.path)
    return ask_interpreter(python, timeout=timeout).deepspeed


def installed_hugging_face(python: str | None = None, *, timeout: float = PROBE_TIMEOUT) -> HfReleases:
    """The transformers and accelerate releases installed for ``python`` (None: this interpreter), found as
    :func:`installed_deepspeed` finds DeepSpeed's, neither imported; each None when not found."""
    if python is None:
        found = [distribution_on_path(name, sys.path) for name in HF_FILLERS]
        return HfReleases(transformers=found[0], accelerate=found[1])
    return ask_interpreter(python, timeout=timeout).hugging_face


def ask_interpreter(python: str, *, timeout: float = PROBE_TIMEOUT) -> Answer:
    """Ask ``python`` once for its DeepSpeed, transformers and accelerate releases (one process, ``timeout``
    seconds); an answer that says why when it cannot be run, fails, or does not answer in time. It waits for the
    process: the server calls it in a thread of its own. The program is the user's choice, and may be a wrapper:
    what it starts goes with it when it is stopped (its process group), and at most 64 KiB of what it prints is
    read."""
    import subprocess  # only the server asks another interpreter; check's start-up does without it
    import threading

    try:
        proc = subprocess.Popen(
            [python, "-I", "-c", _PROBE],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        return Answer(unasked=Unasked(python, "not_run", errno=exc.errno, error=exc.strerror or str(exc)))
    except (subprocess.SubprocessError, ValueError) as exc:  # ValueError: a NUL in the name
        return Answer(unasked=Unasked(python, "not_run", error=str(exc)))
    stdout = proc.stdout
    assert stdout is not None
    printed: list[bytes] = []
    reader = threading.Thread(target=lambda: printed.append(stdout.read(_MAX_ANSWER)), daemon=True)
    reader.start()
    try:
        status = proc.wait(timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        return Answer(unasked=Unasked(python, "timed_out"))
    reader.join(timeout)
    if reader.is_alive():  # exited, and something it started still holds its output
        _stop(proc)
    else:
        stdout.close()
    if status != 0:
        return Answer(unasked=Unasked(python, "failed", status=status))
    if reader.is_alive():
        return Answer(unasked=Unasked(python, "timed_out"))
    lines = [line.strip() for line in b"".join(printed).decode("utf-8", "replace").splitlines()]
    found = [(lines[i] if i < len(lines) else "") or None for i in range(1 + len(HF_FILLERS))]
    return Answer(found[0], HfReleases(transformers=found[1], accelerate=found[2]))


_MAX_ANSWER = 65536


def _stop(proc: Any) -> None:
    """End ``proc`` and what it started (its session's process group on POSIX), and reap it."""
    import signal

    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:
            proc.kill()
    except OSError:  # gone already
        pass
    proc.wait()


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


def release_to_check(given: str | None, installed: str | None, *, unasked: Unasked | None = None) -> Release:
    """The release to check for: ``given`` when the user named one (:class:`UncoveredRelease` when dsref does not
    cover it), else the ``installed`` one, brought within the releases dsref covers (the newest when the interpreter
    could not be asked: ``unasked``)."""
    if given is not None:
        if not covered(given):
            raise UncoveredRelease(given)
        return Release(_canonical(given), ReleaseSource.given, installed)
    if unasked is not None:
        return Release(DEEPSPEED_VERSION, ReleaseSource.not_asked, unasked=unasked)
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
    python = reason = ""
    if release.unasked is not None:
        python, reason = visible(release.unasked.python, name=True), release.unasked.text(lang)
    source = TEXTS.text(
        f"source_{release.source.value}",
        lang,
        installed=installed,
        release=release.version,
        python=python,
        reason=reason,
    )
    recorded = recorded_release(release.version)
    if recorded != release.version:
        source = TEXTS.text("source_between", lang, source=source, recorded=recorded)
    if reading is None:
        how = TEXTS.text("reading_by_file", lang)
    elif reading == "hf":
        known = [
            TEXTS.text("library", lang, name=name, version=visible(version, name=True))
            for name, version in hugging_face.known()
        ]
        if known:
            libraries = known[0] if len(known) == 1 else TEXTS.text("libraries", lang, first=known[0], second=known[1])
            key = "reading_hf_installed" if detected else "reading_hf_given_installed"
            how = TEXTS.text(key, lang, libraries=libraries)
        else:
            how = TEXTS.text("reading_hf" if detected else "reading_hf_given", lang)
    else:
        how = TEXTS.text("reading_deepspeed", lang)
    return TEXTS.text("checked_for", lang, version=release.version, source=source, reading=how)
