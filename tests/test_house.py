"""The shape of the kit: which package may import which, and how big a module may grow.

The kit is three packages with arrows one way (README, *Layout*; each package's
docstring says what it may import):

* ``rummy``: the engine, below everything; no Jupyter package, nothing of the kit's
  other packages;
* ``tableserver``: the table service (HTTP API, store, bots, presence, the hub
  service), which imports the engine and never ipywidgets or ``widgets``, and its
  kernel-side client, ``tableserver.client``, which talks to the service over HTTP
  and imports no server module and no widgets;
* ``widgets``: every view, which imports the engine and the client, never a server
  module.

These tests read the source with :mod:`ast`, so an import inside a function counts
as much as one at the top of a module.  Two kinds of import are not edges of the
graph: one under ``if TYPE_CHECKING:`` (it never runs), and a value's rich-display
hook (``_repr_svg_``, ``_repr_html_``) importing :mod:`rummy.render` when a
notebook shows the value, as STYLE.md's python-chess example does (``render``
draws cards and melds, so it imports them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rummy", "widgets", "tableserver")
#: the longest a module of the kit may be
MAX_LINES = 1500
#: the kernel-side modules of tableserver (everything else there is the server)
CLIENT = ("tableserver.client", "tableserver.progress_client", "tableserver.wire")
JUPYTER = ("ipywidgets", "IPython", "ipykernel", "jupyter_server", "jupyterhub", "voila",
           "notebook", "comm", "traitlets", "nbformat", "nbclient")


def modules() -> dict[str, Path]:
    """Every module of the kit's packages, by dotted name."""
    out = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


MODULES = modules()


def _skipped(tree: ast.Module) -> set[int]:
    """The ids of the import nodes that are no edges: under ``if TYPE_CHECKING:``,
    and ``rummy.render`` in a ``_repr_*_`` display hook."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            out |= {id(n) for b in node.body for n in ast.walk(b)}
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("_repr_") \
                and node.name.endswith("_"):
            out |= {id(n) for n in ast.walk(node)
                    if isinstance(n, ast.ImportFrom) and n.module == "rummy"
                    and [a.name for a in n.names] == ["render"]}
    return out


def imports(name: str) -> Iterator[tuple[str, list[str], int]]:
    """(module imported, names taken from it, line) for every import in module
    ``name`` that runs, at any depth; relative imports resolved."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _skipped(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")
                up = up[:len(up) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            yield base, [a.name for a in node.names], node.lineno


def kit_target(module: str, names: list[str]) -> list[str]:
    """The kit modules an import reaches: ``from rummy import search`` reaches
    ``rummy.search`` (a submodule) or ``rummy`` (a name of the package)."""
    if module.split(".")[0] not in PACKAGES:
        return []
    out = []
    for n in names or [""]:
        full = f"{module}.{n}" if n else module
        out.append(full if full in MODULES else module)
    return out


def test_the_kit_has_the_modules_these_tests_read() -> None:
    assert {"rummy.search", "rummy.practice", "rummy.rulebook", "tableserver.client",
            "widgets.apps"} <= set(MODULES)


def test_no_import_cycle_among_the_packages() -> None:
    edges: dict[str, set[str]] = {p: set() for p in PACKAGES}
    where: dict[tuple[str, str], str] = {}
    for name in MODULES:
        me = name.split(".")[0]
        for module, names, line in imports(name):
            for target in kit_target(module, names):
                other = target.split(".")[0]
                if other != me:
                    edges[me].add(other)
                    where.setdefault((me, other), f"{name}:{line} imports {target}")
    assert edges["rummy"] == set(), [where[("rummy", p)] for p in edges["rummy"]]
    assert "widgets" not in edges["tableserver"], where.get(("tableserver", "widgets"))


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for module, names, _line in imports(name):
            for target in kit_target(module, names):
                if target != name:
                    graph[name].add(target)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_one_that_imports_it_back() -> None:
    # a package's __init__ re-exports its modules, which may import their package's
    # shared names: an edge into a package's __init__ from its own modules is not a cycle
    graph = _graph()
    for name, targets in graph.items():
        graph[name] = {t for t in targets
                       if not (t in MODULES and MODULES[t].name == "__init__.py"
                               and name.startswith(t + "."))}
    assert _cycles(graph) == []


@pytest.mark.parametrize("name", [n for n in MODULES
                                  if n.startswith("tableserver") and n not in CLIENT])
def test_no_server_module_imports_the_views_or_ipywidgets(name: str) -> None:
    for module, _names, line in imports(name):
        top = module.split(".")[0]
        assert top not in ("widgets", "ipywidgets", "IPython", "ipykernel"), f"{name}:{line} imports {module}"
        assert module not in CLIENT or module == "tableserver.wire", f"{name}:{line} imports {module}"


@pytest.mark.parametrize("name", CLIENT)
def test_the_client_imports_no_server_module_and_no_view(name: str) -> None:
    for module, names, line in imports(name):
        for target in kit_target(module, names):
            assert target.split(".")[0] != "widgets", f"{name}:{line} imports {target}"
            assert not target.startswith("tableserver") or target in CLIENT, \
                f"{name}:{line} imports {target}"
        assert module.split(".")[0] not in JUPYTER, f"{name}:{line} imports {module}"


@pytest.mark.parametrize("name", [n for n in MODULES if n.startswith("widgets")])
def test_the_views_reach_the_table_service_only_through_its_client(name: str) -> None:
    for module, names, line in imports(name):
        for target in kit_target(module, names):
            assert not target.startswith("tableserver") or target in CLIENT, \
                f"{name}:{line} imports {target}"


@pytest.mark.parametrize("name", [n for n in MODULES if n.startswith("rummy")])
def test_the_engine_imports_no_jupyter_package(name: str) -> None:
    for module, _names, line in imports(name):
        assert module.split(".")[0] not in JUPYTER, f"{name}:{line} imports {module}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_imports_another_modules_private_name(name: str) -> None:
    for module, names, line in imports(name):
        if module.split(".")[0] not in PACKAGES and module.split(".")[0] not in ("tests",):
            continue
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        private += [p for p in module.split(".") if p.startswith("_") and not p.startswith("__")]
        assert not private, f"{name}:{line} imports {', '.join(private)} from {module}"


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_reads_another_modules_private_name(name: str) -> None:
    """``from rummy import search`` then ``search._tables``: a private name
    read through the module object counts as an import of it."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    bound: dict[str, str] = {}
    for module, names, _line in imports(name):
        for n in names:
            if f"{module}.{n}" in MODULES:
                bound[n] = f"{module}.{n}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in MODULES:
                    bound[alias.asname or alias.name.split(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.asname and f"{node.module}.{alias.name}" in MODULES:
                    bound[alias.asname] = f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in bound and node.attr.startswith("_")
                and not node.attr.startswith("__")):
            raise AssertionError(f"{name}:{node.lineno} reads {bound[node.value.id]}.{node.attr}")


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_is_longer_than_the_limit(name: str) -> None:
    lines = MODULES[name].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{name} has {lines} lines; split it where it reads well"
