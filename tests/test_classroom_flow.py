"""A classroom flow without dead ends, through a real
table service on loopback: the "join a table" box (a bad code, a long name,
a good join), a table page opened without a name, the controls a shared
table shows, the end of a shared hand, a closed table, the teacher's form
and the projector's drawn table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rummy.bots import make_bot
from rummy.cards import Card
from tableserver.client import request
from tests.servers import KEY, TEACHER, create_table
from widgets.join_box import JoinBox, check_name
from widgets.remote_table import CLOSED, SeatFinder, shared_table

pytest.importorskip("ipywidgets")


def post(api: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(api + path, data=json.dumps(body).encode(), method="POST",
                                 headers=TEACHER)
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def seats(api: str, code: str) -> list[dict[str, Any]]:
    req = urllib.request.Request(f"{api}/tables/{code}", headers=TEACHER)
    with urllib.request.urlopen(req, timeout=30) as r:
        return list(json.loads(r.read())["table"]["seats"])


def test_the_join_box_says_what_to_fix_and_then_seats_the_learner(api: str) -> None:
    made = create_table(api, {"variant": "big_table", "seats": ["human", "greedy"], "speed": 0})
    code = made["code"]
    box = JoinBox(api=api)
    # a code of no table: the learner's words, the box stays to fix it
    assert box.join("ZZZZ-ZZZZ-ZZZZ", "Ana") is None
    assert "There is no table with that code (ZZZZ-ZZZZ-ZZZZ)" in box.message.value
    assert box.join("hello", "Ana") is None
    assert "no table with that code" in box.message.value
    # a name of 25 characters: said before anything is asked of the service
    assert box.join(code, "A" * 25) is None
    assert "25 characters long: use at most 24" in box.message.value
    assert box.join(code, "   ") is None and "Type your name" in box.message.value
    assert not any(s["joined"] for s in seats(api, code) if s["kind"] == "human")
    assert box.go.value == ""
    # a good code (as typed: small letters, spaces) and name: a seat, and the table's address
    href = box.join(code.lower().replace("-", " "), "  Ana ")
    assert href is not None and href.startswith(f"big_table.ipynb?table={code}&name=Ana#token=")
    token = href.split("#token=")[1]
    assert f"data-href='{href}'" in box.go.value.replace("&amp;", "&")
    assert [s["name"] for s in seats(api, code) if s["joined"] and s["kind"] == "human"] == ["Ana"]
    assert token and token not in href.split("#")[0]  # the token only in the fragment


def test_check_name_counts_characters_not_bytes() -> None:
    assert check_name("Zoë " * 6) == ("Zoë " * 6).strip()  # 23 characters
    with pytest.raises(ValueError, match="use at most 24"):
        check_name("x" * 25)


def test_a_table_page_without_a_name_or_with_a_bad_one_shows_the_join_box(api: str) -> None:
    made = create_table(api, {"variant": "gin_three", "seats": ["human"] * 3, "speed": 0})
    code = made["code"]
    page = SeatFinder(code, "", api=api)
    with pytest.raises(Exception, match="Type your name"):
        page.handoff({})
    assert page.join_box is not None and page.join_box.code.value == code
    assert page.join_box.widget in page.widget.children
    long = SeatFinder(code, "B" * 30, api=api)
    with pytest.raises(Exception, match="use at most 24"):
        long.handoff({})
    assert "30 characters long" in long.join_box.message.value
    bad = SeatFinder("QQQQ-QQQQ-QQQQ", "Cleo", api=api)
    with pytest.raises(Exception, match="no table with that code"):
        bad.handoff({})
    # fixed on the spot: the same box seats the learner at the table's app
    href = long.join_box.join(code, "Ben")
    assert href and href.startswith(f"gin_three.ipynb?table={code}&name=Ben#token=")


def test_a_shared_table_shows_only_the_controls_that_apply(api: str) -> None:
    plain = create_table(api, {"variant": "three_thirteen", "seats": ["human", "greedy"], "speed": 0})
    ana = shared_table(plain["code"], "Ana", api=api)
    t = ana.table
    for hidden in (t.coach.hint_button, t.coach.do_it, t.coach.undo_button, t.speed,
                   t.next_round, t.new_game_button):
        assert hidden.layout.display == "none", hidden.description
    helped = create_table(api, {"variant": "three_thirteen", "seats": ["human", "greedy"],
                                "speed": 0, "hints": True})
    ben = shared_table(helped["code"], "Ben", api=api)
    assert ben.table.coach.hint_button.layout.display == ""
    assert ben.table.coach.do_it.layout.display == ""
    assert ben.table.coach.undo_button.layout.display == "none"


def _play_until(seat: Any, status: str, limit: float = 60.0) -> None:
    """Play the learner's seat (a greedy bot's choices) until the table's status."""
    bot = make_bot("greedy", seed=3)
    deadline = time.monotonic() + limit
    while seat.game.status != status:
        assert time.monotonic() < deadline, f"the table never became {status}"
        seat.game.refresh()
        obs = seat.game.obs
        if seat.game.status == "playing" and obs is not None and obs.legal_actions:
            # the table may have moved on meanwhile: then read it again
            with contextlib.suppress(Exception):
                seat.game.apply(bot.choose(obs))
        else:
            time.sleep(0.05)


