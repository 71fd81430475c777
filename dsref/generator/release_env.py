"""One scratch environment per DeepSpeed release, sharing the running interpreter's torch.

Each release's ``deepspeed`` package is unpacked from its sdist (downloaded with ``pip download``) into
``<scratch>/<release>``, beside the pure-Python requirements the interpreter does not already satisfy (pydantic 1.10
for 0.10, ``numpy<2`` for releases up to 0.14: 0.14.4 still imports ``numpy.BUFSIZE``), installed there with
``pip install --no-deps --target``. It runs with that folder first on ``PYTHONPATH``. Releases up to 0.13 import on
a CPU-only torch of today only with small stand-ins, which are written into the scratch folder (``stubs/``), never
into dsref:

* ``intel_extension_for_pytorch`` and ``oneccl_bindings_for_pytorch``: the CPU accelerator imports them;
* names torch's elastic agent no longer has, which ``deepspeed.elasticity`` imports (a ``sitecustomize`` adds them).

Nothing here imports DeepSpeed: the release runs in a child process (:func:`run_in_release`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.version import Version

from ..records import record
from ..tree.releases import PUBLISHED
from ..tree.versions import DEEPSPEED_VERSION, parse_version

RELEASES: tuple[str, ...] = PUBLISHED
"""The releases whose facts and verdicts are recorded: every one published from 0.10.0 on
(:data:`dsref.tree.releases.PUBLISHED`; ``python scripts/releases.py index`` compares it with the package index)."""

OLDEST = RELEASES[0]

DEFAULT_SCRATCH = Path(os.environ.get("DSREF_RELEASES_DIR", "/tmp/dsref-releases"))

# Requirements a release names that are never installed into its folder: the interpreter's torch is shared, and
# ninja only builds ops, which DS_BUILD_OPS=0 leaves out.
_SHARED = {"torch", "ninja", "triton"}

_STUB_MODULES = ("intel_extension_for_pytorch", "oneccl_bindings_for_pytorch")

_SITECUSTOMIZE = '''"""Written by dsref's release generator: stand-ins old DeepSpeed releases import from torch."""
try:
    import torch.distributed.elastic.agent.server.api as _api

    for _name in ("log", "logger"):
        if not hasattr(_api, _name):
            import logging

            setattr(_api, _name, logging.getLogger("torch.distributed.elastic"))
    if not hasattr(_api, "_get_socket_with_port"):
        import socket

        def _get_socket_with_port():
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.bind(("localhost", 0))
            sock.listen(0)
            return sock

        _api._get_socket_with_port = _get_socket_with_port
    if not hasattr(_api, "_get_fq_hostname"):
        import socket

        _api._get_fq_hostname = socket.getfqdn
except Exception:
    pass
