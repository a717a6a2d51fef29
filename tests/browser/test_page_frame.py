"""What frames every app page, as a child on a phone or a keyboard user meets it:
each folded section ("Score sheet", "Options and new game", "How to play", ...)
is a disclosure button opened by keyboard, the way home ("← All apps") is at the
top of every page and stays there, and while the page is still being set up (a
slow network) it says so instead of showing a blank screen."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser import harness

pytestmark = pytest.mark.browser

FOLDS = ("What happened (log)", "Score sheet", "Options and new game", "How to play",
         "Is it a meld?", "Variant and players")


def _focused(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(
        "() => { const e = document.activeElement; return e ? {text: (e.innerText || '')"
        ".trim(), role: e.getAttribute('role'), expanded: e.getAttribute('aria-expanded'), "
        "tag: e.tagName} : {}; }"))


def test_every_folded_section_opens_by_keyboard(page: Any, voila: harness.Server) -> None:
    """Tab reaches every section's title, a button that says whether it is open;
    Enter opens it (its content shows), Space folds it again."""
    page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, seed=2, players=2))
    page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
    page.wait_for_timeout(500)
    reached: dict[str, str] = {}
    for _ in range(120):
        page.keyboard.press("Tab")
        f = _focused(page)
        for title in FOLDS:
            if f.get("text", "").startswith(title.split(" (")[0]) and f.get("role") == "button":
                reached.setdefault(title, str(f.get("expanded")))
        if len(reached) == len(FOLDS):
            break
    missing = [t for t in FOLDS if t not in reached]
    assert not missing, f"Tab never reached these sections' titles: {missing}"
    assert all(v in ("true", "false") for v in reached.values()), reached
    for title in ("Score sheet", "Options and new game"):
        head = page.get_by_role("button", name=title, exact=True)
        assert head.get_attribute("aria-expanded") == "false"
        head.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(
            "t => [...document.querySelectorAll('[role=button][aria-expanded]')]"
            ".some(h => h.innerText.trim() === t && h.getAttribute('aria-expanded') === 'true')",
            arg=title)
        body = head.get_attribute("aria-controls")
        assert body and page.locator(f"#{body}").is_visible()
    page.get_by_role("button", name="Options and new game", exact=True).focus()
    page.keyboard.press(" ")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[role=button][aria-expanded]')].some(h => "
        "h.innerText.trim() === 'Options and new game' && "
        "h.getAttribute('aria-expanded') === 'false')")
    # New game, behind "Options and new game", is reached by keyboard too
    page.get_by_role("button", name="Options and new game", exact=True).focus()
    page.keyboard.press("Enter")
    for _ in range(40):
        page.keyboard.press("Tab")
        if _focused(page).get("text") == "New game":
            break
    else:
        pytest.fail("Tab never reached New game")


@pytest.mark.parametrize("app", ["three_thirteen", "big_table", "gin_three", "meld_odds"])
def test_the_way_home_is_at_the_top_of_every_page(page: Any, voila: harness.Server,
                                                   app: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(harness.app_url(voila.base, app, speed=0, seed=2))
    page.wait_for_selector(".jupyter-widgets", state="visible", timeout=120_000)
    home = page.get_by_role("link", name="All apps", exact=True)
    assert home.count() == 1
    box = home.bounding_box()
    assert box and box["y"] < 60, box
    assert page.evaluate("() => !!document.querySelector('header a.rummy-home')")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    page.wait_for_timeout(300)
    box = home.bounding_box()
    assert box and 0 <= box["y"] < 60, f"the way home scrolled away: {box}"
    href = home.get_attribute("href") or ""
    assert href.endswith("/voila/render/notebooks/apps/index.ipynb"), href


def test_a_slow_page_says_the_table_is_being_set_up(browser: Any,
                                                     voila: harness.Server) -> None:
    """With the kit's script held back (a slow network), the page already says in a
    status region that the table is being set up, and its main part is busy; once
    the table is drawn, the note is gone and the page is no longer busy."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    try:
        page.route("**/kit.js*", hold)
        page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, seed=2),
                  wait_until="commit", timeout=120_000)
        note = page.locator("#rummy-setting-up")
        note.wait_for(state="visible", timeout=120_000)
        assert note.is_visible()
        assert note.get_attribute("role") == "status"
        assert "Setting up the table" in note.inner_text()
        assert page.locator("main").get_attribute("aria-busy") == "true"
        deadline = time.monotonic() + 30
        while not held and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held, "the page never asked for kit.js"
        for route in held:
            route.continue_()
        page.unroute("**/kit.js*")
        page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
        page.wait_for_function("() => !document.getElementById('rummy-setting-up')")
        assert page.locator("main").get_attribute("aria-busy") is None
    finally:
        context.close()


