"""A table widget fed by the table service (tableserver.client, widgets.remote_table), headless:
the same widgets as against a local engine, buttons clicked in Python,
against a real ``python -m tableserver`` on 127.0.0.1."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

import rummy
from rummy.cards import Card
from tableserver.client import RemoteGame, request
from tests.servers import KEY, create_table
from tests.table_play import widget_state
from widgets.remote_table import find_seat, shared_table

pytest.importorskip("ipywidgets")


def test_a_seat_plays_through_the_same_widgets(api: str) -> None:
    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "human"], "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api)
    assert ana.table is None and "Waiting for 1 more learner" in ana.note.value
    ben = shared_table(made["code"], "Ben", api=api)
    ana.game.refresh()
    ana.update()
    first = ana if ana.game.obs.legal_actions else ben
    other = ben if first is ana else ana
    first.table.stock.button.click()  # draw from the stock, as at a local table
    assert first.table.message.value == ""
    assert len(first.table.hand.cards) == 4
    first.table.stock.button.click()  # illegal now: the engine's reason, no traceback
    assert "already drawn" in first.table.message.value or "draw" in first.table.message.value
    # the other page hears of the move
    assert other.game.wait(timeout=5)
    other.update()
    assert other.game.obs.phase == "discard" and other.game.obs.current_player == first.game.seat
    # a move from the other page is refused by the service, shown as a message
    other.table.stock.button.click()
    assert other.table.message.value


def test_a_page_refused_as_stale_shows_the_table_as_it_is(api: str) -> None:
    # the seat moves from a second page (a reload, another tab) while the first
    # page has not heard of it yet: the first page's move is refused with the
    # fresh state, and the page must then show that state, not the one it drew
    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "human"], "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api)
    ben = shared_table(made["code"], "Ben", api=api)
    for page in (ana, ben):
        page.game.refresh()
        page.update()
    first = ana if ana.game.obs.legal_actions else ben
    other_tab = RemoteGame(made["code"], first.game.token, api=api)
    other_tab.apply("draw stock")
    before = first.game.version
    first.table.stock.button.click()  # drawn already, on the other tab
    assert first.game.version > before  # the refusal brought the fresh state
    assert "moved on before your move (draw stock)" in first.table.message.value
    assert len(first.table.hand.cards) == 4  # the card drawn on the other tab
    assert first.table.stock.button.disabled  # no second draw offered
    assert "discard" in first.table.status.value.lower()


def test_a_view_that_cant_be_read_leaves_the_page_as_it_was(api: str) -> None:
    # a newer view with a card no deck has: refused, and the page keeps the
    # view and the observation it had, of one version (not a new view beside
    # an old observation)
    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "human"], "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api).game
    shared_table(made["code"], "Ben", api=api)
    ana.refresh()
    view, obs = ana.view, ana.obs
    bad = json.loads(json.dumps(view))
    bad["version"] = view["version"] + 1
    bad["hand"] = ["1x", *bad["hand"][1:]]
    with pytest.raises(ValueError, match="1x"):
        ana._take(bad)
    assert ana.view is view and ana.obs is obs and ana.version == view["version"]


def test_gin_pages_hold_only_their_own_cards(api: str) -> None:
    made = create_table(api, {"variant": "gin_three", "seats": ["human"] * 3, "speed": 0})
    pages = [shared_table(made["code"], n, api=api) for n in ("Ana", "Ben", "Cleo")]
    for p in pages:
        p.game.refresh()
        p.update()
    hands = {}
    for p in pages:
        hands[p.game.seat] = set(str(c) for c in p.game.obs.hand)
    roles = pages[0].game.obs.roles
    for p in pages:
        text = re.sub(r'"placeholder": "[^"]*"', "", widget_state(p.table))
        mine = hands[p.game.seat]
        partner = set()
        if roles[p.game.seat] == "advisor":  # the advisor sits beside the captain (G-2)
            partner = hands[roles.index("captain")]
        for seat, hand in hands.items():
            if seat == p.game.seat or not hand:
                continue
            hidden = hand - mine - partner
            shown = {c: text[max(0, m.start() - 150):m.end() + 60] for c in hidden
                     for m in re.finditer(rf"(?<![A-Za-z0-9.]){re.escape(c)}(?![A-Za-z0-9])",
                                          text)}
            # a card may appear only if it is public: in the discard pile, or named
            # in the public log (the role draw); the advice box's example is no card
            public = {str(c) for c in p.game.obs.discard_pile} | {
                c for c in hidden if any(re.search(rf"\b{c}\b", line) for line in p.game.obs.log)}
            assert set(shown) <= public, (roles[p.game.seat], shown)


def test_a_reload_returns_to_the_seat_with_the_token(api: str) -> None:
    made = create_table(api, {"variant": "big_table", "seats": ["human", "human", "greedy"],
                              "speed": 0})
    ana = shared_table(made["code"], "Ana", api=api)
    shared_table(made["code"], "Ben", api=api)
    again = shared_table(made["code"], token=ana.game.token, api=api)
    assert again.game.seat == ana.game.seat == 0
    assert again.table is not None and again.table.learner == 0
    with pytest.raises(rummy.GameError, match="not valid"):
        RemoteGame(made["code"], "not-the-token", api=api)
    with pytest.raises(rummy.GameError, match="name"):
        shared_table(made["code"], "", api=api)


def test_a_reopened_join_link_keeps_its_one_seat(api: str) -> None:
    """The page says which seat the browser kept before the kernel joins:
    the same link opened again returns to it; another name on the same
    computer (a shared one) takes a seat of its own."""
    made = create_table(api, {"variant": "big_table", "seats": ["human"] * 3 + ["greedy"],
                              "speed": 10, "timeout": None})
    code = made["code"]
    first = find_seat(code, "Ana", api=api)
    assert first.seat is None  # nothing joined before the page spoke
    assert not any(s["joined"] for s in request(f"{api}/tables/{code}", teacher=KEY)["table"]["seats"])
    ana = first.handoff({"token": "", "name": ""})  # a browser that kept nothing
    kept = {"token": ana.game.token, "name": "Ana"}
    again = find_seat(code, "Ana", api=api)
    again.box.value = json.dumps(kept)  # what the page's script writes into the hidden box
    assert again.seat is not None and again.seat.game.seat == ana.game.seat
    seats = request(f"{api}/tables/{code}", teacher=KEY)["table"]["seats"]
    assert [s["joined"] for s in seats[:3]] == [True, False, False]
    ben = find_seat(code, "Ben", api=api).handoff(kept)  # Ben on Ana's computer
    assert ben.game.seat == 1 and ben.game.players[1] == "Ben"
    assert "Ana" in again.seat.header.value and "token" not in again.seat.header.value.lower(
        ).replace("data-token", "")


def test_the_teachers_page_makes_starts_frees_and_closes_a_table(api: str) -> None:
    from widgets.classroom import Classroom

    room = Classroom(api=api, query="")
    room.sign.click()
    assert "teacher key" in room.message.value
    room.key_box.value = "a-wrong-key-123"
    room.sign.click()
    assert "only the teacher" in room.message.value and room.form.layout.display == "none"
    room.key_box.value = KEY
    room.sign.click()
    assert room.message.value == "" and room.form.layout.display == ""
    assert room.key_box.value == ""  # the key does not stay in the box
    # Three Thirteen takes turns: the stand-in and the bot stop at Ana's turn
    room.variant.value, room.learners.value, room.bots.value = "three_thirteen", 2, 1
    room.speed.value = 0.0
    room.create.click()
    assert room.message.value == "", room.message.value
    code = room.code
    assert code and code in room.info.value and "three_thirteen.ipynb?table=" in room.info.value
    assert KEY not in room.info.value + room.keep.value  # the key is never shown
    assert "<svg" in room.info.value and "rummy-join-qr" in room.info.value
    ana = shared_table(code, "Ana", api=api)
    room._reload()
    assert "Ana" in room.seats.value and "not joined" in room.seats.value
    room.next.click()  # start with the free seat played by a stand-in
    assert room.view["status"] == "playing", room.message.value
    assert "On the table" in room.public.value and "Ana" in room.public.value
    # the projector's view is what every seat sees alike: no hand, no advice
    public = request(f"{api}/tables/{code}/state", token=KEY)
    assert public["player"] is None
    assert not {"hand", "partner_hand", "legal_actions"} & set(public)
    room.seat_choice.value = 0
    room.remove.click()
    with pytest.raises(rummy.GameError, match="not valid"):
        ana.game.refresh()
    room.close.click()
    assert "closed" in room.info.value
    again = Classroom(api=api, query="")  # a reload: the page hands over what it kept
    again.handoff({"key": KEY, "code": code})
    assert again.message.value == "" and again.view["status"] == "closed"
    wrong = Classroom(api=api, query="")
    wrong.handoff_box.value = json.dumps({"key": "nope-nope-nope", "code": code})
    assert "only the teacher" in wrong.message.value


def test_the_projector_link_shows_the_public_table_and_no_hand(api: str) -> None:
    from widgets.classroom import Classroom

    room = Classroom(api=api, query="")
    room.sign_in(KEY)
    room.variant.value, room.learners.value, room.bots.value = "three_thirteen", 1, 1
    room.speed.value = 0.0
    room.create.click()
    ana = shared_table(room.code, "Ana", api=api)
    room.next.click()
    link = room.projector_path()
    assert link and "#watch=" in link and html.escape(link) in room.info.value
    assert KEY not in link and "?" not in link.split("#")[1]  # the token is in the fragment
    query, watch = link.split("?", 1)[1].split("#watch=")
    screen = Classroom(api=api, query=query)
    screen.handoff({"watch": watch})
    assert screen.message.value == "", screen.message.value
    # the projector draws the table: its code large, the felt with every seat
    assert room.code in screen.public.value and "rummy-projector-felt" in screen.public.value
    assert screen.public.value.count("rummy-projector-seat'") + screen.public.value.count(
        "rummy-projector-seat rummy-projector-current'") == 2
    assert screen.controls.layout.display == "none" and screen.form.layout.display == "none"
    page = screen.info.value + screen.public.value
    assert KEY not in widget_state(screen)  # the projector never holds the teacher key
    obs = ana.game.observe(ana.game.seat)
    public = {str(c) for c in getattr(obs, "discard_pile", ())} | {str(obs.discard_top)}
    for card in {str(c) for c in obs.hand} - public:  # Ana's hand never reaches the screen
        assert not re.search(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", page), card
        assert Card.parse(card).name not in page, card
    wrong = Classroom(api=api, query=f"table={room.code}")
    wrong.handoff_box.value = json.dumps({"watch": "nope"})
    assert wrong.message.value and "rummy-projector" not in wrong.public.value


# -- the page's long poll dies with its kernel ---------------------------------------------
LONG_POLL_KERNEL = """
import asyncio, sys, threading, time
from tableserver.client import in_daemon_thread
way = sys.argv[1]

