"""Build the playground's files (the page is docs/{en,zh}/playground.md) from the pins in playground/pins.toml.

    python scripts/playground.py                # into build/playground/; the next site build ships them
    python scripts/playground.py --check        # only check that the pins fit together (downloads what is missing)

Steps: download Pyodide's runtime (npm) and the pinned wheels (PyPI) into .cache/playground/, each checked against
its pinned hash; check the rule written beside the pins (Pyodide, pydantic and pydantic-core move together, and
every wheel's requirements are pinned); build dsref's wheel from this checkout; write the Pyodide lock file that
names exactly these wheels; bundle the editor (CodeMirror 6, playground/package-lock.json) with esbuild. Nothing is
fetched at run time from anywhere but the site itself. Prints what it did and how long each step took.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import hashlib
import http.server
import io
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import urllib.request
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.parser import HeaderParser
from pathlib import Path
from typing import ClassVar

import tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = Path(__file__).resolve().parents[1]
PINS = ROOT / "playground" / "pins.toml"
CACHE = ROOT / ".cache" / "playground"
OUT = ROOT / "build" / "playground"
EDITOR = ROOT / "playground"

Matcher = Callable[[bytes], bool]
"""Whether downloaded bytes are the pinned ones."""

RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
"""What the page needs of Pyodide's npm package (its own lock file is read for its ABI, not shipped)."""


@dataclass(frozen=True)
class WheelPin:
    name: str
    version: str
    url: str
    sha256: str

    @property
    def filename(self) -> str:
        return self.url.rsplit("/", 1)[1]


@dataclass(frozen=True)
class PyodidePin:
    version: str
    url: str
    integrity: str


@dataclass(frozen=True)
class Pins:
    pyodide: PyodidePin
    wheels: tuple[WheelPin, ...]


@dataclass(frozen=True)
class Runtime:
    """What Pyodide's own lock file says about the interpreter its wheels must be built for."""

    python: str  # "3.14.2"
    abi: str  # "2026_0"
    arch: str  # "wasm32"
    info: dict[str, str]

    @property
    def platform_tag(self) -> str:
        return f"pyemscripten_{self.abi}_{self.arch}"

    @property
    def python_tag(self) -> str:
        major, minor = self.python.split(".")[:2]
        return f"cp{major}{minor}"


@dataclass(frozen=True)
class WheelInfo:
    """A downloaded wheel as its name and metadata describe it."""

    pin: WheelPin
    tags: frozenset[tuple[str, str, str]]  # (interpreter, abi, platform)
    requires: tuple[Requirement, ...]
    imports: tuple[str, ...]


def read_pins(path: Path = PINS) -> Pins:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Pins(PyodidePin(**data["pyodide"]), tuple(WheelPin(**wheel) for wheel in data["wheel"]))


def _download(url: str, target: Path, matches: Matcher) -> Path:
    """``url`` saved at ``target`` (kept from an earlier run when its hash still matches)."""
    if target.is_file() and matches(target.read_bytes()):
        return target
    with urllib.request.urlopen(url, timeout=120) as answer:
        data = answer.read()
    if not matches(data):
        raise SystemExit(f"playground: {url} does not have the hash pinned in {PINS.relative_to(ROOT)}")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    return target


def sha256_matches(expected: str) -> Matcher:
    return lambda data: hashlib.sha256(data).hexdigest() == expected


def integrity_matches(expected: str) -> Matcher:
    """npm's Subresource Integrity string (``sha512-<base64>``)."""
    algorithm, _, digest = expected.partition("-")
    return lambda data: base64.b64encode(hashlib.new(algorithm, data).digest()).decode() == digest


def runtime_of(lock: dict[str, object]) -> Runtime:
    info = lock["info"]
    assert isinstance(info, dict)
    return Runtime(python=info["python"], abi=info["abi_version"], arch=info["arch"], info=info)


def wheel_info(pin: WheelPin, data: bytes) -> WheelInfo:
    name, version, _build, tags = parse_wheel_filename(pin.filename)
    if canonicalize_name(name) != canonicalize_name(pin.name) or str(version) != pin.version:
        raise SystemExit(f"playground: {pin.filename} is not {pin.name} {pin.version}")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        names = wheel.namelist()
        (metadata_name,) = [n for n in names if n.count("/") == 1 and n.endswith(".dist-info/METADATA")]
        metadata = HeaderParser().parsestr(wheel.read(metadata_name).decode("utf-8"))
    requires = tuple(Requirement(text) for text in metadata.get_all("Requires-Dist") or [])
    tops = sorted(
        {n.split("/", 1)[0] for n in names if "/" in n and not n.split("/", 1)[0].endswith((".dist-info", ".data"))}
    )
    tops += sorted(n[:-3] for n in names if "/" not in n and n.endswith(".py"))
    return WheelInfo(pin, frozenset((t.interpreter, t.abi, t.platform) for t in tags), requires, tuple(tops))


