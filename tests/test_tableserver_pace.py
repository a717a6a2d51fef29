"""A class at the Big Table: controls that offer only what is possible now,
a caller that keeps the pace when a learner stops clicking, and a page that
died is seen (its heartbeat stops).  The service in this process on a clock
the test moves (tests/servers.py), and a real server for the pages' side."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tableserver.service import TableService
from tests.servers import KEY, TEACHER, Clock, call_json, create_table, local_service

# -- controls tell the truth -------------------------------------------------------------------


def _paused_big_table(svc: TableService) -> tuple[str, dict[str, Any]]:
    """A Big Table (a learner's seat, a bot's) paused after its first hand,
    with Ana seated."""
    made = svc.create("big_table", ["human", "greedy"], teacher_key=KEY, speed=0)
    code = made["code"]
    svc.next_hand(code, KEY)  # nobody sat yet: the stand-in plays the learner's seat
    svc.tick()
    assert svc.tables[code].status == "paused" and svc.tables[code].hand == 2
    me = svc.join(code, "Ana")
    return code, me


def test_a_paused_table_lists_no_move_for_any_seat(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    code, me = _paused_big_table(svc)
    seen = svc.state(code, me["token"])
    # the next hand is dealt, but nobody may draw until the teacher starts it
    assert seen["status"] == "paused" and seen["phase"] in ("draw", "match call after deal")
    assert seen["legal_actions"] == []
    svc.next_hand(code, KEY)
    assert svc.state(code, me["token"])["legal_actions"]  # now the draw is open


def test_a_seat_that_chose_this_call_lists_no_move(tmp_path: Path) -> None:
    svc = local_service(tmp_path)
    made = svc.create("big_table", ["human", "human", "greedy"], teacher_key=KEY, speed=10)
    code = made["code"]
    ana = svc.join(code, "Ana")
    svc.join(code, "Ben")
    seen = svc.state(code, ana["token"])
    if seen["phase"] != "draw":  # a hand complete from the deal: Ana plays on first
        svc.act(code, ana["token"], "play on")
        seen = svc.state(code, ana["token"])
    assert "draw pool" in seen["legal_actions"]
    after = svc.act(code, ana["token"], "draw pool")
    assert after["choice"] == "draw pool" and after["legal_actions"] == []
    assert svc.state(code, ana["token"])["legal_actions"] == []


#: Each family's move controls at a shared table and the verbs that make them live.
MOVE_CONTROLS = {
    "big_table": {"pool": ("draw pool",), "neighbour_pile": ("draw pile",),
                  "own_pile": ("discard",), "discard_button": ("discard",),
                  "match": ("call match",), "play_on": ("play on",)},
}


def _enabled_moves(table: Any) -> list[str]:
    out = []
    for name in MOVE_CONTROLS["big_table"]:
        control = getattr(table, name)
        button = getattr(control, "button", control)
        if not button.disabled:
            out.append(name)
    return out


def test_a_paused_shared_table_shows_no_enabled_move_control(api: str) -> None:
    pytest.importorskip("ipywidgets")
    from widgets.remote_table import shared_table

    made = create_table(api, {"variant": "big_table", "seats": ["human", "greedy"], "speed": 0})
    code = made["code"]
    call_json("POST", f"{api}/tables/{code}/next", {}, TEACHER)
    for _ in range(600):  # the stand-in and the bot play the first hand out
        if call_json("GET", f"{api}/tables/{code}", None, TEACHER)[1]["status"] == "paused":
            break
        time.sleep(0.05)
    page = shared_table(code, "Ana", api=api)  # a page opened (or reloaded) while paused
    assert page.game.status == "paused"
    assert page.game.obs.legal_actions == ()
    assert _enabled_moves(page.table) == []
    # a click anyway says why at once, and moves nothing
    before = page.game.version
    page.table.pool.button.click()
    assert "hand is over" in page.table.message.value.lower()
    assert page.game.version == before


def test_a_click_on_a_call_already_answered_says_why_at_once(api: str) -> None:
    pytest.importorskip("ipywidgets")
    from widgets.remote_table import shared_table

    made = create_table(api, {"variant": "big_table", "seats": ["human", "human"],
                              "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api)
    shared_table(made["code"], "Ben", api=api)
    ana.game.refresh()
    ana.update()
    if ana.game.obs.phase != "draw":
        ana.table.play_on.click()
    assert "pool" in _enabled_moves(ana.table)
    ana.table.pool.button.click()
    assert ana.table.message.value == ""
    assert _enabled_moves(ana.table) == []  # the draw is chosen: nothing more to click
    sent = ana.game.version
    ana.table.pool.button.click()  # a second click that was on its way
    assert "already chose" in ana.table.message.value.lower()
    assert ana.game.version == sent
