"""The test suite's own house: what tests share is in helper modules, never in
a test module, and every helper is imported one way.

A test module (``test_*.py``) is collected by pytest; code another file needs
(a fixture's helper, a replica of a table, a brute force) lives in a helper
module beside the tests (``tests/brute.py``, ``tests/browser/pages.py`` ...),
so that running one test file never runs, or depends on, another's tests.
Helpers are imported through the ``tests`` package (``from tests.browser
import harness``), never as a top-level name found through ``sys.path``: a
module imported under two names is two modules, with two copies of its state.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
#: The helper modules of the tests, by their bare name (``harness``, ``brute`` ...).
HELPERS = {p.stem for p in TESTS.rglob("*.py")
           if not p.stem.startswith("test_") and p.stem not in ("__init__", "conftest")}


def imported(source: str) -> Iterator[tuple[int, str]]:
    """Each module an import statement of ``source`` names, with its line: ``import
    a.b`` names ``a.b``; ``from a import b`` names ``a`` and ``a.b`` (``b`` may be
    a module); a relative import keeps its dots.

    >>> sorted(imported("import a.b\\nfrom c import d, e\\nfrom . import f"))
    [(1, 'a.b'), (2, 'c'), (2, 'c.d'), (2, 'c.e'), (3, '.'), (3, '.f')]
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, base + ("" if base.endswith(".") else ".") + alias.name


def imported_test_modules(source: str) -> list[str]:
    """The test modules that ``source`` imports (any part of the name ``test_*``).

    >>> imported_test_modules("from test_probability import brute_complete")
    ['test_probability']
    >>> imported_test_modules("from tests.browser import test_classroom, harness")
    ['tests.browser.test_classroom']
    >>> imported_test_modules("from tests.brute import brute_min_penalty\\nimport pytest")
    []
    """
    found = set()
    for _, name in imported(source):
        parts = name.split(".")
        at = next((i for i, part in enumerate(parts) if part.startswith("test_")), None)
        if at is not None:
            found.add(".".join(parts[:at + 1]))
    return sorted(found)


def bare_helpers_imported(source: str) -> list[str]:
    """The helper modules that ``source`` imports by a bare name found on ``sys.path``
    (``import harness``) rather than through the ``tests`` package.

    >>> bare_helpers_imported("import harness\\nfrom tests.browser import pages")
    ['harness']
    """
    return sorted({name.split(".")[0] for _, name in imported(source)} & HELPERS)


def python_files() -> list[Path]:
    """Every Python file of the tests (test modules, helpers, conftest files), and
    of the benchmarks and scripts, which use the same servers and browser harness."""
    return sorted([*TESTS.rglob("*.py"), *(ROOT / "benchmarks").glob("*.py"),
                   *(ROOT / "scripts").glob("*.py")])


def test_no_file_imports_a_test_module() -> None:
    found = {str(p.relative_to(ROOT)): names for p in python_files()
             if (names := imported_test_modules(p.read_text(encoding="utf-8")))}
    assert not found, ("move what these files take from a test module into a helper "
                       f"module (tests/brute.py, tests/browser/pages.py ...): {found}")


def test_the_tests_import_their_helpers_through_the_tests_package() -> None:
    found = {str(p.relative_to(ROOT)): names for p in TESTS.rglob("*.py")
             if (names := bare_helpers_imported(p.read_text(encoding="utf-8")))}
    assert not found, f"import these as tests.<module> (from tests.browser import harness): {found}"


def test_the_checks_can_fail() -> None:
    assert imported_test_modules("from test_gin import position") == ["test_gin"]
    assert imported_test_modules("def f():\n    import tests.test_bots as b\n") == [
        "tests.test_bots"]
    assert bare_helpers_imported("def f():\n    from brute import brute_min_penalty\n") == [
        "brute"]


def test_every_helper_module_says_what_it_holds() -> None:
    for path in TESTS.rglob("*.py"):
        if path.stem in HELPERS:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
            assert doc, f"{path.relative_to(ROOT)} has no docstring saying what it holds"
