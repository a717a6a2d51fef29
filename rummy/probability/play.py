"""Going out and expected penalty, estimated by playing on against the bots.

From a hand (dealt into a fresh round, everything else shuffled at random)
or from a position (a running Three-Thirteen game, the cards you can't see
re-dealt at random for every sample), the round is played on by bots from
:mod:`rummy.bots`: ``learner`` plays your seat, ``opponents`` the others.
Each sample is one such play-out with its own seed, so a seed fixes the
answer.  The estimate comes with a 95% interval (Wilson for a chance, the
normal interval for a mean).
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

from rummy.cards import Card, as_cards
from rummy.probability.dealt import Z95, Odds, OddsError, progress_bar
from rummy.variants import find_variant

__all__ = ["Estimate", "going_out", "expected_penalty", "position_from_hand"]


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated mean (e.g. penalty points) with its 95% interval.

    >>> e = Estimate.of([0, 4, 4, 0])
    >>> e.value, e.samples, e.method
    (2.0, 4, 'monte carlo')
    >>> [round(x, 2) for x in e.to_json()["interval"]]    # 2 +- 1.96 * 2.309 / 2
    [-0.26, 4.26]
    """

    value: float
    low: float
    high: float
    samples: int
    method: str = "monte carlo"

    @classmethod
    def of(cls, values: list[float] | list[int]) -> Estimate:
        """The mean of ``values`` with mean +- 1.96 standard errors."""
        n = len(values)
        if n == 0:
            raise OddsError("no samples to average")
        mean = sum(values) / n
        var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        return cls(mean, mean - half, mean + half, n)

    def contains(self, x: float) -> bool:
        """True if ``x`` lies in the 95% interval."""
        return self.low <= float(x) <= self.high

    def to_json(self) -> dict[str, Any]:
        """``{"mean": x, "interval": [lo, hi], "samples": n, "method": "monte carlo"}``."""
        return {"mean": self.value, "interval": [self.low, self.high],
                "samples": self.samples, "method": self.method}

    def __str__(self) -> str:
        return (f"{self.value:.3g} (Monte Carlo, 95% interval {self.low:.3g} to "
                f"{self.high:.3g}, {self.samples} samples)")


_OUT_VERBS = ("go out",)


def _family_check(variant: Any) -> None:
    if variant.family != "three_thirteen":
        raise OddsError(
            f"going out is simulated for the Three-Thirteen family (three_thirteen, "
            f"tre_tretton, three_thirteen_jokers), not {variant.name}; for whole games "
            "of any variant use rummy.simulate")


