"""The apps' pages as a learner meets them, for the browser tests.

A helper module of the browser tests (not a test module):

- :class:`Replica`: the table an app builds, played headless beside the page
  with the same seed and bots, so that a test knows every hand the kernel
  holds; :func:`page_hand` and :func:`wait_hand` compare the page's hand
  with it;
- :func:`mentions` and :data:`EVERYTHING_JS`: every way a page's text names a
  card, for the checks that no hidden card reaches a page;
- :func:`open_app` opens an app and waits for its table; :func:`click_action`
  makes a move with the app's own controls.

>>> from rummy import Card
>>> mentions("you drew the seven of hearts (7♥)", Card.parse("7h"))
['seven of hearts', '7♥']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from rummy import Action, Card
from tests.browser import harness
from tests.browser.harness import Watch

#: A card of the learner's hand on the page.
HAND = ".rummy-hand button.rummy-card"
#: The class that names a card button's card ("rummy-card-7h").
CARD_CLASS = re.compile(r"^rummy-card-(\w\w)$")
#: A card in a log line, in the engine's notation.
LOG_CARD = re.compile(r"(?<![A-Za-z0-9])([2-9TJQKA][cdhs]|Jk)(?![A-Za-z0-9])")

#: JavaScript: everything the page shows or names, for the leak check.
EVERYTHING_JS = """() => {
  const parts = [document.body.innerText];
  for (const t of document.querySelectorAll('svg title')) parts.push(t.textContent);
  for (const e of document.querySelectorAll('[title], [aria-label], [alt]'))
    parts.push(e.getAttribute('title') || '', e.getAttribute('aria-label') || '',
               e.getAttribute('alt') || '');
  for (const e of document.querySelectorAll('[class*="rummy-card-"]'))
    parts.push(e.getAttribute('class'));
  return parts.join('\\n');
}"""


# -- the replica and what the learner may know ---------------------------------------


def mentions(text: str, card: Card) -> list[str]:
    """The ways ``text`` names ``card`` (its name, symbol, CSS class, or its
    two-letter notation as a token; "As" is also an English word, so for the
    ace of spades only the other forms count)."""
    found = []
    if re.search(rf"\b{re.escape(card.name)}\b", text, re.IGNORECASE):
        found.append(card.name)
    if re.search(rf"(?<![\w♥♦♣♠]){re.escape(card.symbol)}(?![\w♥♦♣♠])", text):
        found.append(card.symbol)
    if f"rummy-card-{card}" in text or f"rummy-pick-{card}" in text:
        found.append(f"rummy-card-{card}")
    if str(card) != "As" and re.search(rf"(?<![A-Za-z0-9]){card}(?![A-Za-z0-9])", text):
        found.append(str(card))
    return found


class Replica:
    """The same table the app builds, played headless in this process.

    It lives in a thread of its own: Playwright keeps an asyncio loop running in
    the test's thread, and a table that finds a running loop would start its live
    timers (bot pacing, the Big Table's match window) instead of playing at once.
    """

    def __init__(self, make: Callable[[], Any]) -> None:
        self._thread = ThreadPoolExecutor(max_workers=1)
        self.table = self.run(make)
        self.seen: Counter[Card] = Counter()
        self.look()

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the replica's thread."""
        return self._thread.submit(fn, *args).result()

    def act(self, action: Action) -> None:
        """Make ``action`` at the replica's table."""
        self.run(self.table.act, action)

    def observation(self) -> Any:
        """The learner's observation now."""
        return self.run(self.table.observation)

    @property
    def state(self) -> Any:
        """The engine's whole state (every hand)."""
        return self.table.state

    @property
    def learner(self) -> int:
        """The learner's seat."""
        return int(self.table.learner)

    def hand(self) -> list[Card]:
        """The learner's hand."""
        return list(self.observation().hand)

    def opponents(self) -> list[int]:
        """The seats that hold cards, other than the learner's."""
        s = self.state
        if isinstance(s.hands, dict):  # gin: only the box and the captain hold cards
            return [p for p in s.hands if p != self.learner]
        return [p for p in range(len(s.hands)) if p != self.learner]

    def public(self) -> Iterable[Card]:
        """Cards face up now or shown to everyone (discard piles, cards known
        to be in a hand because they were taken from a pile, laid-down melds)."""
        s = self.state
        for pile in (getattr(s, "piles", None) or [getattr(s, "pile", None) or
                                                   getattr(s, "discards", [])]):
            yield from pile
        for attr in ("known", "taken"):
            value = getattr(s, attr, None) or {}
            for group in (value.values() if isinstance(value, dict) else value):
                yield from group
        for melds in (getattr(s, "shown", None) or {}).values():
            for m in melds:
                yield from m.cards

    def look(self) -> None:
        """Remember what the learner has seen so far: the own hand, public cards,
        and any card the learner's log names (e.g. the cards of Gin's role draw)."""
        obs = self.observation()
        named = [Card.parse(t) for t in LOG_CARD.findall("\n".join(obs.log))]
        for c in list(obs.hand) + list(self.public()) + named:
            self.seen[c] = max(self.seen[c], 1)

    def hidden(self) -> set[Card]:
        """Cards in an opponent's hand that the learner has never seen."""
        self.look()
        out = set()
        for p in self.opponents():
            out |= {c for c in self.state.hands[p] if c not in self.seen}
        return out


def page_hand(page: Any) -> list[str]:
    """The cards of the learner's hand on the page, in the engine's notation, sorted."""
    classes = page.eval_on_selector_all(HAND, "els => els.map(e => Array.from(e.classList))")
    out = []
    for cl in classes:
        out += [m[1] for m in map(CARD_CLASS.match, cl) if m]
    return sorted(out)


def wait_hand(page: Any, replica: Replica, timeout: float = 20_000) -> None:
    """Until the page shows the replica's hand (``timeout`` in ms); else the test fails
    with what the page says."""
    want = sorted(str(c) for c in replica.hand())
    try:
        page.wait_for_function(
            """([sel, want]) => {
                 const got = Array.from(document.querySelectorAll(sel)).map(e =>
                   (Array.from(e.classList).find(c => /^rummy-card-\\w\\w$/.test(c)) || '').slice(11));
                 return JSON.stringify(got.sort()) === JSON.stringify(want);
               }""", arg=[HAND, want], timeout=timeout)
    except Exception:  # noqa: BLE001 - say what differs
        said = [t for t in page.locator(".rummy-status, .rummy-message").all_inner_texts()
                if t.strip()]
        pytest.fail(f"the page's hand {page_hand(page)} is not the replica's {want}; "
                    f"the page says: {said}")


# -- clicking ----------------------------------------------------------------------------


def select(watch: Watch, card: Card) -> None:
    """Select ``card`` in the learner's hand (a click, unless it is selected already)."""
    sel = f"{HAND}.rummy-card-{card}"
    if watch.page.locator(f"{sel}.rummy-card-selected").count() == 0:
        watch.click(sel)
        watch.page.wait_for_selector(f"{sel}.rummy-card-selected")


def click_action(watch: Watch, action: Action) -> None:
    """Make ``action`` the way a learner does, with the app's own controls."""
    verb, card = action.verb, action.card
    simple = {"draw stock": "button.rummy-stock", "draw discard": "button.rummy-discard-pile",
              "take upcard": "button.rummy-take-upcard", "pass": "button.rummy-decline-upcard",
              "draw pool": "button.rummy-pool"}
    if verb in simple:
        watch.click(simple[verb])
    elif verb == "discard":
        assert card is not None
        select(watch, card)
        watch.click("button.rummy-discard")
    elif verb in ("go out", "knock", "gin"):
        assert card is not None
        select(watch, card)
        watch.click({"go out": "button.rummy-go-out", "knock": "button.rummy-knock",
                     "gin": "button.rummy-gin"}[verb])
        watch.click("button.rummy-confirm")
    else:
        raise AssertionError(f"the test has no click for {action}")


def open_app(page: Any, voila: harness.Server, app: str, **query: Any) -> Watch:
    """Open ``app`` with the address settings ``query`` and wait until its table is
    drawn; the returned :class:`Watch` holds what the kernel sends from then on."""
    watch = Watch(page)
    page.goto(harness.app_url(voila.base, app, **query))
    page.wait_for_selector(harness.READY, state="visible", timeout=90_000)
    watch.settle()
    return watch


def refused_with(page: Any, rule_id: str) -> None:
    """Wait for a table's refusal citing ``rule_id``: its words in the message,
    the rule behind its "Why?" (a rule code is not read aloud)."""
    page.wait_for_selector(".rummy-message .rummy-error")
    page.wait_for_function(
        "id => [...document.querySelectorAll('.rummy-message .rummy-why')]"
        ".some(d => d.textContent.includes(id))", arg=rule_id)


def watched_page(context: Any) -> tuple[Any, Watch, list[str]]:
    """A new page of ``context`` (patient: 60 s), a :class:`Watch` of its
    kernel's messages and the list its JavaScript errors go to."""
    page = harness.patient(context.new_page(), 60_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, Watch(page), errors


def wait_named(page: Any, name: str) -> None:
    """Until the page says it learns as ``name``."""
    page.wait_for_selector(f".rummy-learner-name[data-learner='{name}']", timeout=60_000)


def name_when_asked(page: Any, watch: Watch, name: str) -> None:
    """The first judged move asks who is learning: answer ``name``, until the
    page says it learns as them."""
    page.wait_for_selector(".rummy-who-asking .rummy-learner-input input", timeout=60_000)
    page.locator(".rummy-learner-input input").fill(name)
    page.locator(".rummy-learner-input input").press("Enter")
    watch.settle()
    watch.click("button.rummy-learner-ok")
    wait_named(page, name)
