"""`make lab`: JupyterLab opens the lessons at Start here, and a cell runs in the kit's kernel.

The server is started with the same configuration file as ``make lab``
(jupyter_lab_config.py); the page logs its requests, which all stay on this
machine (no news, no update check, no extension listing fetched).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser import harness
from tests.browser.harness import outside

pytestmark = pytest.mark.browser

TOKEN = "rummy-lab-test"


@pytest.fixture(scope="module")
def lab_home(tmp_path_factory: Any) -> Any:
    """The test's own Jupyter folders; in its Jupyter config folder (where
    JupyterLab keeps workspaces unless told otherwise) a workspace left by
    "another JupyterLab" that had lesson 02 open: the lab must still open
    Start here, from a fresh workspace folder."""
    home = tmp_path_factory.mktemp("lab-home")
    theirs = home / harness.LAB_FOLDERS["JUPYTER_CONFIG_DIR"] / "lab" / "workspaces"
    theirs.mkdir(parents=True)
    (theirs / "default-37a8.jupyterlab-workspace").write_text(
        '{"data": {"layout-restorer:data": {"main": {"dock": {"type": "tab-area", '
        '"currentIndex": 0, "widgets": ["notebook:notebooks/02_tre_tretton.ipynb"]}}}, '
        '"notebook:notebooks/02_tre_tretton.ipynb": {"data": {"path": '
        '"notebooks/02_tre_tretton.ipynb", "factory": "Notebook"}}}, '
        '"metadata": {"id": "default"}}')
    return home


@pytest.fixture(scope="module")
def lab(lab_home: Any) -> Any:
    with harness.start_lab(token=TOKEN, home=lab_home) as server:
        yield server


def test_make_lab_uses_the_tested_configuration() -> None:
    recipe = (harness.ROOT / "Makefile").read_text().split("\nlab:")[1].split("\n\n")[0]
    assert "--config=$(CURDIR)/jupyter_lab_config.py" in recipe
    assert "--allow-root" in recipe and "--port=$(LAB_PORT)" in recipe
    assert re.search(r"^LAB_PORT \?= 8888$", (harness.ROOT / "Makefile").read_text(), re.M)


def test_make_lab_keeps_its_workspace_in_the_kit() -> None:
    """`make lab` reads and writes its workspace and settings in the kit's own
    folder (jupyter_lab_config.py), never in the user's Jupyter folder."""
    from traitlets.config.loader import PyFileConfigLoader

    config = PyFileConfigLoader("jupyter_lab_config.py", path=str(harness.ROOT)).load_config()
    own = harness.ROOT / ".jupyterlab"
    assert Path(config.LabApp.workspaces_dir) == own / "workspaces"
    assert Path(config.LabApp.user_settings_dir) == own / "user-settings"
    assert ".jupyterlab/" in (harness.ROOT / ".gitignore").read_text().split()


def test_the_lab_test_uses_folders_of_its_own(lab: harness.Server, lab_home: Any) -> None:
    """The test's JupyterLab keeps its state in the test's temporary folder."""
    log = lab.log()
    assert f"Workspaces directory: {lab_home / 'workspaces'}" in log or \
        str(lab_home) in log, log[-2000:]
    for folder in harness.LAB_FOLDERS.values():
        assert (lab_home / folder).parent == lab_home


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
        # the lesson's first cell draws a hand (Rummy in one screen)
        picture = cell.locator(".jp-RenderedSVG img, .jp-RenderedSVG svg")
        picture.first.wait_for(state="visible", timeout=30_000)
        assert not [u for u in asked if outside(u)], [u for u in asked if outside(u)]
    finally:
        context.close()
