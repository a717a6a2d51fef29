"""Build the static site: the apps as Voici pages and the lessons in JupyterLite, in ``build/site/``.

The browser runs Python itself (Pyodide), so the site is plain files that any web host
serves; nothing is fetched from anywhere else when a page opens.  What goes in:

- Pyodide, the npm package ``pyodide`` at the version ``package-lock.json`` locks (the core
  only: the interpreter and the standard library), in ``static/pyodide/``;
- the pure-Python wheels the kernel needs (micropip, IPython and its dependencies, jedi),
  from the package index at the versions Pyodide's own lock lists, and ipywidgets, comm,
  sympy, mpmath and tqdm at the versions of ``requirements/test.lock``; each becomes an
  entry of the site's ``pyodide-lock.json`` (file name and sha256 of the file shipped)
  and is loaded when the kernel starts, so that no package is looked up elsewhere;
- the kit's own wheel (``rummy`` and ``widgets``, the apps' ``widgets.apps`` with them), made here;
- all of it byte-compiled by Pyodide's own Python under Node (``scripts/site_pyc.cjs``):
  the page's Python writes no bytecode, and compiling IPython, ipywidgets, the kit and the
  standard library at every page load was most of the time a page took to start; the
  apps' pages load only what the apps import, from a lock of their own (``APPS_LOCK``);
- the notebooks: every lesson (those that need pandas, which no Pyodide build here has,
  say so at the top and point to ``make lab`` or Binder), the apps as Voici pages, and the
  classroom page as a page that says it needs the table service.

The Python build tools (jupyterlite-core, its Pyodide kernel, voici-core) are those of
``requirements/site.lock`` in ``build/site-tools`` (``make site`` installs them).  A build
whose inputs have not changed is skipped (``--force`` rebuilds).

    build/site-tools/bin/python scripts/build_site.py            # writes build/site/
    python -m http.server -d build/site 8000                     # then open http://127.0.0.1:8000/

>>> normalize("Prompt_Toolkit"), normalize("jupyterlab.widgets")
('prompt-toolkit', 'jupyterlab-widgets')
>>> query_js()[:8]
'<script>'
"""

from __future__ import annotations

import argparse
import base64
import copy
import hashlib
import html
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build"
OUT = BUILD / "site"
WORK = BUILD / "site-work"
CACHE = BUILD / "site-cache"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"
TEST_LOCK = ROOT / "requirements" / "test.lock"
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: The Pyodide release the kernel (jupyterlite-pyodide-kernel 0.7.0) is built for.
PYODIDE_SERIES = "0.29."
#: Files of the npm package the site needs (no TypeScript declarations, no source maps).
PYODIDE_FILES = ("pyodide.js", "pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm",
                 "python_stdlib.zip", "package.json")
#: Packages taken at the versions Pyodide's lock lists (with what they depend on there).
FROM_PYODIDE_LOCK = ("micropip", "ipython", "jedi", "packaging")
#: Changes the site makes to a wheel's source, ``lock key -> {file: (old, new)}``, the
#: wheel then named with :data:`SITE_BUILD_TAG`: IPython imports its terminal's ``embed``
#: as it is imported, and with it the terminal's shell and prompt_toolkit, a third of the
#: imports of a kernel's start (0.3 s) and 0.7 MB of a cold page's wire; a kernel in a
#: browser runs no terminal.  The site's copy imports it when called.
SITE_PATCH = {"ipython": {"IPython/__init__.py": (
    "from .terminal.embed import embed\n",
    "def embed(*args, **kwargs):  # the terminal's: imported when called (the kit's site)\n"
    "    from .terminal.embed import embed\n\n    return embed(*args, **kwargs)\n")}}
#: The build tag of a wheel the site changed (:data:`SITE_PATCH`).
SITE_BUILD_TAG = "1kit"
#: Packages of Pyodide's lock that the site has as wheels installing nothing: nothing but
#: IPython's terminal (above) imports prompt_toolkit.
SITE_STUBS = ("prompt-toolkit",)
#: Packages taken at the versions of requirements/test.lock: what the kit's widgets and
#: engine import (pandas and matplotlib excepted: no Pyodide build of them is to be had).
FROM_TEST_LOCK: dict[str, tuple[list[str], list[str]]] = {
    # name: (imports, depends)
    "comm": (["comm"], ["traitlets"]),
    "jupyterlab-widgets": (["jupyterlab_widgets"], []),
    "ipywidgets": (["ipywidgets"], ["comm", "ipython", "jupyterlab-widgets", "traitlets",
                                    "widgetsnbextension"]),
    "mpmath": (["mpmath"], []),
    "sympy": (["sympy"], ["mpmath"]),
    "tqdm": (["tqdm"], []),
    # the record of learning's schedule (rummy.progress)
    "fsrs": (["fsrs"], ["typing-extensions"]),
    "typing-extensions": (["typing_extensions"], []),
}
#: The kernel's own wheels (shipped inside its labextension), as lock entries.
KERNEL_WHEELS = {
    "piplite": (["piplite"], ["micropip"]),
    "pyodide-kernel": (["pyodide_kernel"], ["ipykernel", "ipython", "comm"]),
    "ipykernel": (["ipykernel"], []),
    "widgetsnbextension": (["widgetsnbextension"], []),
}
#: What the kernel itself imports as it starts (pyodide-kernel's worker installs each one
#: it does not find, by these names, in ``loadPyodideOptions.packages``).
KERNEL_START = ("sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython", "micropip",
                "piplite")
