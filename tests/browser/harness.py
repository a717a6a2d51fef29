"""Run the kit's apps the way a learner sees them: a Voilà server and Chromium.

Shared by the browser tests (``tests/browser``), ``benchmarks/ui.py`` and
``scripts/screenshots.py``.  The servers (Voilà, Jupyter server, JupyterLab)
are started as every test server is (``tests/servers.py``: a free port, a
log, waiting until ready, stopping).  Nothing here downloads a browser:
Playwright drives Debian's ``/usr/bin/chromium``.

>>> app_url("http://127.0.0.1:1/", "three_thirteen", seed=7, variant="tre_tretton")
'http://127.0.0.1:1/voila/render/notebooks/apps/three_thirteen.ipynb?seed=7&variant=tre_tretton'
>>> find_tracebacks("all fine") , find_tracebacks("x\\nTraceback (most recent call last):\\n y")
([], ['Traceback (most recent call last):'])
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run from benchmarks/ or scripts/: tests.servers is found
    sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402
from tests.servers import STARTED, free_port  # noqa: E402

__all__ = ["STARTED", "Server", "free_port", "app_url", "start_voila", "start_jupyter_server",
           "start_lab", "serve_static", "chromium", "patient", "open_with_new_kernel",
           "page_text", "page_tracebacks", "wait_rendered", "clean_copy", "frame_text", "Watch",
           "find_tracebacks", "jupyter_path", "outside"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Chromium features switched off beyond Playwright's own.  Chromium's headless
#: mode is the whole browser: for each new page it also drew its address bar's
#: suggestion pop-ups (chrome://omnibox-popup, about 200 requests and a renderer
#: each), 40% of Chromium's CPU for a class of six joining a table at once (12.1
#: -> 7.3 CPU-s for six pages).
DISABLED_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")


@functools.cache
def playwright_disabled_features() -> tuple[str, ...]:
    """The Chromium features Playwright itself switches off, read from its
    driver.  Chromium keeps only the last ``--disable-features`` it is given,
    so :data:`DISABLED_FEATURES` can only be added by giving Playwright's
    list again with them."""
    import playwright

    lib = Path(playwright.__file__).parent / "driver" / "package" / "lib"
    for source in (lib / "coreBundle.js", lib / "server" / "chromium" / "chromiumSwitches.js"):
        if source.exists():
            found = re.search(r"disabledFeatures = \[(.*?)\]", source.read_text(), re.S)
            if found:
                return tuple(re.findall(r'^\s*"([A-Za-z0-9]+)"', found.group(1), re.M))
    raise RuntimeError("Playwright's own --disable-features list was not found in its driver "
                       f"({lib}): tests/browser/harness.py reads it to add the kit's")


def chromium_args() -> list[str]:
    """The arguments the tests launch Chromium with: :data:`CHROMIUM_ARGS`
    and every feature Playwright and :data:`DISABLED_FEATURES` switch off."""
    features = [*playwright_disabled_features(), *DISABLED_FEATURES]
    return [*CHROMIUM_ARGS, "--disable-features=" + ",".join(features)]
#: The app notebooks under notebooks/apps, by name.
APPS = ("index", "three_thirteen", "big_table", "gin_three", "meld_odds")
#: CSS class a table widget gets once it has drawn its first state.
READY = ".rummy-table-ready"
#: How long a page may take to load (ms).  Voilà sends the page's end only
#: after running every cell, and a loaded CI machine starting a kernel for
#: each page can take well over Playwright's 30 s.
NAVIGATION_MS = 180_000
#: How often a page's ``wait_for_function`` predicate is run (ms).
POLL_MS = 100

#: Text that means Python failed where the learner can see it.
TRACEBACK_PATTERNS = (
    r"Traceback \(most recent call last\)",
    r"There was an error when executing cell",
)


#: Where the server's own code lives: a traceback only through these files is the
#: server's noise (a tab that went away mid-message, a kernel shut down while its
#: websocket connected), not the app's.  A failing cell shows on the page anyway.
SERVER_CODE = ("/tornado/", "/jupyter_server/", "/jupyter_client/", "/jinja2/", "/voila/",
               "/nbclient/", "/asyncio/", "/traitlets/", "/zmq/")


def find_tracebacks(text: str) -> list[str]:
    """Lines of ``text`` showing a Python traceback or a failed cell."""
    found = []
    for line in text.splitlines():
        if any(re.search(p, line.strip()) for p in TRACEBACK_PATTERNS):
            found.append(line.strip())
    return found


def app_url(base: str, app: str, **query: Any) -> str:
    """The address of an app notebook on a Voilà server at ``base``."""
    url = base.rstrip("/") + f"/voila/render/notebooks/apps/{app}.ipynb"
    return url + ("?" + urlencode(query) if query else "")


#: Schemes that never leave the page.
LOCAL_SCHEMES = {"data", "blob", "about"}


def outside(url: str) -> bool:
    """Whether a request leaves this machine (anything but loopback or a local scheme).

    >>> outside("https://cdn.jsdelivr.net/npm/pyodide/pyodide.js"), outside("data:,x")
    (True, False)
    """
    parts = urlsplit(url)
    if parts.scheme in LOCAL_SCHEMES:
        return False
    return parts.hostname not in {"127.0.0.1", "localhost", "::1"}


class Server(servers.Server):
    """A Jupyter server, Voilà or JupyterLab of the kit (``tests/servers.py``),
    whose log can be searched for what failed in a kernel."""

    def tracebacks(self) -> list[str]:
        """Tracebacks a kernel printed (a widget callback that failed), leaving out
        the server's own noise (see ``SERVER_CODE``)."""
        lines = self.log().splitlines()
        found = []
        for i, line in enumerate(lines):
            if find_tracebacks(line):
                end = i + 1
                while end < min(i + 40, len(lines)) and not find_tracebacks(lines[end]):
                    end += 1
                frames = [x for x in lines[i:end] if x.strip().startswith('File "')]
                if not frames or not all(any(p in f for p in SERVER_CODE) for f in frames):
                    found.append(line.strip())
        return found

    def __enter__(self) -> Server:
        return self


