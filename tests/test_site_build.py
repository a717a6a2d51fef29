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
