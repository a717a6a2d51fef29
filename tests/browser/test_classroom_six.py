"""Six learners arrive at once at a Big Table and play a hand: the kernels
their seats need were started ahead when the teacher made the table
(tableserver.preheat).  Timings are printed, never asserted (the class
benchmark, benchmarks/classroom.py, gives the figures for 12 and 24)."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser import harness
from tests.browser.classroom import DEAL, KEY, Arriving, api_get, play_one_move
from tests.servers import call_json

pytestmark = pytest.mark.browser

NAMES6 = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")


@pytest.mark.timeout(900)  # about 4 minutes on a loaded 2-core machine
def test_six_learners_arrive_at_once_and_play_a_hand(browser: Any, tmp_path: Path) -> None:
    env = {"RUMMY_DATA": str(tmp_path), "RUMMY_TEACHER_KEY": KEY}
    server = harness.start_voila(env=env, seeds=[DEAL], apps=["big_table"])
    learners: list[Arriving] = []
    try:
        base = server.base
        made_at = time.monotonic()
        status, made = call_json("POST", base + "rummy/api/tables",
                                 {"variant": "big_table", "seats": ["human"] * 6, "pace": 0},
                                 {"Content-Type": "application/json",
                                  "X-Rummy-Teacher-Key": KEY})
        assert status == 201, made
        code = made["code"]
        # the teacher reads the code out meanwhile: the kernels are started ahead
        filled = "Kernel pool of notebooks/apps/big_table.ipynb is filled with 8 kernel(s)"
        while filled not in server.log() and time.monotonic() - made_at < 180:
            time.sleep(0.5)
        ahead = time.monotonic() - made_at
        learners = [Arriving(browser, base, code, n) for n in NAMES6]
        seated = []
        for x in learners:
            x.ready()
            seated.append(time.monotonic() - x.opened)
        playable = []
        for x in learners:
            x.wait_hand()
            playable.append(time.monotonic() - x.opened)
        assert sorted(x.view()["player"] for x in learners) == list(range(6))
        moves, start = 0, time.monotonic()
        while api_get(base, f"/tables/{code}", KEY)["status"] == "playing":
            assert time.monotonic() - start < 900, "the hand did not end in 15 minutes"
            if play_one_move(learners):
                moves += 1
            else:
                learners[0].page.wait_for_timeout(300)
        hand = time.monotonic() - start
        print(f"\nkernels ready {ahead:.1f} s after the table was made; seated: median "
              f"{statistics.median(seated):.1f} s, max {max(seated):.1f} s; playable: median "
              f"{statistics.median(playable):.1f} s, max {max(playable):.1f} s; the hand: "
              f"{moves} rounds of clicks in {hand:.0f} s")
        assert api_get(base, f"/tables/{code}", KEY)["status"] in ("paused", "over")
        assert not [e for x in learners for e in x.errors]
    finally:
        for x in learners:
            x.context.close()
        server.stop()