def jupyter_path(root: Path = ROOT) -> str:
    """``JUPYTER_PATH`` with the kit's Voilà template first."""
    extra = os.environ.get("JUPYTER_PATH")
    return os.pathsep.join([str(root / "share" / "jupyter")] + ([extra] if extra else []))


def pools_for(apps: Sequence[str]) -> str:
    """The ``--VoilaKernelManager.kernel_pools_config`` option that keeps
    voila.json's kernel pools of ``apps`` (names of :data:`APPS`) and leaves
    the other apps' pools empty.

    >>> cfg = json.loads(pools_for(["big_table"]).split("=", 1)[1])
    >>> cfg["notebooks/apps/big_table.ipynb"], cfg["notebooks/apps/gin_three.ipynb"]
    ({'pool_size': 2}, {'pool_size': 0})
    """
    unknown = sorted(set(apps) - set(APPS))
    if unknown:
        raise ValueError(f"no app {unknown[0]!r}: the apps are {', '.join(APPS)}")
    config = json.loads((ROOT / "voila.json").read_text())["VoilaKernelManager"]
    pools = {page: (dict(entry) if Path(page).stem in apps or page == "default"
                    else {**entry, "pool_size": 0})
             for page, entry in config["kernel_pools_config"].items()}
    return "--VoilaKernelManager.kernel_pools_config=" + json.dumps(pools)