def position_from_hand(hand: Any, variant: Any = "three_thirteen", round: int | None = None, *,
                       players: int | None = None, seen: Any = (), turn_order: int = 0,
                       seed: int | random.Random = 0, **options: Any) -> tuple[Any, int]:
    """A fresh round in which the seat playing ``turn_order``-th (0: first)
    holds ``hand``; ``seen`` cards lie under the first discard; every other
    card is shuffled at random into the other hands, the stock and the
    first discard.  Returns ``(game, seat)``.

    >>> g, seat = position_from_hand("7h 8h 9h Kc", round=2, players=2, seed=1)
    >>> sorted(map(str, g.hands[seat])), g.round, g.current == seat
    (['7h', '8h', '9h', 'Kc'], 2, True)
    """
    from rummy.three_thirteen import Event, ThreeThirteenGame

    v = find_variant(variant)
    _family_check(v)
    h = list(as_cards(hand))
    if round is None:
        round = len(h) - v.deal_offset
        if not 1 <= round <= (v.rounds or 11):
            raise OddsError(f"a {len(h)}-card hand is no round's deal in {v.name}; give round=")
    if len(h) != v.hand_size(round):
        raise OddsError(f"round {round} of {v.name} deals {v.hand_size(round)} cards; "
                        f"this hand has {len(h)}")
    n = players if players is not None else v.default_players
    if not isinstance(turn_order, int) or not 0 <= turn_order < n:
        raise OddsError(f"turn_order must be 0 (first to play) to {n - 1} (the dealer), "
                        f"not {turn_order!r}")
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    g = ThreeThirteenGame(v, n, seed=rng.getrandbits(62), **options)
    if round != g.round:
        g._start_round(round)  # the engine deals round 1 first; deal the asked round
    seat = (g.dealer + 1 + turn_order) % g.n
    s = list(as_cards(seen))
    everything = Counter(g.stock.cards) + Counter(g.pile)
    for hh in g.hands:
        everything += Counter(hh)
    want = Counter(h) + Counter(s)
    short = want - everything
    if short:
        card, k = next(iter(short.items()))
        raise OddsError(f"{card} is given {want[card]} times (hand and seen), but the shoe of "
                        f"{g.packs} pack(s) and {g.jokers} jokers has only {everything[card]}")
    rest = list((everything - want).elements())
    rest.sort(key=Card.sort_key)
    rng.shuffle(rest)
    g.hands[seat] = list(h)
    for other in range(g.n):
        if other != seat:
            g.hands[other] = [rest.pop() for _ in range(len(h))]
    top = rest.pop()
    g.pile = s + [top]
    g.stock.cards = rest
    g.events = [Event("turn up", None, top)]
    g._out_cache = None
    g.log.append(f"(Position for a simulation: the first discard is {top}.)")
    g.check_invariants()
    return g, seat


def _redeal_hidden(g: Any, seat: int, rng: random.Random) -> Any:
    """A copy of ``g`` in which the cards ``seat`` can't see (other hands
    except cards known to be there, and the stock) are shuffled at random."""
    g = copy.deepcopy(g)
    hidden: list[Card] = list(g.stock.cards)
    keep: list[list[Card]] = []
    for other in range(g.n):
        known = Counter(g.known[other]) if other != seat else Counter(g.hands[other])
        hand = Counter(g.hands[other])
        fixed = hand & known
        keep.append(list(fixed.elements()))
        if other != seat:
            hidden += list((hand - fixed).elements())
    hidden.sort(key=Card.sort_key)
    rng.shuffle(hidden)
    for other in range(g.n):
        if other != seat:
            need = len(g.hands[other]) - len(keep[other])
            g.hands[other] = keep[other] + [hidden.pop() for _ in range(need)]
    g.stock.cards = hidden
    g.rng = random.Random(rng.getrandbits(62))
    g._out_cache = None
    return g


def _bots(n: int, seat: int, learner: str, opponents: str, rng: random.Random) -> list[Any]:
    from rummy.bots import make_bot

    return [make_bot(learner if i == seat else opponents, seed=rng.getrandbits(32))
            for i in range(n)]


def _play_out(g: Any, seat: int, bots: list[Any], turns: int | None) -> tuple[bool, int]:
    """Play until ``seat`` goes out, has had ``turns`` turns, or the round ends.
    Returns (went out, points the seat would score now)."""
    from rummy.search import penalty

    r = g.round
    done = 0
    while not g.is_over and g.round == r:
        p = g.to_act()[0]
        action = bots[p].choose(g.observe(p))
        g.apply(action, player=p)
        if p != seat or action.verb.startswith("draw"):
            continue
        if action.verb in _OUT_VERBS:
            return True, 0
        done += 1
        if turns is not None and done >= turns:
            if g.round == r and not g.is_over:
                return False, penalty(g.hands[seat], g.rules)
            break
    return False, g.round_scores[-1][seat]