#: Packages the lessons load when the kernel starts, but the apps' pages do not: no app
#: imports them (the odds' sympy formulas and the simulations' progress bars are lessons'),
#: and unpacking sympy alone took longer than all the rest.  They stay in the site's lock.
LESSONS_ONLY = ("sympy", "mpmath", "tqdm")
#: Packages that the apps' pages have as empty stand-ins, in a lock of their own
#: (:data:`APPS_LOCK`): jedi (with parso, which only jedi needs) gives a notebook its
#: completions, which a Voici page has no use for; it is 1,900 files to unpack, a fifth of
#: the time the wheels took.  IPython starts without it (it completes on its own then).
APPS_STUBS = ("jedi",)
#: Packages that the apps' pages have as stand-ins of a few lines (:data:`APPS_LOCK`):
#: the kernel's worker imports ``piplite.piplite`` (the ``%pip`` of a notebook) as it
#: starts, and with it micropip, packaging and unittest.mock, 0.3 s of a page's start and
#: 0.3 MB of its wire; an app's page installs nothing.  Its stand-in has what the worker
#: sets, and ``install`` says what is wrong.
PIPLITE_STANDIN = {
    "piplite/__init__.py": b"from .piplite import install\n",
    "piplite/piplite.py": (
        b'"""The apps\' pages\' stand-in for piplite: an app\'s page installs no package."""\n'
        b"_PIPLITE_URLS = []\n_PIPLITE_INDICES = {}\n_PIPLITE_DISABLE_PYPI = True\n\n\n"
        b"async def install(*args, **kwargs):\n"
        b"    raise RuntimeError(\"An app's page installs no package: open a lesson \"\n"
        b"                       \"(JupyterLite) to use %pip.\")\n"),
}
APPS_STANDINS = {"piplite": PIPLITE_STANDIN, "micropip": {}}
#: The page's Pyodide: :file:`scripts/site/kit-pyodide.js` (see its header), then Pyodide's.
KIT_PYODIDE = "kit-pyodide.js"
APPS_SKIP = ("parso",)
#: Wheels the apps' pages get trimmed, ``lock key -> what they keep of a folder``: of
#: Pygments' 1.5 MB of lexers (compressed) IPython needs only Python's, for tracebacks (the
#: apps show no code); the lessons keep the whole wheel.  ``(folder, modules kept)``.
APPS_TRIM = {"pygments": ("pygments/lexers/", ("__init__", "_mapping", "python"))}
#: What the site's standard library leaves out: modules no app, lesson, IPython, ipykernel,
#: ipywidgets or Pyodide's kernel imports (a page's ``sys.modules`` after a game has none
#: of them; the network's and processes' modules cannot work in a browser's Python
#: anyway), 0.5 MB of the 4.1 MB archive, compressed.  doctest, tomllib and zoneinfo stay
#: (a learner may try them in a lesson).
STDLIB_DROP = ("multiprocessing/", "xmlrpc/", "wsgiref/", "mailbox.pyc", "_pyio.pyc",
               "imaplib.pyc", "ftplib.pyc", "poplib.pyc", "smtplib.pyc", "turtle.pyc",
               "antigravity.pyc", "__hello__.pyc", "__phello__/", "_android_support.pyc",
               "_apple_support.pyc", "_ios_support.pyc", "zipapp.pyc", "tabnanny.pyc",
               "pyclbr.pyc", "modulefinder.pyc", "pickletools.pyc", "wave.pyc")
#: What the lessons' jedi (their completions) leaves out: typeshed's stubs for Python 2,
#: which jedi reads only for a Python 2, and Django's, which it reads only for Django
#: (neither is to be had in the page's Python 3.13): 0.3 MB of the site.
JEDI_DROP = ("jedi/third_party/typeshed/stdlib/2/", "jedi/third_party/typeshed/third_party/2/",
             "jedi/third_party/django-stubs/")
#: Font Awesome's files for browsers without WOFF (Internet Explorer's EOT, TrueType, and
#: SVG fonts, which only old Safari read): JupyterLab's style offers WOFF2 first, which
#: every browser the site runs in takes.  2.6 MB of the site that no page fetches.
OLD_FONTS = ("fa-*.eot", "fa-*.ttf", "fa-*.svg")
#: The build tag that names a trimmed wheel apart from the whole one beside it.
APPS_BUILD_TAG = "1apps"
#: The apps' pages' Pyodide lock (in static/pyodide, beside the site's own).
APPS_LOCK = "pyodide-lock-apps.json"
#: The apps' pages' standard library (in static/pyodide, beside the site's own): without
#: what :data:`APPS_STDLIB_DROP` names, modules that an app's page never imports (its
#: code is the kit's, fixed; a lesson's learner may type anything, so the lessons keep
#: them).  A page's ``sys.modules`` after every app has run, a Big Table game played, has
#: none of them, and no module of the kit imports one (tests/test_site_build.py).
APPS_STDLIB = "python_stdlib-apps.zip"
APPS_STDLIB_DROP = (
    "_pyrepl/", "doctest.pyc", "_pydatetime.pyc", "optparse.pyc", "configparser.pyc",
    "plistlib.pyc", "trace.pyc", "tomllib/", "zoneinfo/", "tracemalloc.pyc", "csv.pyc",
    "compileall.pyc", "symtable.pyc", "fileinput.pyc", "filecmp.pyc", "shelve.pyc",
    "netrc.pyc", "graphlib.pyc", "pty.pyc", "tty.pyc", "sched.pyc", "webbrowser.pyc",
    "this.pyc", "http/server.pyc", "http/cookiejar.pyc", "http/cookies.pyc", "xml/etree/",
    "xml/sax/", "encodings/")
#: What the apps' standard library keeps of :data:`APPS_STDLIB_DROP`'s folders: the pager
#: of the new REPL (pydoc imports it) and the codecs of Unicode, ASCII, Latin-1, the zip
#: archives' cp437 and the codecs built on none of those tables (a page reads and writes
#: UTF-8; the rest, 250 kB, are national code pages).
APPS_STDLIB_KEEP = ("_pyrepl/__init__.pyc", "_pyrepl/pager.pyc") + tuple(
    f"encodings/{m}.pyc" for m in (
    "__init__", "aliases", "ascii", "base64_codec", "charmap", "cp437", "hex_codec", "idna",
    "latin_1", "punycode", "raw_unicode_escape", "unicode_escape", "utf_16", "utf_16_be",
    "utf_16_le", "utf_32", "utf_32_be", "utf_32_le", "utf_8", "utf_8_sig"))
#: Where the page's Python has the standard library and the wheels (the file names that
#: byte-compiled code carries into tracebacks).
PAGE_STDLIB = "/lib/python313.zip"
PAGE_SITE_PACKAGES = "/lib/python3.13/site-packages"
#: Apps shown as Voici pages (notebooks/apps), in the landing page's order.
APPS = (
    ("three_thirteen", "Three Thirteen",
     "Three Thirteen, Tre-tretton, and Three Thirteen with jokers against three AI players"),
    ("big_table", "Big Table", "the caller-paced game for 2 to 12 players"),
    ("gin_three", "Gin for three", "box, captain and advisor: knock, gin, lay off"),
    ("meld_odds", "Melds and odds", "the meld checker and the odds explorer"),
    ("practice", "Practise the rules", "a drill for every rule, on a new hand each time"),
    ("progress", "Your progress", "the 58 rules: mastered, practising, due again; kept in this "
     "browser"),
    ("classroom", "Classroom", "shared tables for a class: needs a server (make app or make classroom)"),
)
#: What a page that needs the table service says instead.
CLASSROOM_TEXT = (
    "# Classroom\n\n"
    "The classroom's shared tables live in the kit's table service, which this static site "
    "does not have: every page here runs Python in your own browser, with no server behind it.\n\n"
    "**To run a classroom, serve the kit:** `make app` (the apps and the table service on "
    "http://127.0.0.1:8866) or `make classroom`, then open the Classroom app there. "
    "The other apps and the lessons work here as they are.\n"
)