def fit_problems(runtime: Runtime, wheels: list[WheelInfo], dsref_requires: list[Requirement]) -> list[str]:
    """Why these wheels cannot run together on this Pyodide (empty when they can): a wheel built for another
    interpreter, or a requirement (pydantic's exact pydantic-core included) that no pinned wheel satisfies."""
    problems = []
    pinned = {canonicalize_name(w.pin.name): w.pin.version for w in wheels}
    environment = {
        "python_version": ".".join(runtime.python.split(".")[:2]),
        "python_full_version": runtime.python,
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": runtime.arch,
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "os_name": "posix",
        "extra": "",
    }
    for wheel in wheels:
        pure = any(
            interpreter.startswith("py3") and abi == "none" and plat == "any" for interpreter, abi, plat in wheel.tags
        )
        built_here = (runtime.python_tag, runtime.python_tag, runtime.platform_tag) in wheel.tags
        if not (pure or built_here):
            problems.append(
                f"{wheel.pin.filename} is built neither for any Python nor for this Pyodide's "
                f"{runtime.python_tag}-{runtime.platform_tag}: move Pyodide, pydantic and pydantic-core together"
            )
    needs = [(w.pin.name, r) for w in wheels for r in w.requires] + [("dsref", r) for r in dsref_requires]
    for who, requirement in needs:
        if requirement.marker is not None and not requirement.marker.evaluate(environment):
            continue
        version = pinned.get(canonicalize_name(requirement.name))
        if version is None:
            problems.append(f"{who} needs {requirement}, which is not pinned")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(
                f"{who} needs {requirement}, the pin is {version}: move Pyodide, pydantic and pydantic-core together"
            )
    return problems


def _dsref_requires() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [Requirement(text) for text in project["dependencies"]]


def _timed(label: str, start: float) -> None:
    print(f"  {label}: {time.perf_counter() - start:.1f} s")


def fetch_all(pins: Pins) -> tuple[Path, list[tuple[WheelInfo, Path]]]:
    tarball = _download(
        pins.pyodide.url, CACHE / f"pyodide-{pins.pyodide.version}.tgz", integrity_matches(pins.pyodide.integrity)
    )
    wheels = []
    for pin in pins.wheels:
        path = _download(pin.url, CACHE / pin.filename, sha256_matches(pin.sha256))
        wheels.append((wheel_info(pin, path.read_bytes()), path))
    return tarball, wheels


def _runtime_members(tarball: Path) -> dict[str, bytes]:
    with tarfile.open(tarball) as tar:
        found = {}
        for member in tar.getmembers():
            name = member.name.removeprefix("package/")
            if name in (*RUNTIME_FILES, "pyodide-lock.json") and member.isfile():
                handle = tar.extractfile(member)
                assert handle is not None
                found[name] = handle.read()
    missing = [n for n in (*RUNTIME_FILES, "pyodide-lock.json") if n not in found]
    if missing:
        raise SystemExit(f"playground: {tarball.name} lacks {', '.join(missing)}")
    return found


def check(pins: Pins) -> tuple[Runtime, dict[str, bytes], list[tuple[WheelInfo, Path]]]:
    tarball, wheels = fetch_all(pins)
    members = _runtime_members(tarball)
    runtime = runtime_of(json.loads(members["pyodide-lock.json"]))
    problems = fit_problems(runtime, [info for info, _ in wheels], _dsref_requires())
    if problems:
        raise SystemExit("playground: the pins do not fit together:\n  " + "\n  ".join(problems))
    return runtime, members, wheels


def build_requirements_missing() -> list[str]:
    """What ``[build-system] requires`` of pyproject.toml asks that this interpreter lacks (a fresh venv's
    setuptools is often older than the one dsref's build needs)."""
    from importlib.metadata import PackageNotFoundError, version

    missing = []
    for line in tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]["requires"]:
        requirement = Requirement(line)
        try:
            installed = version(requirement.name)
        except PackageNotFoundError:
            missing.append(line)
            continue
        if not requirement.specifier.contains(installed, prereleases=True):
            missing.append(f"{line} (installed: {installed})")
    return missing


PACKAGE_SOURCE = ("pyproject.toml", "README.md", "LICENSE", "dsref")
"""What setuptools reads to build dsref's wheel (pyproject.toml names the readme and the package)."""


