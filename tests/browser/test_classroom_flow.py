"""The classroom without dead ends, in Chromium: the landing
page's "join a table" box (a bad code, then a good one), the end of a shared
hand (waiting for the teacher, piles off), a closed table (it says so and
stops), the projector's drawn table (and no hand in it), and a closed page that
the teacher sees leave within seconds."""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from rummy.bots import make_bot
from rummy.cards import Card
from tableserver.wire import decode_observation
from tests.browser import harness
from tests.browser.classroom import KEY, table_cards, wait_token

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[harness.Server]:
    data = tmp_path_factory.mktemp("classroom-flow")
    with harness.start_voila(env={"RUMMY_DATA": str(data), "RUMMY_TEACHER_KEY": KEY},
                             extra_args=["--show_tracebacks=True"],
                             apps=["index", "big_table", "three_thirteen"]) as s:
        yield s


def call(server: harness.Server, path: str, body: dict[str, Any] | None = None,
         token: str = KEY) -> dict[str, Any]:
    req = urllib.request.Request(
        server.base + "rummy/api" + path, method="GET" if body is None else "POST",
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Rummy-Teacher-Key": KEY,
                 "X-Rummy-Token": token})
    with urllib.request.urlopen(req, timeout=30) as r:
        return dict(json.loads(r.read()))