def start_voila(port: int | None = None, root: Path = ROOT, python: str = sys.executable,
                extra_args: Sequence[str] = (), env: dict[str, str] | None = None,
                seeds: Sequence[int] = (), template: str = "rummy",
                apps: Sequence[str] | None = None) -> Server:
    """Serve ``root`` with Voilà as ``make app`` does (voila.json, the "rummy"
    template unless ``template`` names another, the table service under
    /rummy/api/), on a free loopback port
    unless ``port`` is given.  Tables are kept where ``env`` says
    (``RUMMY_DATA``), else in a fresh temporary folder.  With ``seeds``, the
    shared tables are dealt from them in turn (``seeded_voila.py``: the deal
    a test was written for), else from :mod:`secrets` as the kit deals.
    ``apps``: the apps whose pages the test opens (their kernels are started
    ahead as voila.json says; each other app's would cost a kernel start of
    CPU for nothing); all of them unless given."""
    port = port or free_port()
    if apps is not None:
        extra_args = [pools_for(apps), *extra_args]
    env = {"RUMMY_DATA": tempfile.mkdtemp(prefix="rummy-data-"), **(env or {})}
    serve = ["-m", "tableserver.voila_app"]
    if seeds:
        env["RUMMY_TEST_SEEDS"] = ",".join(str(int(s)) for s in seeds)
        serve = [str(Path(__file__).with_name("seeded_voila.py"))]
    argv = [python, *serve, "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", f"--template={template}", "--Voila.port_retries=0", *extra_args, str(root)]
    full_env = {**os.environ, **(env or {}), "JUPYTER_PATH": jupyter_path(root),
                "PYTHONUNBUFFERED": "1"}
    return Server(argv, port, root, full_env, f"http://127.0.0.1:{port}/",
                  ready_path="voila/tree/notebooks")


