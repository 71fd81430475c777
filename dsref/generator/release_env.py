"""One scratch environment per DeepSpeed release, sharing the running interpreter's torch.

Each release is installed with ``pip install --no-deps --target <scratch>/<release>`` (its sdist built without build
isolation, so its ``setup.py`` sees the interpreter's torch), with the pure-Python requirements the interpreter does
not already satisfy (pydantic 1.10 for 0.10, ``numpy<2`` for releases up to 0.13). It runs with that folder first
on ``PYTHONPATH``. Releases up to 0.13 import on a CPU-only torch of today only with small stand-ins, which are
written into the scratch folder (``stubs/``), never into dsref:

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
from ..tree.versions import DEEPSPEED_VERSION, parse_version

RELEASES: tuple[str, ...] = (
    "0.10.3",
    "0.11.2",
    "0.12.6",
    "0.13.5",  # last with communication_data_type "bfp16"
    "0.14.5",
    "0.15.1",  # last with steps_per_print 10
    "0.15.4",
    "0.16.4",  # last with WarmupLR warmup_max_lr 0.001
    "0.16.5",
    "0.16.9",  # LLaMA-Factory's upper bound
    "0.17.0",  # last reading fp16 and bf16 with dict.get
    "0.17.1",  # fp16 and bf16 become pydantic models
    "0.17.6",
    "0.18.9",
    "0.19.2",  # last with gradient_clipping 0.0
    "0.19.3",
    "0.19.6",  # last before 0.19.7 removed the 1-bit optimizers and legacy sections
    DEEPSPEED_VERSION,
)
"""The releases whose facts and verdicts are recorded: the last patch of each minor from 0.10, and each release on
either side of a change to how the config is read. The last is the release the schema describes."""

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
    plus ``numpy<2`` for releases up to 0.13, which use names NumPy 2 removed."""
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
        if requirement.name.lower() == "numpy" and parse_version(release) < (0, 14, 0):
            wanted.append("numpy<2")
        elif not requirement.specifier.contains(have, prereleases=True):
            wanted.append(str(requirement))
    if parse_version(release) < (0, 14, 0) and not any(w.startswith("numpy") for w in wanted):
        wanted.append("numpy<2")
    return wanted


def _pip(*args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args], check=True, env=env)


def build(release: str, scratch: Path = DEFAULT_SCRATCH) -> ReleaseEnv:
    """Install ``release`` into its scratch folder (once: an existing folder is kept)."""
    env = release_env(release, scratch)
    write_stubs(env.stubs)
    if env.installed or (env.folder / "deepspeed" / "__init__.py").exists():
        return env
    downloads = scratch / "sdist"
    downloads.mkdir(parents=True, exist_ok=True)
    sdist = downloads / f"deepspeed-{release}.tar.gz"
    if not sdist.exists():
        _pip("download", "--no-deps", "--no-binary", ":all:", f"deepspeed=={release}", "-d", str(downloads))
    import tarfile

    with tarfile.open(sdist) as archive:
        member = archive.extractfile(f"deepspeed-{release}/requirements/requirements.txt")
        assert member is not None, f"{sdist} has no requirements/requirements.txt"
        requirements = member.read().decode("utf-8").splitlines()
    env.folder.mkdir(parents=True, exist_ok=True)
    extra = missing_requirements(requirements, release)
    if extra:  # their own requirements (typing_extensions, …) are the interpreter's
        _pip("install", "--no-deps", "--target", str(env.folder), *extra)
    # setup.py imports the release itself: it needs the requirements above and the stubs already
    _pip(
        "install",
        "--no-deps",
        "--no-build-isolation",
        "--target",
        str(env.folder),
        "--upgrade",
        str(sdist),
        env=env.environ(),
    )
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
