"""Every app checked with axe-core, before and during play, at desktop and
phone size, and played from the keyboard.

axe-core is injected into each page from ``node_modules/`` (``tests/browser/axe.py``);
a serious or critical violation fails the test, and so do the moderate ones
that matter to a learner with a screen reader (headings, landmarks, empty
table headers).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from rummy import Card
from tests.browser import harness
from tests.browser.axe import assert_accessible
from tests.browser.harness import Watch
from tests.browser.pages import HAND

pytestmark = pytest.mark.browser


def open_page(page: Any, voila: harness.Server, app: str, ready: str, **query: Any) -> Watch:
    watch = Watch(page)
    page.goto(harness.app_url(voila.base, app, **query))
    harness.wait_rendered(page, 120_000)
    page.wait_for_selector(ready, state="visible", timeout=90_000)
    watch.settle()
    return watch


def focused(page: Any) -> str:
    """The focused element: its tag and classes ("BODY" when focus was lost)."""
    return str(page.evaluate(
        "() => { const e = document.activeElement; return e ? e.tagName + ' ' + "
        "(e.className || '') : ''; }"))


# -- what each app does "during play" ------------------------------------------------


def _first_enabled(page: Any, selector: str) -> str | None:
    found = page.locator(f"{selector}:enabled")
    return selector if found.count() else None


def play_three_thirteen(watch: Watch) -> None:
    watch.click("button.rummy-stock")
    watch.click(f"{HAND} >> nth=0")
    watch.page.wait_for_selector(f"{HAND}.rummy-card-selected")
    assert_accessible(watch.page, "three_thirteen, a card selected")
    watch.click("button.rummy-hint")
    watch.page.wait_for_function(
        "() => document.querySelector('.rummy-hint-text').innerText.trim().length > 0")
    assert_accessible(watch.page, "three_thirteen, the coach's hint shown")
    watch.click("button.rummy-discard")  # the bots answer; the learner draws next


def play_big_table(watch: Watch) -> None:
    watch.click("button.rummy-pool")
    watch.click(f"{HAND} >> nth=0")
    assert_accessible(watch.page, "big_table, a card selected")
    watch.click("button.rummy-discard")


def play_gin(watch: Watch) -> None:
    page = watch.page
    for sel in ("button.rummy-decline-upcard", "button.rummy-stock", "button.rummy-continue"):
        if _first_enabled(page, sel):
            watch.click(sel)
            break
    if _first_enabled(page, "button.rummy-advisor"):
        watch.click("button.rummy-advisor")


def play_meld_odds(watch: Watch) -> None:
    page = watch.page
    box = page.locator(".rummy-meld-input input")
    box.fill("7h 8h 9h")
    box.press("Enter")
    page.wait_for_function("() => /Yes/.test(document.querySelector('.rummy-meld-result')"
                           ".innerText)")
    ace = page.locator("button.rummy-pick-Ac")
    assert ace.get_attribute("aria-label") == "A♣, add the ace of clubs"
    hand = page.locator(".rummy-odds-hand input")
    hand.fill("Jk Jk Jk Jk")
    hand.press("Enter")
    page.wait_for_function("() => Array.from(document.querySelectorAll("
                           "'.rummy-odds-explorer .rummy-message')).some(e => /joker/i.test(e.innerText))")
    assert_accessible(page, "meld_odds, after a bad hand")
    hand.fill("7h 8h Kc 2d")
    hand.press("Enter")
    page.wait_for_selector(".rummy-odds-table table")


def play_progress(watch: Watch) -> None:
    """A new learner names themselves (the browser keeps their key), then the map with
    nothing kept yet: every event, the recovery code and its QR, then the name box."""
    watch.page.locator(".rummy-who-asking .rummy-learner-input input").fill("Ana")
    watch.click("button.rummy-learner-ok")
    watch.page.wait_for_selector(".rummy-learner-name[data-learner='Ana']")
    watch.click("button.rummy-progress-show")
    watch.page.wait_for_selector(".rummy-progress-events p")
    watch.click("button.rummy-progress-code")
    watch.page.wait_for_selector(".rummy-recovery-qr svg")
    watch.click("button.rummy-learner-change")
    watch.page.wait_for_selector(".rummy-who-asking .rummy-learner-input input")


APPS: list[tuple[str, dict[str, Any], str, Callable[[Watch], None] | None]] = [
    ("index", {}, "h1", None),
    ("three_thirteen", {"players": 2}, harness.READY, play_three_thirteen),
    ("three_thirteen", {"variant": "three_thirteen_jokers", "jokers": 2}, harness.READY,
     play_three_thirteen),
    ("big_table", {"players": 6}, harness.READY, play_big_table),
    ("gin_three", {}, harness.READY, play_gin),
    ("meld_odds", {}, ".rummy-odds-explorer", play_meld_odds),
    ("progress", {}, ".rummy-progress-map", play_progress),
]


@pytest.mark.parametrize("app, query, ready, play", APPS,
                         ids=["index", "three_thirteen", "jokers", "big_table", "gin_three",
                              "meld_odds", "progress"])
def test_axe_finds_nothing_serious_before_and_during_play(page, voila, app, query, ready,
                                                          play) -> None:
    watch = open_page(page, voila, app, ready, seed=3, speed=0, **query)
    title = page.title()
    assert title and not title.endswith(".ipynb") and "Rummy" in title, title
    assert_accessible(page, f"{app} before play")
    if play is not None:
        play(watch)
        watch.settle()
        assert_accessible(page, f"{app} during play")


def test_axe_check_can_fail(page, voila) -> None:
    """A control without a name on the page is caught."""
    open_page(page, voila, "index", "h1")
    page.evaluate("() => { const b = document.createElement('button'); "
                  "document.querySelector('#rendered_cells').append(b); }")
    with pytest.raises(AssertionError, match="button-name"):
        assert_accessible(page, "index with a nameless button")


# -- names, states, the live region, focus ------------------------------------------------


def test_cards_and_piles_have_real_names_and_the_selection_is_pressed(page, voila) -> None:
    watch = open_page(page, voila, "three_thirteen", harness.READY, seed=11, speed=0, players=2)
    stock = page.get_by_role("button", name=re.compile(r"^stock, \d+ cards$"))
    assert stock.count() == 1
    assert page.get_by_role("button", name=re.compile(r"^discard pile, .+ on top")).count() == 1
    classes = page.eval_on_selector_all(HAND, "els => els.map(e => Array.from(e.classList))")
    held = [Card.parse(c[11:]) for cl in classes for c in cl
            if re.fullmatch(r"rummy-card-\w\w", c)]
    assert len(held) == 3
    for card in held:  # round 1: threes are wild (TT-2)
        name = card.name + (" (wild)" if card.rank == 3 else "")
        assert page.get_by_role("button", name=name, exact=True).count() >= 1, name
    assert page.locator(f"{HAND}[aria-pressed='true']").count() == 0
    watch.click(f"{HAND} >> nth=1")
    page.wait_for_selector(f"{HAND}[aria-pressed='true']")
    assert page.locator(f"{HAND}[aria-pressed='true']").count() == 1
    assert page.locator(f"{HAND}.rummy-card-selected[aria-pressed='true']").count() == 1
    live = page.locator(".rummy-announce")
    assert live.get_attribute("aria-live") == "polite" and live.get_attribute("role") == "status"
    assert "Your turn" in live.text_content()
    assert page.locator(".rummy-status").get_attribute("aria-live") is None  # not re-read
    log = page.locator(".rummy-log")
    assert log.get_attribute("tabindex") == "0"


def test_keyboard_play_keeps_focus_on_the_table(page, voila) -> None:
    watch = open_page(page, voila, "three_thirteen", harness.READY, seed=11, speed=0, players=2)
    page.locator("button.rummy-stock").focus()
    watch.press("Enter")  # draw from the stock: the stock button is now disabled
    page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 4")
    page.wait_for_timeout(300)
    assert "rummy-card" in focused(page) or "rummy-" in focused(page), focused(page)
    assert not focused(page).startswith("BODY")
    page.locator(f"{HAND} >> nth=0").focus()
    watch.press("Enter")  # select
    page.wait_for_selector(f"{HAND}[aria-pressed='true']")
    page.locator("button.rummy-discard-pile").focus()
    watch.press("Enter")  # throw it on the pile; the bot plays; the learner draws next
    page.wait_for_function(f"() => document.querySelectorAll('{HAND}').length === 3")
    page.wait_for_timeout(300)
    where = focused(page)
    assert not where.startswith("BODY"), "focus fell back to the page body"
    assert "rummy-" in where, where


# -- phone size ------------------------------------------------------------------------


OVERFLOW_JS = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  const scrolls = (e) => {  // in the Big Table's row of seats, which scrolls sideways (and fits)
    const ring = e.closest('.rummy-ring');
    return !!ring && ring !== e && getComputedStyle(ring).overflowX === 'auto'
      && ring.getBoundingClientRect().right <= w + 1;
  };
  if (document.documentElement.scrollWidth > w + 1) out.push('the page scrolls sideways');
  for (const e of document.querySelectorAll('#rendered_cells *')) {
    if (scrolls(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > w + 1 && getComputedStyle(e).visibility !== 'hidden')
      out.push(e.tagName + '.' + String(e.className).slice(0, 60) + ' ' + Math.round(r.right));
  }
  return out.slice(0, 8);
}"""


@pytest.mark.parametrize("app, query, ready", [
    ("three_thirteen", {"players": 3}, harness.READY),
    ("big_table", {"players": 6}, harness.READY),
    ("gin_three", {}, harness.READY),
    ("meld_odds", {}, ".rummy-odds-explorer"),
    ("index", {}, "h1"),
])
def test_phone_layout_fits_and_puts_the_table_first(browser, voila, app, query, ready) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = harness.patient(context.new_page())
    try:
        open_page(page, voila, app, ready, seed=3, speed=0, **query)
        page.wait_for_timeout(500)
        wide = page.evaluate(OVERFLOW_JS)
        assert not wide, f"{app} is wider than a 390 px phone: {wide}"
        if ready == harness.READY:
            table = page.locator(".rummy-table").first.bounding_box()
            how = page.locator(".rummy-drawer").first.bounding_box()
            assert table and how and table["y"] < how["y"], "the instructions come first"
            assert page.locator(".rummy-drawer").get_by_text("How to play").count() == 1
        assert_accessible(page, f"{app} on a phone")
    finally:
        context.close()
