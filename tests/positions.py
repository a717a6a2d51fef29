"""Game positions for the tests, set up by hand or dealt afresh.

A helper module of the tests (not a test module; ``tests/test_positions.py``
tests it):

- :func:`position` (Gin) puts chosen cards in the box's and the captain's
  hands, on the discard pile and on top of the stock; every other card goes
  into the stock below them, so that every card of the pack is still in
  exactly one place (:func:`where` checks it);
- :func:`hidden_swap` (Three-Thirteen) deals afresh every card a player
  cannot know, for the checks that a bot reads only its observation.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from rummy import cards, new_game
from rummy.cards import Card, deck
from rummy.search.onepack import bit
from rummy.table import Stock


def position(box: str, captain: str, discard: str = "", stock_top: str = "", *,
             turn: str = "captain", phase: str = "discard", stock_size: int | None = None,
             seed: int = 1, just_taken: str | None = None, **options):
    """A game whose current hand is set up as given (seats: box 0, captain 1,
    advisor 2).  ``stock_top`` lists the next stock cards, first drawn first."""
    g = new_game("gin_three", players=["Box", "Cap", "Adv"], seed=seed, **options)
    g.box, g.captain, g.advisor = 0, 1, 2
    hb, hc, pile, top = cards(box), cards(captain), cards(discard), cards(stock_top)
    used = [*hb, *hc, *pile, *top]
    assert len(set(used)) == len(used), "a card is placed twice"
    rest = [c for c in deck() if c not in set(used)]
    if stock_size is not None:
        # the unused cards beyond stock_size go under the discard pile
        keep = stock_size - len(top)
        pile = tuple(rest[keep:]) + pile
        rest = rest[:keep]
    g.hands = {0: sorted(hb, key=bit), 1: sorted(hc, key=bit)}  # the engine keeps them in order
    g.taken = {0: [], 1: []}
    g.discards = list(pile)
    g.stock = Stock(rest + list(reversed(top)))  # the top of the stock is the end
    g.turn = {"box": 0, "captain": 1}[turn]
    g.phase = phase
    g.just_taken = Card.parse(just_taken) if just_taken else None
    g._stock_only = False
    g._upcard_offers = 0
    g._version += 1
    g._legal_cache = None
    return g


def where(g) -> dict[Card, str]:
    """Every card's place; asserts each card of the pack is in exactly one."""
    places: dict[Card, str] = {}
    groups = {"stock": g.stock.cards, "discard": g.discards}
    for seat, hand in g.hands.items():
        groups[f"hand{seat}"] = hand
    if g._knock is not None:  # cards laid off onto the knocker's melds
        groups["laid off"] = [c for c, _ in g._knock.layoffs]
    for name, group in groups.items():
        for c in group:
            assert c not in places, f"{c} is in {places[c]} and {name}"
            places[c] = name
    assert set(places) == set(deck()), "cards are missing"
    return places


def texts(actions) -> list[str]:
    """The actions as the engine writes them (``"discard 5s"`` ...)."""
    return [str(a) for a in actions]


def hidden_swap(g: Any, p: int, rnd: random.Random) -> Any:
    """A copy of the Three-Thirteen game ``g`` in which every card that ``p``
    can't know (the stock and the other players' cards not seen taken from
    the pile) is dealt afresh."""
    h = g.copy()
    pool = list(h.stock.cards)
    slots = []
    for q, hand in enumerate(h.hands):
        if q == p:
            continue
        known = Counter(h.known[q])
        for i, c in enumerate(hand):
            if known[c]:
                known[c] -= 1
            else:
                slots.append((q, i))
                pool.append(c)
    rnd.shuffle(pool)
    h.stock.cards = pool[: len(h.stock.cards)]
    for (q, i), c in zip(slots, pool[len(h.stock.cards):]):
        h.hands[q][i] = c
    h._out_cache = None
    return h

