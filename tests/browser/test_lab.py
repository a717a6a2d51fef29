"""`make lab`: JupyterLab opens the lessons at Start here, and a cell runs in the kit's kernel.

The server is started with the same configuration file as ``make lab``
(jupyter_lab_config.py); the page logs its requests, which all stay on this
machine (no news, no update check, no extension listing fetched).
"""

from __future__ import annotations

import re
from typing import Any

import harness
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_offline import outside

pytestmark = pytest.mark.browser

TOKEN = "rummy-lab-test"


@pytest.fixture(scope="module")
def lab() -> Any:
    with harness.start_lab(token=TOKEN) as server:
        yield server


def test_make_lab_uses_the_tested_configuration() -> None:
    recipe = (harness.ROOT / "Makefile").read_text().split("\nlab:")[1].split("\n\n")[0]
    assert "--config=$(CURDIR)/jupyter_lab_config.py" in recipe
    assert "--allow-root" in recipe and "--port=$(LAB_PORT)" in recipe
    assert re.search(r"^LAB_PORT \?= 8888$", (harness.ROOT / "Makefile").read_text(), re.M)


@pytest.mark.timeout(600)
def test_lab_opens_start_here_and_runs_a_cell(browser: Any, lab: harness.Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(context.new_page())
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    try:
        # the server's root redirects to Start here (LabApp.default_url)
        page.goto(lab.base + f"?token={TOKEN}")
        page.wait_for_url(re.compile(r"/lab/tree/notebooks/00_start_here\.ipynb"),
                          timeout=120_000)
        page.wait_for_selector(".jp-NotebookPanel .jp-CodeCell", timeout=180_000)
        page.wait_for_selector(".jp-Notebook-ExecutionIndicator[data-status='idle']",
                               timeout=180_000)
        tab = page.locator(".lm-TabBar-tab.jp-mod-current").first.inner_text()
        assert "00_start_here.ipynb" in tab
        cell = page.locator(".jp-NotebookPanel:visible .jp-CodeCell").first
        prompt = cell.locator(".jp-InputArea-prompt")
        # Shift+Enter runs the cell once its editor has the focus; a key
        # pressed before the editor takes it is lost (a full run once saw
        # no run of the cell within 3 minutes), so the cell is asked again
        # until its prompt shows it queued or run
        for _ in range(5):
            cell.locator(".jp-InputArea-editor").click()
            page.keyboard.press("Shift+Enter")
            try:
                page.wait_for_function("el => /\\[(\\d+|\\*)\\]/.test(el.textContent)",
                                       arg=prompt.element_handle(), timeout=20_000)
                break
            except PlaywrightTimeout:
                continue
        page.wait_for_function(
            "el => /\\[\\d+\\]/.test(el.textContent)", arg=prompt.element_handle(),
            timeout=180_000)
        out = cell.locator(".jp-OutputArea-output").first.inner_text()
        import rummy

        assert out.strip() == repr(rummy.__version__)
        assert not [u for u in asked if outside(u)], [u for u in asked if outside(u)]
    finally:
        context.close()
