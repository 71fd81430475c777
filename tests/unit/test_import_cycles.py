"""No import cycle anywhere in dsref, and no private name imported from another module, read from the code itself.

Every ``import`` and ``from … import`` statement of every module under ``dsref/`` counts, wherever it stands: at
module level, inside a function, under ``if TYPE_CHECKING``; relative or absolute. An edge goes from the importing
module to:

* the module named (``import dsref.tree.paths``, ``from ..tree import paths``, ``from ..tree.paths import X``);
* for ``from PKG import NAME``, the module ``PKG.NAME`` when there is one, else ``PKG`` itself (its ``__init__``);
* for a package (``import dsref.site``, ``from dsref.site import LANGS``), its ``__init__``.

What Python does on its own is no edge: importing ``dsref.site.fit`` runs ``dsref/site/__init__.py`` first, yet a
submodule depends on its package's ``__init__`` only where it imports a name from it. So a package whose ``__init__``
imports none of its submodules never forms a cycle with them, and one whose ``__init__`` imports a submodule forms a
cycle only with a submodule that imports the ``__init__`` back (directly or through others).

Imports from outside dsref (the standard library, pydantic) are no part of the graph.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "dsref"

Graph = dict[str, dict[str, int]]
"""Module → the modules it imports → the line of the first statement that does."""


def module_files(package: Path) -> dict[str, Path]:
    """Every module under ``package`` by its dotted name (a package by its own name, for its ``__init__.py``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _base(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a ``from`` statement of module ``name`` names, its dots resolved."""
    if not node.level:
        return node.module or ""
    package = name if _is_package(path) else name.rpartition(".")[0]
    steps = package.split(".")
    base = ".".join(steps[: len(steps) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


@functools.cache
def _import_statements(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a file, wherever it stands (parsed once for all the tests; a file without the word
    ``import``, as most generated data modules are, has none)."""
    source = path.read_bytes()
    if b"import" not in source:
        return []
    return [node for node in ast.walk(ast.parse(source, str(path))) if isinstance(node, (ast.Import, ast.ImportFrom))]


def imports(name: str, path: Path, known: Iterable[str]) -> Iterator[tuple[str, int, list[str]]]:
    """What module ``name`` imports of ``known``: (the module, the line, the names taken from it)."""
    known = set(known)
    for node in _import_statements(path):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    yield alias.name, node.lineno, []
        elif isinstance(node, ast.ImportFrom):
            base = _base(name, path, node)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in known:
                    yield submodule, node.lineno, []
                elif base in known:
                    yield base, node.lineno, [alias.name]


def import_graph(package: Path) -> Graph:
    files = module_files(package)
    graph: Graph = {name: {} for name in files}
    for name, path in files.items():
        for target, line, _ in imports(name, path, files):
            graph[name].setdefault(target, line)
    return graph


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph``, each sorted, those of one module left out unless it
    imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph[node]:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def one_cycle(graph: Graph, component: list[str]) -> list[str]:
    """A shortest way round through the component's first module, as ``module:line`` steps."""
    members, start = set(component), component[0]
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier and start not in came_from:
        following = []
        for node in frontier:
            for target in sorted(graph[node]):
                if target in members and target not in came_from:
                    came_from[target] = node
                    following.append(target)
        frontier = following
    way = [start]
    while len(way) == 1 or way[-1] != start:
        way.append(came_from[way[-1]])
    way.reverse()  # start, ..., start
    return [f"{node}:{graph[node][following]}" for node, following in itertools.pairwise(way)] + [start]


def cycles_message(graph: Graph) -> str:
    lines = []
    for component in strongly_connected(graph):
        lines.append(f"import cycle among {', '.join(component)}: {' -> '.join(one_cycle(graph, component))}")
    return "\n".join(lines)


def test_no_import_cycle_in_dsref() -> None:
    """Move what two modules share down into a module both can import (as ``dsref/site/header.py`` holds the
    generated pages' first line), rather than importing it inside a function: that hides the cycle, it does not
    end it."""
    message = cycles_message(import_graph(PACKAGE))
    assert message == "", message


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_every_kind_of_import_closes_a_cycle(tmp_path: Path) -> None:
    """The finder sees an import wherever it stands and however it is spelled."""
    spelled = {
        "in a function": "def f():\n    from . import b\n",
        "under TYPE_CHECKING": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .b import X\n",
        "absolute": "import pkg.b\n",
        "a module taken from its package": "from pkg import b\n",
        "a name from a module": "from pkg.b import X\n",
    }
    for how, line in spelled.items():
        root = tmp_path / how.replace(" ", "_")
        package = _write(root, {"pkg/__init__.py": "", "pkg/a.py": line, "pkg/b.py": "from .a import Y\n"})
        graph = import_graph(package)
        assert strongly_connected(graph) == [["pkg.a", "pkg.b"]], how
        assert cycles_message(graph) == "import cycle among pkg.a, pkg.b: pkg.a:" + (
            f"{line.count(chr(10))} -> pkg.b:1 -> pkg.a"
        ), how


def test_a_submodule_and_its_packages_init(tmp_path: Path) -> None:
    """A submodule that takes a name from its package's ``__init__`` is a cycle only where that ``__init__`` imports
    the submodule back: Python running the ``__init__`` first is no import of the submodule's own."""
    alone = _write(tmp_path / "alone", {"pkg/__init__.py": "LANGS = ()\n", "pkg/page.py": "from . import LANGS\n"})
    assert strongly_connected(import_graph(alone)) == []
    exporting = _write(
        tmp_path / "exporting",
        {"pkg/__init__.py": "from .page import page\n", "pkg/page.py": "def page():\n    pass\n"},
    )
    assert strongly_connected(import_graph(exporting)) == []
    both = _write(
        tmp_path / "both",
        {
            "pkg/__init__.py": "LANGS = ()\n\ndef pages():\n    from .page import page\n",
            "pkg/page.py": "from . import LANGS\n",
        },
    )
    assert cycles_message(import_graph(both)) == "import cycle among pkg, pkg.page: pkg:4 -> pkg.page:1 -> pkg"
    deeper = _write(
        tmp_path / "deeper",
        {
            "pkg/__init__.py": "import pkg.sub.leaf\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/leaf.py": "from ... import x\n",
        },
    )
    assert strongly_connected(import_graph(deeper)) == []  # `from ... import x` climbs above pkg: not ours


# -- private names ---------------------------------------------------------------------------------------------------


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def private_imports(package: Path) -> list[str]:
    """Each statement that takes a private name (``_x``) from another module, or a private module (``_m.py``) from
    outside the package that holds it: ``dsref/schema/_meta.py`` is the schema package's own, for its modules
    (subpackages included) to import, and for no one else."""
    files = module_files(package)
    found = []
    for name, path in files.items():
        for target, line, names in imports(name, path, files):
            steps = target.split(".")
            for depth, step in enumerate(steps):
                holder = ".".join(steps[:depth])
                if _is_private(step) and not _within(name, holder):
                    found.append(f"{path.relative_to(package.parent)}:{line}: the private module {target}")
            private = [n for n in names if _is_private(n)]
            if private:
                found.append(f"{path.relative_to(package.parent)}:{line}: {', '.join(private)} from {target}")
    return sorted(set(found))


def test_no_module_imports_a_private_name_of_another_module() -> None:
    """What a module shares with another is public (no leading ``_``); a package's private module is for that
    package alone. Ruff's PLC2701 holds tests and scripts to this; it leaves imports inside dsref alone."""
    found = private_imports(PACKAGE)
    assert found == [], "\n".join(found)


def test_private_names_the_check_catches(tmp_path: Path) -> None:
    package = _write(
        tmp_path,
        {
            "pkg/__init__.py": "from ._meta import option\n",
            "pkg/_meta.py": "def option():\n    pass\n_hidden = 1\n",
            "pkg/lang.py": "def _fallback():\n    pass\n",
            "pkg/schema/__init__.py": "from .._meta import option\nfrom pkg import _meta\n",
            "pkg/cli.py": "def f():\n    from .lang import _fallback\n",
            "pkg/other/__init__.py": "",
            "pkg/other/x.py": "from .._meta import _hidden\n",
            "pkg/other/_own.py": "",
            "pkg/other/y.py": "from . import _own\nfrom ._own import thing\n",
            "pkg/z.py": "from .other import _own\nimport pkg.other._own\n",
        },
    )
    assert private_imports(package) == [
        "pkg/cli.py:2: _fallback from pkg.lang",
        "pkg/other/x.py:1: _hidden from pkg._meta",
        "pkg/z.py:1: the private module pkg.other._own",
        "pkg/z.py:2: the private module pkg.other._own",
    ]