def normalize(name: str) -> str:
    """A package name as the package index compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def run(argv: list[str], **kw: Any) -> None:
    print("+", " ".join(str(a) for a in argv), flush=True)
    subprocess.run([str(a) for a in argv], check=True, **kw)


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def test_lock_pins(path: Path = TEST_LOCK) -> dict[str, str]:
    """``name -> version`` of every ``name==version`` line of the lock."""
    pins = {}
    for line in path.read_text().splitlines():
        m = re.match(r"^([A-Za-z0-9._-]+)==([^\s;]+)", line)
        if m:
            pins[normalize(m[1])] = m[2]
    return pins


def pyodide_dir() -> Path:
    """The npm package ``pyodide`` (``npm ci`` puts it in node_modules), checked."""
    meta = PYODIDE_NPM / "package.json"
    if not meta.exists():
        raise SystemExit(f"{PYODIDE_NPM} is missing: run `npm ci` (make site does)")
    version = json.loads(meta.read_text())["version"]
    if not version.startswith(PYODIDE_SERIES):
        raise SystemExit(f"node_modules/pyodide is {version}; the kernel needs {PYODIDE_SERIES}x "
                         "(package-lock.json)")
    return PYODIDE_NPM


def closure(lock: dict[str, Any], names: Iterable[str]) -> list[str]:
    """``names`` and everything they depend on in Pyodide's lock, by lock key."""
    keys = {normalize(k): k for k in lock["packages"]}
    seen: list[str] = []
    todo = [keys[normalize(n)] for n in names]
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.append(key)
        todo += [keys[normalize(d)] for d in lock["packages"][key]["depends"]
                 if normalize(d) in keys]
    return sorted(seen)


def download(specs: list[str], dest: Path) -> dict[str, Path]:
    """Pure-Python wheels of ``specs`` (``name==version``) from the package index, kept in
    ``dest`` between builds; ``normalized name -> wheel``."""
    dest.mkdir(parents=True, exist_ok=True)

    def have() -> dict[str, Path]:
        found = {}
        for whl in dest.glob("*.whl"):
            name, version = whl.name.split("-")[:2]
            found[f"{normalize(name)}=={version}"] = whl
        return found

    missing = [s for s in specs if normalize(s.split("==")[0]) + "==" + s.split("==")[1]
               not in have()]
    if missing:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--platform", "any", "--python-version", "3.13",
             "--implementation", "py", "--abi", "none", "-d", dest, *missing])
    found = have()
    out = {}
    for s in specs:
        name, version = s.split("==")
        out[normalize(name)] = found[f"{normalize(name)}=={version}"]
    return out


def _wheel_record(files: dict[str, bytes]) -> bytes:
    lines = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}")
    return ("\n".join(lines) + "\n").encode()


def make_wheel(dest: Path, name: str, version: str, files: dict[str, bytes],
               build_tag: str = "") -> Path:
    """A pure-Python wheel of ``files`` (archive path -> bytes), reproducible (fixed times),
    named with ``build_tag`` if given."""
    dist = f"{name.replace('-', '_')}-{version}"
    files = dict(files)
    files[f"{dist}.dist-info/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n").encode()
    files[f"{dist}.dist-info/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: rummy-kit build_site\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n")
    record = f"{dist}.dist-info/RECORD"
    files[record] = _wheel_record(files) + f"{record},,\n".encode()
    path = dest / f"{dist}-{build_tag + '-' if build_tag else ''}py3-none-any.whl"
    return _write_wheel(path, files)


def _write_wheel(path: Path, files: dict[str, bytes]) -> Path:
    """Write ``files`` (archive name -> bytes) as the wheel ``path``, the same bytes
    for the same files (sorted names, one fixed date, mode 0644)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for arc in sorted(files):
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, files[arc])
    return path


def kit_wheel(dest: Path, apps: bool = False) -> Path:
    """The kit's engine and widgets (with ``widgets.apps``, what the app pages share) as
    one wheel; the table service (``tableserver``) stays out: the site has no server.
    With ``apps``, the apps' pages' copy (named with :data:`APPS_BUILD_TAG`): its
    docstrings emptied (:func:`without_docstrings`), to be shipped compiled only."""
    version = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(),
                        re.M)[1]  # type: ignore[index]
    files: dict[str, bytes] = {}
    for package in ("rummy", "widgets"):
        for path in sorted((ROOT / package).rglob("*.py")):
            source = path.read_bytes()
            files[path.relative_to(ROOT).as_posix()] = (without_docstrings(source) if apps
                                                        else source)
    return make_wheel(dest, "rummy-kit", version, files, APPS_BUILD_TAG if apps else "")


def without_docstrings(source: bytes) -> bytes:
    r"""``source`` with the docstring of its module and of each class and function emptied
    to ``""``, every other line where it was (so tracebacks name the same lines).  The
    apps' pages never read a docstring; without them (and their doctests) the kit's
    compiled modules are 15% smaller (0.93 -> 0.80 MB compressed).

    >>> without_docstrings(b"def f():\n    '''Say.\n\n    More.'''\n    return 1  # one\n")
    b'def f():\n    ""\n\n\n    return 1  # one\n'
    >>> without_docstrings(b"x = 1\n'''not a docstring'''\n")
    b"x = 1\n'''not a docstring'''\n"
    """
    import ast

    starts = [0]
    for line in source.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                doc = first.value
                assert doc.end_lineno is not None and doc.end_col_offset is not None
                spans.append((starts[doc.lineno - 1] + doc.col_offset,
                              starts[doc.end_lineno - 1] + doc.end_col_offset,
                              doc.end_lineno - doc.lineno))
    for begin, end, lines in sorted(spans, reverse=True):
        source = source[:begin] + b'""' + b"\n" * lines + source[end:]
    return source


def stub_wheel(dest: Path, name: str) -> Path:
    """A wheel that installs nothing: the lock's ``sqlite3`` (IPython asks for it and runs
    without it; Pyodide's build of the module is not in the npm package), and what the
    site or its apps' pages never import (:data:`SITE_STUBS`, :data:`APPS_STUBS`)."""
    return make_wheel(dest, name, "0.0.0", {})


def _tagged(wheel: Path, dest: Path, tag: str) -> Path:
    """The path in ``dest`` of a copy of ``wheel`` named with the build tag ``tag``."""
    name, version, tags = wheel.name.split("-", 2)
    return dest / f"{name}-{version}-{tag}-{tags}"


