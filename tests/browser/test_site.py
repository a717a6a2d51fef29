"""The static site (``make site``, build/site/), played offline in Chromium.

The site is served on loopback by a plain file server (nothing of the kit runs on it:
Python runs in the page, Pyodide).  Every request to another host is aborted and counted,
and any request that fails (a 404 on loopback included) fails the test.  Tested: the
landing page links every app and lesson and axe-core finds nothing serious; Three
Thirteen opened with address settings (``?variant=tre_tretton&seed=...``) deals what the
engine deals for them and a round is played to its score by clicks; a lesson in
JupyterLite runs, and its guided hand and a quiz are answered; the classroom page says
it needs a server.

The site is built by the ``site`` fixture with ``make site`` (a no-op when nothing it
is made from changed).
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from playwright.sync_api import expect

from rummy import Action
from rummy.bots import make_bot
from tests.browser import harness
from tests.browser.axe import violations
from tests.browser.pages import HAND, Replica, wait_hand

# The first test that asks for the site builds it when it is out of date (``make site``,
# about 25 s from nothing), and a lesson in JupyterLite takes about 25 s: 90 s each.
pytestmark = pytest.mark.browser

SITE = harness.ROOT / "build" / "site"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
#: How long Python may take to start in the page (a loaded 2-core machine, cold cache).
START_MS = 240_000


@pytest.fixture(scope="session")
def site() -> Iterator[str]:
    """build/site/ made by ``make site``, served on a free loopback port; yields its address."""
    made = subprocess.run(["make", "--no-print-directory", "site"], cwd=harness.ROOT,
                          capture_output=True, text=True)
    assert made.returncode == 0, f"make site failed:\n{made.stdout[-3000:]}\n{made.stderr[-3000:]}"
    assert (SITE / "index.html").exists()
    with harness.serve_static(SITE) as base:
        yield base


class Offline:
    """A page whose every request to another host is aborted; failed requests and
    JavaScript errors are kept for :meth:`check`."""

    def __init__(self, browser: Any) -> None:
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.aborted: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        #: a lesson may show an error where a cell uses what a %%needs_pandas cell made
        self.pandas_errors_expected = False
        self.context.route("**/*", self._route)
        self.page = harness.patient(self.context.new_page(), timeout=60_000)
        self.page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        self.page.on("response", lambda r: r.status >= 400 and self.failed.append(
            f"{r.url} (HTTP {r.status})"))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _route(self, route: Any) -> None:
        parts = urlsplit(route.request.url)
        if parts.scheme in ("data", "blob") or parts.hostname in LOOPBACK:
            route.continue_()
        else:
            self.aborted.append(route.request.url)
            route.abort()

    def check(self) -> None:
        assert not self.aborted, f"the page asked another host: {self.aborted}"
        assert not self.failed, f"requests that failed: {self.failed}"
        assert not self.errors, f"JavaScript errors on the page: {self.errors}"
        shown = harness.page_tracebacks(self.page)
        if self.pandas_errors_expected:
            shown = [s for s in shown if not re.search(
                r"No module named '(pandas|matplotlib)'|ModuleNotFoundError|Traceback|"
                r"^stderr: ", s)]
            errors = self.page.locator("[data-mime-type='application/vnd.jupyter.error']")
            for text in errors.all_inner_texts():
                assert re.search(r"No module named '(pandas|matplotlib)|NameError", text), \
                    text[:500]
        assert not shown, f"the page shows a Python traceback: {shown}"

    def axe(self, selectors: list[str] | None = None) -> list[dict[str, Any]]:
        """axe-core's serious and critical violations on the page (in ``selectors``)."""
        return [v for v in violations(self.page, selectors)
                if v["impact"] in ("serious", "critical")]


@pytest.fixture()
def offline(browser: Any) -> Iterator[Offline]:
    o = Offline(browser)
    try:
        yield o
        o.check()
    finally:
        o.context.close()


def test_offline_aborts_other_hosts_and_fails_on_them(browser: Any, site: str) -> None:
    """The check can fail: a page that asks the internet is caught."""
    o = Offline(browser)
    try:
        o.page.goto(site + "index.html")
        o.page.evaluate("() => fetch('https://cdn.jsdelivr.net/npm/pyodide/pyodide.js')"
                        ".catch(() => null)")
        o.page.wait_for_timeout(300)
        with pytest.raises(AssertionError, match="another host"):
            o.check()
    finally:
        o.context.close()


