"""The table as a learner meets it on a page: the hand and the piles
in the first screen on your turn, the review drawn on the table, the opponents'
moves said in the live region, a focus ring that can be seen, focus back on the
stock when your turn comes, and the lessons through Voilà checked by axe-core."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from tests.browser import harness
from tests.browser.axe import assert_accessible
from tests.browser.harness import Watch

pytestmark = pytest.mark.browser

HAND = ".rummy-hand button.rummy-card"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: the piles a learner draws from, per app
PILES = {"three_thirteen": ("button.rummy-stock", "button.rummy-discard-pile"),
         "big_table": ("button.rummy-pool", "button.rummy-neighbour-pile"),
         "gin_three": ("button.rummy-stock", "button.rummy-discard-pile")}


def _open(browser: Any, voila: harness.Server, app: str, size: dict[str, int],
          **query: Any) -> tuple[Any, Any, Watch]:
    context = browser.new_context(viewport=size, is_mobile=size["width"] < 500,
                                  has_touch=size["width"] < 500)
    page = harness.patient(context.new_page())
    watch = Watch(page)
    page.goto(harness.app_url(voila.base, app, **query))
    page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
    return context, page, watch


# -- the hand in reach -----------------------------------------------------------------


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("app, query", [
    ("three_thirteen", {"players": 4, "seed": 3}),
    ("big_table", {"players": 12, "seed": 3}),
    ("gin_three", {"seed": 6}),  # you are in the box: the upcard is offered to you
], ids=["three_thirteen", "big_table", "gin_three"])
def test_on_your_turn_the_hand_and_the_piles_are_in_the_first_screen(
        browser: Any, voila: harness.Server, app: str, query: dict[str, Any],
        size: dict[str, int]) -> None:
    """Without scrolling, on your turn: every card of the hand and the piles you
    draw from are inside the screen; on a phone with room under the hand's first
    row for a second one (a 13-card hand wraps there)."""
    context, page, watch = _open(browser, voila, app, size, speed=0, **query)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn", timeout=60_000)
        watch.settle()
        assert page.evaluate("() => window.scrollY") == 0
        bottom = size["height"]
        boxes = page.eval_on_selector_all(
            f"{HAND}, {', '.join(PILES[app])}",
            "els => els.map(e => { const r = e.getBoundingClientRect(); "
            "return [e.className.match(/rummy-(stock|pool|discard-pile|neighbour-pile|card)\\b/)[0],"
            " r.top, r.bottom, r.width]; })")
        assert boxes
        for what, top, low, width in boxes:
            assert top >= 0 and low <= bottom, f"{what} is off the first screen ({top:.0f}-{low:.0f})"
            assert width >= 36, f"{what} is {width:.0f} px wide"
        hand_top = min(top for what, top, _low, _w in boxes if what == "rummy-card")
        row = max(low - top for what, top, low, _w in boxes if what == "rummy-card")
        if size is PHONE:  # a 13-card hand wraps into two rows on a phone
            assert hand_top + 2 * row + 8 <= bottom, "no room for a second row of cards"
    finally:
        context.close()


# -- the review keeps the table ----------------------------------------------------------


def test_the_review_is_drawn_on_the_table_and_marks_who_went_out(browser: Any,
                                                                 voila: harness.Server) -> None:
    context, page, watch = _open(browser, voila, "three_thirteen", DESKTOP, speed=0, players=2,
                                 seed=5)
    try:
        for _ in range(40):
            if page.locator(".rummy-review").is_visible():
                break
            page.wait_for_function(
                "() => { const r = document.querySelector('.rummy-review'); "
                "const b = document.querySelector('button.rummy-do-it'); "
                "return (r && r.offsetParent !== null) || (b && !b.disabled); }",
                timeout=30_000)
            if page.locator(".rummy-review").is_visible():
                break
            # the button may go off between the look and the click (the bot's
            # turn, the round's end): then look again (a sweep run waited 30 s
            # for a button that the review had switched off for good)
            watch.click_if_enabled("button.rummy-do-it")
        review = page.locator(".rummy-review")
        assert review.is_visible()
        assert page.evaluate("() => !!document.querySelector('.rummy-review')"
                             ".closest('.rummy-felt')"), "the review is not on the felt"
        tags = page.locator(".rummy-review .rummy-out-tag").all_inner_texts()
        assert tags == ["went out"], tags
        assert not page.locator("button.rummy-undo").is_disabled()  # the last discard
        assert page.locator(".rummy-score-strip").is_visible()
        assert page.locator(".rummy-hand").is_hidden()  # the next deal waits
        watch.click("button.rummy-next-round")
        page.wait_for_selector(HAND, state="visible")
        assert not page.locator("button.rummy-undo").is_disabled()
    finally:
        context.close()


# -- taps ---------------------------------------------------------------------------------


def _hand_size(page: Any) -> int:
    return int(page.evaluate(f"() => document.querySelectorAll('{HAND}').length"))


def test_a_second_tap_lets_the_card_go_and_the_discard_pile_throws_it(
        browser: Any, voila: harness.Server) -> None:
    """On a phone: a tap chooses a card (lifted, pressed), a second tap lets it go
    and throws nothing; with a card chosen, a tap on the discard pile throws it;
    Undo takes that discard back."""
    context, page, watch = _open(browser, voila, "three_thirteen", PHONE, speed=0, players=2,
                                 seed=11)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.settle()
        page.locator("button.rummy-stock").tap()
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")
        watch.settle()
        card = page.locator(f"{HAND} >> nth=1")
        name = card.get_attribute("title") or ""
        before = card.bounding_box()
        card.tap()
        page.wait_for_selector(f"{HAND}[aria-pressed='true']")
        watch.settle()
        lifted = page.locator(f"{HAND}[aria-pressed='true']").bounding_box()
        assert before and lifted and lifted["y"] <= before["y"] - 8, (before, lifted)
        page.locator(f"{HAND}[aria-pressed='true']").tap()  # a second tap: let go
        watch.settle()
        page.wait_for_function(f"() => !document.querySelector(\"{HAND}[aria-pressed='true']\")")
        assert _hand_size(page) == 4, "a second tap threw the card away"
        page.locator(f"{HAND}[title='{name}']").tap()
        page.wait_for_selector(f"{HAND}[aria-pressed='true']")
        watch.settle()
        page.locator("button.rummy-discard-pile").tap()
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 3")
        watch.settle()
        page.locator("button.rummy-undo").tap()
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")
    finally:
        context.close()


# -- announcements --------------------------------------------------------------------


def test_the_live_region_says_the_opponents_move_in_words(browser: Any,
                                                          voila: harness.Server) -> None:
    """After your discard the bot plays; the live region then names the card it
    threw, in words: the card now on top of the discard pile."""
    context, page, watch = _open(browser, voila, "three_thirteen", DESKTOP, speed=0, players=2,
                                 seed=11)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.click("button.rummy-stock")
        watch.click(f"{HAND} >> nth=0")
        watch.click("button.rummy-discard")
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.settle()
        pile = page.locator("button.rummy-discard-pile").get_attribute("aria-label") or \
            page.locator("button.rummy-discard-pile").inner_text()
        top = re.search(r"discard pile, (.+?) on top", pile)
        assert top, pile
        live = page.locator(".rummy-live").first
        assert live.get_attribute("aria-live") == "polite"
        said = live.evaluate(
            "el => { const c = el.cloneNode(true); "
            "c.querySelectorAll('[aria-hidden=true]').forEach(x => x.remove()); "
            "return c.textContent; }")
        assert re.search(rf"Ana [^.]*discard(?:s|ing) the {re.escape(top[1])}", said), said
        assert not re.search(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs])(?![A-Za-z0-9])", said), said
        # each card of the hand is in the accessibility tree once: its button, not
        # also its picture
        for name in page.locator(HAND).evaluate_all("els => els.map(e => e.innerText || "
                                                    "e.getAttribute('aria-label'))"):
            card = name.split(" (")[0].split(",")[0].strip()
            assert page.get_by_role("button", name=card).count() >= 1, card
            assert page.get_by_role("img", name=re.compile(re.escape(card))).count() == 0, card
        # the log keeps every line, oldest first, and grows at its end
        log = page.locator(".rummy-log").inner_text()
        assert log.index("You draw") < log.rindex("Ana ")
    finally:
        context.close()


#: counts what the page's live regions say: each change of a region's text that
#: leaves words in it is one announcement
COUNT_JS = """() => {
  window.rummySaid = [];
  const live = () => [...document.querySelectorAll('[aria-live=polite], [aria-live=assertive]')]
    .filter(e => e.getAttribute('aria-live') !== 'off');
  const seen = new Map();
  const look = () => live().forEach(e => {
    const t = e.textContent.trim();
    if (t && seen.get(e) !== e.textContent) window.rummySaid.push(t);
    seen.set(e, e.textContent);
  });
  live().forEach(e => seen.set(e, e.textContent));
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true});
}"""


def test_the_live_region_says_each_move_once(browser: Any, voila: harness.Server) -> None:
    """A draw is one announcement; a discard answered by the bot is one more; the
    melds and cards are read as words, never with brackets or dashes."""
    context, page, watch = _open(browser, voila, "three_thirteen", DESKTOP, speed=0, players=2,
                                 seed=11)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.settle()
        page.evaluate(COUNT_JS)
        watch.click("button.rummy-stock")
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")
        watch.settle()
        page.wait_for_timeout(300)
        said = page.evaluate("() => window.rummySaid")
        assert len(said) == 1, said
        assert said[0].startswith("Your turn: discard a card"), said
        watch.click(f"{HAND} >> nth=0")
        watch.click("button.rummy-discard-pile")
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 3")
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.settle()
        page.wait_for_timeout(300)
        said = page.evaluate("() => window.rummySaid")
        assert len(said) == 2, said
        assert said[1].startswith("Ana ") and "Your turn: draw" in said[1], said
        for text in said:
            assert not re.search(r"[\[\]]|\b[2-9TJQKA][cdhs]\b", text), text
    finally:
        context.close()


# -- focus ----------------------------------------------------------------------------------


def _amber(png: bytes) -> list[int]:
    """How many focus-ring pixels (amber) lie in each edge band of a screenshot
    (top, bottom, left, right; bands 7 px deep)."""
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB")
    w, h = img.size
    px = img.load()

    def ring(x: int, y: int) -> bool:
        r, g, b = px[x, y]
        return r > 225 and 150 < g < 205 and b < 70

    band = 7
    return [sum(ring(x, y) for x in range(w) for y in range(band)),
            sum(ring(x, y) for x in range(w) for y in range(h - band, h)),
            sum(ring(x, y) for x in range(band) for y in range(h)),
            sum(ring(x, y) for x in range(w - band, w) for y in range(h))]


def _shot(page: Any, selector: str) -> bytes:
    box = page.locator(selector).first.bounding_box()
    assert box
    return bytes(page.screenshot(clip={"x": box["x"], "y": box["y"], "width": box["width"],
                                       "height": box["height"]}))


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_focus_ring_shows_on_a_card_and_on_the_stock(browser: Any, voila: harness.Server,
                                                         size: dict[str, int]) -> None:
    """Keyboard focus draws a ring that can be seen on all four sides of the
    focused card and of the stock (a ring clipped by the boxes around the
    button would not show in the page's pixels)."""
    context, page, watch = _open(browser, voila, "three_thirteen", size, speed=0, players=2,
                                 seed=11)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        watch.settle()
        # a card that is not wild (no amber star on it) and not selected
        card = f"{HAND}:not(.rummy-card-selected) >> nth=0"
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.wait_for_timeout(200)
        before = _amber(_shot(page, card))
        page.keyboard.press("Tab")  # keyboard modality: :focus-visible
        page.locator(card).focus()
        page.wait_for_timeout(200)
        after = _amber(_shot(page, card))
        assert all(n >= 8 for n in after), (before, after)
        assert sum(after) > 4 * sum(before) + 30, (before, after)
        page.locator("button.rummy-stock").focus()
        page.wait_for_timeout(200)
        stock = _amber(_shot(page, "button.rummy-stock"))
        assert all(n >= 8 for n in stock), stock
    finally:
        context.close()


def test_focus_comes_back_to_the_stock_when_your_turn_comes(browser: Any,
                                                            voila: harness.Server) -> None:
    context, page, watch = _open(browser, voila, "three_thirteen", DESKTOP, speed=0, players=2,
                                 seed=11)
    try:
        page.wait_for_selector(".rummy-status.rummy-your-turn")
        page.locator("button.rummy-stock").focus()
        watch.press("Enter")  # draw
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")
        page.locator(f"{HAND} >> nth=0").focus()
        watch.press("Enter")  # select
        page.wait_for_selector(f"{HAND}[aria-pressed='true']")
        page.locator("button.rummy-discard-pile").focus()
        watch.press("Enter")  # throw it on the discard pile; the bot plays; your turn again
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 3")
        page.wait_for_function("() => document.activeElement && "
                               "document.activeElement.classList.contains('rummy-stock')",
                               timeout=5_000)
    finally:
        context.close()


# -- the jokers variant and the drawer ----------------------------------------------------


def test_the_jokers_variant_deals_its_usual_jokers(page: Any, voila: harness.Server) -> None:
    page.goto(harness.app_url(voila.base, "three_thirteen", variant="three_thirteen_jokers",
                              speed=0, seed=2))
    page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
    assert "and so are jokers" in page.locator(".rummy-wild").inner_text()
    assert page.locator(".rummy-jokers select").input_value() == "2"


def test_how_to_play_and_the_form_are_in_the_drawer_under_the_table(page: Any,
                                                                   voila: harness.Server
                                                                   ) -> None:
    page.goto(harness.app_url(voila.base, "three_thirteen", speed=0, seed=2))
    page.wait_for_selector(harness.READY, state="visible", timeout=120_000)
    drawer = page.locator(".rummy-drawer")
    for title in ("What happened", "Score sheet", "Options", "How to play", "Is it a meld?",
                  "Variant and players"):
        assert drawer.get_by_text(title).count() >= 1, title
    table = page.locator(".rummy-felt").bounding_box()
    below = drawer.bounding_box()
    assert table and below and below["y"] > table["y"] + table["height"] - 1


# -- the lessons through Voilà ------------------------------------------------------------


# Voilà runs every cell of the lesson before the page shows: 5 to 10 s, 95 s once under load
@pytest.mark.timeout(300)
@pytest.mark.parametrize("lesson", ["00_start_here", "02_tre_tretton"])
def test_lessons_through_voila_pass_axe_at_both_sizes(browser: Any, voila: harness.Server,
                                                      lesson: str) -> None:
    """The landing page's links open the lessons in Voilà: no serious or
    critical axe-core finding (card pictures have their alt text), on a
    desktop and on a phone."""
    context = browser.new_context(viewport=DESKTOP)
    page = harness.patient(context.new_page())
    try:
        harness.open_with_new_kernel(page, voila.base + f"voila/render/notebooks/{lesson}.ipynb")
        harness.wait_rendered(page, 300_000)
        page.wait_for_timeout(1500)
        assert page.locator("img:not([alt])").count() == 0
        assert_accessible(page, f"{lesson} through Voilà at 1280x900")
        page.set_viewport_size(PHONE)
        page.wait_for_timeout(800)
        assert_accessible(page, f"{lesson} through Voilà at 390x844")
    finally:
        context.close()


@pytest.mark.parametrize("app", ["three_thirteen", "big_table", "gin_three"])
def test_on_a_phone_the_hand_stays_at_the_bottom_while_the_page_scrolls(
        browser: Any, voila: harness.Server, app: str) -> None:
    """On a phone the learner's seat (the hand and its buttons) is fixed at the
    bottom of the screen wherever the page is scrolled, and the end of the page
    (the drawer under the table) can still be scrolled into view above it."""
    context, page, _watch = _open(browser, voila, app, PHONE, speed=0, seed=3)
    try:
        seat = page.locator(".rummy-my-seat")
        height = PHONE["height"]
        assert page.evaluate("document.scrollingElement.scrollHeight") > height * 1.2
        for y in (0, 500, 100_000):
            page.evaluate(f"window.scrollTo(0, {y})")
            page.wait_for_timeout(150)
            box = seat.bounding_box()
            assert box is not None and box["height"] < height * 0.6, (y, box)
            assert box["y"] >= 0 and abs(height - (box["y"] + box["height"])) < 4, (y, box)
        # scrolled to the end, the last control of the page sits above the seat
        last = page.locator(".rummy-details").last.bounding_box()
        box = seat.bounding_box()
        assert last is not None and box is not None
        assert last["y"] + last["height"] <= box["y"] + 1, (last, box)
        assert_accessible(page, f"{app} at 390x844, scrolled to the end")
    finally:
        context.close()


def test_the_words_button_opens_the_glossary_and_passes_axe(browser: Any,
                                                           voila: harness.Server) -> None:
    """The "Words" button in the table's head opens the game's words on the
    page, by keyboard too, and axe finds nothing serious with it open."""
    context, page, watch = _open(browser, voila, "gin_three", PHONE, speed=0, seed=3)
    try:
        words = page.get_by_role("button", name="Words")
        words.focus()
        page.keyboard.press("Enter")
        glossary = page.locator(".rummy-glossary")
        glossary.wait_for(state="visible", timeout=30_000)
        assert "Knock" in glossary.inner_text() and "Advisor" in glossary.inner_text()
        assert_accessible(page, "gin_three at 390x844, the glossary open")
    finally:
        context.close()


def test_a_card_dragged_onto_the_discard_pile_is_thrown(browser: Any,
                                                        voila: harness.Server) -> None:
    """Dragging a card of the hand onto the discard pile throws it (as a tap on
    the card, then on the pile); a short move is still a tap that chooses it."""
    context, page, watch = _open(browser, voila, "three_thirteen", DESKTOP, speed=0, seed=3,
                                 players=2)
    try:
        watch.settle()
        watch.click("button.rummy-stock")
        watch.settle()
        cards = page.locator(HAND)
        n = cards.count()
        first = cards.first
        name = first.get_attribute("title") or first.inner_text()
        a = first.bounding_box()
        b = page.locator("button.rummy-discard-pile").bounding_box()
        assert a and b
        page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
        page.mouse.down()
        for k in range(1, 9):
            page.mouse.move(a["x"] + (b["x"] - a["x"]) * k / 8 + a["width"] / 2,
                            a["y"] + (b["y"] - a["y"]) * k / 8 + a["height"] / 2)
        page.mouse.up()
        page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === {n - 1}"
                               " || document.querySelector('.rummy-review')?.offsetParent",
                               timeout=30_000)
        watch.settle()
        assert f"You discard {name.split(',')[0]}" in page.locator(".rummy-log").inner_text() \
            or page.locator(HAND).count() == n - 1
    finally:
        context.close()