def _rewheel(path: Path, files: dict[str, bytes]) -> Path:
    """Write the files of a wheel read and changed here as the wheel ``path``, its RECORD
    remade to list them."""
    files = dict(files)
    record = next(n for n in files if n.endswith(".dist-info/RECORD"))
    del files[record]
    files[record] = _wheel_record(files) + f"{record},,\n".encode()
    return _write_wheel(path, files)


def trimmed_wheel(wheel: Path, dest: Path, folder: str, keep: Iterable[str]) -> Path:
    """A copy of ``wheel`` in ``dest`` without the modules of ``folder`` but ``keep``
    (module names, with their .py or .pyc), its RECORD remade and its name carrying
    :data:`APPS_BUILD_TAG` (the whole wheel stays beside it for the lessons)."""
    kept = {f"{folder}{m}{ext}" for m in keep for ext in (".py", ".pyc")}
    with zipfile.ZipFile(wheel) as z:
        files = {i.filename: z.read(i) for i in z.infolist()
                 if not i.filename.startswith(folder) or i.filename in kept}
    return _rewheel(_tagged(wheel, dest, APPS_BUILD_TAG), files)


def patched_wheel(wheel: Path, dest: Path, patches: dict[str, tuple[str, str]]) -> Path:
    """A copy of ``wheel`` in ``dest`` with each ``file``'s text ``old`` made ``new``
    (exactly once, or the build stops: the wheel is not the one the patch was made for),
    its RECORD remade and its name carrying :data:`SITE_BUILD_TAG`."""
    with zipfile.ZipFile(wheel) as z:
        files = {i.filename: z.read(i) for i in z.infolist()}
    for name, (old, new) in patches.items():
        text = files[name].decode()
        if text.count(old) != 1:
            raise SystemExit(f"{wheel.name}: {name} does not hold {old!r} once; the site's "
                             f"patch (SITE_PATCH) needs remaking for this version")
        files[name] = text.replace(old, new).encode()
    return _rewheel(_tagged(wheel, dest, SITE_BUILD_TAG), files)


def wheel_without(wheel: Path, drop: tuple[str, ...]) -> Path:
    """``wheel`` rewritten in place without the members whose names start with one of
    ``drop``, its RECORD remade."""
    with zipfile.ZipFile(wheel) as z:
        files = {i.filename: z.read(i) for i in z.infolist() if not i.filename.startswith(drop)}
    return _rewheel(wheel, files)


def trimmed_zip(src: Path, dest: Path, drop: tuple[str, ...], keep: tuple[str, ...] = ()
                ) -> Path:
    """A copy of the zip archive ``src`` as ``dest`` without the members whose names start
    with one of ``drop`` (but those named in ``keep``), reproducible (sorted, fixed times)."""
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as out:
        for i in sorted(z.infolist(), key=lambda i: i.filename):
            if not i.filename.startswith(drop) or i.filename in keep:
                info = zipfile.ZipInfo(i.filename, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = i.external_attr
                out.writestr(info, z.read(i))
    return dest


def zip_tree(src: Path, dest: Path) -> Path:
    """The files under ``src`` as the zip archive ``dest``, reproducible (sorted, fixed times)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(p for p in src.rglob("*") if p.is_file()):
            info = zipfile.ZipInfo(path.relative_to(src).as_posix(),
                                   date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, path.read_bytes())
    tmp.replace(dest)
    return dest


def _rewrite_record(tree: Path) -> None:
    """A wheel's RECORD listing the files it holds now (its .pyc, not its removed .py)."""
    for record in tree.glob("*.dist-info/RECORD"):
        rel = record.relative_to(tree).as_posix()
        files = {p.relative_to(tree).as_posix(): p.read_bytes()
                 for p in sorted(tree.rglob("*")) if p.is_file() and p != record}
        record.write_bytes(_wheel_record(files) + f"{rel},,\n".encode())


def byte_compile(archives: dict[Path, bool], pyodide: Path) -> dict[Path, Path]:
    """Each archive (a wheel, or the standard library's zip) with its modules compiled to
    .pyc by Pyodide's own Python (scripts/site_pyc.cjs under Node), ``archive -> compiled
    copy``.  The page's Python sets ``sys.dont_write_bytecode``: shipped as source, every
    module would be compiled again at every page load, which was most of a warm start.
    ``archives[path]`` is True to keep the source beside the .pyc (the kit's own code:
    its tracebacks show their lines), False for .pyc only (as Pyodide ships its packages).
    Compiled archives are kept in build/site-cache/pyc, named by what they are made from."""
    script = ROOT / "scripts" / "site_pyc.cjs"
    # named by Pyodide's version, the compiling script and how the archive is remade here
    made_by = "".join(inspect.getsource(f) for f in (byte_compile, _rewrite_record, zip_tree))
    salt = (json.loads((pyodide / "package.json").read_text())["version"] + sha256(script)
            + hashlib.sha256(made_by.encode()).hexdigest())
    out: dict[Path, Path] = {}
    todo: list[tuple[Path, Path, bool, Path]] = []
    for archive, keep_source in archives.items():
        key = hashlib.sha256(f"{salt} {keep_source} {sha256(archive)}".encode()).hexdigest()
        compiled = CACHE / "pyc" / key[:24] / archive.name
        out[archive] = compiled
        if not compiled.exists():
            todo.append((archive, compiled, keep_source, WORK / "pyc" / str(len(todo))))
    if not todo:
        return out
    jobs = []
    for archive, _compiled, keep_source, tree in todo:
        if tree.exists():
            shutil.rmtree(tree)
        with zipfile.ZipFile(archive) as z:
            z.extractall(tree)
        ddir = PAGE_SITE_PACKAGES if archive.suffix == ".whl" else PAGE_STDLIB
        jobs.append({"dir": tree.name, "ddir": ddir, "legacy": not keep_source})
    spec = WORK / "pyc" / "jobs.json"
    spec.write_text(json.dumps({"root": str(WORK / "pyc"), "jobs": jobs}))
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is missing: the site's Python files are compiled by Pyodide "
                         "under Node (make site runs npm ci, which needs it too)")
    started = time.monotonic()
    run([node, script, pyodide, spec])
    print(f"byte-compiled {len(todo)} archives in {time.monotonic() - started:.1f} s", flush=True)
    for _archive, compiled, keep_source, tree in todo:
        if not keep_source:
            for pyc in tree.rglob("*.pyc"):
                source = pyc.with_suffix(".py")
                if source.exists() and "__pycache__" not in pyc.parts:
                    source.unlink()
        _rewrite_record(tree)
        zip_tree(tree, compiled)
        shutil.rmtree(tree)
    return out


def lock_entry(name: str, wheel: Path, imports: list[str], depends: list[str],
               version: str | None = None) -> dict[str, Any]:
    return {"name": name, "version": version or wheel.name.split("-")[1],
            "file_name": wheel.name, "install_dir": "site", "sha256": sha256(wheel),
            "package_type": "package", "imports": imports, "depends": depends,
            "unvendored_tests": False}