def test_landing_page_links_every_app_and_lesson(offline: Offline, site: str) -> None:
    page = offline.page
    page.goto(site)
    links = page.eval_on_selector_all("main a", "els => els.map(a => a.getAttribute('href'))")
    apps = [h for h in links if h.startswith("voici/render/apps/")]
    lessons = [h for h in links if h.startswith("notebooks/index.html?path=")]
    assert {Path(urlsplit(h).path).stem for h in apps} >= {
        "three_thirteen", "big_table", "gin_three", "meld_odds", "classroom"}
    wanted = sorted(p.name for p in (harness.ROOT / "notebooks").glob("*.ipynb"))
    assert sorted(h.split("=", 1)[1] for h in lessons) == wanted
    for h in apps:
        assert (SITE / urlsplit(h).path).is_file(), h
    for name in wanted:  # each lesson is in the site's contents, as JupyterLite lists them
        assert (SITE / "files" / name).is_file(), name
    assert not offline.axe()


def _sync_click(page: Any, selector: str) -> None:
    page.locator(selector).first.click()


def _select(page: Any, card: Any) -> None:
    sel = f"{HAND}.rummy-card-{card}"
    if page.locator(f"{sel}.rummy-card-selected").count() == 0:
        page.locator(sel).first.click()
        page.wait_for_selector(f"{sel}.rummy-card-selected")


def _click(page: Any, action: Action) -> None:
    """Make ``action`` with the table's own controls."""
    verb, card = action.verb, action.card
    if verb in ("draw stock", "draw discard"):
        _sync_click(page, {"draw stock": "button.rummy-stock",
                           "draw discard": "button.rummy-discard-pile"}[verb])
    elif verb == "discard":
        _select(page, card)
        _sync_click(page, "button.rummy-discard")
    elif verb == "go out":
        _select(page, card)
        _sync_click(page, "button.rummy-go-out")
        page.wait_for_selector("button.rummy-confirm", state="visible")
        _sync_click(page, "button.rummy-confirm")
    else:
        raise AssertionError(f"the test has no click for {action}")


def test_three_thirteen_round_by_clicks_with_address_settings(offline: Offline, site: str) -> None:
    """``?variant=tre_tretton&seed=7&players=2&speed=0`` deals what the engine deals for
    them (so the address settings reached Python), and round 1 is played to its score."""
    from widgets import ThreeThirteenTable

    page = offline.page
    page.goto(site + "voici/render/apps/three_thirteen.html"
                     "?variant=tre_tretton&seed=7&players=2&speed=0")
    page.wait_for_selector(harness.READY, state="visible", timeout=START_MS)
    chosen = page.eval_on_selector_all(
        "select", "els => els.map(e => e.selectedIndex < 0 ? '' : e.options[e.selectedIndex].text)")
    assert any(c.startswith("Tre-tretton") for c in chosen), chosen
    replica = Replica(lambda: ThreeThirteenTable("tre_tretton", players=2, seed=7, speed=0,
                                                 bots="expert"))
    wait_hand(page, replica, 30_000)
    me = make_bot("greedy", seed=0)
    verbs = []
    for _ in range(200):
        if replica.state.round_scores:
            break
        action = me.choose(replica.observation())
        _click(page, action)
        replica.act(action)
        verbs.append(action.verb)
        if replica.state.round_scores:
            break
        wait_hand(page, replica, 30_000)
    assert replica.state.round_scores, "round 1 did not end in 200 moves"
    assert {"draw stock", "draw discard"} & set(verbs) and {"discard", "go out"} & set(verbs)
    review = page.locator(".rummy-review")
    review.wait_for(state="visible", timeout=60_000)
    assert "Review of round 1" in review.inner_text()  # the banner says "Round 1 is over: ..."
    mine = replica.state.round_scores[0][replica.learner]
    # the review marks who went out and explains the points ("You (what you kept) went
    # out: +0: no cards left over")
    assert re.search(rf"You \(what you kept\)( went out)?\s*:\s*\+{mine}: ", review.inner_text())
    assert not offline.axe([".rummy-table-ready"])


def _run_all(page: Any) -> None:
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).first.click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).first.click()