def start_jupyter_server(python: str, root: Path, port: int | None = None,
                         token: str = "rummy-test") -> Server:
    """Serve ``root`` with ``jupyter server`` (the Voilà extension on), as Binder does."""
    port = port or free_port()
    argv = [python, "-m", "jupyter_server", "--no-browser", f"--port={port}",
            "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0", "--allow-root",
            f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("JUPYTER_PATH", None)
    env.pop("VIRTUAL_ENV", None)
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")
    return Server(argv, port, root, env, f"http://127.0.0.1:{port}/",
                  ready_path=f"api/status?token={token}")


def start_lab(python: str = sys.executable, root: Path = ROOT, port: int | None = None,
              token: str = "rummy-lab-test", home: Path | None = None) -> Server:
    """JupyterLab on the lessons, as ``make lab`` starts it (jupyter_lab_config.py),
    on fresh state of its own: its workspace, settings, config, data and runtime
    folders are under ``home`` (a new temporary folder unless given), so a test
    neither reads nor writes the user's Jupyter folders, and opens Start here
    whatever another JupyterLab left open."""
    port = port or free_port()
    home = home or Path(tempfile.mkdtemp(prefix="rummy-lab-"))
    argv = [python, "-m", "jupyter", "lab", f"--config={root / 'jupyter_lab_config.py'}",
            f"--port={port}", "--allow-root", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.workspaces_dir={home / 'workspaces'}",
            f"--LabApp.user_settings_dir={home / 'user-settings'}"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.update({name: str(home / folder) for name, folder in LAB_FOLDERS.items()})
    env["PATH"] = str(Path(python).parent) + os.pathsep + env.get("PATH", "")
    return Server(argv, port, root, env, f"http://127.0.0.1:{port}/",
                  ready_path=f"api/status?token={token}")


class _StaticHandler(http.server.SimpleHTTPRequestHandler):
    """Files as a plain web host serves them (Pyodide's module as ``application/wasm``),
    logging nothing."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".whl": "application/octet-stream"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve_static(directory: Path, port: int | None = None,
                 handler: type[http.server.SimpleHTTPRequestHandler] | None = None,
                 ) -> Iterator[str]:
    """Serve the files of ``directory`` on a loopback port (the static site,
    build/site/, needs nothing else), by ``handler`` (a subclass of the plain one, say
    to count what is served); yields the address, ending in "/"."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port or free_port()),
        functools.partial(handler or _StaticHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


#: The Jupyter folders a test's JupyterLab gets of its own (environment variable: folder).
LAB_FOLDERS = {"JUPYTER_CONFIG_DIR": "config", "JUPYTER_DATA_DIR": "data",
               "JUPYTER_RUNTIME_DIR": "runtime", "IPYTHONDIR": "ipython"}


@contextlib.contextmanager
def chromium(playwright: Any = None) -> Iterator[Any]:
    """Launch Debian's Chromium through Playwright (headless); yields the browser."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: run `make chromium` (apt-get install chromium)")
    own = playwright is None
    if own:
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=chromium_args())
    try:
        yield browser
    finally:
        browser.close()
        if own:
            playwright.stop()


#: JavaScript: the visible text of the page plus every SVG <title>.
PAGE_TEXT_JS = """() => {
  const titles = Array.from(document.querySelectorAll('svg title')).map(t => t.textContent);
  return document.body.innerText + '\\n' + titles.join('\\n');
}"""


def patient(page: Any, timeout: float = 30_000) -> Any:
    """``page`` with ``timeout`` (ms) for each step and :data:`NAVIGATION_MS`
    for loading an address; returns the page."""
    page.set_default_timeout(timeout)
    page.set_default_navigation_timeout(NAVIGATION_MS)
    wait = page.wait_for_function

    def wait_for_function(expression: str, *args: Any, **kw: Any) -> Any:
        # Playwright runs the predicate on every animation frame unless told a
        # pace: 60 runs a second of document.body.innerText (a layout each)
        # on every waiting page was most of Chromium's CPU in the browser tests
        kw.setdefault("polling", POLL_MS)
        return wait(expression, *args, **kw)

    page.wait_for_function = wait_for_function
    return page


#: how long a page whose kernel Voilà starts on request may take to load
#: before it is opened once more (see :func:`open_with_new_kernel`)
NEW_KERNEL_MS = 90_000


def open_with_new_kernel(page: Any, url: str) -> None:
    """Open a Voilà page whose notebook has no preheated kernel (a lesson):
    Voilà starts one on request and sends the page's end once every cell has
    run.  A kernel that never answers leaves the page loading for ever: seen
    here when the page's kernel started while the apps' kernel pools were
    being filled (jupyter_client picks a new kernel's ports by binding and
    releasing them, so kernels started at once can be given the same port,
    jupyter/nbconvert#1066).  Then the page is opened once more, with another
    kernel; a page that does not load twice fails the test."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.goto(url, timeout=NEW_KERNEL_MS)
    except PlaywrightTimeoutError:
        page.goto(url, timeout=NAVIGATION_MS)


def page_text(page: Any) -> str:
    """What the learner can read on the page, SVG card titles included."""
    return str(page.evaluate(PAGE_TEXT_JS))


def page_tracebacks(page: Any) -> list[str]:
    """Tracebacks or failed cells shown on the page (stderr outputs included)."""
    found = find_tracebacks(page_text(page))
    stderr = page.locator("[data-mime-type='application/vnd.jupyter.stderr'],"
                          "[data-mime-type='application/vnd.jupyter.error']")
    found += [f"stderr: {t[:200]}" for t in stderr.all_inner_texts() if t.strip()]
    return found


def wait_rendered(page: Any, timeout: float = 60_000) -> None:
    """Wait until Voilà has run every cell (its spinner is gone and the
    kernel is idle), not just until the HTML arrived."""
    page.wait_for_function(
        """() => {
             const cells = document.getElementById('rendered_cells');
             return !document.getElementById('loading') && cells && cells.style.display !== 'none';
           }""",
        timeout=timeout,
    )


def clean_copy(dest: Path, root: Path = ROOT) -> Path:
    """Copy what a fresh clone would hold (the files git tracks, as they are in
    the working tree) to ``dest``."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                            check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = root / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def frame_text(payload: bytes) -> str:
    """The text of a binary kernel websocket frame: its parts (channel, header,
    parent header, metadata, content, buffers), without the table of 8-byte
    offsets that Jupyter's v1 protocol puts before them.  Those bytes are no
    text, but read as text an offset of 25,418 bytes says "Jc" (0x4A, 0x63):
    a search for hidden cards found one there.  A frame in another form is
    decoded whole.

    >>> parts = [b"iopub", b"{}", b"{}", b"{}", b'{"x": "' + b"." * 25_342 + b'"}']
    >>> ends = [8 * 7]
    >>> for part in parts:
    ...     ends.append(ends[-1] + len(part))
    >>> frame = b"".join([(6).to_bytes(8, "little")]
    ...                  + [e.to_bytes(8, "little") for e in ends] + parts)
    >>> ends[-1], "Jc" in frame.decode("utf-8", "replace"), "Jc" in frame_text(frame)
    (25418, True, False)
    >>> frame_text(frame).split("\\n")[:2], frame_text(b"not a frame")
    (['iopub', '{}'], 'not a frame')
    """
    n = int.from_bytes(payload[:8], "little")
    if 2 <= n <= 64 and len(payload) >= 8 * (n + 1):
        ends = [int.from_bytes(payload[8 * i:8 * i + 8], "little") for i in range(1, n + 1)]
        if ends[0] == 8 * (n + 1) and ends == sorted(ends) and ends[-1] == len(payload):
            return "\n".join(payload[a:b].decode("utf-8", "replace")
                             for a, b in zip(ends, ends[1:]))
    return payload.decode("utf-8", "replace")


class Watch:
    """Everything the kernel sent to this page over its websockets (the widget
    state included), as text."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[str] = []
        self.idle = 0  # "kernel idle" messages seen: one ends every click's handling
        self.last = time.monotonic()
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        ws.on("framereceived", self._frame)

    def _frame(self, payload: Any) -> None:
        text = frame_text(payload) if isinstance(payload, bytes) else payload
        # undo JSON's \\uXXXX escapes so that suit symbols compare as text
        self.frames.append(re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m[1], 16)), text))
        self.last = time.monotonic()
        if re.search(r'"execution_state":\s*"idle"', text):
            self.idle += 1

    def _answered(self, before: int, what: str, timeout: float) -> None:
        """Wait until the kernel has said "idle" more than ``before`` times: it
        has handled ``what`` (its "idle" status follows every widget update
        that caused)."""
        deadline = time.monotonic() + timeout
        while self.idle <= before:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the kernel did not answer {what}")
            self.page.wait_for_timeout(20)

    def click(self, selector: str, timeout: float = 30.0) -> None:
        """Click and wait until the kernel has handled the click (its "idle"
        status follows every widget update the click caused), so the next
        click can't land on a control that is about to change."""
        before = self.idle
        self.page.locator(selector).first.click()
        self._answered(before, f"the click on {selector}", timeout)

    def click_if_enabled(self, selector: str, wait: float = 5.0, timeout: float = 30.0) -> bool:
        """Click ``selector`` once it is enabled, within ``wait`` seconds, and wait
        until the kernel has handled it (as :meth:`click`); answers whether it
        was clicked.  For a control that the game may switch off between the
        test seeing it on and the click (a bot's move, the end of a round): the
        test then looks at the page again instead of waiting for a control that
        stays off."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        before = self.idle
        try:
            self.page.locator(selector).first.click(timeout=wait * 1000)
        except PlaywrightTimeout:  # never clicked: Playwright clicks only a control that is on
            return False
        self._answered(before, f"the click on {selector}", timeout)
        return True

    def press(self, key: str, timeout: float = 30.0) -> None:
        """Press ``key`` on the focused control and wait until the kernel has
        handled it (as :meth:`click` does), then until it is quiet."""
        before = self.idle
        self.page.keyboard.press(key)
        self._answered(before, f"the {key} key", timeout)
        self.settle(0.3)

    def settle(self, quiet: float = 0.5, timeout: float = 30.0) -> None:
        """Wait until the kernel has sent nothing for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() - self.last < quiet and time.monotonic() < deadline:
            self.page.wait_for_timeout(50)

    def text(self) -> str:
        return "\n".join(self.frames)
