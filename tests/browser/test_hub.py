"""A whole class on the demo hub of ``make hub``, in Chromium.

``make hub`` runs on free loopback ports with its data in a temporary folder
and a password of its own.  The teacher signs in on the hub's login page and
makes a table; three learners sign in on three pages of their own, join
without typing anything (the service knows them by their hub login; no token
is in any address or answer), and take turns until each made moves at a
hand; a learner's move for another learner's seat and a learner's new
table are refused.  The pages speak to the table service at
``/services/rummy-tables/`` with the hub's OAuth cookie and XSRF token, as
a browser does.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import harness
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
SERVICE = "/services/rummy-tables/"
LEARNERS = ("ana", "ben", "cleo")

#: JavaScript: one request to the table API from the page, as the app would make it.
CALL_JS = """async ([method, path, body]) => {
  const xsrf = document.getElementById('rummy-hub').dataset.xsrf;
  const r = await fetch('/services/rummy-tables/rummy/api' + path, {
    method, credentials: 'same-origin',
    headers: {'Content-Type': 'application/json', 'X-XSRFToken': xsrf},
    body: body === null ? undefined : JSON.stringify(body)});
  return [r.status, await r.json()];
}"""


class DemoHub:
    def __init__(self, data: Path) -> None:
        self.port = harness.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.password = secrets.token_urlsafe(12)
        self.log_path = data / "hub.log"
        self.data = data
        self.api_port = harness.free_port()
        env = {**os.environ, "RUMMY_HUB_PASSWORD": self.password, "RUMMY_BOT_PACE": "0",
               "RUMMY_HUB_API_PORT": str(self.api_port),
               "RUMMY_HUB_PROXY_API_PORT": str(harness.free_port()),
               "RUMMY_HUB_SERVICE_PORT": str(harness.free_port())}
        self.proc = subprocess.Popen(
            ["make", "--no-print-directory", "hub", f"HUB_PORT={self.port}",
             f"HUB_DATA={data / 'hub'}"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
            stdout=self.log_path.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 120
        while True:  # up once the proxy routes the service (the hub's login is behind it)
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("make hub did not start:\n" + self.log()[-4000:])
            try:
                urllib.request.urlopen(self.base + SERVICE + "rummy/api/tables", timeout=2)
            except urllib.error.HTTPError as e:
                if e.code == 401:
                    break
            except OSError:
                pass
            time.sleep(0.25)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        # what the hub started in sessions of their own (the service, the proxy, users'
        # servers) and did not stop, e.g. after a failed start: found by this test's folder
        mine = str(self.data).encode()
        for proc in Path("/proc").iterdir():
            with contextlib.suppress(OSError, ValueError):
                if proc.name.isdigit() and (mine in (proc / "environ").read_bytes()
                                            or mine in (proc / "cmdline").read_bytes()):
                    os.kill(int(proc.name), signal.SIGKILL)


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoHub]:
    h = DemoHub(tmp_path_factory.mktemp("make-hub"))
    try:
        yield h
    finally:
        h.stop()


def sign_in(browser: Any, hub: DemoHub, user: str) -> Any:
    """A page of a fresh browser signed in to the hub as ``user``, at the service."""
    page = harness.patient(browser.new_context().new_page())
    page.goto(hub.base + SERVICE)  # the service sends the browser to the hub's login
    page.fill("#username_input", user)
    page.fill("#password_input", hub.password)
    page.click("#login_submit")
    page.wait_for_selector("#rummy-hub")
    assert page.get_attribute("#rummy-hub", "data-user") == user
    return page


def call(page: Any, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    status, out = page.evaluate(CALL_JS, [method, path, body])
    return int(status), out


def test_a_class_plays_at_the_hubs_table(browser: Any, hub: DemoHub) -> None:
    teacher = sign_in(browser, hub, "teacher")
    assert teacher.get_attribute("#rummy-hub", "data-teacher") == "true"
    status, made = call(teacher, "POST", "/tables", {
        "variant": "three_thirteen", "seats": ["human"] * 3, "speed": 0, "timeout": None})
    assert status == 201, made
    code = made["code"]

    pages = {name: sign_in(browser, hub, name) for name in LEARNERS}
    # a page without the hub's XSRF token, and a page of another origin (the hub's own
    # API port) that sends the learner's cookie along, cannot make her join
    ana = pages["ana"]
    refused = ana.evaluate("""async (code) => {
      const r = await fetch('/services/rummy-tables/rummy/api/tables/' + code + '/join', {
        method: 'POST', credentials: 'same-origin',
        headers: {'Content-Type': 'application/json'}, body: '{}'});
      return r.status;
    }""", code)
    assert refused in (401, 403)
    other = ana.context.new_page()
    other.goto(f"http://127.0.0.1:{hub.api_port}/hub/api/")
    other.evaluate("""async (url) => {
      try {  // the browser may send it (an opaque answer) or block it: either way, no seat
        await fetch(url, {method: 'POST', mode: 'no-cors', credentials: 'include',
                          headers: {'Content-Type': 'text/plain'}, body: '{}'});
      } catch (e) { return String(e); }
    }""", f"{hub.base}{SERVICE}rummy/api/tables/{code}/join")
    other.close()
    status, view = call(teacher, "GET", f"/tables/{code}")
    assert status == 200 and not any(s["joined"] for s in view["table"]["seats"])
    for name, page in pages.items():
        assert page.get_attribute("#rummy-hub", "data-teacher") == "false"
        status, joined = call(page, "POST", f"/tables/{code}/join", {})
        assert status == 200, joined
        assert joined["name"] == name and joined["token"] == ""
        assert "token" not in page.url
    # a learner makes no table
    status, out = call(pages["ana"], "POST", "/tables", {"variant": "three_thirteen",
                                                         "seats": ["human", "greedy"]})
    assert status == 403 and "only a teacher" in out["error"]

    moves = dict.fromkeys(LEARNERS, 0)
    refused_for_another = False
    hand = None
    finished = False
    for _ in range(150):
        views = {n: call(p, "GET", f"/tables/{code}/state")[1] for n, p in pages.items()}
        if hand is None:
            hand = views["ana"]["table"]["hand"]
        if views["ana"]["status"] != "playing" or views["ana"]["table"]["hand"] != hand:
            finished = True  # the hand is over
            break
        mover = next((n for n, v in views.items() if v["legal_actions"]), None)
        assert mover is not None, views["ana"]
        legal = views[mover]["legal_actions"]
        action = next((a for a in legal if a.startswith("go out")), legal[0])
        if not refused_for_another:
            other = next(n for n in LEARNERS if n != mover)
            status, out = call(pages[other], "POST", f"/tables/{code}/act",
                               {"action": action, "seat": views[mover]["player"],
                                "token": "anything"})
            assert status in (400, 409), out
            assert call(pages[mover], "GET", f"/tables/{code}/state")[1]["version"] == \
                views[mover]["version"]
            refused_for_another = True
        status, out = call(pages[mover], "POST", f"/tables/{code}/act",
                           {"action": action, "version": views[mover]["version"]})
        assert status == 200, out
        moves[mover] += 1
    assert refused_for_another
    assert all(n >= 1 for n in moves.values()), moves
    print(f"moves {moves}, hand finished: {finished}")
    status, view = call(teacher, "GET", f"/tables/{code}")
    assert status == 200
    assert [s["name"] for s in view["table"]["seats"]] == list(LEARNERS)
    assert "Traceback" not in hub.log()
