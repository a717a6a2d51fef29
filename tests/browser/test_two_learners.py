"""Two learners, two browsers, one server (``make app`` as the harness serves it):
Ana and Ben each practise at a shared table and in the practice app (whose
answers the server judges); the teacher's grid shows each one's own events,
rules and server-judged answers apart; a restart of the server keeps them all;
Ben's key, by address, name or API, can't read or erase Ana's record."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import rummy
from tests.browser import harness
from tests.browser.harness import Watch
from tests.browser.pages import name_when_asked, refused_with, wait_named, watched_page

pytestmark = pytest.mark.browser

#: The teacher key of this test's server (RUMMY_TEACHER_KEY).
KEY = "teacher-key-of-the-two-learners-test-01"
#: The shared table's deal (its first cycle is a draw: the own pile is refused with BT-3).
DEAL = 1
HEADER = "X-Rummy-Learner-Key"


def call(base: str, method: str, path: str, body: Any = None,
         headers: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(base + "rummy/api" + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(json.loads(r.read()))
    except urllib.error.HTTPError as e:
        return e.code, dict(json.loads(e.read()))


def at_the_table(page: Any, watch: Watch, name: str, times: int) -> None:
    """Click the own pile ``times`` times (each refused with BT-3); name oneself at the first."""
    page.wait_for_selector(harness.READY, timeout=120_000)
    watch.settle()
    for n in range(times):
        watch.click("button.rummy-own-pile")
        if n == 0:
            name_when_asked(page, watch, name)
        refused_with(page, "BT-3")


def practise(page: Any, watch: Watch, base: str, name: str, wrong: int) -> None:
    """In the practice app (TT-1: round r deals r + 2 cards), ``wrong`` wrong
    answers, then the right one: the server judges each at once, and keeps
    them once the page's kernel knows the learner (the browser's key names
    them by itself when the first answer needs a name)."""
    harness.open_with_new_kernel(page, harness.app_url(base, "practice", topic="TT-1", seed=0))
    page.wait_for_selector(".rummy-practice-question", state="visible", timeout=120_000)
    watch.settle()
    question = page.locator(".rummy-practice-question").inner_text()
    rounds = re.search(r"round (\d+)", question)
    assert rounds, question
    right = int(rounds.group(1)) + 2
    box = page.locator(".rummy-practice-input input")
    for k in range(wrong):
        box.fill(str(right + 3 + k))
        box.press("Enter")
        page.wait_for_selector(".rummy-practice-feedback .rummy-quiz-wrong", timeout=60_000)
        watch.settle()
    box.fill(str(right))
    box.press("Enter")
    page.wait_for_selector(".rummy-practice-feedback .rummy-quiz-right", timeout=60_000)
    wait_named(page, name)  # the browser's key named the learner of this page by itself
    watch.settle()
    assert "Checked by the kit" in harness.page_text(page)


def brief(grid: dict[str, Any]) -> dict[tuple[str, str], tuple[int, int, int]]:
    """(learner, rule) -> (attempts, right at the first try, server-judged)."""
    return {(r["learner"], r["rule"]): (r["attempts"], r["right_first"], r["server_judged"])
            for r in grid["rows"]}


def test_ana_and_ben_in_two_browsers_and_a_restart(browser: Any, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    assert rummy.new_game("big_table", players=["Ana", "Ben", "Cleo"],
                          seed=DEAL).phase == "draw"
    env = {"RUMMY_DATA": str(data), "RUMMY_TEACHER_KEY": KEY}
    teacher = {"X-Rummy-Teacher-Key": KEY}
    server = harness.start_voila(env=env, extra_args=["--show_tracebacks=True"], seeds=[DEAL],
                                 apps=["big_table"])
    try:
        status, made = call(server.base, "POST", "/tables",
                            {"teacher_key": KEY, "variant": "big_table",
                             "seats": ["human"] * 3, "speed": 10})
        assert status == 201, made
        code = made["code"]
        keys, contexts, errors, tables = {}, {}, [], {}
        # the table starts once its three seats are taken (Cleo only sits)
        for name in ("Ana", "Ben", "Cleo"):
            ctx = contexts[name] = browser.new_context(viewport={"width": 1280, "height": 900})
            page, watch, errs = watched_page(ctx)
            errors.append(errs)
            page.goto(harness.app_url(server.base, "big_table", table=code, name=name))
            tables[name] = (page, watch)
        for name, times, wrong in (("Ana", 1, 1), ("Ben", 2, 0)):
            at_the_table(*tables[name], name, times)
            page, watch, errs = watched_page(contexts[name])
            errors.append(errs)
            practise(page, watch, server.base, name, wrong)
            keys[name] = page.evaluate("() => localStorage.getItem('rummy-learner-key')")
        assert keys["Ana"] != keys["Ben"] and all(len(k) == 32 for k in keys.values())
        # the teacher's grid: each one's own events, rules and server-judged answers apart
        status, grid = call(server.base, "GET", "/progress", headers=teacher)
        assert status == 200, grid
        want = {("Ana", "BT-3"): (1, 0, 0), ("Ana", "TT-1"): (2, 0, 2),
                ("Ben", "BT-3"): (2, 0, 0), ("Ben", "TT-1"): (1, 1, 1)}
        assert brief(grid) == want
        assert not any(errs for errs in errors)
        for ctx in contexts.values():
            ctx.close()
        assert not server.tracebacks(), server.log()[-3000:]
    finally:
        server.stop()

    # the server (and every kernel) restarted on the same data folder
    server = harness.start_voila(port=server.port, env=env,
                                 extra_args=["--show_tracebacks=True"], seeds=[DEAL],
                                 apps=["big_table"])
    try:
        status, grid = call(server.base, "GET", "/progress", headers=teacher)
        assert status == 200 and brief(grid) == want, grid
        ana, ben = {HEADER: keys["Ana"]}, {HEADER: keys["Ben"]}
        # Ben's key opens Ben's record only: by the API, by a name in the address
        status, mine = call(server.base, "GET", "/progress/me", headers=ben)
        assert status == 200 and mine["learner"] == "Ben"
        assert sorted(e["rule"] for e in mine["events"]) == ["BT-3", "BT-3", "TT-1"]
        status, got = call(server.base, "GET", "/progress/me?learner=Ana", headers=ben)
        assert status == 400 and "events" not in got
        for headers in ({}, {HEADER: "Ana"}, {HEADER: "ana"}, {HEADER: keys["Ana"][::-1]},
                        teacher):
            status, got = call(server.base, "GET", "/progress/me", headers=headers)
            assert status == 403 and "BT-3" not in json.dumps(got), headers
        # a cross-site request with Ana's key: nothing read, nothing erased
        for method in ("GET", "DELETE"):
            status, _ = call(server.base, method, "/progress/me",
                             headers={**ana, "Origin": "http://evil.example"})
            assert status == 403
        # Ben's key erases Ben's record only; Ana's stays whole
        status, got = call(server.base, "DELETE", "/progress/me", headers=ben)
        assert status == 200 and got == {"erased": 3}
        status, mine = call(server.base, "GET", "/progress/me", headers=ana)
        assert status == 200 and mine["learner"] == "Ana" and len(mine["events"]) == 3
        status, _ = call(server.base, "GET", "/progress/me", headers=ben)
        assert status == 403  # his key went with his record
        status, grid = call(server.base, "GET", "/progress", headers=teacher)
        assert brief(grid) == {k: v for k, v in want.items() if k[0] == "Ana"}
        assert not server.tracebacks(), server.log()[-3000:]
    finally:
        server.stop()
