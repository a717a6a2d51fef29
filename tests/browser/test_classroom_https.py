"""``make classroom`` over HTTPS, as a teacher runs it: a
self-signed certificate made here with ``openssl``, the server started with
``make classroom IP=127.0.0.1 PORT=...`` (RUMMY_TLS_CERT / RUMMY_TLS_KEY),
the teacher signs in with the key on the classroom page, three learners open
the join address the page shows (the address the server printed, plus their
name), and one of them opens the link again and keeps their one seat.

Chromium is told to accept the certificate (``ignore_https_errors``, what a
learner's *Proceed* does); the kernels check it (``RUMMY_API_CA``, set by the
server) when they reach the table API and when a preheated kernel asks for
its page over the secure websocket.
"""

from __future__ import annotations

import json
import re
import shutil
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser import harness
from tests.browser.classroom import KEY, NAMES, wait_token

pytestmark = pytest.mark.browser


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, as docs/CLASSROOM.md
    shows how to make one."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
         "-keyout", str(key), "-out", str(cert), "-subj", "/CN=rummy-classroom",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True)
    key.chmod(0o600)
    return cert, key


def api(base: str, path: str, ca: ssl.SSLContext, key: str = KEY) -> dict[str, Any]:
    req = urllib.request.Request(base + "rummy/api" + path,
                                 headers={"X-Rummy-Teacher-Key": key})
    with urllib.request.urlopen(req, timeout=30, context=ca) as r:
        return dict(json.loads(r.read()))


@pytest.mark.skipif(shutil.which("openssl") is None or shutil.which("make") is None,
                    reason="needs the openssl and make commands")
def test_make_classroom_over_https(browser: Any, tmp_path: Path) -> None:
    cert, key = make_certificate(tmp_path)
    ca = ssl.create_default_context(cafile=str(cert))
    port = harness.free_port()
    data = tmp_path / "data"
    env = {**harness.os.environ, "RUMMY_DATA": str(data), "RUMMY_TEACHER_KEY": KEY,
           "RUMMY_TLS_CERT": str(cert), "RUMMY_TLS_KEY": str(key), "PYTHONUNBUFFERED": "1"}
    env.pop("MAKEFLAGS", None)
    server = harness.Server(
        ["make", "--no-print-directory", "classroom", "IP=127.0.0.1", f"PORT={port}"], port,
        harness.ROOT, env, f"https://127.0.0.1:{port}/", ready_path="voila/tree/notebooks",
        context=ca)
    contexts: list[Any] = []
    try:
        printed = re.search(r"learners open (\S+)", server.log())
        assert printed, server.log()[-2000:]
        address = printed[1]
        assert address == f"https://127.0.0.1:{port}/"
        assert "Teacher key (the teacher's page asks for it): the one in RUMMY_TEACHER_KEY" \
            in server.log()
        assert "cross the network in clear" not in server.log()  # it has a certificate
        # Voilà's own line names the scheme it serves
        assert re.search(r"running at:\s+https://", server.log()), server.log()[-2000:]
        assert not re.search(r"running at:\s+http://", server.log())
        # a device that does not trust the certificate yet leaves no error in the log
        for _ in range(3):
            with pytest.raises(urllib.error.URLError):
                urllib.request.urlopen(address, timeout=30)  # noqa: S310 - our own server

        def new_page() -> Any:
            ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                                      ignore_https_errors=True)
            contexts.append(ctx)
            return harness.patient(ctx.new_page(), 60_000)

        # the teacher signs in with the key and makes a Big Table (3 learners, 2 bots)
        teacher = new_page()
        teacher.goto(address + "voila/render/notebooks/apps/classroom.ipynb")
        teacher.wait_for_selector(".rummy-teacher-key input", timeout=120_000)
        teacher.locator(".rummy-teacher-key input").fill(KEY)
        teacher.locator("button.rummy-sign-in").click()
        teacher.wait_for_selector("button.rummy-create-table", timeout=60_000)
        teacher.locator("button.rummy-create-table").click()
        teacher.wait_for_selector(".rummy-table-code", timeout=60_000)
        code = teacher.locator(".rummy-table-code").first.inner_text().strip()
        join = teacher.locator(".rummy-join-address code").inner_text().strip()
        # the join address is the printed one, with the table and an empty name
        assert join == (f"{address}voila/render/notebooks/apps/big_table.ipynb"
                        f"?table={code}&name=")
        assert KEY not in teacher.url and KEY not in harness.page_text(teacher)

        # three learners open it with their names, each in a browser of their own
        learners = []
        for name in NAMES:
            page = new_page()
            page.goto(join + name)
            learners.append(page)
        tokens = []
        for page in learners:
            page.wait_for_selector(harness.READY, state="visible", timeout=180_000)
            tokens.append(wait_token(page, code))
        assert len(set(tokens)) == 3
        teacher.wait_for_function(
            "() => Array.from(document.querySelectorAll('.rummy-classroom-seat')).filter("
            "r => /here/.test(r.innerText)).length === 3", timeout=60_000)

        # Ben opens the link again (a second tab of the same browser): the same seat
        ben = learners[1]
        again = ben.context.new_page()
        harness.patient(again, 60_000)
        again.goto(join + NAMES[1])
        again.wait_for_selector(harness.READY, state="visible", timeout=180_000)
        assert wait_token(again, code) == tokens[1]
        assert "seat 2" in harness.page_text(again)
        seats = api(address, f"/tables/{code}", ca)["table"]["seats"]
        humans = [s for s in seats if s["kind"] == "human"]
        assert [s["name"] for s in humans] == list(NAMES)
        assert all(s["joined"] for s in humans)
        assert len(seats) == 5

        for page in [teacher, *learners, again]:
            assert not harness.page_tracebacks(page)
            # a preheated kernel read its page's address over the secure websocket
            assert "could not be read" not in harness.page_text(page)
        assert not server.tracebacks(), server.log()[-4000:]
        # no token and no teacher key in the server's log
        log = server.log()
        assert KEY not in log.replace("the one in RUMMY_TEACHER_KEY", "")
        assert "CERTIFICATE_UNKNOWN" not in log and "SSL Error" not in log, log[-3000:]
        assert not any(t in log for t in tokens)
    finally:
        for ctx in contexts:
            ctx.close()
        server.stop()
        time.sleep(0.5)