async def main():
    poll = (in_daemon_thread(lambda: time.sleep(60)) if way == "daemon"
            else asyncio.to_thread(time.sleep, 60))
    task = asyncio.ensure_future(poll)
    await asyncio.sleep(0.2)
    print("polling", flush=True)
    task.cancel()  # the kernel shuts down while its page's poll is open

asyncio.run(main())
"""


@pytest.mark.parametrize("way", ["daemon", "executor"])
def test_a_closed_pages_kernel_does_not_wait_for_its_long_poll(way: str) -> None:
    """The learner's page waits for news in a daemon thread: a kernel shutting
    down quits at once, which cuts its long poll off, so the service counts the
    seat as left within seconds.  With the loop's executor (``asyncio.to_thread``)
    Python joins the thread first: the kernel stays until the poll is answered
    (here 60 s; the test gives up after 5 s)."""
    import subprocess
    import sys
    import time

    root = Path(__file__).resolve().parents[1]
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", LONG_POLL_KERNEL, way], cwd=root,
                            stdout=subprocess.PIPE, text=True)
    try:
        proc.wait(timeout=5)
        quit_at_once = True
    except subprocess.TimeoutExpired:
        quit_at_once = False
    finally:
        proc.kill()
        out = proc.communicate()[0]
    assert "polling" in out
    if way == "daemon":
        assert quit_at_once and proc.returncode == 0, proc.returncode
        assert time.monotonic() - began < 5
    else:
        assert not quit_at_once  # what the daemon thread avoids


def test_in_daemon_thread_answers_and_raises() -> None:
    import asyncio
    import threading

    from tableserver.client import RemoteError, in_daemon_thread

    def who() -> tuple[str, bool]:
        me = threading.current_thread()
        return me.name, me.daemon

    assert asyncio.run(in_daemon_thread(who)) == ("rummy-long-poll", True)

    def refuse() -> None:
        raise RemoteError("the table is closed", 410)

    with pytest.raises(RemoteError, match="closed") as err:
        asyncio.run(in_daemon_thread(refuse))
    assert err.value.status == 410


def test_a_page_opens_its_next_poll_while_it_redraws(api: str) -> None:
    """The page's poll runs in a daemon thread that asks again as soon as it is
    answered: while the kernel's loop redraws the table (here held up for 3 s,
    as on a busy machine), a poll is open, so the service never takes the page
    for gone."""
    import asyncio
    import threading
    import time

    made = create_table(api, {"variant": "three_thirteen", "seats": ["human", "human"], "speed": 0})
    polls: list[float] = []
    redraws: list[tuple[float, float]] = []

    async def page() -> None:
        ana = shared_table(made["code"], "Ana", api=api)
        assert ana._poller is not None and ana._poller.daemon
        ask = ana.game.wait

        def counted(timeout: float = 25) -> bool:
            polls.append(time.monotonic())
            return ask(timeout=timeout)

        ana.game.wait = counted  # type: ignore[method-assign]
        slow = ana.update

        def slow_update() -> None:
            began = time.monotonic()
            time.sleep(3)  # the loop is busy: nothing else runs in the kernel
            slow()
            redraws.append((began, time.monotonic()))

        ana.update = slow_update  # type: ignore[method-assign]
        ben = RemoteGame.join(made["code"], "Ben", api=api)  # news: Ben sits down
        deadline = time.monotonic() + 20
        while len(redraws) < 1 and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        ana.close()
        assert ben.seat != ana.game.seat
        assert ana.table is not None  # the game began: the page drew the table

    thread = threading.Thread(target=asyncio.run, args=(page(),), daemon=True)
    thread.start()
    thread.join(60)
    assert redraws, "the page never redrew"
    _began, ended = redraws[0]
    assert any(t < ended for t in polls), (polls, redraws)  # asked again before it ended