def build_dsref_wheel(into: Path) -> Path:
    """dsref's wheel, built from this checkout (what ``pip install .`` would install): with this interpreter's
    setuptools where it has what the build needs (no download), else in pip's isolated build environment.

    setuptools builds in the source folder's ``build/`` and ``*.egg-info``: the build runs on a copy of the
    package's sources, so that no file a build once left there (a module since removed) reaches the wheel, and two
    builds at once (the tests run on several workers) never share a folder."""
    isolation = [] if build_requirements_missing() else ["--no-build-isolation"]
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        for name in PACKAGE_SOURCE:
            if (ROOT / name).is_dir():
                shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            else:
                source.mkdir(exist_ok=True)
                shutil.copyfile(ROOT / name, source / name)
        wheels = Path(scratch) / "wheels"
        subprocess.run(
            [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", *isolation, "-w", str(wheels), str(source)],
            check=True,
        )
        (built,) = wheels.glob("dsref-*.whl")
        target = into / built.name
        shutil.copyfile(built, target)
    return target


def lock_entry(name: str, version: str, path: Path, depends: list[str], imports: tuple[str, ...]) -> dict[str, object]:
    return {
        "name": name,
        "version": version,
        "file_name": path.name,
        "install_dir": "site",
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "package_type": "package",
        "imports": list(imports),
        "depends": depends,
        "unvendored_tests": False,
        "shared_library": False,
    }


def write_lock(runtime: Runtime, wheels: list[tuple[WheelInfo, Path]], dsref_wheel: Path, into: Path) -> None:
    """The Pyodide lock file of the page: the pinned wheels and dsref's, each with the pinned wheels it needs."""
    pinned = {canonicalize_name(info.pin.name) for info, _ in wheels}
    environment = {"python_version": ".".join(runtime.python.split(".")[:2]), "sys_platform": "emscripten", "extra": ""}

    def depends(requires: tuple[Requirement, ...] | list[Requirement]) -> list[str]:
        return sorted(
            {
                canonicalize_name(r.name)
                for r in requires
                if (r.marker is None or r.marker.evaluate(environment)) and canonicalize_name(r.name) in pinned
            }
        )

    packages = {}
    for info, path in wheels:
        name = canonicalize_name(info.pin.name)
        shipped = into / path.name  # as shipped (compiled to bytecode, maybe): the browser checks this hash
        packages[name] = lock_entry(name, info.pin.version, shipped, depends(info.requires), info.imports)
    version = dsref_wheel.name.split("-")[1]
    packages["dsref"] = lock_entry("dsref", version, dsref_wheel, depends(_dsref_requires()), ("dsref",))
    (into / "pyodide-lock.json").write_text(
        json.dumps({"info": runtime.info, "packages": packages}, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )


def bundle_editor(into: Path) -> None:
    """``npm ci`` (when the lock changed) and esbuild: the page's script and the worker's; and the page's
    stylesheet."""
    modules = EDITOR / "node_modules"
    stamp = modules / ".package-lock.json"
    if not stamp.is_file() or stamp.stat().st_mtime < (EDITOR / "package-lock.json").stat().st_mtime:
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=EDITOR, check=True)
    esbuild = modules / ".bin" / "esbuild"
    for source in ("page.js", "worker.js"):
        subprocess.run(
            [
                str(esbuild),
                str(EDITOR / "src" / source),
                "--bundle",
                "--format=esm",
                "--minify",
                "--target=es2022",
                "--external:./pyodide/*",
                "--log-level=warning",
                f"--outfile={into / source}",
            ],
            check=True,
        )
    shutil.copyfile(EDITOR / "src" / "page.css", into / "page.css")  # the page's own styles, linked by page.js


_COMPILE = r"""
import py_compile, zipfile
from pathlib import Path

compiled = 0
for name in NAMES:
    source, target = Path("/work") / name, Path("/work") / (name + ".pyc-zip")
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.endswith(".py") and "/__pycache__/" not in info.filename:
                scratch = Path("/tmp/module.py")
                scratch.write_bytes(data)
                try:
                    py_compile.compile(
                        str(scratch), cfile="/tmp/module.pyc", dfile=info.filename, doraise=True,
                        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
                    )
                except py_compile.PyCompileError:
                    pass  # kept as source (a test file written to fail, say)
                else:
                    zout.writestr(info.filename + "c", Path("/tmp/module.pyc").read_bytes())
                    compiled += 1
                    continue
            zout.writestr(info, data)
    target.replace(source)
compiled
"""
"""Run inside Pyodide: each zip of ``NAMES`` (under /work) with its modules as bytecode in their place (``x.pyc``
beside where ``x.py`` was, which Python imports without a source), compiled by the interpreter that will run them."""


def to_bytecode(archives: list[Path], out: Path, runtime: Runtime) -> int:
    """Replace the modules of the standard library's zip and of the wheels by bytecode (Pyodide then neither reads
    nor compiles source at start-up); returns how many modules were compiled. An archive compiled before (the same
    bytes) is taken from .cache/playground/bytecode/."""
    cached = CACHE / "bytecode"
    keys = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in archives}
    todo = []
    for path, key in keys.items():
        if (cached / key).is_file():
            shutil.copyfile(cached / key, path)
        else:
            todo.append(path)
    if not todo:
        return 0
    script = out / "compile.mjs"
    names = [p.relative_to(out).as_posix() for p in todo]
    script.write_text(
        "import { loadPyodide } from './pyodide/pyodide.mjs';\n"
        "const py = await loadPyodide({ indexURL: new URL('./pyodide/', import.meta.url).pathname, "
        f"lockFileContents: {json.dumps({'info': runtime.info, 'packages': {}})} }});\n"
        "py.FS.mkdirTree('/work');\n"
        f"py.FS.mount(py.FS.filesystems.NODEFS, {{ root: {json.dumps(str(out))} }}, '/work');\n"
        f"py.globals.set('NAMES', py.toPy({json.dumps(names)}));\n"
        f"console.log(py.runPython({json.dumps(_COMPILE)}));\n",
        encoding="utf-8",
    )
    try:
        done = subprocess.run(["node", str(script)], capture_output=True, text=True)
    finally:
        script.unlink()
    if done.returncode != 0:
        raise SystemExit(f"playground: compiling to bytecode failed:\n{done.stderr[-3000:]}")
    cached.mkdir(parents=True, exist_ok=True)
    for path in todo:
        shutil.copyfile(path, cached / keys[path])
    return int(done.stdout.split()[-1])


