"""A learner's page that dies without closing (a crashed browser, a closed
lid, dropped Wi-Fi) is seen: its browser's heartbeat stops, the seat is away
within 20 seconds (the teacher's view says so) and its kernel is ended after
the grace (``RUMMY_PAGE_GRACE``, short here)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser import harness
from tests.browser.classroom import KEY, Learner, api_get
from tests.servers import call_json

pytestmark = pytest.mark.browser


def test_a_dead_page_is_away_within_20_seconds_and_its_kernel_ends(browser: Any,
                                                                    tmp_path: Path) -> None:
    env = {"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY, "RUMMY_PAGE_GRACE": "5"}
    server = harness.start_voila(env=env, apps=["big_table"])
    learners: list[Learner] = []
    try:
        base = server.base
        status, made = call_json("POST", base + "rummy/api/tables",
                                 {"variant": "big_table", "seats": ["human", "human"]},
                                 {"Content-Type": "application/json",
                                  "X-Rummy-Teacher-Key": KEY})
        assert status == 201, made
        code = made["code"]
        learners = [Learner(browser, base, code, n) for n in ("Ana", "Ben")]
        for x in learners:
            x.ready()
        ana = learners[0]
        kernel = str(ana.page.evaluate(
            "() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
            ".kernelId"))
        seat = ana.view()["player"]
        ben_kernel = str(learners[1].page.evaluate(
            "() => JSON.parse(document.getElementById('jupyter-config-data').textContent)"
            ".kernelId"))
        # both pages beat: nobody is away
        time.sleep(6)
        seats = api_get(base, f"/tables/{code}", KEY)["table"]["seats"]
        assert not any(s["left"] for s in seats)
        # Ana's browser dies without closing its page: no more heartbeat, no pagehide
        ana.context.set_offline(True)
        ana.page.evaluate("() => { window.fetch = () => new Promise(() => {}); }")
        died = time.monotonic()
        while not api_get(base, f"/tables/{code}", KEY)["table"]["seats"][seat]["left"]:
            assert time.monotonic() - died < 20, "the dead page's seat is not away after 20 s"
            time.sleep(0.5)
        print(f"\nseat away {time.monotonic() - died:.1f} s after the page died")
        assert not api_get(base, f"/tables/{code}", KEY)["table"]["seats"][1 - seat]["left"]
        # after the grace its kernel is ended (not at the 15-minute cull); Ben's lives
        while f"Kernel shutdown: {kernel}" not in server.log():
            assert time.monotonic() - died < 60, "the dead page's kernel was not ended"
            time.sleep(0.5)
        print(f"kernel ended {time.monotonic() - died:.1f} s after the page died")
        assert not ben_kernel or f"Kernel shutdown: {ben_kernel}" not in server.log()
    finally:
        for x in learners:
            x.context.close()
        server.stop()
