"""A class at the Big Table: controls that offer only what is possible now,
a caller that keeps the pace when a learner stops clicking, and a page that
died is seen (its heartbeat stops).  The service in this process on a clock
the test moves (tests/servers.py), and a real server for the pages' side."""

from __future__ import annotations

import re
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
    ben = shared_table(made["code"], "Ben", api=api)
    ana.game.refresh()
    ana.update()
    if ana.game.obs.phase != "draw":  # a deal that left a match to call: both play on
        for page in (ana, ben):
            page.game.refresh()
            page.update()
            page.table.play_on.click()
        ana.game.refresh()
        ana.update()
    assert "pool" in _enabled_moves(ana.table)
    ana.table.pool.button.click()
    assert ana.table.message.value == ""
    assert _enabled_moves(ana.table) == []  # the draw is chosen: nothing more to click
    sent = ana.game.version
    ana.table.pool.button.click()  # a second click that was on its way
    assert "already chose" in ana.table.message.value.lower()
    assert ana.game.version == sent


# -- the caller keeps the pace -----------------------------------------------------------------


def _two_learners(svc: TableService, **kw: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    made = svc.create("big_table", ["human", "human"], teacher_key=KEY, speed=0, **kw)
    code = made["code"]
    ana, ben = svc.join(code, "Ana"), svc.join(code, "Ben")
    return code, ana, ben


def _play_ben(svc: TableService, code: str, ben: dict[str, Any]) -> None:
    """Ben answers every call he has (the first legal move)."""
    moves = svc.state(code, ben["token"])["legal_actions"]
    if moves:
        svc.act(code, ben["token"], moves[0])


def test_a_big_table_call_waits_25_seconds_by_default_and_the_teacher_sets_it(
        tmp_path: Path) -> None:
    clock = Clock()
    svc = local_service(tmp_path, clock)
    code, ana, _ = _two_learners(svc)
    seen = svc.state(code, ana["token"])
    assert seen["table"]["settings"]["pace"] == 25  # the page counts down from the deadline
    assert seen["table"]["seats"][ana["seat"]]["deadline"] == pytest.approx(clock.t + 25)
    code2, ana2, _ = _two_learners(svc, pace=8)
    seen = svc.state(code2, ana2["token"])
    assert seen["table"]["seats"][ana2["seat"]]["deadline"] == pytest.approx(clock.t + 8)
    made = svc.create("three_thirteen", ["human", "human"], teacher_key=KEY)
    assert made["table"]["settings"]["pace"] is None  # elsewhere the timeout rules
    from tableserver import BadRequest
    with pytest.raises(BadRequest, match="pace"):
        svc.create("big_table", ["human", "human"], teacher_key=KEY, pace="soon")


def test_a_learner_who_stops_clicking_is_played_for_within_the_pace(tmp_path: Path) -> None:
    clock = Clock()
    svc = local_service(tmp_path, clock)
    code, ana, ben = _two_learners(svc, pace=5)
    for calls in range(1, 4):  # three calls Ana lets pass
        _play_ben(svc, code, ben)
        before = svc.state(code, ana["token"])
        assert before["legal_actions"], "Ana has a call to answer"
        clock.t += 4.9
        assert svc.tick() == 0  # the call still waits for Ana (her page polls: she is here)
        clock.t += 0.2
        assert svc.tick() >= 1  # within the pace: the stand-in answered Ana's call
        after = svc.state(code, ana["token"])
        assert after["version"] > before["version"]
        me = after["table"]["seats"][ana["seat"]]
        assert me["helped"] == calls  # the page tells her: a helper played for her
        assert me["not_playing"] is (calls >= 3)
    # the teacher sees who is not playing; Ben, who plays, is not
    seats = svc.admin(code, KEY)["table"]["seats"]
    assert seats[ana["seat"]]["not_playing"] and not seats[ben["seat"]]["not_playing"]
    # her own move brings her back
    _play_ben(svc, code, ben)
    moves = svc.state(code, ana["token"])["legal_actions"]
    if moves:
        svc.act(code, ana["token"], moves[0])
        me = svc.admin(code, KEY)["table"]["seats"][ana["seat"]]
        assert me["helped"] == 0 and not me["not_playing"]


def test_the_pace_is_kept_by_the_bots_thread_of_a_real_server(server: Any) -> None:
    from tableserver.client import RemoteGame

    made = create_table(server.api, {"variant": "big_table", "seats": ["human", "human"],
                                     "speed": 0, "pace": 2})
    ana = RemoteGame.join(made["code"], "Ana", api=server.api)
    RemoteGame.join(made["code"], "Ben", api=server.api)  # Ben never clicks either
    ana.refresh()
    assert ana.obs.legal_actions
    start = ana.version
    deadline = time.monotonic() + 30
    while ana.view["table"]["seats"][ana.seat]["helped"] == 0:
        assert time.monotonic() < deadline, "no stand-in played Ana's call"
        ana.wait(timeout=5)
    assert ana.version > start


def test_the_page_counts_down_in_words_and_says_a_helper_played(api: str) -> None:
    pytest.importorskip("ipywidgets")
    from widgets.remote_table import TOO_SLOW, shared_table

    made = create_table(api, {"variant": "big_table", "seats": ["human", "human"], "speed": 0,
                              "pace": 3})
    ana = shared_table(made["code"], "Ana", api=api)
    shared_table(made["code"], "Ben", api=api)
    ana.game.refresh()
    ana.update()
    if ana.game.obs.legal_actions:  # (on a loaded machine the helper may have played already)
        assert ana.clock.layout.display == ""
        assert re.fullmatch(r"You have 5 seconds to choose\.|[1-3] seconds? left: choose now, "
                            r"or a helper plays for you\.|Time is up: a helper plays for you\.",
                            ana.clock.value), ana.clock.value
    deadline = time.monotonic() + 30
    while not ana.game.view["table"]["seats"][ana.game.seat]["helped"]:
        assert time.monotonic() < deadline, "no helper played Ana's call"
        ana.game.wait(timeout=5)
    ana.update()
    assert ana.table.message.value and TOO_SLOW.split(":")[0] in ana.table.message.value


# -- a dead page is seen -----------------------------------------------------------------------

KERNEL = "0b5c9b6e-2f7a-4d5e-9b0a-1c2d3e4f5a6b"


def test_a_page_whose_browser_stops_beating_is_away_and_its_kernel_ends(tmp_path: Path) -> None:
    from tableserver import BadRequest, Forbidden
    from tableserver.presence import BEAT_AWAY

    clock = Clock()
    svc = local_service(tmp_path, clock)
    code, ana, ben = _two_learners(svc)
    svc.beat(code, ana["token"], KERNEL)
    svc.beat(code, ben["token"])
    svc.watch(code, ana["token"], +1)  # Ana's kernel keeps its long poll open: no sign of life
    for _ in range(2):  # Ben's browser beats on; Ana's died
        clock.t += 5
        svc.beat(code, ben["token"])
        svc.presence()
    assert not svc.admin(code, KEY)["table"]["seats"][ana["seat"]]["left"]
    assert BEAT_AWAY < 20
    clock.t += BEAT_AWAY - 10 + 0.5
    svc.beat(code, ben["token"])
    assert svc.presence() == [code]  # the teacher is told within BEAT_AWAY (< 20) seconds
    seats = svc.admin(code, KEY)["table"]["seats"]
    assert seats[ana["seat"]]["left"] and not seats[ben["seat"]]["left"]
    # the stand-in answers Ana's call at the bots' pace, not after the 25 s pace
    _play_ben(svc, code, ben)
    assert svc.tick() >= 1
    assert svc.state(code, ana["token"])["table"]["seats"][ana["seat"]]["helped"] >= 1
    # and the teacher reads that a bot plays for her (her page left, whatever the pace)
    from widgets.classroom import _presence
    seat = svc.admin(code, KEY)["table"]["seats"][ana["seat"]]
    assert seat["away"] and _presence(seat) == "left (their page closed): a bot plays for them"
    # the kernel is ended after the grace, once
    assert svc.ended_pages(60) == []
    clock.t += 60
    assert svc.ended_pages(60) == [KERNEL] and svc.ended_pages(60) == []
    # the page comes back (the lid is opened): its beat seats it again
    svc.beat(code, ana["token"])
    assert not svc.admin(code, KEY)["table"]["seats"][ana["seat"]]["left"]
    # bad input, a spectator's or a wrong token
    with pytest.raises(BadRequest, match="kernel"):
        svc.beat(code, ana["token"], "../../api/kernels")
    with pytest.raises(Forbidden):
        svc.beat(code, "not-a-token")
    with pytest.raises(BadRequest, match="gone"):
        svc.beat(code, ana["token"], gone="yes")
    # a page being left says so: its seat is left within seconds, unless it is reloaded
    svc.beat(code, ben["token"])
    svc.presence()  # Ben's page, which had not beaten for a while, is back too
    svc.beat(code, ana["token"], gone=True)
    clock.t += 1
    svc.beat(code, ben["token"])
    assert svc.presence() == []
    clock.t += 5
    assert svc.presence() == [code]


def test_the_page_and_the_service_beat_alike() -> None:
    from tableserver.client import BEAT_EVERY
    from tableserver.presence import BEAT_AWAY
    from tableserver.presence import BEAT_EVERY as SERVICE_BEAT
    from widgets.remote_table import SEAT_KEEPER_JS

    assert BEAT_EVERY == SERVICE_BEAT and 2 * BEAT_EVERY < BEAT_AWAY < 20
    assert f"{int(BEAT_EVERY * 1000)});" in SEAT_KEEPER_JS and "/beat'" in SEAT_KEEPER_JS
    assert "token=" not in SEAT_KEEPER_JS.split("function heartbeat")[1]  # never in an address


def test_the_beat_endpoint_refuses_bad_input_wrong_tokens_other_sites_and_survives_a_restart(
        server: Any) -> None:
    made = create_table(server.api, {"variant": "big_table", "seats": ["human", "human"]})
    code = made["code"]
    ana = server.call("POST", f"/tables/{code}/join", {"name": "Ana"})[1]
    ben = server.call("POST", f"/tables/{code}/join", {"name": "Ben"})[1]
    ok, out = server.call("POST", f"/tables/{code}/beat", {"token": ana["token"],
                                                           "kernel": KERNEL})
    assert ok == 200 and out["seat"] == ana["seat"]
    assert server.call("POST", f"/tables/{code}/beat", {"token": ana["token"],
                                                        "kernel": 7})[0] == 400
    assert server.call("POST", f"/tables/{code}/beat", {"token": "x" * 32})[0] == 403
    assert server.call("POST", f"/tables/{code}/beat",
                       {"token": made["spectator_token"]})[0] == 403
    # Ben's token beats for Ben's seat, never Ana's
    assert server.call("POST", f"/tables/{code}/beat", {"token": ben["token"]})[1]["seat"] \
        == ben["seat"]
    status, _ = call_json("POST", f"{server.api}/tables/{code}/beat", {"token": ana["token"]},
                          {"Content-Type": "application/json",
                           "Origin": "https://evil.example"})
    assert status == 403
    again = server.restart()
    try:
        assert again.call("POST", f"/tables/{code}/beat", {"token": ana["token"]})[0] == 200
    finally:
        again.stop()


# -- seated in seconds -------------------------------------------------------------------------


class FakePools:
    """Voilà's kernel manager as the preheat sees it: pool sizes, and the
    pools filled."""

    def __init__(self) -> None:
        self.kernel_pools_config = {"default": {"pool_size": 0},
                                    "notebooks/apps/big_table.ipynb": {"pool_size": 2}}
        self.filled: list[tuple[str, int]] = []

    def fill_if_needed(self, delay: float | None = None, notebook_name: str = "") -> None:
        self.filled.append((notebook_name,
                            self.kernel_pools_config[notebook_name]["pool_size"]))


def test_a_new_tables_learners_find_kernels_started_ahead(tmp_path: Path) -> None:
    import asyncio

    from tableserver.preheat import preheat_listener

    svc = local_service(tmp_path)
    km = FakePools()
    page = "notebooks/apps/big_table.ipynb"

    async def run() -> None:
        svc.listeners.append(preheat_listener(lambda: km, svc, asyncio.get_running_loop()))
        made = svc.create("big_table", ["human"] * 6 + ["greedy"], teacher_key=KEY)
        await asyncio.sleep(0.05)
        # the six learners' kernels are started as the teacher makes the table
        assert km.filled == [(page, 8)]
        for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"):
            svc.join(made["code"], name)
            await asyncio.sleep(0.01)
        assert km.kernel_pools_config[page]["pool_size"] == 2  # seated: back to its size
        assert km.filled == [(page, 8)]  # nothing more started

    asyncio.run(run())


class CountedPools(FakePools):
    """Voilà's pools with kernels counted: a fill starts what the pool lacks
    at once (Voilà puts the starting kernels in the pool as it decides)."""

    def __init__(self) -> None:
        super().__init__()
        self.pool = 0
        self.started = 0

    def fill_if_needed(self, delay: float | None = None, notebook_name: str = "") -> None:
        lacking = max(0, self.kernel_pools_config[notebook_name]["pool_size"] - self.pool)
        self.pool += lacking
        self.started += lacking

    def take(self, page: str) -> None:
        """A page served from the pool: Voilà refills it (no ``delay``: its own)."""
        self.pool -= 1
        self.fill_if_needed(notebook_name=page)


def test_a_class_arriving_at_once_starts_no_kernel_beyond_those_started_ahead(
        tmp_path: Path) -> None:
    import asyncio

    from tableserver.preheat import preheat_listener

    svc = local_service(tmp_path)
    km = CountedPools()
    page = "notebooks/apps/big_table.ipynb"

    async def run() -> None:
        svc.listeners.append(preheat_listener(lambda: km, svc, asyncio.get_running_loop(),
                                              quiet=0.3))
        made = svc.create("big_table", ["human"] * 6 + ["greedy"], teacher_key=KEY)
        await asyncio.sleep(0.05)
        assert (km.started, km.pool) == (8, 8)  # 2 of the page's own and 6 ahead
        # six pages are served at once, then their learners take their seats
        for _ in range(6):
            km.take(page)
        assert km.pool == 2
        for name in ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"):
            svc.join(made["code"], name)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)
        # no cold start among the class's pages: the seated seats lowered the target
        assert (km.started, km.pool) == (8, 2)
        # once seated, a page served from the pool is refilled as Voilà does it
        km.take(page)
        assert (km.started, km.pool) == (9, 2)

    asyncio.run(run())
