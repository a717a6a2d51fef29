"""The chance of going out within a number of draws from the stock, exact or simulated.

"What is my chance of going out within 3 draws?": :func:`going_out_chance`
draws the unseen cards in every order (a Fraction) or samples them (with a 95%
interval), and after each draw plays the solver's best discard.  The coach's
*Show my chances* and lesson 6 ask it.

>>> going_out_chance("7h 8h Kc", "three_thirteen", round=1, players=2, draws=2).probability
Fraction(93, 392)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from rummy.cards import Card, as_cards, deck
from rummy.probability.dealt import Odds, OddsError, shoe_for
from rummy.search import all_melded, best_discard
from rummy.variants import find_variant

__all__ = ["going_out_chance"]


def _after_draw(hand: list[Card], rules: Any, limit: int) -> tuple[bool, list[Card]]:
    """(done?, the hand kept): with one card too many, can the best discard leave
    at most ``limit`` points, and if not, which cards does it keep."""
    if limit == 0 and all_melded(hand, rules, discard=True):
        return True, hand
    choice = best_discard(hand, rules)
    if choice.penalty <= limit:
        return True, hand
    kept = list(hand)
    kept.remove(choice.card)
    return False, kept


def _unseen(shoe: Any, hand: Sequence[Card], seen: Sequence[Card]) -> list[Card]:
    """The cards of the shoe not in ``hand`` nor ``seen``, in order."""
    left = Counter(deck(packs=shoe.packs, jokers=shoe.jokers))
    for card in (*hand, *seen):
        if left[card] <= 0:
            raise OddsError(f"{card} is given more often than the shoe of {shoe.packs} pack(s)"
                             + (f" and {shoe.jokers} jokers" if shoe.jokers else "") + " holds")
        left[card] -= 1
    return sorted(left.elements())


def going_out_chance(hand: Any, variant: str = "three_thirteen", round: int | None = None, *,
                     draws: int = 3, seen: Any = (), players: int | None = None,
                     limit: int = 0, method: str = "auto", samples: int = 4000, seed: int = 0,
                     exact_limit: int = 30_000, **options: Any) -> Any:
    """The chance that ``hand`` can go out within ``draws`` draws from the stock.

    The model, said plainly: you draw the top card of the stock each turn
    (the stock is a random order of the cards you haven't seen; cards the
    others take are unseen cards too, so this changes nothing); after each
    draw, if every card but one can be melded you go out (TT-6; a Big Table
    match, BT-4), otherwise you throw the best discard (the solver's). With
    ``limit`` > 0 "going out" means leaving at most ``limit`` points, e.g.
    a Gin knock (``limit=10``, G-6).  A hand with one card too many (you
    have drawn already) first throws its best discard.

    ``method``: ``"exact"`` (every order of draws, as a Fraction), ``"monte
    carlo"`` (``samples`` random stocks with ``seed``, a 95% interval), or
    ``"auto"``: exact when at most ``exact_limit`` draw sequences (counting
    identical cards once), else Monte Carlo.  Returns the kit's ``Odds``.

    >>> o = going_out_chance("7h 8h Kc", "three_thirteen", round=1, players=2, draws=1)
    >>> o.probability  # 6h, 9h and the four threes: 6 of 49 unseen cards
    Fraction(6, 49)
    >>> going_out_chance("7h 8h Kc", round=1, players=2, draws=1, method="monte carlo",
    ...                  samples=2000).contains(Fraction(6, 49))
    True
    """
    v = find_variant(variant)
    if not isinstance(draws, int) or draws < 1:
        raise OddsError(f"draws must be a whole number of at least 1, not {draws!r}")
    if method not in ("auto", "exact", "monte carlo"):
        raise OddsError(f"method must be 'auto', 'exact' or 'monte carlo', not {method!r}")
    number = (round or 1) if v.rounds else 1
    shoe = shoe_for(v, number, players=players, **options)
    rules = shoe.rules
    cards_ = list(as_cards(hand))
    seen_ = list(as_cards(seen)) if seen else []
    unseen = _unseen(shoe, cards_, seen_)
    size = v.hand_size(number)
    if len(cards_) == size + 1:
        done, cards_ = _after_draw(cards_, rules, limit)
        if done:
            return Odds.exact(Fraction(1))
    elif len(cards_) != size:
        raise OddsError(f"a hand of this deal has {size} cards ({size + 1} after drawing), "
                        f"not {len(cards_)}")
    draws = min(draws, len(unseen))
    distinct = len(set(unseen))
    if method == "exact" or (method == "auto" and distinct ** draws <= exact_limit):
        return Odds.exact(_exact_out(cards_, Counter(unseen), draws, rules, limit, {}))
    rng = random.Random(seed)
    hits = 0
    for _ in range(samples):
        held = list(cards_)
        for card in rng.sample(unseen, draws):
            done, held = _after_draw(held + [card], rules, limit)
            if done:
                hits += 1
                break
    return Odds.estimate(hits, samples)


def _exact_out(hand: list[Card], left: Counter[Card], draws: int, rules: Any, limit: int,
               memo: dict[Any, Fraction]) -> Fraction:
    """The exact chance of going out within ``draws`` draws from ``left`` (memoised)."""
    key = (tuple(sorted(hand, key=lambda c: c.index)), tuple(sorted(left.items(),
                                                                    key=lambda kv: kv[0].index)),
           draws)
    if key in memo:
        return memo[key]
    total = sum(left.values())
    p = Fraction(0)
    for card, count in left.items():
        if count <= 0:
            continue
        done, kept = _after_draw(hand + [card], rules, limit)
        if done:
            p += Fraction(count, total)
        elif draws > 1:
            left[card] -= 1
            p += Fraction(count, total) * _exact_out(kept, left, draws - 1, rules, limit, memo)
            left[card] += 1
    memo[key] = p
    return p