def test_a_markdown_output_is_drawn_as_text_with_its_style(page: Any,
                                                          voila: harness.Server) -> None:
    """IPython's Markdown output shows bold as bold and a link as a link, not as
    raw ``**text**`` (as Voilà's own front end draws it)."""
    harness.open_with_new_kernel(page, voila.base + "voila/render/tests/browser/"
                                 "markdown_probe.ipynb")
    harness.wait_rendered(page, 120_000)
    out = page.locator("[data-mime-type='text/markdown']")
    out.wait_for(timeout=30_000)
    assert out.locator("strong").inner_text() == "Lowest score wins."
    assert out.get_by_role("link", name="the rules").count() == 1
    assert "**" not in out.inner_text() and "](" not in out.inner_text()


def test_the_kits_script_and_style_are_named_by_their_content(page: Any,
                                                             voila: harness.Server) -> None:
    """kit.js and kit.css are asked for under a name with their content's hash, so
    the browser keeps them for good (and fetches a new build at once)."""
    import hashlib
    import urllib.request
    from pathlib import Path

    static = Path(__file__).resolve().parents[2] / "share/jupyter/voila/templates/rummy/static"
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, seed=2))
    page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
    for name in ("kit.js", "kit.css"):
        digest = hashlib.sha512((static / name).read_bytes()).hexdigest()  # tornado's version
        urls = [u for u in asked if u.split("?")[0].endswith("/" + name)]
        assert urls and all(f"?v={digest}" in u for u in urls), (name, urls)
        with urllib.request.urlopen(urls[0]) as r:
            assert "max-age=315360000" in (r.headers.get("Cache-Control") or "")



def test_the_teachers_page_passes_axe(browser: Any, tmp_path: Any) -> None:
    """The classroom page as the teacher uses it, signed in and a table made:
    nothing serious for axe (its coloured buttons' white text had too little
    contrast: white on green, 4.11:1)."""
    from tests.browser.axe import assert_accessible
    from tests.browser.classroom import KEY

    with harness.start_voila(env={"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY},
                             apps=[]) as server:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        teacher = harness.patient(context.new_page(), 60_000)
        try:
            teacher.goto(harness.app_url(server.base, "classroom"))
            harness.wait_rendered(teacher, timeout=120_000)
            teacher.wait_for_selector(".rummy-teacher-key input", timeout=60_000)
            assert_accessible(teacher, "the classroom page, signed out")
            teacher.locator(".rummy-teacher-key input").fill(KEY)
            teacher.locator("button.rummy-sign-in").click()
            teacher.wait_for_selector("button.rummy-create-table", timeout=60_000)
            teacher.locator("button.rummy-create-table").click()
            teacher.wait_for_selector(".rummy-table-code", timeout=30_000)
            teacher.wait_for_timeout(1_000)
            assert_accessible(teacher, "the classroom page, a table made")
        finally:
            context.close()


def test_a_tapped_control_says_it_is_working_until_the_kernel_answers(
        page: Any, voila: harness.Server) -> None:
    """A tap on a slow network or a busy kernel shows at once on the control
    tapped (``aria-busy``, drawn as working) and stops when the kernel has
    answered it, not before."""
    harness.open_with_new_kernel(page, voila.base + "voila/render/tests/browser/"
                                 "busy_probe.ipynb")
    harness.wait_rendered(page, 120_000)
    slow = page.get_by_role("button", name="Slow")
    slow.wait_for(timeout=60_000)
    assert slow.get_attribute("aria-busy") is None
    slow.click()
    assert slow.get_attribute("aria-busy") == "true"
    assert "rummy-busy" in (slow.get_attribute("class") or "")
    assert page.get_by_text("not yet").count() == 1  # the kernel has not answered yet
    page.get_by_text("done 1").wait_for(timeout=30_000)
    page.wait_for_function("() => !document.querySelector('[aria-busy=\"true\"].rummy-busy')",
                           timeout=10_000)
    assert slow.get_attribute("aria-busy") is None


def test_a_tables_corner_is_named_only_where_no_header_row_names_the_rows(
        page: Any, voila: harness.Server) -> None:
    """The page's script names an empty corner cell "Row" for screen readers, but a
    score table whose index is named on the header's second row ("round") has its
    name already: a "Row" there is a stray header."""
    harness.open_with_new_kernel(page, voila.base + "voila/render/tests/browser/"
                                 "tables_probe.ipynb")
    harness.wait_rendered(page, 120_000)
    page.wait_for_selector(".jp-RenderedHTMLCommon table", timeout=60_000)
    page.wait_for_timeout(500)
    corners = page.evaluate("""() => [...document.querySelectorAll(
        '.jp-RenderedHTMLCommon table thead tr:first-child th:first-child')].map(
        th => th.textContent.trim())""")
    assert corners == ["", "Row"], corners
