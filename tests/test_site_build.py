"""The static site's pages as ``scripts/build_site.py`` stages them, without building the
site (no Pyodide, no JupyterLite): titles, the cells a learner sees in a lesson, the
links between pages."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "scripts" / "build_site.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_site = _load()


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("site") / "contents"
    build_site.stage_contents(dest)
    return dest


def _cells(path: Path) -> list[dict[str, Any]]:
    return json.loads(path.read_text())["cells"]


def _title_in_browser(script: str, query: str) -> str:
    """The page's title after ``script`` ran at ``?query`` (Node, a stand-in document)."""
    js = ("var document = {title: 'Three Thirteen: play against AI players (Rummy teaching kit)',"
          " getElementById: function () { return null; }};"
          f"var window = {{location: {{search: {json.dumps('?' + query)}}}}};"
          + re.sub(r"</?script>", "", script)
          + "\nconsole.log(document.title);")
    out = subprocess.run(["node", "-e", js], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_the_tre_tretton_page_is_titled_tre_tretton() -> None:
    script = build_site.title_js("three_thirteen")
    assert _title_in_browser(script, "variant=tre_tretton&seed=7").startswith("Tre-tretton")
    assert _title_in_browser(script, "variant=swedish").startswith("Tre-tretton")
    assert _title_in_browser(script, "variant=three_thirteen_jokers").startswith(
        "Three Thirteen with jokers")
    assert _title_in_browser(script, "seed=7").startswith("Three Thirteen:")


def test_lessons_on_the_site_show_no_test_markers(staged: Path) -> None:
    for path in sorted(staged.glob("*.ipynb")):
        for cell in _cells(path):
            source = "".join(cell["source"])
            assert "NBVAL" not in source, (path.name, source[:80])


def test_the_sites_helper_cells_are_folded_away(staged: Path) -> None:
    lesson = staged / "01_three_thirteen.ipynb"
    helpers = [c for c in _cells(lesson) if "register_cell_magic" in "".join(c["source"])]
    assert helpers, "lesson 01 needs the %%needs_pandas helper on the site"
    for cell in helpers:
        assert cell["metadata"].get("jupyter", {}).get("source_hidden") is True
        assert "site-helper" in cell["metadata"].get("tags", [])


def test_every_lesson_and_app_keeps_the_record_in_the_browser_first(staged: Path) -> None:
    """Each lesson and app page first opens the browser's record (IndexedDB), folded away."""
    pages = [*staged.glob("*.ipynb"), *(p for p in (staged / "apps").glob("*.ipynb")
                                        if p.stem != "classroom")]
    assert len(pages) >= 15
    for path in pages:
        code = [c for c in _cells(path) if c["cell_type"] == "code"]
        assert "await keep_in_browser()" in "".join(code[0]["source"]), path.name
        assert code[0]["metadata"]["jupyter"]["source_hidden"] is True


def test_the_apps_pages_get_pygments_without_the_lexers_they_never_use(tmp_path: Path) -> None:
    """The apps' pages fetch Pygments with Python's lexer only (IPython's tracebacks):
    the other lexers were 1.5 MB of a cold page's wire bytes; the rest of the wheel, and
    its RECORD, stay whole."""
    import zipfile

    names = ["pygments/__init__.pyc", "pygments/lexers/__init__.pyc",
             "pygments/lexers/_mapping.pyc", "pygments/lexers/python.pyc",
             "pygments/lexers/rust.pyc", "pygments/lexers/markup.pyc",
             "pygments/styles/default.pyc", "pygments-2.19.1.dist-info/METADATA",
             "pygments-2.19.1.dist-info/RECORD"]
    whole = tmp_path / "pygments-2.19.1-py3-none-any.whl"
    with zipfile.ZipFile(whole, "w") as z:
        for n in names:
            z.writestr(n, n.encode())
    (tmp_path / "out").mkdir()
    folder, keep = build_site.APPS_TRIM["pygments"]
    trimmed = build_site.trimmed_wheel(whole, tmp_path / "out", folder, keep)
    assert trimmed.name == "pygments-2.19.1-1apps-py3-none-any.whl"
    with zipfile.ZipFile(trimmed) as z:
        got = set(z.namelist())
        record = z.read("pygments-2.19.1.dist-info/RECORD").decode()
    assert got == set(names) - {"pygments/lexers/rust.pyc", "pygments/lexers/markup.pyc"}
    assert {line.split(",")[0] for line in record.splitlines()} == got


def test_the_sites_standard_library_leaves_out_what_no_page_imports(tmp_path: Path) -> None:
    """The site's standard library (the pages' Python) is without modules no page imports
    (the network's and processes' ones, which cannot work in a browser); the rest, doctest
    too, stays."""
    import zipfile

    names = ["os.pyc", "json/__init__.pyc", "multiprocessing/pool.pyc", "doctest.pyc",
             "encodings/cp437.pyc", "xmlrpc/client.pyc", "email/parser.pyc", "smtplib.pyc"]
    whole = tmp_path / "python_stdlib.zip"
    with zipfile.ZipFile(whole, "w") as z:
        for n in names:
            z.writestr(n, n.encode())
    kept = build_site.trimmed_zip(whole, tmp_path / "kept.zip", build_site.STDLIB_DROP)
    with zipfile.ZipFile(kept) as z:
        assert set(z.namelist()) == {"os.pyc", "json/__init__.pyc", "doctest.pyc",
                                     "encodings/cp437.pyc", "email/parser.pyc"}


def _kit_modules() -> list[Path]:
    return sorted(p for package in ("rummy", "widgets") for p in (ROOT / package).rglob("*.py"))


def _imported(path: Path) -> set[str]:
    """Every module ``path`` imports, at any depth (a function's own imports too)."""
    import ast

    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)
    return names