'''


@record
class ReleaseEnv:
    """Where one release is installed, and the environment a child process runs it with."""

    release: str
    folder: Path
    """``<scratch>/<release>``: DeepSpeed and the requirements the interpreter lacks; empty for the installed one."""
    stubs: Path

    @property
    def installed(self) -> bool:
        """The release the interpreter already has (the schema's): run without a folder."""
        return self.release == DEEPSPEED_VERSION

    def environ(self) -> dict[str, str]:
        paths = [] if self.installed else [str(self.folder), str(self.stubs)]
        env = dict(os.environ, DS_BUILD_OPS="0", DS_ACCELERATOR="cpu", PYTHONNOUSERSITE="1")
        env["PYTHONPATH"] = os.pathsep.join([*paths, *filter(None, [os.environ.get("PYTHONPATH")])])
        env.pop("CUDA_VISIBLE_DEVICES", None)
        return env


def release_env(release: str, scratch: Path = DEFAULT_SCRATCH) -> ReleaseEnv:
    return ReleaseEnv(release, scratch / release, scratch / "stubs")


def write_stubs(stubs: Path) -> None:
    """The stand-ins old releases import (module docstring), in the scratch folder."""
    for name in _STUB_MODULES:
        (stubs / name).mkdir(parents=True, exist_ok=True)
        (stubs / name / "__init__.py").write_text('"""Written by dsref\'s release generator: an empty stand-in."""\n')
    (stubs / "sitecustomize.py").write_text(_SITECUSTOMIZE)


def missing_requirements(requirements: list[str], release: str) -> list[str]:
    """The requirements the interpreter does not satisfy, as pip arguments (torch and build-only tools left out),
    plus ``numpy<2`` for releases up to 0.14, which use names NumPy 2 removed."""
    wanted: list[str] = []
    for line in requirements:
        line = line.split("#")[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        if requirement.name.lower() in _SHARED or (requirement.marker and not requirement.marker.evaluate()):
            continue
        try:
            have = Version(metadata.version(requirement.name))
        except metadata.PackageNotFoundError:
            wanted.append(str(requirement))
            continue
        if requirement.name.lower() == "numpy" and parse_version(release) < (0, 15, 0):
            wanted.append("numpy<2")
        elif not requirement.specifier.contains(have, prereleases=True):
            wanted.append(str(requirement))
    if parse_version(release) < (0, 15, 0) and not any(w.startswith("numpy") for w in wanted):
        wanted.append("numpy<2")
    return wanted


def published_releases() -> list[str]:
    """The releases of ``deepspeed`` the package index lists, from 0.10.0 on, oldest first (``pip index``)."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "index", "versions", "deepspeed"],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(line for line in done.stdout.splitlines() if line.startswith("Available versions:"))
    listed = [v.strip() for v in line.removeprefix("Available versions:").split(",")]
    found = [v for v in listed if v and parse_version(v) >= parse_version("0.10.0")]
    return sorted(found, key=parse_version)


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True, env=env)


def download_sdist(release: str, scratch: Path = DEFAULT_SCRATCH) -> Path:
    """Download the release's sdist into ``<scratch>/sdist``. ``pip download`` of an sdist prepares its metadata,
    which runs its ``setup.py``, and the setup.py of many releases imports the release itself; so, in turn:

    1. with the interpreter's packages (no build isolation): quick where the release imports with them;
    2. with build isolation: a setup.py that imports a release written for pydantic 1 but needs no torch (0.10.1);
    3. with the interpreter's packages and pydantic 1 in front of them (``<scratch>/pydantic1``): a setup.py that
       needs both torch and pydantic 1 (0.10.0 and 0.11.0 import ``op_builder/async_io.py``, which imports torch,
       and ``deepspeed.runtime.zero``, whose pydantic-1 code fails under pydantic 2)."""
    downloads = scratch / "sdist"
    downloads.mkdir(parents=True, exist_ok=True)
    download = ("download", "--no-deps", "--no-binary", ":all:", f"deepspeed=={release}", "-d", str(downloads))
    try:
        _pip(*download, "--no-build-isolation")
    except subprocess.CalledProcessError:
        try:
            _pip(*download)
        except subprocess.CalledProcessError:
            pydantic1 = scratch / "pydantic1"
            if not (pydantic1 / "pydantic").exists():
                _pip("install", "--no-deps", "--target", str(pydantic1), "pydantic<2")
            env = dict(os.environ, DS_BUILD_OPS="0")
            env["PYTHONPATH"] = os.pathsep.join([str(pydantic1), *filter(None, [os.environ.get("PYTHONPATH")])])
            _pip(*download, "--no-build-isolation", env=env)
    return downloads / f"deepspeed-{release}.tar.gz"


def build(release: str, scratch: Path = DEFAULT_SCRATCH) -> ReleaseEnv:
    """Install ``release`` into its scratch folder (once: an existing folder is kept).

    The release's ``deepspeed`` package is taken from its sdist as published: with ``DS_BUILD_OPS=0`` its
    ``setup.py`` compiles nothing and copies the package as it is, and the sdist carries the
    ``git_version_info_installed.py`` its publisher's build wrote (its ``accelerator_name`` is overridden by
    ``DS_ACCELERATOR=cpu``). Unpacking takes a second where ``pip install`` of the sdist takes over a minute."""
    env = release_env(release, scratch)
    write_stubs(env.stubs)
    if env.installed or (env.folder / "deepspeed" / "__init__.py").exists():
        return env
    sdist = scratch / "sdist" / f"deepspeed-{release}.tar.gz"
    if not sdist.exists():
        download_sdist(release, scratch)
    import tarfile

    top = f"deepspeed-{release}/"
    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"{top}requirements/requirements.txt")
        assert member is not None, f"{sdist} has no requirements/requirements.txt"
        requirements = member.read().decode("utf-8").splitlines()
        env.folder.mkdir(parents=True, exist_ok=True)
        extra = missing_requirements(requirements, release)
        if extra:  # their own requirements (typing_extensions, …) are the interpreter's
            _pip("install", "--no-deps", "--target", str(env.folder), *extra)
        package = [m for m in archive.getmembers() if m.name.startswith(f"{top}deepspeed/") and m.isfile()]
        staging = env.folder / ".unpacking"
        for m in package:
            m.name = m.name.removeprefix(top)
        archive.extractall(staging, members=package, filter="data")
    (staging / "deepspeed").rename(env.folder / "deepspeed")  # last: a half-unpacked release is never taken
    staging.rmdir()
    return env


def run_in_release(env: ReleaseEnv, command: str, request: dict[str, Any]) -> Any:
    """Run the probe (:mod:`dsref.generator.release_probe`, as a file: it imports nothing of dsref) under ``env``
    with ``request``; the JSON it writes."""
    probe = Path(__file__).with_name("release_probe.py")
    with tempfile.TemporaryDirectory() as tmp:
        request_path, out_path = Path(tmp, "request.json"), Path(tmp, "out.json")
        request_path.write_text(json.dumps(request), encoding="utf-8")
        result = subprocess.run(
            [sys.executable, "-s", str(probe), command, str(request_path), str(out_path)],
            env=env.environ(),
            capture_output=True,
            check=False,
            cwd=env.stubs,
        )
        if result.returncode != 0:
            raise RuntimeError(f"DeepSpeed {env.release}: probe {command} failed:\n{result.stderr.decode()[-4000:]}")
        return json.loads(out_path.read_text(encoding="utf-8"))