def new_page(browser: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = harness.patient(ctx.new_page(), 60_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def done(page: Any, server: harness.Server) -> None:
    assert not harness.page_tracebacks(page)
    assert not page.errors, page.errors
    page.context.close()


def test_the_join_box_on_the_landing_page(browser: Any, server: harness.Server) -> None:
    code = call(server, "/tables", {"teacher_key": KEY, "variant": "big_table",
                                    "seats": ["human", "greedy"], "speed": 1})["code"]
    page = new_page(browser)
    page.goto(harness.app_url(server.base, "index"))
    page.wait_for_selector(".rummy-join-code input", timeout=120_000)
    # a bad code: the learner's words beside the box, which stays to be fixed
    page.locator(".rummy-join-code input").fill("ABCD-EFGH-JKMN")
    page.locator(".rummy-join-name input").fill("Ana")
    page.locator("button.rummy-join-button").click()
    page.wait_for_function("() => /no table with that code/.test("
                           "document.querySelector('.rummy-join-message').innerText)")
    assert "index.ipynb" in page.url
    # a name too long: said on the spot
    page.locator(".rummy-join-code input").fill(code)
    page.locator(".rummy-join-name input").fill("A" * 30)
    page.locator("button.rummy-join-button").click()
    page.wait_for_function("() => /use at most 24/.test("
                           "document.querySelector('.rummy-join-message').innerText)")
    # fixed: the page goes to the table and the learner sits there
    page.locator(".rummy-join-name input").fill("Ana")
    page.locator("button.rummy-join-button").click()
    page.wait_for_url("**/big_table.ipynb?table=*", timeout=60_000)
    page.wait_for_selector(harness.READY, state="visible", timeout=180_000)
    token = wait_token(page, code)
    assert "token" not in page.url and token not in page.url
    assert call(server, f"/tables/{code}/state", token=token)["player"] == 0
    done(page, server)


def play_seat(server: harness.Server, code: str, token: str, until: str,
              limit: float = 90.0) -> None:
    """The learner's moves (a greedy bot's choices) through the API with the
    page's own token, until the table's status is ``until``."""
    bot = make_bot("greedy", seed=5)
    deadline = time.monotonic() + limit
    while True:
        view = call(server, f"/tables/{code}/state", token=token)
        if view["status"] == until:
            return
        assert time.monotonic() < deadline, f"the table did not become {until}"
        if view["status"] == "playing" and view.get("legal_actions"):
            action = bot.choose(decode_observation(view))
            with contextlib.suppress(urllib.error.HTTPError):  # the table moved on meanwhile
                call(server, f"/tables/{code}/act", {"token": token, "action": str(action),
                                                      "version": view["version"]}, token)
        else:
            time.sleep(0.1)


def test_the_end_of_a_shared_hand_and_a_closed_table(browser: Any,
                                                       server: harness.Server) -> None:
    code = call(server, "/tables", {"teacher_key": KEY, "variant": "three_thirteen",
                                    "seats": ["human", "greedy"], "speed": 0})["code"]
    page = new_page(browser)
    page.goto(harness.app_url(server.base, "three_thirteen", table=code, name="Ben"))
    page.wait_for_selector(harness.READY, state="visible", timeout=180_000)
    token = wait_token(page, code)
    # the controls that apply only: no Deal, Undo, Hint, bot speed, how to deal
    for gone in ("button.rummy-deal", "button.rummy-undo", "button.rummy-hint",
                 "button.rummy-do-it", ".rummy-speed"):
        assert not page.locator(gone).first.is_visible(), gone
    assert "press Deal" not in harness.page_text(page)
    play_seat(server, code, token, "paused")
    # the line above the table says so last (the note beside it may say it first)
    page.wait_for_function("() => /waiting for the teacher/.test("
                           "document.querySelector('.rummy-status').innerText)", timeout=30_000)
    # no Next round that leads nowhere (the kernel's messages may still be arriving)
    page.wait_for_function(
        "() => Array.from(document.querySelectorAll('button.rummy-next-round'))"
        ".every(b => b.offsetParent === null)", timeout=10_000)
    stock = page.locator(".rummy-stock button, button.rummy-stock").first
    assert not stock.is_visible() or stock.is_disabled()
    assert "Your turn" not in page.locator(".rummy-status").first.inner_text()
    # the teacher closes the table: the page says so and stops
    call(server, f"/tables/{code}/close", {"teacher_key": KEY})
    page.wait_for_function("() => /teacher closed this table/.test(document.body.innerText)",
                           timeout=60_000)
    page.wait_for_timeout(3000)  # no "trying again" comes after it
    text = harness.page_text(page)
    assert "Lost touch" not in text and "Your turn" not in text
    done(page, server)


def test_the_projector_draws_the_table_and_no_hand(browser: Any,
                                                   server: harness.Server) -> None:
    made = call(server, "/tables", {"teacher_key": KEY, "variant": "big_table",
                                    "seats": ["human", "greedy", "greedy"], "speed": 5})
    code, watch = made["code"], made["spectator_token"]
    token = call(server, f"/tables/{code}/join", {"name": "Cleo"})["token"]
    # every learner's seat is taken: the table starts by itself
    assert call(server, f"/tables/{code}/state", token=token)["status"] == "playing"
    page = new_page(browser)
    page.goto(harness.app_url(server.base, "classroom", table=code) + f"#watch={watch}")
    page.wait_for_selector(".rummy-projector-felt", timeout=120_000)
    assert page.locator(".rummy-projector-seat").count() == 3
    shown = page.locator(".rummy-projector .rummy-table-code").first
    assert shown.inner_text().strip() == code
    size = float(shown.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 40, f"the code is {size}px: too small to read across a room"
    # the table moves on while the page is read (a pile's top may be taken): what
    # Cleo held before and after, and was in the open in neither view, is never shown
    before = call(server, f"/tables/{code}/state", token=token)
    text = harness.page_text(page)
    after = call(server, f"/tables/{code}/state", token=token)
    assert "Cleo" in text and "pool: " in text and "points" in text
    assert page.locator(".rummy-projector-call").count() >= 1  # the caller's call, large
    assert page.locator(".rummy-projector svg").count() >= 4  # backs, piles: drawn
    held = set(before["hand"]) & set(after["hand"])
    for card in held - table_cards(before) - table_cards(after):
        assert Card.parse(card).name not in text, f"the projector shows {card}"
    assert KEY not in text and watch not in text
    done(page, server)


def test_the_teacher_sees_a_closed_page_leave_and_the_table_goes_on(browser: Any,
                                                                    server: harness.Server
                                                                    ) -> None:
    """The teacher's page lists a learner whose page closed as
    left within seconds, and a stand-in plays their seat at once instead of the
    Big Table waiting out the 120 s timeout."""
    teacher = new_page(browser)
    teacher.goto(harness.app_url(server.base, "classroom"))
    harness.wait_rendered(teacher, timeout=120_000)
    teacher.wait_for_selector(".rummy-teacher-key input", timeout=60_000)
    teacher.locator(".rummy-teacher-key input").fill(KEY)
    teacher.locator("button.rummy-sign-in").click()
    teacher.wait_for_selector("button.rummy-create-table", timeout=60_000)
    teacher.locator(".rummy-classroom-learners input").fill("1")
    teacher.locator(".rummy-classroom-learners input").press("Enter")
    teacher.locator("button.rummy-create-table").click()
    teacher.wait_for_selector(".rummy-table-code", timeout=30_000)
    code = teacher.locator(".rummy-table-code").inner_text().strip()
    assert call(server, f"/tables/{code}")["table"]["settings"]["timeout"] == 120

    learner = new_page(browser)
    learner.goto(harness.app_url(server.base, "big_table", table=code, name="Dee"))
    learner.wait_for_selector(harness.READY, state="visible", timeout=180_000)
    wait_token(learner, code)
    teacher.wait_for_function(
        "() => Array.from(document.querySelectorAll('.rummy-classroom-seat'))"
        ".some(r => /Dee/.test(r.innerText) && /here/.test(r.innerText))", timeout=30_000)
    assert not call(server, f"/tables/{code}")["table"]["seats"][0]["left"]

    learner.close(run_before_unload=True)  # Voilà's page shuts its kernel down
    learner.context.close()
    closed = time.monotonic()
    teacher.wait_for_function(
        "() => Array.from(document.querySelectorAll('.rummy-classroom-seat'))"
        ".some(r => /Dee/.test(r.innerText) && /left/.test(r.innerText))", timeout=60_000)
    # the kernel's long poll (in a daemon thread) is cut off as it shuts down: then 5 s.
    # Closed just as a poll was answered, a page never asks again: then the grace after
    # an answered poll (QUIET_AFTER, 15 s)
    seen = time.monotonic() - closed
    print(f"the teacher saw the page leave after {seen:.1f} s")
    assert seen < 45, f"the teacher saw the page leave after {seen:.1f} s"
    # the table goes on: a stand-in plays for Dee long before the 120 s timeout
    teacher.wait_for_function(
        "() => Array.from(document.querySelectorAll('.rummy-classroom-seat'))"
        ".some(r => /Dee/.test(r.innerText) && /a bot plays for them/.test(r.innerText))",
        timeout=60_000)
    assert time.monotonic() - closed < 110  # the timeout is 120 s
    done(teacher, server)