def build(out: Path, *, bytecode: bool = True) -> None:
    pins = read_pins()
    start = time.perf_counter()
    runtime, members, wheels = check(pins)
    _timed(f"Pyodide {pins.pyodide.version} and {len(wheels)} wheels, hashes checked", start)
    if out.exists():
        shutil.rmtree(out)
    (out / "pyodide").mkdir(parents=True)
    (out / "py").mkdir()
    for name in RUNTIME_FILES:
        (out / "pyodide" / name).write_bytes(members[name])
    for _info, path in wheels:
        shutil.copyfile(path, out / "py" / path.name)
    start = time.perf_counter()
    dsref_wheel = build_dsref_wheel(out / "py")
    _timed(f"{dsref_wheel.name}", start)
    if bytecode:
        start = time.perf_counter()
        compiled = to_bytecode(
            [out / "pyodide" / "python_stdlib.zip", *sorted((out / "py").glob("*.whl"))], out, runtime
        )
        _timed(f"{compiled} modules compiled to bytecode by Pyodide's own Python (in node)", start)
    write_lock(runtime, wheels, dsref_wheel, out / "py")
    start = time.perf_counter()
    bundle_editor(out)
    _timed("editor and worker bundled", start)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    shown = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    print(f"playground: {shown} ({size / 2**20:.1f} MB); the next site build ships it from build/playground/")


def stage_pages(root: Path, app: Path) -> None:
    """The playground's two pages under ``root`` as the site places them (``playground/``, ``zh/playground/``), with
    ``app`` (what :func:`build` wrote) and the JSON Schemas, without the rest of the site: for the browser test and
    the benchmark."""
    sys.path.insert(0, str(ROOT))
    from dsref.site.playground import page_html

    shutil.copytree(app, root / "playground" / "app")
    shutil.copytree(ROOT / "schemas", root / "schemas")
    for lang, folder, up in (("en", root / "playground", "../"), ("zh", root / "zh" / "playground", "../../")):
        folder.mkdir(parents=True, exist_ok=True)
        body = page_html(lang, f"{up}playground/app", f"{up}schemas")
        page = f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><body>{body}</body></html>'
        (folder / "index.html").write_text(page, encoding="utf-8")


@contextlib.contextmanager
def serve(root: Path) -> Iterator[str]:
    """``root`` served on 127.0.0.1 (with the types GitHub Pages gives scripts and WebAssembly); yields its URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map: ClassVar[dict[str, str]] = {
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".js": "text/javascript",
            ".mjs": "text/javascript",
            ".wasm": "application/wasm",
        }

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join(timeout=10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="check that the pins fit together; build nothing")
    parser.add_argument("--out", type=Path, default=OUT, help="where to write the files (default: build/playground)")
    parser.add_argument("--source", action="store_true", help="ship Python source, not bytecode (slower start)")
    args = parser.parse_args(argv)
    if args.check:
        runtime, _, wheels = check(read_pins())
        print(f"playground: {len(wheels)} wheels fit Pyodide's {runtime.python_tag}-{runtime.platform_tag}")
        return 0
    build(args.out.resolve(), bytecode=not args.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