def _samples(hand_or_position: Any, variant: Any, round: int | None, players: int | None,
             seen: Any, turn_order: int, seat: int | None, options: dict[str, Any],
             samples: int, seed: int, learner: str, opponents: str, turns: int | None,
             progress: bool, what: str) -> list[tuple[bool, int]]:
    from rummy.three_thirteen import ThreeThirteenGame

    if not isinstance(samples, int) or samples < 1:
        raise OddsError(f"samples must be a whole number of at least 1, not {samples!r}")
    if turns is not None and (not isinstance(turns, int) or turns < 1):
        raise OddsError(f"the number of turns must be a whole number of at least 1, not {turns!r}")
    rng = random.Random(seed)
    base = None
    if isinstance(hand_or_position, ThreeThirteenGame):
        base = hand_or_position
        if base.is_over:
            raise OddsError("the game is over: there is no position to play on from")
        seat = base.current if seat is None else seat
        if not isinstance(seat, int) or not 0 <= seat < base.n:
            raise OddsError(f"seat must be 0 to {base.n - 1}, not {seat!r}")
    elif hasattr(hand_or_position, "observe") and hasattr(hand_or_position, "variant"):
        _family_check(hand_or_position.variant)
    else:
        find_variant(variant)  # a clear error for an unknown name
    out = []
    with progress_bar(samples, progress, what) as bar:
        for _ in range(samples):
            if base is not None:
                g = _redeal_hidden(base, seat, rng)  # type: ignore[arg-type]
                s = seat
            else:
                g, s = position_from_hand(hand_or_position, variant, round, players=players,
                                          seen=seen, turn_order=turn_order, seed=rng, **options)
            bots = _bots(g.n, s, learner, opponents, rng)  # type: ignore[arg-type]
            out.append(_play_out(g, s, bots, turns))  # type: ignore[arg-type]
            bar.update(1)
    return out


def going_out(hand_or_position: Any, k: int = 1, variant: Any = "three_thirteen",
              round: int | None = None, *, players: int | None = None, seen: Any = (),
              turn_order: int = 0, seat: int | None = None, learner: str = "expert",
              opponents: str = "greedy", samples: int = 1000, seed: int = 0,
              progress: bool = True, **options: Any) -> Odds:
    """The chance of going out within your next ``k`` turns, by simulation.

    ``hand_or_position``: your cards (a fresh round of ``variant`` is dealt
    around them, you playing ``turn_order``-th, 0 = first) or a running
    Three-Thirteen game (you are ``seat``, default the player to act).
    ``learner`` and ``opponents`` name the bots that play (random, greedy,
    expert).  Going out after another player did (TT-7) counts.

    >>> o = going_out("Ac Ad 2h", 1, round=1, players=2, learner="greedy",
    ...               samples=300, progress=False)
    >>> o.method, o.samples, o.low < 13 / 56 < o.high   # 1 - (43/49)(42/48)
    ('monte carlo', 300, True)
    """
    if not isinstance(k, int) or k < 1:
        raise OddsError(f"k (turns) must be a whole number of at least 1, not {k!r}")
    res = _samples(hand_or_position, variant, round, players, seen, turn_order, seat,
                   options, samples, seed, learner, opponents, k, progress,
                   f"going out within {k} turn(s)")
    return Odds.estimate(sum(1 for out, _ in res if out), len(res))


def expected_penalty(hand_or_position: Any, variant: Any = "three_thirteen",
                     round: int | None = None, *, turns: int | None = None,
                     players: int | None = None, seen: Any = (), turn_order: int = 0,
                     seat: int | None = None, learner: str = "expert",
                     opponents: str = "greedy", samples: int = 500, seed: int = 0,
                     progress: bool = True, **options: Any) -> Estimate:
    """The expected penalty you score this round (0 when you go out), by
    playing the round out against the bots; with ``turns``, the penalty your
    hand would score after that many of your turns.

    Arguments as for :func:`going_out`.

    >>> e = expected_penalty("Ac Ad 2h", round=1, turns=1, players=2, learner="greedy",
    ...                      samples=300, progress=False)
    >>> e.low < 4 * 43 / 56 < e.high      # 4 points unless out: 4 * (1 - 13/56)
    True
    """
    res = _samples(hand_or_position, variant, round, players, seen, turn_order, seat,
                   options, samples, seed, learner, opponents, turns, progress,
                   "expected penalty")
    return Estimate.of([pts for _, pts in res])