def test_the_apps_standard_library_keeps_every_module_the_kit_imports() -> None:
    """The apps' pages get a smaller standard library (1.4 MB less on a cold page's wire,
    with the kit's copy below): none of what it leaves out is a module the kit imports,
    anywhere in it, or what it needs to read and write UTF-8 and zip archives."""
    import importlib.util
    import sys

    def dropped(name: str) -> bool:
        return (name.startswith(build_site.APPS_STDLIB_DROP)
                and name not in build_site.APPS_STDLIB_KEEP)

    def member(module: str) -> str | None:
        """The module's name in the standard library's zip (None: not a module here)."""
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            return None
        if spec is None or spec.origin in (None, "built-in", "frozen"):
            return None
        path = module.replace(".", "/")
        return f"{path}/__init__.pyc" if spec.submodule_search_locations else f"{path}.pyc"

    stdlib = set(sys.stdlib_module_names)
    imported = {m for p in _kit_modules() for m in _imported(p) if m.split(".")[0] in stdlib}
    members = {n for m in imported if (n := member(m))}
    assert len(members) > 25  # the scan reads the kit: argparse, json, random, ...
    assert not {n for n in members if dropped(n)}
    for codec in ("__init__", "utf_8", "ascii", "cp437", "latin_1", "idna"):
        assert not dropped(f"encodings/{codec}.pyc"), codec
    # what the apps' pages never import goes
    for name in ("doctest.pyc", "encodings/cp1252.pyc", "_pyrepl/reader.pyc",
                 "xml/etree/ElementTree.pyc", "http/server.pyc", "tomllib/__init__.pyc"):
        assert dropped(name), name
    # IPython's help imports pydoc, which imports the new REPL's pager
    assert not dropped("_pyrepl/pager.pyc") and not dropped("_pyrepl/__init__.pyc")


def test_the_apps_kit_has_no_docstrings_and_keeps_every_line_number() -> None:
    """The apps' copy of the kit (compiled only, 0.55 MB less on a cold page's wire)
    empties every docstring and moves no line: a traceback names the lines of the
    kit's own source."""
    import ast
    import types

    def codes(code: types.CodeType) -> list[types.CodeType]:
        found = [code]
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found += codes(const)
        return found

    emptied = 0
    for path in _kit_modules():
        source = path.read_bytes()
        stripped = build_site.without_docstrings(source)
        whole = codes(compile(source, str(path), "exec"))
        bare = codes(compile(stripped, str(path), "exec"))
        assert [c.co_qualname for c in whole] == [c.co_qualname for c in bare], path
        for a, b in zip(whole, bare, strict=True):
            assert a.co_firstlineno == b.co_firstlineno, (path, a.co_qualname)
            assert [line for *_, line in a.co_lines() if line] == [
                line for *_, line in b.co_lines() if line], (path, a.co_qualname)
        emptied += len(source) - len(stripped)
        for node in ast.walk(ast.parse(stripped)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                 ast.AsyncFunctionDef)):
                assert ast.get_docstring(node, clean=False) in (None, ""), (path, node)
    assert emptied > 100_000  # the kit's docstrings, doctests and all


