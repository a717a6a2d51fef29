"""The harness itself: Voilà's front door, the landing page, and that a traceback
on a page is caught (so the other browser tests can fail)."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser import harness

pytestmark = pytest.mark.browser

LESSONS = (
    "00_start_here", "01_three_thirteen", "02_tre_tretton", "03_three_thirteen_jokers",
    "04_big_table", "05_gin_three", "06_meld_odds", "07_bots_and_strategy",
)
APPS = ("three_thirteen", "big_table", "gin_three", "meld_odds")


def test_root_opens_the_landing_page(page, voila):
    page.goto(voila.base)
    page.wait_for_url(re.compile(r"/voila/render/notebooks/apps/index\.ipynb$"))
    harness.wait_rendered(page)
    assert page.get_by_role("heading", name="Rummy teaching kit").is_visible()


def test_landing_page_links_every_app_and_lesson(page, voila):
    page.goto(harness.app_url(voila.base, "index"))
    harness.wait_rendered(page)
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    for name in APPS:
        assert f"{voila.base}voila/render/notebooks/apps/{name}.ipynb" in hrefs, name
    for name in LESSONS:
        assert f"{voila.base}voila/render/notebooks/{name}.ipynb" in hrefs, name


def test_every_linked_notebook_exists():
    index = json.loads((harness.ROOT / "notebooks/apps/index.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in index["cells"])
    targets = re.findall(r"\]\(([^)]+\.ipynb)\)", text)
    # every app and lesson, the teacher's classroom page (shared tables), the
    # practice app (drills) and the learner's map of the rules (progress)
    assert len(targets) == len(APPS) + len(LESSONS) + 3
    assert {"classroom.ipynb", "practice.ipynb", "progress.ipynb"} <= set(targets)
    base = harness.ROOT / "notebooks/apps"
    missing = [t for t in targets if not (base / t).resolve().exists()]
    assert not missing, f"the landing page links notebooks that don't exist: {missing}"


#: Where a notebook's code would show if Voilà did not strip it.
CODE = ".jp-CodeCell .jp-InputArea, .jp-Editor, .cm-editor, .CodeMirror"


def test_sources_are_hidden(page, voila):
    for app in APPS:
        page.goto(harness.app_url(voila.base, app))
        harness.wait_rendered(page)
        # a preheated kernel's outputs are drawn once its widgets connect,
        # which may be just after the cells show: wait for them
        page.wait_for_selector(".jp-OutputArea-output", state="attached", timeout=60_000)
        assert page.locator(".jp-OutputArea-output").count() > 0, app
        assert page.locator(CODE).count() == 0, f"{app} shows its code"


def test_a_traceback_is_caught(browser, voila):
    """A notebook that raises is reported by page_tracebacks (the check can fail)."""
    page = harness.patient(browser.new_page())
    try:
        harness.open_with_new_kernel(page, voila.base + "voila/render/tests/browser/failing_probe.ipynb")
        harness.wait_rendered(page)
        found = harness.page_tracebacks(page)
        code_shown = page.locator(CODE).count()
    finally:
        page.close()
    assert any("ZeroDivisionError" in f or "Traceback" in f for f in found), found
    assert code_shown == 0, "Voilà shows the probe's code: strip_sources is off"


def test_voila_config_hides_code_and_culls_idle_kernels():
    config = json.loads((harness.ROOT / "voila.json").read_text())
    assert config["VoilaConfiguration"]["strip_sources"] is True
    assert config["VoilaConfiguration"]["show_tracebacks"] is False
    cull = config["MappingKernelManager"]
    assert 0 < cull["cull_interval"] <= cull["cull_idle_timeout"] <= 3600


def test_voila_config_preheats_the_apps_only():
    """Kernels are started ahead of time for the apps (the landing page included),
    not for the lessons or the probe, whose notebooks would run for nothing."""
    config = json.loads((harness.ROOT / "voila.json").read_text())
    assert config["VoilaConfiguration"]["preheat_kernel"] is True
    pools = config["VoilaKernelManager"]["kernel_pools_config"]
    assert pools["default"]["pool_size"] == 0
    for app in harness.APPS:
        assert pools[f"notebooks/apps/{app}.ipynb"]["pool_size"] >= 1, app
    assert len(pools) == len(harness.APPS) + 1


KERNEL_ID_JS = ("() => JSON.parse(document.getElementById('jupyter-config-data')"
                ".textContent).kernelId")


def test_each_page_gets_a_preheated_kernel_of_its_own(browser, voila):
    """A page takes a kernel Voilà started before it asked, and that kernel builds
    the table for the page's own address; the next page gets another kernel
    (a fresh game), never the same one."""
    kernels = []
    for players in (3, 4):
        page = harness.patient(browser.new_page())
        try:
            page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, players=players))
            page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
            assert page.locator(".rummy-opponent").count() == players - 1
            assert not harness.page_tracebacks(page)
            kernels.append(page.evaluate(KERNEL_ID_JS))
        finally:
            page.close()
    assert kernels[0] != kernels[1]
    used = re.findall(r"Using pre-heated kernel: (\S+) for notebooks/apps/three_thirteen",
                      voila.log())
    assert set(kernels) <= set(used), (kernels, used)


def test_a_page_whose_kernel_never_answers_is_opened_once_more():
    """open_with_new_kernel opens the address again after a load that timed out,
    and a second timeout fails (a stand-in page: no server needed)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    class Page:
        def __init__(self, fails):
            self.fails, self.calls = fails, []

        def goto(self, url, timeout):
            self.calls.append((url, timeout))
            if len(self.calls) <= self.fails:
                raise PlaywrightTimeoutError("Page.goto: Timeout exceeded")

    once = Page(fails=1)
    harness.open_with_new_kernel(once, "http://x/lesson")
    assert once.calls == [("http://x/lesson", harness.NEW_KERNEL_MS),
                          ("http://x/lesson", harness.NAVIGATION_MS)]
    always = Page(fails=2)
    with pytest.raises(PlaywrightTimeoutError):
        harness.open_with_new_kernel(always, "http://x/lesson")
    assert len(always.calls) == 2


def test_the_tests_chromium_draws_no_address_bar_pop_ups_and_keeps_playwrights_switches(
        browser):
    # Chromium keeps only its last --disable-features: Playwright's own are given again
    last = [a for a in harness.chromium_args() if a.startswith("--disable-features=")][-1]
    features = last.split("=", 1)[1].split(",")
    assert {"PaintHolding", "MediaRouter", *harness.DISABLED_FEATURES} <= set(features)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto("data:text/html,<title>t</title><p>A page</p>")
        page.wait_for_timeout(500)
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
        drawn = [t["url"] for t in targets if t["url"].startswith("chrome://")]
        assert drawn == [], drawn  # without DISABLED_FEATURES: chrome://omnibox-popup...
    finally:
        context.close()