def test_lesson_guided_hand_and_quiz_in_jupyterlite(offline: Offline, site: str) -> None:
    """Lesson 02 in JupyterLite's notebook: run all cells (those that need pandas are
    marked and skipped over), then a wrong and a right guided move (rummy.guided's
    chosen tre_tretton deal: three threes, 3♥ on the pile) and the first quiz answered."""
    page = offline.page
    offline.pandas_errors_expected = True
    page.goto(site + "notebooks/index.html?path=02_tre_tretton.ipynb")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=START_MS)
    expect(page.locator(".jp-MarkdownCell").first).to_contain_text("need pandas")
    page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                           timeout=START_MS)
    _run_all(page)
    guided = ".rummy-guided"
    page.wait_for_selector(guided, state="visible", timeout=START_MS)
    page.wait_for_selector(".rummy-quiz", state="visible", timeout=START_MS)
    feedback = f"{guided} .rummy-guided-feedback"
    expect(page.locator(f"{guided} .rummy-guided-situation").first).to_contain_text(
        "You hold 3♣ 3♦ 3♠", timeout=30_000)
    # the kernel answers a click once it has run the cells still queued after this one
    # (on a busy machine that took over 30 s): wait until no cell is waiting to run
    page.wait_for_function(
        "() => !Array.from(document.querySelectorAll('.jp-InputPrompt'))"
        ".some(e => e.textContent.includes('*'))", timeout=START_MS)
    page.locator(f'{guided} .rummy-guided-moves button:text-is("draw discard")').click()
    expect(page.locator(feedback).first).to_contain_text("(TR-2)", timeout=60_000)
    assert page.locator(feedback).first.inner_text().startswith("Not that one:")
    page.locator(f'{guided} .rummy-guided-moves button:text-is("draw stock")').click()
    expect(page.locator(feedback).first).to_contain_text("Good. You draw from the stock",
                                                         timeout=60_000)
    book = json.loads((harness.ROOT / "notebooks" / "quizzes" / "02_tre_tretton.json").read_text())
    first = book["quizzes"][0]  # the quiz file holds {"quizzes": [...], "exercises": [...]}
    quiz = page.locator(".rummy-quiz").first
    expect(quiz.locator(".rummy-quiz-question")).to_contain_text(first["question"][:30])
    box = quiz.locator(".rummy-quiz-input input")
    box.fill(first["answer"])
    box.press("Enter")
    quiz.locator(".rummy-quiz-check").click()
    expect(quiz.locator(".rummy-quiz-feedback")).to_contain_text("Right", timeout=60_000)
    assert not offline.axe([guided, ".rummy-quiz"])