def test_a_wheel_loses_what_it_is_told_to_and_its_record_says_so(tmp_path: Path) -> None:
    """The lessons' jedi without typeshed's Python 2 and Django stubs, its RECORD remade."""
    import zipfile

    names = ["jedi/__init__.pyc", "jedi/third_party/typeshed/stdlib/2/os.pyi",
             "jedi/third_party/typeshed/stdlib/3/os/__init__.pyi",
             "jedi/third_party/typeshed/stdlib/2and3/abc.pyi",
             "jedi/third_party/django-stubs/django-stubs/__init__.pyi",
             "jedi-0.19.2.dist-info/RECORD"]
    wheel = tmp_path / "jedi-0.19.2-py2.py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        for n in names:
            z.writestr(n, n.encode())
    build_site.wheel_without(wheel, build_site.JEDI_DROP)
    with zipfile.ZipFile(wheel) as z:
        got = set(z.namelist())
        record = z.read("jedi-0.19.2.dist-info/RECORD").decode()
    assert got == {"jedi/__init__.pyc", "jedi/third_party/typeshed/stdlib/3/os/__init__.pyi",
                   "jedi/third_party/typeshed/stdlib/2and3/abc.pyi",
                   "jedi-0.19.2.dist-info/RECORD"}
    assert {line.split(",")[0] for line in record.splitlines()} == got


def test_the_apps_pages_ask_for_their_own_standard_library_and_lock() -> None:
    script = build_site.query_js(["ipython"])
    assert '"./static/pyodide/python_stdlib-apps.zip"' in script
    assert '"./static/pyodide/pyodide-lock-apps.json"' in script
    assert "STDLIB_URL" not in script and "LOCK;" not in script


def test_the_kits_pyodide_looks_up_the_working_folder_last(tmp_path: Path) -> None:
    """The kernel's worker loads the kit's Pyodide (scripts/site/kit-pyodide.js): Python
    starts with the working folder ("", which the worker makes the browser's drive) last
    on sys.path, not first, and everything else where it was (run by Node, as a worker)."""
    pyodide = ROOT / "node_modules" / "pyodide"
    script = ROOT / "scripts" / "site" / build_site.KIT_PYODIDE
    js = f"""
globalThis.self = globalThis;
globalThis.importScripts = (url) => {{
  self.loadPyodide = require(url).loadPyodide;
}};
require({json.dumps(str(script))});
self.loadPyodide({{indexURL: {json.dumps(str(pyodide) + "/")}}}).then((py) => {{
  console.log(py.runPython("import json, sys; json.dumps(sys.path)"));
}}).catch((e) => {{ console.error(e); process.exit(1); }});
"""
    out = subprocess.run(["node", "-e", js], capture_output=True, text=True, check=True,
                         timeout=120)
    path = json.loads(out.stdout.strip().splitlines()[-1])
    assert path[-1] == "" and path.count("") == 1
    assert path[0].endswith("python313.zip")  # the standard library first, as Python has it


def test_the_apps_stand_in_for_piplite_has_what_the_worker_sets_and_installs_nothing(
) -> None:
    """The kernel's worker imports ``piplite.piplite`` and sets two of its names; on an
    app's page that is a stand-in, whose ``install`` says why it installs nothing."""
    import asyncio

    files = build_site.APPS_STANDINS["piplite"]
    module: dict[str, Any] = {}
    exec(compile(files["piplite/piplite.py"], "piplite.py", "exec"), module)  # noqa: S102
    assert module["_PIPLITE_URLS"] == [] and module["_PIPLITE_DISABLE_PYPI"] is True
    with pytest.raises(RuntimeError, match="installs no package: open a lesson"):
        asyncio.run(module["install"]("numpy"))
    assert b"from .piplite import install" in files["piplite/__init__.py"]
    assert build_site.APPS_STANDINS["micropip"] == {}  # only piplite imported it


def test_a_patched_wheel_changes_its_file_once_or_stops_the_build(tmp_path: Path) -> None:
    """The site's IPython imports its terminal's embed() when called (SITE_PATCH): the
    change applies to the text it was made for, exactly once, and the build stops on a
    wheel where that text is not (another IPython) rather than ship it unchanged."""
    import zipfile

    old, new = build_site.SITE_PATCH["ipython"]["IPython/__init__.py"]
    wheel = tmp_path / "ipython-9.0.2-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("IPython/__init__.py", "import sys\n" + old + "x = 1\n")
        z.writestr("ipython-9.0.2.dist-info/RECORD", "")
    (tmp_path / "out").mkdir()
    patched = build_site.patched_wheel(wheel, tmp_path / "out", build_site.SITE_PATCH["ipython"])
    assert patched.name == "ipython-9.0.2-1kit-py3-none-any.whl"
    with zipfile.ZipFile(patched) as z:
        source = z.read("IPython/__init__.py").decode()
    assert "\n" + old not in source and new in source  # no import of it at the top level
    namespace: dict[str, Any] = {}
    exec(compile(source, "IPython/__init__.py", "exec"), namespace)  # noqa: S102
    assert callable(namespace["embed"])  # defined, nothing of the terminal imported
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("IPython/__init__.py", "import sys\n")
        z.writestr("ipython-9.0.2.dist-info/RECORD", "")
    with pytest.raises(SystemExit, match="needs remaking"):
        build_site.patched_wheel(wheel, tmp_path / "out", build_site.SITE_PATCH["ipython"])
