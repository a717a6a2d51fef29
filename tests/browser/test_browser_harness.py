"""The harness itself: Voilà's front door, the landing page, and that a traceback
on a page is caught (so the other browser tests can fail)."""

from __future__ import annotations

import json
import re

import harness
import pytest

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
    assert len(targets) == len(APPS) + len(LESSONS)
    base = harness.ROOT / "notebooks/apps"
    missing = [t for t in targets if not (base / t).resolve().exists()]
    assert not missing, f"the landing page links notebooks that don't exist: {missing}"


#: Where a notebook's code would show if Voilà did not strip it.
CODE = ".jp-CodeCell .jp-InputArea, .jp-Editor, .cm-editor, .CodeMirror"


def test_sources_are_hidden(page, voila):
    for app in APPS:
        page.goto(harness.app_url(voila.base, app))
        harness.wait_rendered(page)
        assert page.locator(".jp-OutputArea-output").count() > 0, app
        assert page.locator(CODE).count() == 0, f"{app} shows its code"


def test_a_traceback_is_caught(browser, voila):
    """A notebook that raises is reported by page_tracebacks (the check can fail)."""
    page = browser.new_page()
    try:
        page.goto(voila.base + "voila/render/tests/browser/failing_probe.ipynb")
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