#: A link the crawl follows: an address on this site (no scheme, not only a fragment).
_HREF = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
_MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _target(site: Path, page: Path, link: str) -> str | None:
    """What is wrong with ``link`` on ``page`` (a file of the built site), or None."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or not parts.path:
        return None  # another host (the offline tests catch any request), or a fragment
    target = (page.parent / parts.path).resolve()
    if not target.is_relative_to(site.resolve()):
        return f"{link} leaves the site"
    if target.is_dir():
        target = target / "index.html"
    if not target.is_file():
        return f"{link}: no {target.relative_to(site.resolve())}"
    path = unquote(dict(p.split("=", 1) for p in parts.query.split("&") if "=" in p)
                   .get("path", ""))
    if (target.name == "index.html" and target.parent.name in ("notebooks", "tree", "lab")
            and path and not (site / "files" / path).is_file()):
        return f"{link}: JupyterLite has no {path}"
    return None


def dead_links(site: Path) -> list[str]:
    """Every link of the built site that leads nowhere: in its HTML pages (the landing
    page, the apps' Voici pages), in the notebooks JupyterLite opens (their markdown
    links, relative to the notebook), and the links the widgets make as a page runs
    (the progress map's Practise links, the landing line's map) from where they run."""
    import os

    from widgets.progress import SITE_ENV, ProgressLine, app_url, practice_url

    dead = []
    pages = [site / "index.html", *sorted((site / "voici" / "render").rglob("*.html"))]
    for page in pages:
        for link in _HREF.findall(page.read_text()):
            wrong = _target(site, page, html.unescape(link))
            if wrong:
                dead.append(f"{page.relative_to(site)}: {wrong}")
    files = site / "files"
    for nb in sorted(files.rglob("*.ipynb")):
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            for link in [*_MD_LINK.findall(text), *_HREF.findall(text)]:
                parts = urlsplit(link)
                if parts.scheme or parts.netloc or not parts.path:
                    continue
                if not (nb.parent / parts.path).resolve().is_file():
                    dead.append(f"{nb.relative_to(site)}: {link}")
    runs_at = {"voici": site / "voici" / "render" / "apps" / "progress.html",
               "lite": site / "notebooks" / "index.html"}
    old = os.environ.get(SITE_ENV)
    try:
        for where, page in runs_at.items():
            os.environ[SITE_ENV] = where
            for link in (practice_url("TT-5"), app_url("progress"), ProgressLine().map_url):
                wrong = _target(site, page, link)
                if wrong:
                    dead.append(f"a widget's link in {where}: {wrong}")
    finally:
        if old is None:
            os.environ.pop(SITE_ENV, None)
        else:
            os.environ[SITE_ENV] = old
    return dead


def test_the_crawl_finds_a_dead_link(tmp_path: Path) -> None:
    """The crawl can fail: a page and a notebook with a link to nothing are caught."""
    (tmp_path / "files").mkdir()
    (tmp_path / "index.html").write_text('<a href="nowhere.html">x</a><a href="#top">y</a>')
    (tmp_path / "files" / "a.ipynb").write_text(json.dumps({"cells": [
        {"cell_type": "markdown", "source": "[b](b.ipynb) [web](https://example.org/)"}]}))
    found = dead_links(tmp_path)
    assert any("nowhere.html" in d for d in found) and any("b.ipynb" in d for d in found)
    assert not any("example.org" in d or "#top" in d for d in found)


def test_every_link_inside_the_site_resolves(site: str) -> None:
    """The practice and progress apps are on the site, and nothing links to a page the
    site does not have (the lessons' "practice app" link included)."""
    for app in ("practice", "progress"):
        assert (SITE / "voici" / "render" / "apps" / f"{app}.html").is_file(), app
        assert (SITE / "files" / "apps" / f"{app}.ipynb").is_file(), app
    assert not dead_links(SITE)


#: The learner's record as the browser keeps it: the text of every file of IDBFS's
#: databases (Emscripten keeps a file as ``{contents: Uint8Array}`` in ``FILE_DATA``).
KEPT_FILES_JS = """async () => {
  const open = (name) => new Promise((ok, no) => {
    const r = indexedDB.open(name); r.onsuccess = () => ok(r.result); r.onerror = no; });
  const all = (store, how) => new Promise((ok, no) => {
    const r = store[how](); r.onsuccess = () => ok(r.result); r.onerror = no; });
  let text = '';
  for (const info of await indexedDB.databases()) {
    const db = await open(info.name);
    if (db.objectStoreNames.contains('FILE_DATA')) {
      const store = db.transaction('FILE_DATA').objectStore('FILE_DATA');
      const keys = await all(store, 'getAllKeys');
      const values = await all(store, 'getAll');
      keys.forEach((key, i) => {
        const c = values[i] && values[i].contents;
        if (c) { text += key + '\\n' + new TextDecoder().decode(c) + '\\n'; }
      });
    }
    db.close();
  }
  return text;
}"""


def answer_wrong_as_ana(page: Any, site: str, wrong: str) -> None:
    """On the site's practice page for TT-6 (seed 0): answer ``wrong``, say
    the learner is Ana, until her key is in the browser and the answer in its
    IndexedDB (written before the page is left)."""
    page.goto(site + "voici/render/apps/practice.html?topic=TT-6&seed=0")
    box = page.locator(".rummy-practice-input input")
    box.wait_for(state="visible", timeout=START_MS)
    box.fill(wrong)
    box.press("Enter")
    expect(page.locator(".rummy-practice-feedback")).to_contain_text("TT-6", timeout=60_000)
    name = page.locator(".rummy-who-asking .rummy-learner-input input")
    name.wait_for(state="visible", timeout=60_000)
    name.fill("Ana")
    name.press("Enter")
    page.locator("button.rummy-learner-ok").click()
    page.wait_for_selector(".rummy-learner-name[data-learner='Ana']", timeout=60_000)
    page.wait_for_function("() => (localStorage.getItem('rummy-learner-key') || '')"
                           ".length === 32", timeout=60_000)
    page.wait_for_function(f"async () => /\"rule\": \"TT-6\"/.test(await ({KEPT_FILES_JS})())",
                           timeout=60_000)


def test_a_drill_answered_is_in_the_progress_app_after_a_reload(offline: Offline,
                                                                 site: str) -> None:
    """The record kept in the browser: a drill answered in the practice app (the learner
    gives a name when asked; the key stays in local storage, the events in IndexedDB) is
    on the progress app's map when the page is loaded again, by a new Python."""
    from rummy import practice

    wrong = practice.drill("TT-6", 0).mistake  # what the app deals for ?topic=TT-6&seed=0
    page = offline.page
    answer_wrong_as_ana(page, site, wrong)
    kept = page.evaluate(f"({KEPT_FILES_JS})()")
    assert "progress.jsonl" in kept
    key = page.evaluate("() => localStorage.getItem('rummy-learner-key')")
    assert key not in kept  # only the key's digest is kept with the record

    page.goto(site + "voici/render/apps/progress.html")
    page.wait_for_selector(".rummy-learner-name[data-learner='Ana']", timeout=START_MS)
    rule = page.locator(".rummy-progress-map li[data-rule='TT-6']").first
    expect(rule).to_contain_text("Practising", timeout=60_000)  # its badge
    assert "Ana: 0 of 58 rules mastered" in harness.page_text(page)


@pytest.mark.timeout(900)
def test_a_saved_record_loads_in_another_browser(browser: Any, site: str) -> None:
    """Save my record downloads the record (JSON lines with its MAC); Load my record, with
    the file and the recovery code, continues it in another browser (another profile:
    nothing kept there), whose map then shows the drill answered in the first."""
    from rummy import practice
    from rummy.progress import read_record

    wrong = practice.drill("TT-6", 0).mistake
    first, other = Offline(browser), Offline(browser)
    try:
        page = first.page
        answer_wrong_as_ana(page, site, wrong)
        key = page.evaluate("() => localStorage.getItem('rummy-learner-key')")
        page.goto(site + "voici/render/apps/progress.html")
        page.wait_for_selector(".rummy-learner-name[data-learner='Ana']", timeout=START_MS)
        page.locator("button.rummy-progress-save").click()
        link = page.locator("a.rummy-progress-saved-file")
        link.wait_for(state="visible", timeout=60_000)
        with page.expect_download() as got:
            link.click()
        saved = Path(got.value.path()).read_text(encoding="utf-8")
        assert got.value.suggested_filename == "rummy-record-Ana.jsonl"
        assert key not in saved
        who, events = read_record(saved, key)
        assert who == "Ana" and [e.rule for e in events] == ["TT-6"]

        there = other.page
        there.goto(site + "voici/render/apps/progress.html")
        there.wait_for_selector("button.rummy-progress-load", state="visible", timeout=START_MS)
        assert there.evaluate("() => localStorage.getItem('rummy-learner-key')") is None
        with there.expect_file_chooser() as chooser:  # ipywidgets' own file input
            there.locator(".rummy-progress-file").first.click()
        chooser.value.set_files({"name": "rummy-record-Ana.jsonl",
                                 "mimeType": "application/x-ndjson",
                                 "buffer": saved.encode("utf-8")})
        expect(there.locator(".rummy-progress-file").first).to_contain_text("(1)",
                                                                            timeout=60_000)
        code = there.locator(".rummy-progress-load-code input")
        code.fill(key.lower())
        code.press("Enter")
        there.locator("button.rummy-progress-load").click()
        expect(there.locator(".rummy-progress-map li[data-rule='TT-6']").first).to_contain_text(
            "Practising", timeout=60_000)
        there.wait_for_selector(".rummy-learner-name[data-learner='Ana']", timeout=60_000)
        there.wait_for_function(f"() => localStorage.getItem('rummy-learner-key') === '{key}'",
                                timeout=60_000)
        first.check()
        other.check()
    finally:
        first.context.close()
        other.context.close()


def test_classroom_page_says_it_needs_a_server(offline: Offline, site: str) -> None:
    page = offline.page
    page.goto(site + "voici/render/apps/classroom.html")
    expect(page.get_by_text("make classroom").first).to_be_visible(timeout=START_MS)
    text = harness.page_text(page)
    assert "needs" in text or "does not have" in text
    assert "make app" in text


#: The packages pyodide-kernel 0.7.0's worker imports as it starts, by the names it looks
#: for in ``loadPyodideOptions.packages`` (worker.ts, initKernel): any other spelling, and
#: it installs the package again through piplite at every start.
KERNEL_NAMES = {"sqlite3", "ipykernel", "comm", "pyodide_kernel", "jedi", "ipython"}
#: What no app imports: the lessons' odds formulas (sympy, mpmath), progress bars (tqdm),
#: and completions (jedi's parser, parso).
NOT_FOR_APPS = {"sympy", "mpmath", "tqdm", "parso"}
#: CPython 3.13's .pyc magic number (3571, Lib/importlib/_bootstrap_external.py), that
#: of Pyodide 0.29's Python; flags 1: a hash-based .pyc used without checking a source.
MAGIC_313 = (3571).to_bytes(2, "little") + b"\r\n"
APP_PAGES = ("three_thirteen", "big_table", "gin_three", "meld_odds")


def app_start(site: Path, app: str) -> tuple[list[str], dict[str, Any]]:
    """The packages an app's page loads as its kernel starts (every name its settings
    list, with what they depend on in the lock the page uses), and that lock."""
    text = (site / "voici" / "render" / "apps" / f"{app}.html").read_text()
    found = re.search(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>', text, re.S)
    assert found
    options = json.loads(found[1])["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"].get("loadPyodideOptions", {})
    packages = options.get("packages", [])
    lock_file = "pyodide-lock.json"
    # the page's own settings script may set them before JupyterLite reads the settings
    own = re.search(r"var packages = (\[.*?\]);", text)
    if own:
        packages = json.loads(own[1])
        named = re.search(r"options\.lockFileURL = \"\./static/pyodide/([\w.-]+)\"", text)
        assert named, "the page's settings script names no lock"
        lock_file = named[1]
    lock = json.loads((site / "static" / "pyodide" / lock_file).read_text())
    keys = {re.sub(r"[-_.]+", "-", k).lower(): k for k in lock["packages"]}
    todo = [keys[re.sub(r"[-_.]+", "-", p).lower()] for p in packages]
    closure: set[str] = set()
    while todo:
        key = todo.pop()
        if key not in closure:
            closure.add(key)
            todo += [keys[re.sub(r"[-_.]+", "-", d).lower()]
                     for d in lock["packages"][key]["depends"]]
    return packages, {"lock": lock, "closure": sorted(closure)}


def uncompiled(archive: Path) -> list[str]:
    """The Python modules of a wheel or zip that have no .pyc of CPython 3.13 (beside
    them, or in __pycache__), and the .pyc of another Python or checked against a source."""
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        bad = []
        for name in sorted(names):
            if name.endswith(".py"):
                folder, _, stem = name[:-3].rpartition("/")
                cached = f"{folder}/__pycache__/{stem}.cpython-313.pyc".lstrip("/")
                if name + "c" not in names and cached not in names:
                    bad.append(name)
            elif name.endswith(".pyc"):
                head = z.read(name)[:8]
                if head[:4] != MAGIC_313 or int.from_bytes(head[4:], "little") != 1:
                    bad.append(f"{name} (header {head.hex()})")
        return bad


def test_app_pages_load_only_what_the_apps_import(site: str) -> None:
    """An app's page starts fast: it loads no package for the lessons only, names
    the kernel's own as its worker looks for them, and has jedi as an empty stand-in."""
    for app in APP_PAGES:
        packages, start = app_start(SITE, app)
        assert set(packages) >= KERNEL_NAMES, (app, KERNEL_NAMES - set(packages))
        assert not NOT_FOR_APPS & set(start["closure"]), (app, start["closure"])
        jedi = SITE / "static" / "pyodide" / start["lock"]["packages"]["jedi"]["file_name"]
        with zipfile.ZipFile(jedi) as z:
            assert not [n for n in z.namelist() if n.startswith("jedi/")], app


def test_app_pages_python_is_byte_compiled(site: str) -> None:
    """The page starts fast: its Python writes no bytecode (sys.dont_write_bytecode), so every
    module an app's page imports as it starts ships compiled, the standard library too."""
    _, start = app_start(SITE, "three_thirteen")
    static = SITE / "static" / "pyodide"
    archives = [static / start["lock"]["packages"][k]["file_name"] for k in start["closure"]]
    found = {a.name: uncompiled(a)[:3] for a in [*archives, static / "python_stdlib.zip",
                                                  static / "python_stdlib-apps.zip"]}
    bad = {name: modules for name, modules in found.items() if modules}
    assert not bad, f"modules the page would compile at every load: {bad}"
