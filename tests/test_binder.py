"""binder/: what Binder needs, and an environment built from it alone that serves every app.

The last test is what Binder does, on this machine: a fresh virtual environment,
``pip install -r binder/requirements.txt``, ``binder/postBuild`` in a clean copy of
the repository, then ``jupyter server`` (Voilà's server extension on) serving each
app at ``voila/render/notebooks/apps/<app>.ipynb``, loaded in Chromium (HTTP 200,
then the app's widgets drawn).  The pinned packages are installed with uv when the
test environment has it (pip otherwise): the pins are exact, so both give the same
environment, and uv takes seconds where pip takes minutes.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser import harness

ROOT = harness.ROOT
BINDER = ROOT / "binder"
#: The app notebooks a Binder badge opens, and what shows that each one works.
APPS = {
    "index": "text=Rummy teaching kit",
    "three_thirteen": harness.READY,
    "big_table": harness.READY,
    "gin_three": harness.READY,
    "meld_odds": ".jupyter-widgets",
}


def test_runtime_and_postbuild():
    assert (BINDER / "runtime.txt").read_text().strip() == "python-3.11"
    post = BINDER / "postBuild"
    assert os.access(post, os.X_OK), "binder/postBuild must be executable"
    text = post.read_text()
    assert text.startswith("#!/bin/bash")
    assert re.search(r"pip install .*-e \.", text), "postBuild must install the kit"


def test_badges_open_each_app_and_the_start_notebook():
    readme = (ROOT / "README.md").read_text()
    badges = re.findall(r"https://mybinder\.org/v2/gh/[^)\s]+", readme)
    assert any("labpath=notebooks%2F00_start_here.ipynb" in b for b in badges), badges
    for app in APPS:
        assert any(f"urlpath=voila%2Frender%2Fnotebooks%2Fapps%2F{app}.ipynb" in b
                   for b in badges), f"no Binder badge opens {app} in Voilà"


def _run(argv: list[str], cwd: Path, env: dict[str, str], timeout: float) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{argv} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


@pytest.mark.browser
@pytest.mark.slow
def test_binder_environment_serves_every_app(tmp_path, browser, monkeypatch):
    start = time.monotonic()
    # the table service's data and teacher key are the test's own (never ~/.local)
    monkeypatch.setenv("RUMMY_DATA", str(tmp_path / "rummy-data"))
    repo = harness.clean_copy(tmp_path / "repo")
    venv = tmp_path / "venv"
    base_python = Path(sys.base_prefix) / "bin" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    _run([str(base_python), "-m", "venv", str(venv)], tmp_path, dict(os.environ), 120)
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH",
                                                            "JUPYTER_PATH")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(venv)
    python = str(venv / "bin" / "python")
    uv = Path(sys.prefix) / "bin" / "uv"  # the same exact pins, installed faster than pip
    if uv.exists():
        _run([str(uv), "pip", "install", "--quiet", "--python", python,
              "-r", "binder/requirements.txt"], repo, env, 300)
    else:
        _run([python, "-m", "pip", "install", "--quiet", "--no-compile",
              "-r", "binder/requirements.txt"], repo, env, 300)
    _run(["bash", "binder/postBuild"], repo, env, 120)
    _run([python, "-c", "import rummy, widgets, voila"], tmp_path, env, 60)
    built = time.monotonic() - start

    token = "binder-test"
    teacher = "binder-test-teacher-key-0123456789"
    monkeypatch.setenv("RUMMY_TEACHER_KEY", teacher)  # the table service makes tables for the teacher only
    with harness.start_jupyter_server(python, repo, token=token) as server:
        for app, shows in APPS.items():
            url = harness.app_url(server.base, app) + f"?token={token}"
            page = harness.patient(browser.new_page())
            requests: list[str] = []
            page.on("request", lambda r, seen=requests: seen.append(r.url))
            try:
                reply = page.goto(url)
                assert reply is not None and reply.status == 200, (app, reply and reply.status)
                harness.wait_rendered(page)
                page.wait_for_selector(shows, timeout=60_000)
                assert not harness.page_tracebacks(page), app
                # the kit's own template, as `make app` serves it (postBuild chooses it)
                assert page.locator("body.rummy-page").count() == 1, f"{app}: not the kit's template"
                away = [u for u in requests if not u.startswith(("data:", "blob:", server.base))
                        and not u.startswith(server.base.replace("http", "ws", 1))]
                assert not away, f"{app} fetched from outside the server: {away[:5]}"
            finally:
                page.close()
        # the classroom table service is on too (binder/postBuild enables it)
        reply = urllib.request.urlopen(urllib.request.Request(
            server.base + f"rummy/api/tables?token={token}", method="POST",
            data=json.dumps({"variant": "three_thirteen", "seats": ["human", "greedy"]}).encode(),
            headers={"Content-Type": "application/json", "X-Rummy-Teacher-Key": teacher}),
            timeout=60)
        assert reply.status in (200, 201) and "code" in json.loads(reply.read())
        assert not server.tracebacks(), server.log()[-4000:]
    print(f"binder environment built in {built:.0f} s; all apps served in "
          f"{time.monotonic() - start - built:.0f} s")
