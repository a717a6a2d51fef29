"""Outs: the unseen cards that complete or improve a hand, and the chance of
drawing one.

An *out* is a card that, drawn into the hand, feeds a meld: after the best
discard (the lowest penalty, M-7) fewer cards are left unmelded than now.
It *completes* the hand when none is left: the player can go out (TT-6).
A card that only swaps a high unmelded card for a lower one is not an out.  Copies are
counted across packs, minus the cards in the hand and the cards seen (the
discard pile, melds laid down); jokers and wild-rank cards are outs too.

The chance of drawing at least one of ``o`` outs in ``k`` draws from ``U``
unseen cards is hypergeometric: ``1 - C(U-o, k) / C(U, k)``.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rummy.cards import JOKER, SUITS, Card, as_cards, format_cards
from rummy.melds import MeldRules
from rummy.probability.dealt import OddsError, shoe_for
from rummy.search import best_arrangement, best_discard
from rummy.variants import find_variant

__all__ = ["Outs", "outs", "p_at_least_one", "draw_formula", "chance_opponent_first"]


#: The columns of :attr:`Outs.table`.
_COLUMNS = ("card", "copies", "meld", "wild", "completes", "penalty", "discard")


@dataclass(frozen=True, eq=False)
class Outs:
    """The outs of a hand.

    ``rows``: one dict per card that would help (keys ``card``, ``copies``
    unseen, ``meld`` it feeds, ``wild``, ``completes``, ``penalty`` after the
    best discard, ``discard``), best first; ``table`` the same as a pandas
    DataFrame; ``count``: unseen copies of all outs; ``unseen``: cards neither
    in the hand nor seen; ``penalty``: the hand's penalty now.  Only ``table``
    and ``by_meld`` need pandas (:meth:`melds` is ``by_meld`` without it).

    >>> o = outs("7h 8h Kc", round=1, players=2)        # threes wild
    >>> o.count, o.completing, o.unseen, o.p_within(1)  # 6h 9h 3c 3d 3h 3s
    (6, 6, 49, Fraction(6, 49))
    >>> print(o)
    7h 8h Kc: penalty 25; 6 outs among 49 unseen cards
      7h 8h + wild: 3c 3d 3h 3s (4 cards) (goes out)
      6h 7h 8h: 6h (1 card) (goes out)
      7h 8h 9h: 9h (1 card) (goes out)
    """

    hand: tuple[Card, ...]
    rules: MeldRules
    penalty: int
    unseen: int
    rows: tuple[dict[str, Any], ...] = field(repr=False)

    @property
    def table(self) -> Any:
        """:attr:`rows` as a pandas DataFrame (one row per out, best first)."""
        import pandas as pd

        return pd.DataFrame(list(self.rows), columns=list(_COLUMNS))

    @property
    def count(self) -> int:
        """Unseen copies of every card that completes or improves the hand."""
        return sum(int(r["copies"]) for r in self.rows)

    @property
    def completing(self) -> int:
        """Unseen copies of the cards that complete the hand (go out)."""
        return sum(int(r["copies"]) for r in self.rows if r["completes"])

    def melds(self) -> list[tuple[str, str, int, bool]]:
        """The outs grouped by the meld they feed, without pandas: ``(meld, cards,
        copies, completes)`` in the order of :attr:`rows`.

        >>> outs("7h 8h Kc", round=1, players=2).melds()[1]
        ('6h 7h 8h', '6h', 1, True)
        """
        groups: dict[str, list[Any]] = {}
        for r in self.rows:
            g = groups.setdefault(r["meld"], [[], 0, False])
            g[0].append(r["card"])
            g[1] += int(r["copies"])
            g[2] = g[2] or bool(r["completes"])
        return [(m, " ".join(cs), n, done) for m, (cs, n, done) in groups.items()]

    @property
    def by_meld(self) -> Any:
        """The outs grouped by the meld they feed: cards and copies (a DataFrame)."""
        import pandas as pd

        groups = self.melds()
        frame = pd.DataFrame([g[1:] for g in groups], columns=["cards", "copies", "completes"],
                             index=pd.Index([g[0] for g in groups], name="meld"))
        return frame.astype({"copies": "int64", "completes": "bool"})

    def p_within(self, draws: int, completing: bool = False) -> Fraction:
        """Chance of drawing at least one out (or one completing card) in
        ``draws`` draws from the unseen cards."""
        o = self.completing if completing else self.count
        return p_at_least_one(o, self.unseen, draws)

    def __str__(self) -> str:
        lines = [f"{format_cards(self.hand)}: penalty {self.penalty}; "
                 f"{self.count} outs among {self.unseen} unseen cards"]
        for meld, cards_, n, completes in self.melds():
            tag = " (goes out)" if completes else ""
            lines.append(f"  {meld}: {cards_} ({n} card{'s' if n != 1 else ''}){tag}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        head = html.escape(str(self).splitlines()[0])
        return f"<p>{head}</p>" + self.by_meld.to_html()


def outs(hand: Any, variant: str = "three_thirteen", round: int | None = None,
         seen: Any = (), **options: Any) -> Outs:
    """The unseen cards that would complete or improve ``hand`` (feed a meld).

    ``round`` defaults to the round whose deal is the hand's size; ``seen``
    are cards out of play that you know of; ``options``: ``players``,
    ``packs``, ``jokers``, ``aces`` (they decide the shoe, TT-11).

    >>> o = outs("7h 8h Kc 2d", "three_thirteen", round=2, players=2)
    >>> o.penalty, o.unseen, o.count, o.completing
    (27, 48, 6, 0)
    >>> o.by_meld
                         cards  copies  completes
    meld
    ...
    """
    known = {"players", "packs", "jokers", "aces"}
    bad = set(options) - known
    if bad:
        raise OddsError(f"unknown option(s) {', '.join(sorted(bad))}; the options are: "
                        + ", ".join(sorted(known)))
    v = find_variant(variant)
    h = as_cards(hand)
    if not h:
        raise OddsError("the hand is empty; give the cards you hold, e.g. '7h 8h Kc 2d'")
    if round is None:
        round = len(h) - v.deal_offset if v.rounds else 1
        if v.rounds and not 1 <= round <= v.rounds:
            raise OddsError(f"a {len(h)}-card hand is no round's deal in {v.name}; "
                            "give round=")
    s = seen if isinstance(seen, tuple) and all(isinstance(c, Card) for c in seen) else \
        as_cards(seen)
    shoe = shoe_for(v, round, **options)
    rules = shoe.rules
    used = Counter(h + s)
    for c, n in used.items():
        have = shoe.jokers if c.is_joker else shoe.packs
        if c.is_joker and not have:
            raise OddsError(f"this {v.name} shoe has no jokers, so Jk can't be in the hand "
                            "or among the seen cards")
        if n > have:
            where = f"{shoe.packs} pack(s)" + (f" and {shoe.jokers} jokers" if shoe.jokers else "")
            raise OddsError(f"{c} is given {n} times (hand and seen), but the shoe of {where} "
                            f"has only {have}")
    unseen = shoe.size - len(h) - len(s)
    now = best_arrangement(h, rules)
    rows = []
    types = [Card(r, su) for su in SUITS for r in range(1, 14)]
    if shoe.jokers:
        types.append(JOKER)
    for c in types:
        copies = (shoe.jokers if c.is_joker else shoe.packs) - used[c]
        if copies <= 0:
            continue
        d = best_discard(h + (c,), rules)
        after = d.arrangement
        if len(after.deadwood) >= len(now.deadwood):
            continue  # no closer to going out (at best a lower card swapped in)
        meld = next((m for m in after.melds if c in m.cards), None)
        if meld is None:  # the drawn card itself feeds no meld
            continue
        if rules.is_wild(c):
            label = " ".join(str(x) for x in meld.cards if not rules.is_wild(x)) + " + wild"
        else:
            label = str(meld)
        rows.append({
            "card": str(c),
            "copies": copies,
            "meld": label.strip(),
            "wild": rules.is_wild(c),
            "completes": after.is_complete,
            "penalty": after.penalty,
            "discard": str(d.card),
        })
    # completing cards first, then the lowest penalty after, then by card (stable)
    rows.sort(key=lambda r: (not r["completes"], r["penalty"], r["card"]))
    return Outs(h, rules, now.penalty, unseen, tuple(rows))


def _check_counts(outs: int, unseen: int, draws: int) -> None:
    for name, v in (("outs", outs), ("unseen", unseen), ("draws", draws)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise OddsError(f"{name} must be a whole number >= 0, not {v!r}")
    if outs > unseen:
        raise OddsError(f"outs ({outs}) cannot exceed the unseen cards ({unseen})")
    if draws > unseen:
        raise OddsError(f"draws ({draws}) cannot exceed the unseen cards ({unseen})")


def p_at_least_one(outs: int, unseen: int, draws: int) -> Fraction:
    """The chance of drawing at least one of ``outs`` cards in ``draws`` draws
    from ``unseen`` cards: ``1 - C(U-o, k) / C(U, k)`` (hypergeometric).

    >>> p_at_least_one(outs=2, unseen=4, draws=2)   # 1 - C(2,2)/C(4,2) = 1 - 1/6
    Fraction(5, 6)
    >>> p_at_least_one(5, 3, 1)
    Traceback (most recent call last):
    ...
    rummy.probability.dealt.OddsError: outs (5) cannot exceed the unseen cards (3)
    """
    _check_counts(outs, unseen, draws)
    return 1 - Fraction(math.comb(unseen - outs, draws), math.comb(unseen, draws))


def draw_formula() -> Any:
    """The sympy formula of :func:`p_at_least_one`: ``1 - C(U-o, k)/C(U, k)``
    in the symbols ``U`` (unseen), ``o`` (outs), ``k`` (draws).

    >>> f = draw_formula()
    >>> f
    1 - binomial(U - o, k)/binomial(U, k)
    >>> U, o, k = (next(s for s in f.free_symbols if s.name == n) for n in "Uok")
    >>> f.subs({U: 4, o: 2, k: 2})
    5/6
    >>> import sympy as sp
    >>> sp.simplify(f.subs(k, 1))  # one draw is the simple ratio o/U
    o/U
    """
    import sympy as sp

    U, o, k = sp.symbols("U o k", integer=True, nonnegative=True)
    return 1 - sp.binomial(U - o, k) / sp.binomial(U, k)


def chance_opponent_first(outs: int, unseen: int, draws: int, opponents: int = 1,
                          you_first: bool = True) -> Fraction:
    """The chance that an opponent draws one of your outs from the stock
    before you draw one, within your next ``draws`` draws.

    It matters when everybody draws from one shared stock and a card taken
    by an opponent is gone for you (the Three-Thirteen family, the Big
    Table pool, the gin stock).  The stock is a random order of the unseen
    cards; players draw in turn (you, then ``opponents`` others, or the
    others first when ``you_first`` is False), each taking the top card.
    The chance that *you* get an out first is :func:`p_at_least_one` minus
    the share lost to the opponents drawing before you.

    >>> chance_opponent_first(outs=1, unseen=2, draws=1)   # you draw first
    Fraction(0, 1)
    >>> chance_opponent_first(outs=1, unseen=2, draws=1, you_first=False)
    Fraction(1, 2)
    """
    _check_counts(outs, unseen, 0)
    if not isinstance(opponents, int) or opponents < 1:
        raise OddsError(f"opponents must be a whole number >= 1, not {opponents!r}")
    if draws < 0 or not isinstance(draws, int):
        raise OddsError(f"draws must be a whole number >= 0, not {draws!r}")
    if draws == 0 or outs == 0:
        return Fraction(0)
    cycle = opponents + 1
    mine = 0 if you_first else opponents  # your seat in each cycle of draws
    last = mine + (draws - 1) * cycle  # your last draw's place in the stock
    p = Fraction(0)
    none_yet = Fraction(1)  # no out among the first i cards
    for i in range(min(last, unseen)):
        here = none_yet * Fraction(outs, unseen - i)
        if i % cycle != mine:
            p += here
        none_yet *= Fraction(unseen - outs - i, unseen - i)
        if none_yet == 0:
            break
    return p