def labextension(prefix: Path, name: str) -> Path:
    path = prefix / "share" / "jupyter" / "labextensions" / name
    if not path.exists():
        raise SystemExit(f"{path} is missing: the site tools are not installed (make site)")
    return path


def build_pyodide(static: Path) -> list[str]:
    """``static/pyodide``: the core, the wheels, and a lock listing only those; returns the
    packages the kernel loads when it starts."""
    src = pyodide_dir()
    if static.exists():
        shutil.rmtree(static)
    static.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(src / name, static / name)
    shutil.copy2(ROOT / "scripts" / "site" / KIT_PYODIDE, static / KIT_PYODIDE)
    upstream = json.loads((src / "pyodide-lock.json").read_text())
    lock = {"info": upstream["info"], "packages": {}}

    keys = closure(upstream, FROM_PYODIDE_LOCK)
    pins = test_lock_pins()
    index_specs = [f"{upstream['packages'][k]['name']}=={upstream['packages'][k]['version']}"
                   for k in keys if upstream["packages"][k]["package_type"] == "package"
                   and k not in SITE_STUBS]
    index_specs += [f"{n}=={pins[n]}" for n in FROM_TEST_LOCK]
    wheels = download(index_specs, CACHE / "wheels")

    for key in keys:
        entry = copy.deepcopy(upstream["packages"][key])
        if entry["package_type"] != "package" or key in SITE_STUBS:
            # sqlite3 (a module of CPython's build, not in Pyodide's npm package), and
            # what nothing imports on the site (SITE_STUBS)
            whl = stub_wheel(CACHE, key)
            entry.update(file_name=whl.name, sha256=sha256(whl), package_type="package",
                         imports=[], depends=[], version="0.0.0")
        else:
            whl = wheels[normalize(entry["name"])]
            if key in SITE_PATCH:
                whl = patched_wheel(whl, CACHE, SITE_PATCH[key])
            entry.update(file_name=whl.name, sha256=sha256(whl))
        shutil.copy2(whl, static / whl.name)
        lock["packages"][key] = entry
    for name, (imports, depends) in FROM_TEST_LOCK.items():
        whl = wheels[name]
        shutil.copy2(whl, static / whl.name)
        lock["packages"][name] = lock_entry(name, whl, imports, depends)
    kernel_pypi = labextension(Path(sys.prefix), "@jupyterlite/pyodide-kernel-extension")
    for name, (imports, depends) in KERNEL_WHEELS.items():
        candidates = sorted((kernel_pypi / "static" / "pypi").glob(
            f"{name.replace('-', '_')}-*.whl"))
        whl = candidates[-1]  # widgetsnbextension: the 4.0 stand-in (ipywidgets 8)
        shutil.copy2(whl, static / whl.name)
        lock["packages"][name] = lock_entry(name, whl, imports, depends)
    kit = kit_wheel(CACHE)
    shutil.copy2(kit, static / kit.name)
    apps_kit = kit_wheel(CACHE, apps=True)
    shutil.copy2(apps_kit, static / apps_kit.name)
    standins = {key: make_wheel(CACHE, key, "0.0.0", files)
                for key, files in APPS_STANDINS.items()}
    for whl in standins.values():
        shutil.copy2(whl, static / whl.name)

    # sympy and tqdm, which the kit imports only inside functions, are not dependencies
    # here: loading the kit does not load them (the apps' pages never do, see preload)
    lock["packages"]["rummy-kit"] = lock_entry("rummy-kit", kit, ["rummy", "widgets"],
                                               ["ipywidgets"])
    # byte-compiled: the standard library and every wheel the apps load as they start
    # (the kit's keeping its source); the lessons' sympy and mpmath stay source, as
    # compiled they would be 9 MB more (the site is to stay under 60 MB)
    shipped = {static / e["file_name"]: e["name"] == "rummy-kit"
               for key, e in lock["packages"].items() if key not in LESSONS_ONLY}
    shipped[static / "python_stdlib.zip"] = False
    shipped[static / apps_kit.name] = False  # the apps' pages' copy: compiled only
    shipped.update({static / whl.name: False for whl in standins.values()})
    for archive, compiled in byte_compile(shipped, src).items():
        shutil.copy2(compiled, archive)
    stdlib = static / "python_stdlib.zip"
    trimmed_zip(stdlib, stdlib.with_name(stdlib.name + ".part"), STDLIB_DROP).replace(stdlib)
    trimmed_zip(stdlib, static / APPS_STDLIB, APPS_STDLIB_DROP, APPS_STDLIB_KEEP)
    wheel_without(static / lock["packages"]["jedi"]["file_name"], JEDI_DROP)
    for entry in lock["packages"].values():
        entry["sha256"] = sha256(static / entry["file_name"])
    (static / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))
    apps = copy.deepcopy(lock)
    apps["packages"]["rummy-kit"].update(file_name=apps_kit.name,
                                         sha256=sha256(static / apps_kit.name))
    for key, whl in standins.items():
        apps["packages"][key].update(file_name=whl.name, sha256=sha256(static / whl.name),
                                     depends=[], version="0.0.0")
    for key in APPS_STUBS:
        whl = stub_wheel(CACHE, key)
        shutil.copy2(whl, static / whl.name)
        apps["packages"][key].update(file_name=whl.name, sha256=sha256(whl), imports=[],
                                     depends=[], version="0.0.0")
    for key, (folder, keep) in APPS_TRIM.items():
        whl = trimmed_wheel(static / apps["packages"][key]["file_name"], static, folder, keep)
        apps["packages"][key].update(file_name=whl.name, sha256=sha256(whl))
    (static / APPS_LOCK).write_text(json.dumps(apps, indent=1, sort_keys=True))
    return sorted(lock["packages"])


def preload(packages: list[str], apps: bool) -> list[str]:
    """What ``loadPyodideOptions.packages`` lists: every package of the site's lock for
    the lessons, all but :data:`LESSONS_ONLY` and :data:`APPS_SKIP` for the apps' pages; the
    kernel's own by the names its worker looks for (else it installs them again, through
    piplite).

    >>> preload(["ipython", "parso", "pyodide-kernel", "sympy"], apps=True)
    ['ipython', 'pyodide_kernel']
    """
    names = {normalize(n): n for n in KERNEL_START}
    return sorted(names.get(p, p) for p in packages
                  if not (apps and p in (*LESSONS_ONLY, *APPS_SKIP)))