def test_the_end_of_a_shared_hand_waits_for_the_teacher(api: str) -> None:
    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "greedy"], "speed": 0,
                              "pause_between_hands": True})
    ana = shared_table(made["code"], "Ana", api=api)
    _play_until(ana, "paused")
    ana.update()
    t = ana.table
    assert "waiting for the teacher" in ana.note.value
    assert "waiting for the teacher" in t.status.value
    assert "rummy-your-turn" not in t.status._dom_classes
    assert t.next_round.layout.display == "none"  # no button that leads nowhere
    assert t.stock.button.disabled and t.pile.button.disabled
    assert "Your turn" not in t.status.value
    # the teacher starts the next hand: the page follows without a click
    post(api, f"/tables/{made['code']}/next", {"teacher_key": KEY})
    ana.game.refresh()
    ana.update()
    assert not t.paused and t.review_box.layout.display == "none"
    assert "waiting for the teacher" not in ana.note.value


def test_a_closed_table_says_so_and_stops(api: str) -> None:
    made = create_table(api, {"variant": "big_table", "seats": ["human", "greedy"], "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api)
    post(api, f"/tables/{made['code']}/close", {"teacher_key": KEY})

    async def listen() -> None:  # the page's poller, as a running kernel starts it
        poller = threading.Thread(target=ana._listen, args=(asyncio.get_running_loop(),),
                                  daemon=True)
        poller.start()
        while poller.is_alive():  # it returns: no "trying again" for ever
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # what it handed to the loop runs

    asyncio.run(asyncio.wait_for(listen(), 30))
    assert CLOSED in ana.note.value and "Lost touch" not in ana.note.value
    assert "Your turn" not in ana.table.status.value
    assert "rummy-your-turn" not in ana.table.status._dom_classes
    assert ana.table.play_area.layout.display == "none"


def test_the_projector_draws_the_table_and_never_a_hand(api: str) -> None:
    from widgets.classroom import Classroom

    room = Classroom(api=api, query="")
    room.sign_in(KEY)
    room.variant.value, room.learners.value, room.bots.value = "big_table", 1, 2
    room.speed.value = 0.0
    room.create.click()
    ana = shared_table(room.code, "Ana", api=api)
    room.next.click()
    link = room.projector_path()
    assert link
    query, watch = link.split("?", 1)[1].split("#watch=")
    screen = Classroom(api=api, query=query)
    screen.handoff({"watch": watch})
    page = screen.public.value
    assert f"<span class='rummy-table-code'>{room.code}</span>" in page
    assert "font-size: 3.2rem" in page  # read across a room
    assert page.count("class='rummy-projector-name'") == 3 and "Ana" in page
    assert "pool: " in page and "points" in page and "rummy-projector-call" in page
    # which hand, in words; the page's instructions for the teacher are not on the screen
    assert "rummy-projector-turn" in page and "Hand 1" in page
    assert "rummy-projector-mode" in screen.widget._dom_classes
    ana.game.refresh()
    obs = ana.game.observe(ana.game.seat)
    public = {str(c) for pile in obs.piles for c in pile}
    for card in {str(c) for c in obs.hand} - public:
        assert Card.parse(card).name not in page, card


def test_the_teachers_form_is_sized_titled_and_links_the_api(api: str) -> None:
    from widgets.classroom import CLASSROOM_CSS, Classroom

    room = Classroom(api=api, query="")
    assert room.speed.layout.width and room.timeout.layout.width
    assert "font-size: 3rem" in CLASSROOM_CSS
    nb = json.loads((Path(__file__).parents[1] / "notebooks/apps/classroom.ipynb").read_text())
    assert nb["metadata"]["title"].startswith("A table for the class")
    assert "](../../../../rummy/api/docs)" in "".join(nb["cells"][0]["source"])
    with urllib.request.urlopen(api + "/docs", timeout=30) as r:
        assert r.headers["Content-Type"].startswith("text/plain")
        assert "POST /rummy/api/tables" in r.read().decode()


def test_the_teachers_form_makes_a_big_table_for_a_class_of_24(api: str) -> None:
    from widgets.classroom import Classroom

    room = Classroom(api=api, query="")
    room.sign_in(KEY)
    room.variant.value, room.learners.value, room.bots.value = "big_table", 24, 0
    assert room.learners.value == 24  # the box takes 24
    room.create.click()
    assert room.message.value == "" and room.code
    table = request(f"{api}/tables/{room.code}", teacher=KEY)["table"]
    assert len(table["seats"]) == 24 and all(s["kind"] == "human" for s in table["seats"])
    # 25 at one table is refused in words, and no table is made
    again = Classroom(api=api, query="")
    again.sign_in(KEY)
    again.variant.value, again.learners.value, again.bots.value = "big_table", 24, 1
    again.create.click()
    assert "at most 24 players, not 25" in again.message.value and again.code is None