#: A cell the site adds to a lesson (a helper, not the lesson): folded away, tagged.
HELPER = {"jupyter": {"source_hidden": True}, "tags": ["site-helper"]}
#: A code cell that needs pandas or matplotlib (none of them is to be had in Pyodide here).
NEEDS_PANDAS = re.compile(r"^\s*(import|from) (pandas|matplotlib)\b|\bpd\.|\bplt\.|"
                          r"\.score_sheet\(|\.by_meld\b|\.table\b|\.plot\b|dealt_table\(|"
                          r"summarize\(", re.M)
#: Import lines of pandas or matplotlib, split into a cell of their own on the site.
IMPORT_LINE = re.compile(r"^(import|from) (pandas|matplotlib)\b.*$", re.M)
#: A code cell, first in a lesson that needs pandas on the site: the ``%%needs_pandas``
#: cell magic runs a cell where pandas and matplotlib import, and else says in words what
#: the cell needs (no error: running all cells goes on to the guided hands and quizzes).
MAGIC_CELL = '''# This in-browser site has no pandas or matplotlib. A cell marked %%needs_pandas runs
# whole where they import (make lab, Binder); here its statements that don't need them
# run, the others are skipped, and the cell says so.
import ast

from IPython.core.magic import register_cell_magic


@register_cell_magic
def needs_pandas(line, cell):
    shell = get_ipython()
    try:
        import matplotlib
        import pandas  # noqa: F401
    except ImportError as missing:
        absent = missing.name
    else:
        return shell.run_cell(cell).result
    for statement in ast.parse(shell.transform_cell(cell)).body:
        try:
            exec(compile(ast.Module([statement], []), "<cell>", "exec"), shell.user_ns)
        except (ImportError, NameError, AttributeError):
            pass  # it needs the package (or what a skipped statement made)
    print(f"Part of this cell needs {absent}, which this in-browser site does not have: "
          "open the lesson with `make lab` or Binder to see it all.")
'''


def needs_pandas(nb: dict[str, Any]) -> bool:
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return bool(IMPORT_LINE.search(code))


def without_pandas(nb: dict[str, Any]) -> dict[str, Any]:
    """The lesson as the site shows it: a first code cell defines ``%%needs_pandas``, the
    pandas and matplotlib imports move to a cell of their own, and every cell that needs
    them runs under the magic; the guided hands, quizzes, tables and odds still run.

    >>> nb = {"cells": [{"cell_type": "code", "id": "a", "metadata": {},
    ...                  "source": "import rummy\\nimport pandas as pd\\nx = 1"}]}
    >>> [c["source"].splitlines()[0] for c in without_pandas(nb)["cells"]][1:]
    ['import rummy', '%%needs_pandas']
    """
    cells = [{"cell_type": "code", "id": "needs-pandas-magic", "metadata": HELPER,
              "execution_count": None, "outputs": [], "source": MAGIC_CELL}]
    for cell in nb["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] != "code" or not NEEDS_PANDAS.search(source):
            cells.append(cell)
            continue
        imports = "\n".join(m.group(0) for m in IMPORT_LINE.finditer(source))
        rest = IMPORT_LINE.sub("", source).strip("\n")
        if imports and rest.strip() and not NEEDS_PANDAS.search(rest):
            cells.append({**cell, "source": rest})
            source = imports
            cell = {**cell, "id": f"{cell.get('id', 'cell')}-pandas", "outputs": [],
                    "execution_count": None}
        cells.append({**cell, "source": "%%needs_pandas\n" + source})
    return {**nb, "cells": cells}


def pandas_note(name: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": "static-site-note",
            "metadata": {"tags": ["static-site-note"]},
            "source": (
                "> **Some cells of this lesson need pandas or matplotlib, which this "
                "in-browser site does not have.** Its guided hand, quizzes, tables and odds "
                "work here; the cells marked `%%needs_pandas` run what they can and say what they need. "
                "For the whole lesson, open it in "
                f"JupyterLab on your machine (`make lab`, then `notebooks/{name}`) or with "
                "the Binder badge of the kit's README.")}


def site_links(markdown: str) -> str:
    """An app's links as they are on the site: its page is ``voici/render/apps/NAME.html``,
    the landing page the site's ``index.html``, a lesson JupyterLite's notebook app (its
    dot escaped: Voici makes a link that ends in ``.ipynb`` end in ``.html``).

    >>> site_links("[All](index.ipynb) · [lesson 4](../04_big_table.ipynb)")
    '[All](../../../index.html) · [lesson 4](../../../notebooks/index.html?path=04_big_table%2Eipynb)'
    """
    markdown = re.sub(r"\]\(index\.ipynb\)", "](../../../index.html)", markdown)
    return re.sub(r"\]\(\.\./([\w.-]+)\.ipynb\)",
                  r"](../../../notebooks/index.html?path=\1%2Eipynb)", markdown)


#: A lesson's test markers (``# NBVAL_CHECK_OUTPUT``: how nbval checks the notebook), which
#: mean nothing to a learner: the site's lessons leave them out.
TEST_MARKER = re.compile(r"^# NBVAL_\w+[ \t]*\n?", re.M)


def without_markers(nb: dict[str, Any]) -> dict[str, Any]:
    """The lesson without its test markers.

    >>> nb = {"cells": [{"cell_type": "code", "source": "# NBVAL_CHECK_OUTPUT\\nx = 1"}]}
    >>> without_markers(nb)["cells"][0]["source"]
    'x = 1'
    """
    cells = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell = {**cell, "source": TEST_MARKER.sub("", "".join(cell["source"]))}
        cells.append(cell)
    return {**nb, "cells": cells}


def variant_titles() -> dict[str, str]:
    """``name or alias -> title`` of each Three-Thirteen variant, as the app's page is titled
    when its address chooses it (``?variant=tre_tretton``)."""
    sys.path.insert(0, str(ROOT))
    try:
        from rummy.variants import VARIANTS
    finally:
        sys.path.remove(str(ROOT))
    titles = {}
    for v in VARIANTS.values():
        if v.family != "three_thirteen":
            continue
        short = v.title.split(",")[0]
        for name in (v.name, *v.aliases):
            titles[name] = f"{short}: play against AI players (Rummy teaching kit)"
    return titles


def title_js(app: str) -> str:
    """A script that titles an app's page by the variant its address chooses (the
    Tre-tretton page is titled Tre-tretton, not Three Thirteen); empty for an app
    with one game."""
    if app != "three_thirteen":
        return ""
    return """<script>
(function () {
  var titles = TITLES;
  var match = /[?&]variant=([^&#]*)/.exec(window.location.search);
  var name = match ? decodeURIComponent(match[1].replace(/\\+/g, ' ')).trim().toLowerCase() : '';
  if (titles[name]) { document.title = titles[name]; }
})();
</script>""".replace("TITLES", json.dumps(variant_titles(), sort_keys=True))


#: The apps' own landing page (``notebooks/apps/index.ipynb``): on the site its table
#: code box, which needs the table service, says so instead.
JOIN_TEXT = (
    "## Join your class's table\n\n"
    "A class's shared tables need the kit's table service, which this in-browser site "
    "does not have: your teacher runs the kit (`make app` or `make classroom`) and gives "
    "you its address.\n")


def lesson_links(markdown: str) -> str:
    """A lesson's links as the site has them: ``apps/`` (a folder, which JupyterLite's
    notebook app can't open) is the apps' landing notebook.

    >>> lesson_links("[the apps](apps/) and [practice](apps/practice.ipynb)")
    '[the apps](apps/index.ipynb) and [practice](apps/practice.ipynb)'
    """
    return re.sub(r"\]\(apps/\)", "](apps/index.ipynb)", markdown)


#: The first cell of every lesson and app on the site (folded away): the record of
#: learning is kept by this browser (IndexedDB), read before anything uses it.
STORE_CELL = {"cell_type": "code", "id": "record-kept-by-the-browser", "metadata": HELPER,
              "execution_count": None, "outputs": [],
              "source": "# your record of learning is kept by this browser\n"
                        "from rummy.progress_browser import keep_in_browser\n"
                        "await keep_in_browser()"}


def with_store(nb: dict[str, Any]) -> dict[str, Any]:
    """The notebook with :data:`STORE_CELL` as its first code cell."""
    return {**nb, "cells": [copy.deepcopy(STORE_CELL), *nb["cells"]]}


def stage_contents(dest: Path) -> None:
    """The notebooks as the site shows them (``dest`` is the site's file tree)."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "apps").mkdir(parents=True)
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        nb = without_markers(json.loads(path.read_text()))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = lesson_links("".join(cell["source"]))
        pandas = needs_pandas(nb)
        nb = with_store(without_pandas(nb) if pandas else nb)
        if pandas:
            nb["cells"].insert(0, pandas_note(path.name))
        (dest / path.name).write_text(json.dumps(nb, indent=1))
    # JupyterLite opens the apps' notebooks too (a lesson's "practice app" link): there,
    # their links are the notebooks' own (relative to the notebook), in ``lite-apps``
    lite = dest.parent / "lite-apps"
    if lite.exists():
        shutil.rmtree(lite)
    lite.mkdir(parents=True)
    for app in [a for a, _title, _what in APPS] + ["index"]:
        path = ROOT / "notebooks" / "apps" / f"{app}.ipynb"
        nb = with_store(json.loads(path.read_text()))
        (lite / path.name).write_text(json.dumps(_server_free(app, nb), indent=1))
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = site_links("".join(cell["source"]))
        (dest / "apps" / path.name).write_text(json.dumps(_server_free(app, nb), indent=1))
    # the lessons' quiz files (quiz_book reads them from the notebook's folder)
    shutil.copytree(ROOT / "notebooks" / "quizzes", dest / "quizzes")
    # results the lesson build computed once (lesson 06's eleven rounds), which lessons read
    shutil.copytree(ROOT / "notebooks" / "data", dest / "data")


def _server_free(app: str, nb: dict[str, Any]) -> dict[str, Any]:
    """An app's notebook without what needs the table service (which the site has not)."""
    nb = copy.deepcopy(nb)
    if app == "classroom":
        nb["cells"] = [{"cell_type": "markdown", "id": "needs-a-server", "metadata": {},
                        "source": CLASSROOM_TEXT}]
    if app == "index":
        cells = [c for c in nb["cells"] if "JoinBox" not in "".join(c["source"])
                 and "Join your class" not in "".join(c["source"])]
        nb["cells"] = [*cells, {"cell_type": "markdown", "id": "join-needs-a-server",
                                "metadata": {}, "source": JOIN_TEXT}]
    return nb


def query_js(packages: list[str] | None = None) -> str:
    """A script for each Voici page: the page's query string (``?seed=7``) becomes the
    kernel's ``QUERY_STRING``, as Voilà passes it under ``make app``.  It sets the
    ``env`` that the Pyodide kernel hands to ``loadPyodide`` in the page's settings
    before JupyterLite reads them, and ``packages``, if given, as the packages loaded
    as the kernel starts, from the apps' lock, with the apps' standard library (see
    :func:`preload`, :data:`APPS_LOCK` and :data:`APPS_STDLIB`; the paths are the site's
    root's, as the kernel reads them)."""
    return """<script>
(function () {
  var el = document.getElementById('jupyter-config-data');
  if (!el) { return; }
  var config = JSON.parse(el.textContent);
  var plugins = config.litePluginSettings = config.litePluginSettings || {};
  var kernel = plugins[PLUGIN] = plugins[PLUGIN] || {};
  var options = kernel.loadPyodideOptions = kernel.loadPyodideOptions || {};
  var env = options.env = options.env || {};
  env.HOME = env.HOME || '/home/pyodide';
  env.QUERY_STRING = window.location.search.replace(/^\\?/, '');
  env.RUMMY_SITE = 'voici';
  var packages = PACKAGES;
  if (packages) {
    options.packages = packages;
    options.lockFileURL = LOCK;
    options.stdLibURL = STDLIB_URL;
  }
  el.textContent = JSON.stringify(config);
})();
</script>""".replace("PLUGIN", json.dumps(KERNEL_PLUGIN)).replace("PACKAGES", json.dumps(packages)).replace(
        "LOCK", json.dumps(f"./static/pyodide/{APPS_LOCK}")).replace(
        "STDLIB_URL", json.dumps(f"./static/pyodide/{APPS_STDLIB}"))


def landing_page() -> str:
    """The site's front page: every app and every lesson, plain HTML."""
    lessons = sorted((ROOT / "notebooks").glob("*.ipynb"))
    items_apps = "\n".join(
        f'<li><a href="voici/render/apps/{app}.html">{html.escape(title)}</a>: {html.escape(what)}</li>'
        for app, title, what in APPS)

    def lesson_title(path: Path) -> str:
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "markdown":
                m = re.search(r"^#\s+(.+)$", "".join(cell["source"]), re.M)
                if m:
                    return m[1].strip()
        return path.stem

    items_lessons = "\n".join(
        f'<li><a href="notebooks/index.html?path={p.name}">{html.escape(lesson_title(p))}</a>'
        + (" (needs pandas for some cells)" if needs_pandas(json.loads(p.read_text())) else "")
        + "</li>"
        for p in lessons)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Rummy teaching kit: play in your browser</title>
<link rel="icon" href="favicon.ico">
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem;
       color: #1b1b1b; background: #fff; }}
h1 {{ color: #0b5d1e; }}
a {{ color: #0645ad; }}
a:focus-visible {{ outline: 3px solid #0b5d1e; outline-offset: 2px; }}
.note {{ background: #f3f7f3; border-left: 4px solid #0b5d1e; padding: .5rem 1rem; }}
</style>
</head>
<body>
<main>
<h1>Rummy teaching kit</h1>
<p class="note">Everything here runs in your own browser: Python starts in the page (the first
page takes a few seconds, the next ones are quicker), and no server is needed.</p>
<h2>Play</h2>
<ul class="rummy-site-apps">
{items_apps}
</ul>
<p>Each app reads settings from its address, e.g.
<a href="voici/render/apps/three_thirteen.html?variant=tre_tretton&amp;seed=7">Tre-tretton, deal 7</a>
(<code>seed</code>, <code>players</code>, <code>speed</code>, <code>bots</code>, <code>variant</code>,
<code>jokers</code>).</p>
<h2>Learn</h2>
<ul class="rummy-site-lessons">
{items_lessons}
</ul>
<p>The lessons open in JupyterLite: run the cells from the top (Shift+Enter).
Lessons marked "needs pandas" work in JupyterLab on your machine (<code>make lab</code>)
or on Binder.</p>
</main>
</body>
</html>
"""


def inputs_digest(prefix: Path) -> str:
    """A digest of everything the site is made from (a build with the same one is skipped)."""
    h = hashlib.sha256()
    paths = [Path(__file__), ROOT / "scripts" / "site_pyc.cjs", ROOT / "package-lock.json",
             ROOT / "scripts" / "site" / KIT_PYODIDE,
             TEST_LOCK,
             ROOT / "requirements" / "site.lock", ROOT / "pyproject.toml",
             *sorted((ROOT / "rummy").rglob("*.py")), *sorted((ROOT / "widgets").rglob("*.py")),
             *sorted((ROOT / "notebooks").glob("*.ipynb")),
             *sorted((ROOT / "notebooks" / "apps").glob("*")),
             *sorted((ROOT / "share" / "jupyter").rglob("*"))]
    for p in paths:
        if p.is_file():
            h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes())
    h.update(str(prefix).encode())
    return h.hexdigest()


def build(force: bool = False) -> Path:
    prefix = Path(sys.prefix)
    stamp = OUT / ".inputs"
    digest = inputs_digest(prefix)
    if not force and stamp.exists() and stamp.read_text() == digest:
        print(f"{OUT.relative_to(ROOT)} is up to date")
        return OUT
    started = time.monotonic()
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    packages = build_pyodide(WORK / "static" / "pyodide")
    stage_contents(WORK / "contents")
    config = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
        "appName": "Rummy teaching kit",
        "litePluginSettings": {KERNEL_PLUGIN: {
            "pyodideUrl": "./static/pyodide/pyodide.js",
            "disablePyPIFallback": True,
            "pipliteUrls": [],
            "loadPyodideOptions": {"packages": preload(packages, apps=False),
                                   "env": {"HOME": "/home/pyodide", "RUMMY_SITE": "lite"}},
        }},
    }}
    (WORK / "jupyter-lite.json").write_text(json.dumps(config, indent=1))
    # every cell of a lesson drawn (not only those in view): its widgets are on the page
    # for a learner's find-in-page and for the browser test
    (WORK / "overrides.json").write_text(json.dumps({
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"}}, indent=1))
    (WORK / "jupyter_lite_config.json").write_text(json.dumps({
        "LiteBuildConfig": {
            "apps": ["notebooks", "tree", "voici"],
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            "contents": ["contents"],
            "output_dir": str(OUT),
            "ignore_sys_prefix": ["federated_extensions"],
            "federated_extensions": [
                str(labextension(prefix, "@jupyterlite/pyodide-kernel-extension")),
                str(labextension(prefix, "@jupyter-widgets/jupyterlab-manager")),
            ],
        },
        "PipliteAddon": {"piplite_urls": []},
        "VoilaConfiguration": {"template": "rummy", "strip_sources": True, "theme": "light"},
    }, indent=1))
    if OUT.exists():
        shutil.rmtree(OUT)
    env = {**os.environ, "JUPYTER_PATH": str(ROOT / "share" / "jupyter")}
    run([prefix / "bin" / "jupyter", "lite", "build", "--lite-dir", WORK], cwd=WORK, env=env)
    # the lessons open in JupyterLite's notebook app; Voici pages only for the apps
    for page in (OUT / "voici" / "render").glob("*.html"):
        page.unlink()
    # every page's kernel loads the kit's Pyodide (which loads Pyodide's): the kernel's
    # build step names pyodide.js itself, wherever it finds static/pyodide
    for config in (OUT / "jupyter-lite.json", *(OUT / "voici" / "render").rglob("*.html")):
        text = config.read_text()
        if 'static/pyodide/pyodide.js"' not in text:
            raise SystemExit(f"{config} names no static/pyodide/pyodide.js to load the "
                             f"kit's {KIT_PYODIDE} instead: has the kernel's build changed?")
        config.write_text(text.replace('static/pyodide/pyodide.js"',
                                       f'static/pyodide/{KIT_PYODIDE}"'))
    for page in (OUT / "voici" / "render").rglob("*.html"):
        text = page.read_text()
        marker = '<script id="jupyter-config-data"'
        at = text.find("</script>", text.find(marker)) + len("</script>")
        if marker in text and at > len("</script>"):
            page.write_text(text[:at] + "\n" + query_js(preload(packages, apps=True))
                            + title_js(page.stem) + text[at:])
    # JupyterLite's apps read the settings script of the site's index.html: keep it
    original = (OUT / "index.html").read_text()
    found = re.search(r'<script\s+id="jupyter-config-data".*?</script>', original, re.S)
    settings = found.group(0) if found else ""
    (OUT / "index.html").write_text(landing_page().replace("</head>", settings + "\n</head>"))
    for notebook in (WORK / "lite-apps").glob("*.ipynb"):
        shutil.copy2(notebook, OUT / "files" / "apps" / notebook.name)
    (OUT / ".nojekyll").write_text("")
    for pattern in OLD_FONTS:
        for font in (OUT / "build").glob(pattern):
            font.unlink()
    # the icon browsers ask the site's root for (JupyterLite's own)
    shutil.copy2(OUT / "notebooks" / "favicon.ico", OUT / "favicon.ico")
    stamp.write_text(digest)
    size = sum(p.stat().st_size for p in OUT.rglob("*") if p.is_file())
    print(f"{OUT.relative_to(ROOT)}: {size / 1e6:.1f} MB, built in "
          f"{time.monotonic() - started:.1f} s")
    return OUT


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="rebuild even if nothing changed")
    args = parser.parse_args(argv)
    build(force=args.force)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
